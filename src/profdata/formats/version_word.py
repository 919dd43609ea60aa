"""The version word that raw and indexed headers share: a version in its low bits, the
profile's variant flags in its top byte.

``GET_VERSION`` keeps what ``VARIANT_MASKS_ALL`` does not cover.  Releases
up to 16 cover only the top 8 bits, so a bit set in 32-55 (no flag lives
there before LLVM 22's bit 55) makes another version number, which they
refuse; from 19 the top 32 bits are covered and such a bit is ignored.  The
readers take the selected release's mask (``Release.version_mask``), so a
damaged header is refused or read as that release's llvm-profdata does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from profdata.releases import Release

#: ``GET_VERSION`` of LLVM 19 and later: the low 32 bits (the readers' default)
VERSION_MASK = 0xFFFFFFFF


def version_mask(release: Release | None) -> int:
    """What ``release``'s ``GET_VERSION`` keeps (None: the latest release's)."""
    return VERSION_MASK if release is None else release.version_mask


def stray_version_bits(word: int, mask: int) -> str | None:
    """Why ``word`` names no version under ``mask`` although its low 32 bits do, if they do:
    the detail of the error that a bit between the version and the flags makes."""
    stray = word & mask & ~VERSION_MASK
    if not stray:
        return None
    return (
        f"the version word 0x{word:016x} has bits set between the version "
        f"({word & VERSION_MASK}) and the variant flags (0x{stray:x}), which this release "
        "reads as part of the version"
    )


__all__ = ["VERSION_MASK", "stray_version_bits", "version_mask"]
