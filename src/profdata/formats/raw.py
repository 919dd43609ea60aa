"""Raw instrumentation profiles (``.profraw``, raw versions 5, 7, 8, 9, 10): reader and writer.

The reader mirrors ``RawInstrProfReader`` of LLVM 11 to 22 -- the checks it
makes, the order it makes them in and the first error line llvm-profdata
prints -- but reads every raw version, where each ``llvm-profdata`` release
reads only its own.  The data section becomes one numpy structured array and
the counters one numpy array; counter and bitmap offsets of all records are
computed and bounds-checked at once, and the value-profile blobs are checked
with numpy (:mod:`profdata.formats.raw_values`) once Python has followed the
chain of their sizes; the data records are read in
:mod:`profdata.formats.raw_records`.  The profile keeps the records as columns; names,
value sites and :class:`~profdata.model.instr.InstrRecord` objects (whose
counts are views of the counter array) are made on first use
(:mod:`profdata.formats.raw_profile`).

The writer (:func:`write`) produces what compiler-rt's ``__llvm_profile_write_file``
would write for the same data, so that people writing their own runtime, and
tests, get a reference dump.  Layouts live in :mod:`profdata.formats.raw_layout`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from profdata.errors import (
    CorrelationMismatchError,
    FormatError,
    HeaderCorruptError,
    Location,
    MalformedError,
    ProfdataError,
    RawVersionError,
    RelabelledVersionError,
    UnrecognizedFormatError,
    UnsupportedVersionError,
)
from profdata.formats import InstrFormat, register
from profdata.formats._binary import ByteOrder, ByteReader
from profdata.formats._binary_ids import read_binary_id_entries
from profdata.formats._names import read_names_as_llvm
from profdata.formats.raw_layout import (
    SUPPORTED_VERSIONS,
    RawHeader,
    RawLayout,
    Section,
    detect_magic,
    raw_layout,
    sections,
    sniff,
)
from profdata.formats.raw_profile import NameTable, RawProfile
from profdata.formats.raw_records import RecordReader
from profdata.formats.version_word import VERSION_MASK, stray_version_bits, version_mask
from profdata.model.instr import (
    InstrProfile,
    InstrRecord,
    RecordColumns,
    TemporalTrace,
)
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.record_table import RecordTable
from profdata.releases import Release

# reading needs neither the writer nor, unless the profile is lightweight, correlation:
# both are imported when first used (``write`` through the module's ``__getattr__``)
if TYPE_CHECKING:
    from profdata.formats.correlate_data import Correlation, CorrelationSource
    from profdata.formats.raw_write import write
else:

    def __getattr__(name: str) -> Any:
        if name == "write":
            from profdata.formats.raw_write import write

            return write
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted([*globals(), "write"])


__all__ = ["read", "sniff", "write"]

_MALFORMED = MalformedError.llvm_message
_BAD_MAGIC = "invalid instrumentation profile data (bad magic)"  # instrprof_error::bad_magic
_IPVK_LAST = int(max(ValueKind))
_MAX_U64 = 0xFFFFFFFFFFFFFFFF


def read(
    data: bytes | bytearray | memoryview,
    path: str | None = None,
    *,
    correlation: CorrelationSource | None = None,
    release: Release | None = None,
    _relabel_tried: bool = False,
) -> InstrProfile:
    """Every raw profile in ``data`` (several may be concatenated) as one profile.

    Records come in data-record order.  ``kind`` and ``version`` are those of
    the first header (what ``llvm-profdata merge`` uses); ``symbols`` holds
    every function and vtable name of every concatenated profile; temporal
    timestamps of all of them form one trace, as in ``getTemporalProfTraces``.
    A lightweight profile takes its data records and names from ``correlation``, or
    from the one it gives for the profile's build IDs when it is a function
    (:mod:`profdata.formats.correlate`) and cannot be read without one.
    ``release`` is the llvm-profdata whose reading to mirror where releases
    differ: what its ``GET_VERSION`` keeps of each header's version word, and
    whether it parses the binary-id entries in the header or when asked.
    """
    view = memoryview(data).cast("B")
    magic = detect_magic(view[:8])
    if magic is None:
        raise UnrecognizedFormatError("the first 8 bytes are not a raw profile magic", path=path)
    width, order = magic
    cur = ByteReader(view, path=path, order=order)
    parts: list[_RawPart] = []
    pos: int | None = 0
    while pos is not None:
        reader: ProfileReader | None = None
        try:
            reader = ProfileReader(
                cur, pos, width, first=not parts, correlation=correlation, release=release
            )
            part = reader.parse()
        except ProfdataError as exc:
            exc.opening = not parts and not (reader and reader.reading_records)
            read_so_far = parts + ([reader.partial] if reader and reader.partial else [])
            if read_so_far:
                exc.partial = _assemble(read_so_far)
            if isinstance(exc, FormatError) and not _relabel_tried:
                _refuse_relabelled(view, width, order, path, correlation, exc)
            raise
        parts.append(part)
        try:
            pos = _next_header(cur, part.end, parts[0].header_size)
        except ProfdataError as exc:
            exc.partial = _assemble(parts)
            if isinstance(exc, FormatError) and not _relabel_tried:
                _refuse_relabelled(view, width, order, path, correlation, exc)
            raise
    return _assemble(parts)


def _refuse_relabelled(
    view: memoryview,
    width: int,
    order: ByteOrder,
    path: str | None,
    correlation: CorrelationSource | None,
    failure: FormatError,
) -> None:
    """Raise the version error a file deserves whose version field was changed: it fails
    as the version it names but reads cleanly as another one.

    llvm-profdata reads only its own raw version and refuses every other at the
    header; profdata reads them all, so such a file would otherwise fail with
    whatever the wrong layout makes of its sections (a binary id of length 0, a
    cut name table).  Only a failing file is looked at again, so a file that
    reads as what it says it is never gets here.
    """
    if isinstance(failure, UnsupportedVersionError) or len(view) < 16:
        return
    word = int.from_bytes(view[8:16], "little" if order == "<" else "big")
    declared = word & VERSION_MASK
    if declared not in SUPPORTED_VERSIONS:
        return
    for version in SUPPORTED_VERSIONS:
        if version == declared:
            continue
        patched = bytearray(view)
        patched[8:16] = ((word & ~VERSION_MASK) | version).to_bytes(
            8, "little" if order == "<" else "big"
        )
        try:
            profile = read(patched, path, correlation=correlation, _relabel_tried=True)
        except ProfdataError:
            continue
        if not profile.records:  # a cut header can read as a shorter, empty one
            continue
        as_declared = failure.locate() or failure.llvm_message
        if failure.path and as_declared.startswith(f"{failure.path}: "):
            as_declared = as_declared[len(failure.path) + 2 :]
        raise RelabelledVersionError(
            f"the header says raw version {declared}, but the file reads cleanly only as "
            f"version {version} (was its version field changed?); read as version "
            f"{declared} it fails: {as_declared}",
            path=path,
            location=Location(
                8, field="header.version", expected=str(version), found=str(declared)
            ),
            as_declared=failure,
        )


@dataclass
class _RawPart:
    """What one raw profile (one header) contributes to the file's profile."""

    header: RawHeader
    header_size: int
    columns: RecordColumns
    #: builds the part's records (value sites decoded, bitmaps copied) when first asked for
    build_records: Callable[[], list[InstrRecord]]
    #: the header's binary ids, parsed already or (``Release.raw_binary_ids_on_demand``)
    #: when first asked for, which is where a bad entry fails
    binary_ids: Callable[[], list[bytes]]
    names: NameTable  # NameRef -> function name (the vtable section's names included)
    vtable_names: NameTable
    timestamps: list[tuple[int, int]]
    end: int
    #: the same records as a table (None for the records before a failure)
    build_table: Callable[[], RecordTable] | None = None


def _assemble(parts: list[_RawPart]) -> RawProfile:
    timestamps: list[tuple[int, int]] = []
    for part in parts:
        timestamps.extend(part.timestamps)
    # each header gets a new symbol table (readHeader's createSymtab): the reader's vtable
    # names, what merge --keep-vtable-symbols takes, are the last profile's
    vtable_names = list(parts[-1].vtable_names.table().values())
    traces: list[TemporalTrace] = []
    if timestamps:
        timestamps.sort()
        traces.append(TemporalTrace(1, tuple(ref for _, ref in timestamps)))
    first = parts[0].header
    if len(parts) == 1:
        columns = parts[0].columns
    else:
        columns = RecordColumns(
            lambda: [name for part in parts for name in part.columns.names],
            np.concatenate([part.columns.hashes for part in parts]),
            np.concatenate([part.columns.counts for part in parts]),
            np.concatenate([part.columns.lengths for part in parts]),
        )

    def build_records() -> list[InstrRecord]:
        return [record for part in parts for record in part.build_records()]

    return RawProfile(
        columns=columns,
        build_records=build_records,
        build_table=parts[0].build_table if len(parts) == 1 else None,
        kind=first.kind,
        format="raw",
        version=first.raw_version,
        binary_id_parts=[part.binary_ids for part in parts],
        traces=traces,
        trace_stream_size=1 if traces else 0,
        vtable_names=vtable_names,
        name_tables=[table for part in parts for table in (part.names, part.vtable_names)],
        part_kinds=[(len(part.columns.hashes), part.header.kind) for part in parts],
    )


def _next_header(cur: ByteReader, pos: int, header_size: int) -> int | None:
    """Where the next concatenated profile starts (``readNextHeader``); None at the end.

    LLVM wants room for a header of its own version, which is the first profile's.
    """
    if pos >= cur.end:
        return None
    nonzero = np.flatnonzero(np.frombuffer(cur.data, dtype=np.uint8, offset=pos))
    if not len(nonzero):
        return None
    pos += int(nonzero[0])
    if cur.end - pos < header_size:
        cur.fail(
            MalformedError,
            "bytes after the last profile are neither zero padding nor a header",
            field="header",
            expected=f"{header_size} bytes for a header",
            found=f"{cur.end - pos} bytes",
            at=pos,
            llvm_message=f"{_MALFORMED}: not enough space for another header",
        )
    if pos % 8:
        cur.fail(
            MalformedError,
            "a concatenated profile does not start on an 8-byte boundary",
            field="header.magic",
            expected="an offset that is a multiple of 8",
            found=str(pos),
            at=pos,
            llvm_message=f"{_MALFORMED}: insufficient padding",
        )
    if bytes(cur.data[pos : pos + 8]) != bytes(cur.data[0:8]):
        cur.fail(
            UnrecognizedFormatError,
            "a concatenated profile has another magic (pointer width or byte order)",
            field="header.magic",
            expected=bytes(cur.data[0:8]).hex(),
            found=bytes(cur.data[pos : pos + 8]).hex(),
            at=pos,
            llvm_message=_BAD_MAGIC,
        )
    return pos


#: the version-word bits that are variant flags in some release (55: LLVM 20's loop entries)
_VARIANT_BITS = 0xFF << 56 | 1 << 55


#: the header word that sizes each region ``ProfileReader._inside`` checks
_COUNT_FIELDS = {
    "data": "num_data",
    "counters": "num_counters",
    "bitmap": "num_bitmap_bytes",
    "names": "names_size",
    "vtables": "num_vtables",
    "vnames": "vnames_size",
}


class ProfileReader:
    """One header and the sections it describes, checked in ``RawInstrProfReader``'s order."""

    def __init__(
        self,
        cur: ByteReader,
        start: int,
        width: int,
        *,
        first: bool,
        correlation: CorrelationSource | None = None,
        release: Release | None = None,
    ) -> None:
        self.cur = cur
        self.start = start
        #: the llvm-profdata whose reading of damaged bytes this mirrors (None: the latest)
        self.release = release
        self.layout, self.header = self._read_header(width, first, version_mask(release))
        unknown = 0 if release is None else _VARIANT_BITS & ~release.raw_variant_bits
        if self.header.version & unknown:  # flags of later releases: this one ignores them
            self.header = replace(self.header, version=self.header.version & ~unknown)
        self._check_correlate_flag(correlation is not None)
        self.regions = {s.name: s for s in sections(self.layout, self.header, start)}
        self.correlation: Correlation | None = None
        #: ``--correlate``: gives the correlation of the binary the profile's build ID names
        self.by_build_id: Callable[[Sequence[bytes]], Correlation] | None = None
        if correlation is not None:
            from profdata.formats.correlate_data import Correlation

            if isinstance(correlation, Correlation):
                self.correlation = correlation
            else:
                self.by_build_id = correlation
        self.correlated = correlation is not None or self.header.lightweight
        #: past the header and the name table, where ``RawInstrProfReader::create`` is done
        self.reading_records = False
        #: what ``RawInstrProfReader`` delivered before a bad data record: the records
        #: before it (llvm-profdata merges and prints them before failing)
        self.partial: _RawPart | None = None

    def _check_correlate_flag(self, correlating: bool) -> None:
        """Up to 17, ``readHeader`` goes by ``VARIANT_MASK_DBG_CORRELATE`` alone: with the flag
        it needs ``--debug-info`` and then takes the data records and names from the binary
        whatever the file holds (its own count only for where the counters lie); without
        it, ``--debug-info`` is refused.  Later releases go by what the file holds."""
        release, header = self.release, self.header
        if release is None or not release.raw_correlate_flag_needs_debug_info:
            return
        flagged = bool(header.kind & ProfileKind.DEBUG_INFO_CORRELATE)
        if flagged == correlating:
            return
        self.cur.fail(
            CorrelationMismatchError,
            "the header's version word says the program was built with -debug-info-correlate "
            f"(VARIANT_MASK_DBG_CORRELATE), so llvm-profdata {release.number} reads it only "
            "with --debug-info=BINARY"
            if flagged
            else "--debug-info was given, but the header's version word has no "
            f"VARIANT_MASK_DBG_CORRELATE, so llvm-profdata {release.number} refuses it",
            field="header.version",
            expected="no VARIANT_MASK_DBG_CORRELATE, or --debug-info=BINARY"
            if flagged
            else "VARIANT_MASK_DBG_CORRELATE (a program built with -debug-info-correlate)",
            found=f"version word {header.version:#018x}",
            at=self.start + 8,
            llvm_message="debug info for correlation is "
            + ("required" if flagged else "not necessary"),
        )

    def _read_header(self, width: int, first: bool, mask: int) -> tuple[RawLayout, RawHeader]:
        cur, start = self.cur, self.start
        available = cur.end - start
        if available < 16:
            cur.fail(
                HeaderCorruptError,
                "the file is too short for a raw profile header",
                field="header.version",
                expected="at least 16 bytes",
                found=f"{available} bytes",
                at=start + 8 * (available // 8),
            )
        cur.pos = start + 8
        word = cur.u64("header.version")
        version = word & mask
        if version not in SUPPORTED_VERSIONS:
            cur.fail(
                RawVersionError,
                stray_version_bits(word, mask)
                or f"raw profile version {version} is not one of {SUPPORTED_VERSIONS}",
                field="header.version",
                expected=" or ".join(map(str, SUPPORTED_VERSIONS)),
                found=str(version),
                at=start + 8,
            )
        layout = raw_layout(version, width, cur.order)
        if available < layout.header_size:
            cur.fail(
                HeaderCorruptError if first else MalformedError,
                f"the file ends inside a version {version} header",
                field=f"header.{layout.header_fields[available // 8]}",
                expected=f"{layout.header_size} header bytes",
                found=f"{available} bytes",
                at=start + 8 * (available // 8),
                llvm_message=None
                if first
                else f"{_MALFORMED}: not enough space for another header",
            )
        cur.pos = start
        header = RawHeader.from_words(layout, cur.words(len(layout.header_fields), "header"))
        return layout, header

    def _field_offset(self, name: str) -> int:
        return self.start + 8 * self.layout.header_fields.index(name)

    def _check_binary_ids_size(self) -> None:
        """``readHeader``'s first bad_header test: whole words of binary ids, inside the file.

        Version 7 (LLVM 13, the only reader of it) has no word test: its runtime writes each
        id unpadded (a 32-bit program's 20-byte build id gives 28 bytes) and the data follow.
        """
        cur, header = self.cur, self.header
        if header.binary_ids_size % 8 and self.layout.version >= 8:
            cur.fail(
                HeaderCorruptError,
                "the binary-id section size is not a multiple of 8",
                field="header.binary_ids_size",
                expected="a multiple of 8",
                found=str(header.binary_ids_size),
                at=self._field_offset("binary_ids_size"),
            )
        ids = self.regions["binary_ids"]
        if ids.end > cur.end:
            cur.fail(
                HeaderCorruptError,
                "the header's BinaryIdsSize puts the binary-id section past the end of the file",
                field="binary_ids",
                expected=f"{ids.size} bytes",
                found=f"{cur.end - ids.start} bytes",
                at=ids.start,
            )

    def _check_regions(self) -> None:
        """``readHeader``'s one test of the sizes: the value data begin inside the file.

        Its sums and products wrap at 64 bits (:func:`sections`), so a damaged
        count can pass it and leave the regions elsewhere than the counts say;
        each is then read where the sums put it (:meth:`_inside`).
        """
        cur = self.cur
        value_start = self.regions["vnames_padding"].end
        if 0 <= value_start <= cur.end:
            return
        if value_start < 0:  # the sums wrapped below the file, where LLVM reads memory
            cur.fail(
                HeaderCorruptError,
                "the header's sizes, which wrap at 64 bits, put the value data before the "
                "start of the file",
                field="header",
                expected="value data inside the file",
                found=f"value data at offset {value_start}",
                at=self.start,
            )
        region = next(r for r in self.regions.values() if r.end > cur.end)
        cur.fail(
            HeaderCorruptError,
            f"the header's sizes put the {region.name} section past the end of the file",
            field=region.name,
            expected=f"{region.size} bytes",
            found=f"{max(cur.end - region.start, 0)} bytes",
            at=min(region.start, cur.end),
        )

    def _inside(self, name: str, unit: int = 1, *, reversed_empty: bool = False) -> Section:
        """A region the sizes' wrapped sums put inside the file, in whole ``unit``-byte items.

        A region outside it (or of negative size) would be read from memory the
        file does not hold, and a data region of part of a record would be
        walked past its end (``Data != DataEnd``): both are refused.  With
        ``reversed_empty`` a region that ends before it starts is empty instead:
        its reader's loop runs while its pointer is below the end, so it reads
        nothing there (the names; the counters, against whose negative size
        every record then fails).
        """
        region, cur = self.regions[name], self.cur
        if reversed_empty and region.size < 0:
            return Section(region.name, region.start, 0)
        if region.size and (
            region.size < 0 or region.start < 0 or region.end > cur.end or region.size % unit
        ):
            cur.fail(
                HeaderCorruptError,
                f"the header's sizes, which wrap at 64 bits, put the {region.name} section "
                "outside the file" + (f" or cut one of its {unit}-byte items" if unit > 1 else ""),
                field=region.name,
                expected=f"a section inside the file's {cur.end} bytes",
                found=f"{region.size} bytes at offset {region.start}",
                at=self._count_field_offset(name),
            )
        return region

    def _count_field_offset(self, region: str) -> int:
        """Where the header word that sizes ``region`` lies (its start for an older layout
        that has no such word)."""
        field = _COUNT_FIELDS.get(region, "")
        fields = self.layout.header_fields
        return self._field_offset(field) if field in fields else self.start

    def _counted_by_regions(self) -> None:
        """The counts as the wrapped sizes leave them: the records ``readHeader``'s
        pointers span, not the header's numbers (they differ only in a damaged header)."""
        lay, header = self.layout, self.header
        counts = {
            "num_data": self._inside("data", lay.data_size).size // lay.data_size,
            "num_counters": self._inside("counters", header.counter_width, reversed_empty=True).size
            // header.counter_width,
            "num_vtables": self._inside("vtables", lay.vtable_size).size // lay.vtable_size,
        }
        self._inside("bitmap")
        if any(getattr(header, name) != value for name, value in counts.items()):
            self.header = replace(header, **counts)

    def _binary_ids(self) -> Callable[[], list[bytes]]:
        """The entries, parsed now (``readHeader``, 19+) or when first asked for
        (``readBinaryIds``, 14 and 16, in a file of their raw version), unless the
        correlation needs them now."""
        region = self.regions["binary_ids"]
        padded = self.layout.version >= 8
        cur, release = self.cur, self.release
        empty = release is not None and release.raw_binary_id_may_be_empty

        def parse() -> list[bytes]:
            return read_binary_id_entries(
                cur, region.start, region.end, padded=padded, may_be_empty=empty
            )

        # laziness mirrors the release's reader, which reads its own raw version only: a file
        # of another version is read eagerly, so a wrong version label still fails as such
        if (
            release is not None
            and release.raw_binary_ids_on_demand
            and self.layout.version == release.raw_version
            and self.by_build_id is None
        ):
            return parse
        ids = parse()
        return lambda: ids

    def _names(self, name: str) -> NameTable:
        """``InstrProfSymtab::create``: decode the chunks; an empty name is malformed.

        Sizes that wrap can end a section before it starts: ``readAndDecodeStrings``
        decodes while its pointer is below the end, so no name at all (the function
        names everywhere, the vtable names as the release reads them).
        """
        reversed_empty = self.release is None or self.release.raw_reversed_vnames_empty
        region = self._inside(name, reversed_empty=name == "names" or reversed_empty)
        if not region.size:
            return NameTable([])
        return NameTable(read_names_as_llvm(self.cur, region.start, region.end, region.name))

    def _array(self, region: Section, dtype: np.dtype[np.void], count: int) -> npt.NDArray[np.void]:
        if not count:  # an empty region may start anywhere (its sizes wrapped)
            return np.zeros(0, dtype=dtype)
        return np.frombuffer(self.cur.data, dtype=dtype, count=count, offset=region.start)

    def parse(self) -> _RawPart:
        self._check_binary_ids_size()
        binary_ids = self._binary_ids()
        self._check_regions()
        if self.by_build_id is not None:
            self.correlation = self.by_build_id(binary_ids())
        names = self._names("names")
        vtable_names = self._names("vnames")
        self._counted_by_regions()
        data = self._array(self.regions["data"], self.layout.data_dtype, self.header.num_data)
        vtables = self._array(
            self.regions["vtables"], self.layout.vtable_dtype, self.header.num_vtables
        )
        if self.correlated:
            from profdata.formats.correlate_data import correlated_sections

            data, names = correlated_sections(
                self.cur,
                self.start,
                self.layout,
                self.header,
                self.correlation,
                by_flag=self.release is not None
                and self.release.raw_correlate_flag_needs_debug_info,
            )
            vtables, vtable_names = vtables[:0], NameTable([])
        # one symbol table holds both sections (``addVTableName`` is ``addSymbolName``), so
        # a NameRef may name a function by the vtable section's names too; the part keeps
        # that table, so its names are hashed once (for the records and for ``symbols``)
        if vtable_names.payloads():
            names = NameTable(names.payloads() + vtable_names.payloads())
        reader = RecordReader(self, data, vtables, names)
        self.reading_records = True
        try:
            columns, end = reader.read()
        except ProfdataError:
            if reader.failed is not None:  # the records before the bad one were read
                good = reader.first(reader.failed)
                good_columns, good_end = good.read()
                # a record whose value data fails had its counters (and timestamp) read
                stamped = reader.first(reader.failed + 1) if reader.failed_in_values else good
                self.partial = _RawPart(
                    self.header, self.layout.header_size, good_columns, good.records,
                    binary_ids, names, vtable_names, stamped.timestamps(), good_end,
                )  # fmt: skip
            raise
        return _RawPart(
            self.header,
            self.layout.header_size,
            columns,
            reader.records,
            binary_ids,
            names,
            vtable_names,
            reader.timestamps(),
            end,
            reader.table,
        )


register(InstrFormat("raw", sniff, read))
