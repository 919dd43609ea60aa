"""Correlation of lightweight raw profiles with their binary (``InstrProfCorrelator``).

A program built with ``-mllvm -profile-correlate=debug-info`` (LLVM 14 to 17:
``-debug-info-correlate``) or ``-profile-correlate=binary`` (LLVM 18+) writes
raw profiles that hold counters only: no data records, no names.  The binary
holds the rest -- in its DWARF (:mod:`profdata.formats.correlate_dwarf`) or in
the ``__llvm_covdata``/``__llvm_covnames`` sections, which the loader does not
map -- and ``llvm-profdata merge --debug-info=BIN`` / ``--binary-file=BIN``
rebuilds the data records and the names from it before reading the profile.
:func:`load_correlation` does the same (ELF through pyelftools), with LLVM's
checks, order, de-duplication and error words; the raw reader takes the
result's records in place of the missing sections
(:func:`profdata.formats.raw.read`, ``correlation=``).

Where llvm-profdata silently reads nothing -- a lightweight profile without a
binary, a binary of the other pointer width -- the raw reader refuses with
:class:`~profdata.errors.CorrelationMismatchError` that says what is missing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any, TypeVar

import numpy as np
import numpy.typing as npt
from elftools.common.exceptions import DWARFError, ELFError
from elftools.construct.core import ConstructError
from elftools.elf.elffile import ELFFile
from elftools.elf.structs import ELFStructs

from profdata.errors import (
    CorrelationError,
    EmptyProfileError,
    FileError,
    Location,
    NotAnObjectError,
    ProfdataError,
)
from profdata.formats import raw, read_instr_bytes
from profdata.formats._binary import ByteOrder
from profdata.formats._files import input_bytes
from profdata.formats.correlate_data import (
    Correlation,
    CorrelationSource,
    CorrelationWarnings,
    CorrelatorKind,
    EncodedNames,
    Probe,
)
from profdata.formats.correlate_dwarf import dwarf_probes
from profdata.formats.raw_layout import raw_layout
from profdata.formats.raw_profile import NameTable
from profdata.model.instr import InstrProfile
from profdata.model.names import md5_array
from profdata.releases import Release

__all__ = [
    "Correlation",
    "CorrelationWarnings",
    "CorrelatorKind",
    "Probe",
    "load_correlation",
    "load_probes",
    "read_correlated",
]

COUNTERS_SECTION = "__llvm_prf_cnts"  # IPSK_cnts (ELF)
DATA_SECTION = "__llvm_covdata"  # IPSK_covdata: data records, not loaded
NAMES_SECTION = "__llvm_covnames"  # IPSK_covname: name chunks, not loaded
ELF_MAGIC = b"\x7fELF"
_E_SHOFF_AT = {32: 0x20, 64: 0x28}  # where Elf32_Ehdr / Elf64_Ehdr keep e_shoff
U64s = npt.NDArray[np.uint64]
T = TypeVar("T")
_BINARY_DATA_VERSION = 10  # the ProfileData layout of LLVM 18+'s binary correlator
#: what pyelftools raises on bytes it cannot parse
_PARSE_ERRORS = (
    ELFError, DWARFError, ConstructError, ValueError, KeyError, IndexError, EOFError,
    UnicodeDecodeError, AttributeError, TypeError, AssertionError, OverflowError, OSError,
    RecursionError,
)  # fmt: skip


def load_correlation(
    path: str | os.PathLike[str],
    kind: CorrelatorKind,
    *,
    max_warnings: int = 5,
    binary_wording: bool = True,
    warn: Callable[[str], None] | None = None,
) -> Correlation:
    """``InstrProfCorrelator::get`` + ``correlateProfileData`` for an ELF binary.

    ``binary_wording`` selects the error words of LLVM 18+ (else 14 to 17's);
    ``warn`` receives each warning line as it is found.  Raises
    :class:`~profdata.errors.CorrelationError` located in the binary.
    """
    spath = os.fspath(path)
    warnings = CorrelationWarnings(max_warnings, warn)
    with _elf(spath) as elf:
        counters = _section(elf, spath, COUNTERS_SECTION, binary_wording)
        start = int(counters["sh_addr"])
        size = int(counters["sh_size"])
        width = 8 if elf.elfclass == 64 else 4
        names: NameTable | EncodedNames
        if kind is CorrelatorKind.BINARY:
            records, names = _binary_records(elf, spath, start, size, width, warnings)
        else:
            probes = _guarded(spath, lambda: _dwarf(elf, (start, start + size), warnings))
            warnings.finish()
            hint = _guarded(spath, lambda: _mode_hint(elf))
            _check_found(spath, kind, len(probes), binary_wording, hint)
            names = NameTable([b"\x01".join(p.function_name for p in probes)])
            records = _Records(
                name_refs=md5_array([p.function_name for p in probes]),
                func_hashes=np.array([p.cfg_hash for p in probes], dtype=np.uint64),
                counter_offsets=np.array([p.counter_offset for p in probes], dtype=np.uint64),
                function_pointers=np.array([p.function_pointer for p in probes], np.uint64),
                num_counters=np.array([p.num_counters for p in probes], dtype=np.uint32),
            )
    correlation = _first_per_offset(spath, kind, width, records, names, size, warnings)
    correlation.binary_wording = binary_wording
    return correlation


def _check_found(
    path: str, kind: CorrelatorKind, found: int, binary_wording: bool, hint: str = ""
) -> None:
    """``correlateProfileData``: no data record at all is an error."""
    if not found:
        _fail(
            path,
            "could not find any profile data metadata in correlated file"
            if binary_wording
            else "could not find any profile metadata in debug info",
            "the binary describes no function with profile counters" + hint,
            "__profc_* variables with profile annotations in the DWARF"
            if kind is CorrelatorKind.DEBUG_INFO
            else f"data records in {DATA_SECTION}",
        )


@dataclass(frozen=True)
class _Records:
    """Data-record columns in the binary's order, before de-duplication."""

    name_refs: U64s
    func_hashes: U64s
    counter_offsets: U64s
    function_pointers: U64s
    num_counters: npt.NDArray[np.uint32]


def _first_per_offset(
    path: str,
    kind: CorrelatorKind,
    width: int,
    records: _Records,
    names: NameTable | EncodedNames,
    counters_size: int,
    warnings: CorrelationWarnings,
) -> Correlation:
    """``addDataProbe``: only the first probe of each counter offset becomes a record."""
    mask = np.uint64((1 << (8 * width)) - 1)
    offsets = records.counter_offsets & mask
    _, first = np.unique(offsets, return_index=True)
    keep = np.sort(first)
    return Correlation(
        path=path,
        kind=kind,
        width=width,
        name_refs=records.name_refs[keep],
        func_hashes=records.func_hashes[keep],
        counter_offsets=offsets[keep],
        function_pointers=(records.function_pointers & mask)[keep],
        num_counters=records.num_counters[keep],
        names=names,
        counters_section_size=counters_size,
        warnings=warnings,
    )


def load_probes(
    path: str | os.PathLike[str],
    *,
    max_warnings: int = 5,
    binary_wording: bool = True,
    warn: Callable[[str], None] | None = None,
) -> tuple[list[Probe], CorrelationWarnings]:
    """``dumpYaml``'s probes: every DWARF probe (not de-duplicated) with its location."""
    spath = os.fspath(path)
    warnings = CorrelationWarnings(max_warnings, warn)
    with _elf(spath) as elf:
        counters = _section(elf, spath, COUNTERS_SECTION, binary_wording)
        start = int(counters["sh_addr"])
        end = start + int(counters["sh_size"])
        probes = _guarded(spath, lambda: _dwarf(elf, (start, end), warnings, locations=True))
        warnings.finish()
    if not probes:
        _fail(
            spath,
            "could not find any profile data metadata in debug info",
            "the binary describes no function with profile counters",
            "__profc_* variables with profile annotations in the DWARF",
        )
    return probes, warnings


# -- ELF ---------------------------------------------------------------------------
@contextmanager
def _elf(path: str) -> Iterator[Any]:
    """The binary as a pyelftools ``ELFFile`` (read lazily from the open file)."""
    try:
        fh: IO[bytes] = open(path, "rb")  # noqa: SIM115 - kept open while pyelftools reads
    except OSError as exc:
        raise FileError(exc.strerror or str(exc), path=path) from exc
    with fh:
        magic = fh.read(4)
        if magic != ELF_MAGIC:
            raise NotAnObjectError(
                "profdata correlates ELF binaries only",
                path=path,
                location=Location(0, None, "e_ident", "an ELF file (7f 45 4c 46)", magic.hex(" ")),
            )
        fh.seek(0)
        size = os.fstat(fh.fileno()).st_size
        _guarded(path, lambda: _check_section_table(fh, path, size))
        fh.seek(0)
        elf = _guarded(path, lambda: ELFFile(fh))
        _guarded(path, lambda: _check_section_bounds(elf, path, size))
        yield elf


def _check_section_table(fh: IO[bytes], path: str, size: int) -> None:
    """The section header table inside the file, as LLVM's ``ELFFile::create`` checks it
    (pyelftools would fail on the first section header with a bare message)."""
    ident = fh.read(6)
    elfclass = {1: 32, 2: 64}.get(ident[4]) if len(ident) == 6 else None
    if elfclass is None or ident[5] not in (1, 2):
        raise NotAnObjectError(
            "the ELF identification has an unknown class or data encoding",
            path=path,
            location=Location(offset=4, field="e_ident", found=ident.hex(" ")),
        )
    structs = ELFStructs(little_endian=ident[5] == 1, elfclass=elfclass)
    structs.create_basic_structs()
    structs.create_advanced_structs()
    fh.seek(0)
    header = structs.Elf_Ehdr.parse_stream(fh)
    table_end = header["e_shoff"] + header["e_shnum"] * header["e_shentsize"]
    if table_end > size:
        raise NotAnObjectError(
            "the section header table runs past the end of the file",
            path=path,
            location=Location(
                offset=_E_SHOFF_AT[elfclass],
                field="e_shoff",
                expected=f"a table ending by {size}",
                found=f"a table ending at {table_end}",
            ),
            llvm_message=(
                "section header table goes past the end of the file: "
                f"e_shoff = 0x{header['e_shoff']:x}"
            ),
        )


def _check_section_bounds(elf: Any, path: str, size: int) -> None:
    """Every section's bytes inside the file (LLVM: "section table goes past the end"),
    checked before pyelftools reads one: it would allocate ``sh_size`` bytes first."""
    header = elf.header
    for index, section in enumerate(elf.iter_sections()):
        if section["sh_type"] == "SHT_NOBITS":
            continue
        end = int(section["sh_offset"]) + int(section["sh_size"])
        if end > size:
            raise NotAnObjectError(
                f"section {index} ({section.name}) runs past the end of the file",
                path=path,
                location=Location(
                    offset=int(header["e_shoff"]) + index * int(header["e_shentsize"]),
                    field=f"section[{index}].sh_size",
                    expected=f"<= {size - int(section['sh_offset'])}",
                    found=str(int(section["sh_size"])),
                ),
                llvm_message="truncated or malformed object",
            )


def _guarded(path: str, parse: Callable[[], T]) -> T:
    """Run a pyelftools step; what it raises on bad bytes becomes a located error."""
    try:
        return parse()
    except _PARSE_ERRORS as exc:
        raise NotAnObjectError(
            f"pyelftools cannot parse the binary: {type(exc).__name__}: {exc}", path=path
        ) from exc


def _section(elf: Any, path: str, name: str, binary_wording: bool) -> Any:
    """``getInstrProfSection``: the first section with that name."""
    section = _guarded(path, lambda: elf.get_section_by_name(name))
    if section is None:
        hint = ""
        if name == COUNTERS_SECTION:
            hint = " (the binary was not built with profile instrumentation)"
        elif name == DATA_SECTION:
            hint = (
                " (binaries built with -profile-correlate=binary have it; for "
                "-profile-correlate=debug-info use --debug-info)"
            )
        _fail(
            path,
            f"could not find section ({name})"
            if binary_wording
            else f"could not find counter section ({name})",
            f"the binary has no {name} section{hint}",
            f"a section named {name}",
        )
    return section


def _mode_hint(elf: Any) -> str:
    """Why a DWARF walk found nothing, when the binary tells."""
    if elf.get_section_by_name(DATA_SECTION) is not None:
        return (
            f" in its DWARF, but it has {DATA_SECTION}: it was built with "
            "-profile-correlate=binary (use --binary-file)"
        )
    if not elf.has_dwarf_info():
        return " (it has no DWARF: build with -g, or correlate the unstripped binary)"
    return ""


def _fail(path: str, reason: str, detail: str, expected: str) -> Any:
    raise CorrelationError(
        detail,
        path=path,
        location=Location(expected=expected, found="none"),
        llvm_message=f"{CorrelationError.llvm_message}: {reason}",
    )


def _dwarf(
    elf: Any, counters: tuple[int, int], warnings: CorrelationWarnings, *, locations: bool = False
) -> list[Probe]:
    if not elf.has_dwarf_info():
        return []
    return dwarf_probes(elf.get_dwarf_info(), counters, warnings, locations=locations)


# -- binary correlation ------------------------------------------------------------
def _binary_records(
    elf: Any, path: str, start: int, size: int, width: int, warnings: CorrelationWarnings
) -> tuple[_Records, EncodedNames]:
    """``BinaryInstrProfCorrelator``: the data records of ``__llvm_covdata`` and the names
    of ``__llvm_covnames``; counter pointers become offsets into ``__llvm_prf_cnts``.

    Out-of-range counter pointers are kept (with LLVM's warning), so the raw
    reader reports the record as malformed, as llvm-profdata does.
    """
    data_section = _section(elf, path, DATA_SECTION, True)
    names_section = _section(elf, path, NAMES_SECTION, True)
    order: ByteOrder = "<" if elf.little_endian else ">"
    layout = raw_layout(_BINARY_DATA_VERSION, width, order)
    blob = bytes(_guarded(path, data_section.data))
    count = -(-len(blob) // layout.data_size)  # LLVM reads a partial last record too
    blob += bytes(count * layout.data_size - len(blob))
    data = np.frombuffer(blob, dtype=layout.data_dtype, count=count)
    counter_ptrs = data["counter_ptr"].astype(np.uint64)
    end = start + size
    for index in np.flatnonzero((counter_ptrs < start) | (counter_ptrs >= end)).tolist():
        ptr = int(counter_ptrs[index])
        warnings.add(
            f"CounterPtr out of range for function: Actual=0x{ptr & 0xFFFFFFFF:x} "
            f"Expected=[0x{start & 0xFFFFFFFF:x}, 0x{end & 0xFFFFFFFF:x}) "
            f"at data offset=0x{index * layout.data_size & 0xFFFFFFFF:x}"
        )
    records = _Records(
        name_refs=data["name_ref"].astype(np.uint64),
        func_hashes=data["func_hash"].astype(np.uint64),
        counter_offsets=counter_ptrs - np.uint64(start),
        function_pointers=data["function_pointer"].astype(np.uint64),
        num_counters=data["num_counters"].astype(np.uint32),
    )
    _check_found(path, CorrelatorKind.BINARY, count, True)
    names_blob = bytes(_guarded(path, names_section.data))
    if not names_blob:
        _fail(
            path,
            "could not find any profile data metadata in object file",
            f"the {NAMES_SECTION} section is empty",
            f"name chunks in {NAMES_SECTION}",
        )
    return records, EncodedNames(names_blob, int(names_section["sh_offset"]), NAMES_SECTION)


# -- reading profiles with a correlator ---------------------------------------------
def read_correlated(
    path: str, correlation: CorrelationSource, release: Release | None = None
) -> InstrProfile:
    """One merge input read as ``InstrProfReader::create(Path, Correlator)`` reads it:
    raw profiles take their records from ``correlation`` (or from the one it gives for
    their build IDs); other formats ignore it.  ``release``: the one to read as."""
    data = input_bytes(path)
    if not data:
        raise EmptyProfileError("the file is empty", path=path)
    if not raw.sniff(bytes(data[:8])):
        return read_instr_bytes(data, path, release=release)
    try:
        return raw.read(data, path, correlation=correlation, release=release)
    except ProfdataError as exc:
        raise exc.with_path(path) from None
