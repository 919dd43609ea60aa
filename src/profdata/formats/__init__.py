"""The only registry of instrumentation profile formats.

Detection follows llvm-profdata's order (indexed magic, raw magic, then
printable text), so a file is read the way the real tool would read it.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from profdata.errors import EmptyProfileError, ProfdataError, UnrecognizedFormatError
from profdata.formats._files import input_bytes
from profdata.formats._files import map_file as map_file
from profdata.model.instr import InstrProfile

if TYPE_CHECKING:
    from profdata.releases import Release


class Reader(Protocol):
    """A format's reader: ``release`` is the llvm-profdata release whose reading of
    damaged bytes to mirror where releases differ (None: the latest)."""

    def __call__(
        self, view: memoryview, path: str | None = None, /, *, release: Release | None = None
    ) -> InstrProfile: ...


@dataclass(frozen=True)
class InstrFormat:
    name: str
    sniff: Callable[[bytes], bool]
    read: Reader


#: every registered format (registration order); :func:`instr_formats` gives detection order
_REGISTRY: list[InstrFormat] = []
#: the format modules in llvm-profdata's detection order (each registers itself on import),
#: with the module whose ``sniff`` tells the format's files by their first bytes: the magics
#: live with the layouts, so a reader is imported only for a file that is its own (a raw
#: input never loads the indexed reader, nor MemProf's, which that holds)
_DETECTION_ORDER = (("indexed", "indexed_layout"), ("raw", "raw_layout"), ("text", "text"))


def register(fmt: InstrFormat) -> InstrFormat:
    _REGISTRY.append(fmt)
    return fmt


def _format(name: str) -> InstrFormat:
    """The format of module ``name``, imported on first use: detecting an indexed
    profile need not load the text format's parser."""
    importlib.import_module(f"profdata.formats.{name}")
    return next(fmt for fmt in _REGISTRY if fmt.name == name)


def instr_formats() -> tuple[InstrFormat, ...]:
    """Every format, in detection order whatever order their modules were imported in."""
    return tuple(_format(name) for name, _ in _DETECTION_ORDER)


def detect(prefix: bytes, path: str | None = None) -> InstrFormat:
    for name, sniffer in _DETECTION_ORDER:
        if importlib.import_module(f"profdata.formats.{sniffer}").sniff(prefix):
            return _format(name)
    raise UnrecognizedFormatError(
        "the first bytes match no raw, indexed or text profile", path=path
    )


def read_instr_bytes(
    data: bytes | bytearray | memoryview,
    path: str | None = None,
    *,
    release: Release | None = None,
) -> InstrProfile:
    """Read an instrumentation profile of any format from memory, as ``release`` reads it
    where releases differ (default: the latest)."""
    view = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
    if len(view) == 0:
        raise EmptyProfileError("the file is empty", path=path)
    fmt = detect(bytes(view[:8]), path)
    try:
        return fmt.read(view, path, release=release)
    except ProfdataError as exc:
        if path:
            exc.with_path(path)
        raise


def open_instr(path: str | os.PathLike[str], *, release: Release | None = None) -> InstrProfile:
    """Read an instrumentation profile from a file (memory-mapped, zero-copy; ``-`` is
    standard input, as ``MemoryBuffer::getFileOrSTDIN``)."""
    spath = os.fspath(path)
    return read_instr_bytes(input_bytes(spath), spath, release=release)
