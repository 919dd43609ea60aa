"""The only registry of sample profile formats: sniff, then read.

Detection follows ``SampleProfileReader::create``: binary, extensible
binary, compact binary (releases that still read it), GCC, then text.  Each
format module registers a :class:`SampleFormat` with its ``order`` in that
list, so formats added later (ext-binary, GCC) slot into LLVM's order
whatever the import order.  A format may be limited to some releases
(``readable``), as compact binary is to 16 and older.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from profdata.errors import ProfdataError, UnrecognizedFormatError
from profdata.formats._files import input_bytes
from profdata.formats.sample_reading import SampleReading, apply_reading
from profdata.model.sample import SampleProfile
from profdata.releases import Release, release

SampleReader = Callable[[memoryview, "str | None", Release], SampleProfile]

UNRECOGNIZED = "Unrecognized sample profile encoding format"

#: LLVM's detection order (``SampleProfileReader::create``)
ORDER_BINARY = 10
ORDER_EXT_BINARY = 20
ORDER_COMPACT_BINARY = 30
ORDER_GCC = 40
ORDER_TEXT = 50


def _always(_: Release) -> bool:
    return True


@dataclass(frozen=True)
class SampleFormat:
    name: str
    order: int
    sniff: Callable[[memoryview], bool]
    read: SampleReader
    readable: Callable[[Release], bool] = _always
    #: ``dumpSectionInfo`` (``show --show-sec-info-only``), for formats with sections
    section_info: Callable[[memoryview, str | None, Release], str] | None = None


_REGISTRY: list[SampleFormat] = []


def register(fmt: SampleFormat) -> SampleFormat:
    _REGISTRY.append(fmt)
    _REGISTRY.sort(key=lambda f: f.order)
    return fmt


_loaded = False


def _load() -> None:
    """Import the format modules that register themselves (once)."""
    global _loaded
    if not _loaded:
        _loaded = True
        from profdata.formats import (  # noqa: F401
            sample_binary,
            sample_compact,
            sample_extbinary,
            sample_gcc,
            sample_text,
        )


def sample_formats() -> tuple[SampleFormat, ...]:
    _load()
    return tuple(_REGISTRY)


def detect(view: memoryview, rel: Release, path: str | None = None) -> SampleFormat:
    for fmt in sample_formats():
        if fmt.readable(rel) and fmt.sniff(view):
            return fmt
    raise UnrecognizedFormatError(
        "the first bytes match no binary, extensible binary or GCC sample profile magic, "
        "and the first line is not a 'name:total:head' header",
        path=path,
        llvm_message=UNRECOGNIZED,
    )


def read_sample_bytes(
    data: bytes | bytearray | memoryview,
    path: str | None = None,
    rel: Release | None = None,
    reading: SampleReading | None = None,
) -> SampleProfile:
    """Read a sample profile of any registered format from memory (``reading``: the
    readers' global options, :mod:`~profdata.formats.sample_reading`)."""
    view = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
    chosen = rel or release()
    fmt = detect(view, chosen, path)
    try:
        profile = fmt.read(view, path, chosen)
    except ProfdataError as exc:
        if path:
            exc.with_path(path)
        raise
    if reading is not None:
        apply_reading(profile, reading, chosen)
    return profile


def open_sample(
    path: str | os.PathLike[str],
    rel: Release | None = None,
    reading: SampleReading | None = None,
) -> SampleProfile:
    """Read a sample profile from a file (``-``: standard input)."""
    return read_sample_bytes(input_bytes(path), os.fspath(path), rel, reading)
