"""How llvm-profdata's sample readers are told to read: global options of the tool.

``--profile-isfs`` and ``--fs-discriminator-pass`` (:mod:`~profdata.formats.sample_fs`),
``--profile-symbol-list-cutoff`` (the ext-binary reader keeps the first N
symbols of a profile symbol list, in file order) and
``--profile-summary-contextless`` (whether ``computeSummaryForProfiles`` merges
CS contexts by function first) are ``cl::opt`` globals in LLVM, read by every
reader whichever command runs; here they travel as one :class:`SampleReading`
that every sample read takes, applied to the profile just read
(:func:`apply_reading`).  The writers summarise with the last option too
(``SampleOutputOptions.contextless``).
"""

from __future__ import annotations

from dataclasses import dataclass

from profdata.formats.sample_fs import (
    ALL_BITS,
    ASSUMING_FORMATS,
    LAST_PASS,
    discriminator_mask,
    mask_discriminators,
)
from profdata.model.sample import SampleProfile
from profdata.model.sample_summary import release_summary
from profdata.releases import Release

__all__ = ["AS_STORED", "SampleReading", "apply_reading"]

_ALL_SYMBOLS = (1 << 64) - 1  # ``cl::init(-1)`` of a ``uint64_t``


@dataclass(frozen=True)
class SampleReading:
    """The options as given (their defaults read every profile as its file says)."""

    assume_fs: bool = False  # --profile-isfs
    last_pass: int = LAST_PASS  # --fs-discriminator-pass, an ``FSDiscriminatorPass``
    symbol_cutoff: int = _ALL_SYMBOLS  # --profile-symbol-list-cutoff
    #: --profile-summary-contextless: None unless given (a ``getNumOccurrences`` test)
    contextless: bool | None = None

    @property
    def mask(self) -> int:
        return discriminator_mask(self.last_pass)

    @property
    def changes_nothing(self) -> bool:
        """True when no profile reads otherwise (the column readers may then serve)."""
        return (
            not self.assume_fs
            and self.mask == ALL_BITS
            and self.symbol_cutoff == _ALL_SYMBOLS
            and self.contextless is not False
        )


#: no option given
AS_STORED = SampleReading()


def apply_reading(profile: SampleProfile, reading: SampleReading, release: Release) -> None:
    """What the options change in a profile just read (``profile.format`` says by whom)."""
    if profile.format in ASSUMING_FORMATS:
        profile.is_fs = reading.assume_fs
    masked = profile.is_fs and reading.mask != ALL_BITS
    if masked:
        mask_discriminators(profile, reading.mask)
    # only the text reader summarises what it read; the others read the file's summary
    if profile.format == "text" and (masked or (profile.is_cs and reading.contextless is False)):
        profile.summary = release_summary(profile, release, reading.contextless)
    symbols = profile.symbol_list
    if symbols is not None and len(symbols) > reading.symbol_cutoff:
        profile.symbol_list = symbols[: reading.symbol_cutoff]
