"""Format-neutral instrumentation profile data.

One :class:`InstrRecord` is LLVM's ``NamedInstrProfRecord``: a function name, its
CFG hash, the counters (numpy uint64), the MC/DC bitmap bytes and the value
sites of each :class:`~profdata.model.kinds.ValueKind`.  Readers of raw,
indexed and text profiles all produce these, so every operation (show, merge,
overlap) works on one model whatever the input was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from profdata.errors import ProfdataError
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind

if TYPE_CHECKING:  # releases import the model; record_table imports this module; only
    # MemProf commands need memprof's classes
    from profdata.model.memprof import MemProfData
    from profdata.model.record_table import RecordTable
    from profdata.releases import Release

Counts = npt.NDArray[np.uint64]

#: LLVM's pseudo entry counts (``InstrProfRecord::PseudoHot`` / ``PseudoWarm``).
PSEUDO_HOT = 0xFFFFFFFFFFFFFFFF
PSEUDO_WARM = 0xFFFFFFFFFFFFFFFE


class ValueData(NamedTuple):
    """One profiled value at a site (``InstrProfValueData``)."""

    value: int  # a name hash for call/vtable targets, a size for memops
    count: int  # type: ignore[assignment]  # shadows tuple.count, as LLVM's field name does


ValueSite = list[ValueData]

#: ``ValueData((value, count))`` without the Python-level ``__new__`` of a NamedTuple
_new_value_data = cast(Callable[[tuple[int, int]], ValueData], partial(tuple.__new__, ValueData))


def value_sites_of(
    pairs: Iterable[tuple[int, int]], site_lengths: Iterable[int]
) -> list[ValueSite]:
    """Sites of ``site_lengths[i]`` consecutive (value, count) pairs each.

    Readers build one :class:`ValueData` per profiled value, millions for a
    large profile, so this stays in C-level iteration.
    """
    pending = iter(pairs)
    return [list(map(_new_value_data, islice(pending, n))) for n in site_lengths]


@dataclass(eq=False, slots=True)
class InstrRecord:
    """One (name, hash) record with its counters, bitmap and value sites."""

    name: str
    hash: int
    counts: Counts
    bitmap: bytes = b""
    #: value sites per kind; a kind absent from the dict has no sites.
    value_sites: dict[ValueKind, list[ValueSite]] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InstrRecord):
            return NotImplemented
        return (
            self.name == other.name
            and self.hash == other.hash
            and np.array_equal(self.counts, other.counts)
            and self.bitmap == other.bitmap
            and self.sites_by_kind() == other.sites_by_kind()
        )

    __hash__ = None  # type: ignore[assignment]

    def sites(self, kind: ValueKind) -> list[ValueSite]:
        return self.value_sites.get(kind, [])

    def num_sites(self, kind: ValueKind) -> int:
        return len(self.value_sites.get(kind, ()))

    def sites_by_kind(self) -> dict[ValueKind, list[ValueSite]]:
        """Only the kinds that have sites, in kind order (what the formats store)."""
        return {k: self.value_sites[k] for k in sorted(self.value_sites) if self.value_sites[k]}

    @property
    def is_cs(self) -> bool:
        """A context-sensitive IR record (FuncHash bit 60)."""
        return bool(self.hash & CS_HASH_BIT)

    @property
    def pseudo_kind(self) -> int | None:
        """PSEUDO_HOT / PSEUDO_WARM when the first counter is a pseudo count."""
        if len(self.counts) and int(self.counts[0]) in (PSEUDO_HOT, PSEUDO_WARM):
            return int(self.counts[0])
        return None

    def max_count(self) -> int:
        return int(self.counts.max()) if len(self.counts) else 0


_Items = TypeVar("_Items", bound=np.generic)


def take(values: npt.NDArray[_Items], index: npt.NDArray[np.integer[Any]]) -> npt.NDArray[_Items]:
    """``values[index]`` for an ``index`` already known to lie inside ``values`` (1-D:
    ``take`` without an axis reads any array as flat).

    numpy's ``take`` in ``wrap`` mode leaves out fancy indexing's bounds check
    and gives the same elements for every index from ``-len(values)`` to
    ``len(values) - 1``: measured 1.4-2x faster for the tens of thousands of
    indexes each raw run's value data is gathered with (numpy 2.4).  Where an
    index comes from a file, the caller checks it against the bounds first.
    """
    return values.take(index, mode="wrap")


def spans(
    starts: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64], step: int = 1
) -> npt.NDArray[np.int64]:
    """``concatenate([arange(s, s + n * step, step) for s, n in zip(starts, lengths)])``
    without a loop.

    The index of every element of many runs at once: the counters of chosen
    records, the bytes of names scattered through a file (``step`` 8: the
    byte offsets of words).  Made as a running sum of the steps, each run's
    first element stepping from the previous run's last: two passes over the
    result where ``np.repeat`` of the starts plus an ``arange`` took five (0.8
    against 2.9 ms for 100k runs of 7); short results keep that simpler form.
    """
    total = int(lengths.sum())
    if total < _SPANS_BY_STEPS:
        if not total:
            return np.zeros(0, dtype=np.int64)
        firsts = np.cumsum(lengths) - lengths
        return np.repeat(starts - step * firsts, lengths) + np.arange(
            0, step * total, step, dtype=np.int64
        )
    if not lengths.all():  # an empty run has no first element to step to
        kept = lengths > 0
        starts, lengths = starts[kept], lengths[kept]
    ends = np.cumsum(lengths)
    out = np.full(total, step, dtype=np.int64)
    out[0] = starts[0]
    out[ends[:-1]] = starts[1:] - starts[:-1] - step * (lengths[:-1] - 1)
    np.cumsum(out, out=out)
    return out


#: results from this many elements are made by :func:`spans`'s running sum
_SPANS_BY_STEPS = 2048


_Integers = TypeVar("_Integers", bound=np.integer[Any])


def distinct(values: npt.NDArray[_Integers]) -> npt.NDArray[_Integers]:
    """``np.unique`` of integers, sorted: the plain ``np.unique`` (no ``return_*`` flag)
    imports ``numpy.ma`` on first use (6-10 ms with numpy 2.4), a start-up cost every
    command that reaches it would pay."""
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


class RecordColumns:
    """The records of a profile as parallel columns, in reader order.

    What ``show`` needs of every record -- name, hash and counters -- without an
    :class:`InstrRecord` and its value sites per function: 100k of those cost
    more than printing them.  Readers that decode records in bulk (raw,
    indexed) build the columns straight from the file; any other profile gets
    them from its records (:meth:`of`).  ``counts`` is every record's counters
    concatenated, record ``i`` owning ``counts[starts[i] : starts[i] + lengths[i]]``.
    ``names`` may be given as a function that makes them on first use: a
    summary needs no names, and hashing or decoding 100k of them is not free.
    """

    __slots__ = ("_make_names", "_names", "counts", "hashes", "lengths", "starts")

    def __init__(
        self,
        names: list[str] | Callable[[], list[str]],
        hashes: npt.NDArray[np.uint64],
        counts: Counts,
        lengths: npt.NDArray[np.int64],
    ) -> None:
        self._names: list[str] | None = None if callable(names) else names
        self._make_names: Callable[[], list[str]] = names if callable(names) else list
        self.hashes = hashes
        self.counts = counts
        self.lengths = lengths
        self.starts: npt.NDArray[np.int64] = np.cumsum(lengths) - lengths

    @property
    def names(self) -> list[str]:
        names = self._names
        if names is None:
            names = self._names = self._make_names()
        return names

    def name_source(self) -> Callable[[], list[str]]:
        """A copy of the names on each call, from a callable that holds only what makes
        them, and once made only them: not these columns, whose counters may be views of
        a mapped file.  (A merge's shape of the first input kept its whole mapped file
        alive through the merge when it held the columns for their names.)"""
        if self._names is not None:
            names = self._names
            return lambda: list(names)
        make: Callable[[], list[str]] | None = self._make_names
        made: list[str] = []

        def source() -> list[str]:
            nonlocal make
            if make is not None:
                made.extend(make())
                make = None
            return list(made)

        return source

    def __len__(self) -> int:
        return len(self.lengths)

    @classmethod
    def of(cls, records: Iterable[InstrRecord]) -> RecordColumns:
        names: list[str] = []
        hashes: list[int] = []
        arrays: list[Counts] = []
        for rec in records:
            names.append(rec.name)
            hashes.append(rec.hash)
            arrays.append(rec.counts)
        lengths = np.fromiter(map(len, arrays), dtype=np.int64, count=len(arrays))
        counts = (
            np.concatenate(arrays).astype(np.uint64, copy=False)
            if int(lengths.sum())
            else np.zeros(0, dtype=np.uint64)
        )
        return cls(names, np.array(hashes, dtype=np.uint64), counts, lengths)

    def select(self, keep: npt.NDArray[np.bool_]) -> RecordColumns:
        """The columns of the rows where ``keep`` is true, in order."""

        def names() -> list[str]:
            every = self.names
            return [every[i] for i in np.flatnonzero(keep).tolist()]

        return RecordColumns(
            names,
            self.hashes[keep],
            self.counts[np.repeat(keep, self.lengths)],
            self.lengths[keep],
        )


@dataclass(frozen=True)
class TemporalTrace:
    """One temporal profile trace: function name hashes in first-call order."""

    weight: int
    function_hashes: tuple[int, ...]


@dataclass(eq=False, repr=False)
class InstrProfile:
    """A whole instrumentation profile as read from one input.

    ``records`` keeps reader order (raw: data-record order; indexed: hash-table
    order; text: file order), which is what ``show`` prints.  ``symbols`` maps
    name hashes to names for rendering value targets; which names it holds
    differs per format exactly as LLVM's reader symbol tables do.
    """

    kind: ProfileKind
    records: Sequence[InstrRecord]
    format: str = "text"
    version: int | None = None
    binary_ids: list[bytes] = field(default_factory=list)
    traces: list[TemporalTrace] = field(default_factory=list)
    trace_stream_size: int = 0
    vtable_names: list[str] = field(default_factory=list)
    symbols: dict[int, str] = field(default_factory=dict)
    #: a text profile that said ``:fe``; LLVM refuses to merge those with IR profiles
    explicit_frontend: bool = False
    #: binary ids of the last raw profile of a file holding several; LLVM 14/16 see only these
    last_raw_binary_ids: list[bytes] | None = None
    #: MemProf data to write (merged state, MemProf YAML inputs); indexed inputs keep
    #: theirs in the file (``IndexedProfile.memprof_data``)
    memprof: MemProfData | None = None
    #: a merged state's names that hold no record, each with its place among all names in
    #: first-seen order: LLVM's writer map keeps a name whose only FuncHashes are the
    #: reserved keys of its ``DenseMap`` (2**64-1, 2**64-2), and writes it as a
    #: hash-table item with no data
    recordless_names: list[tuple[int, str]] = field(default_factory=list)
    #: text files: the indices of records without a ``$`` bitmap block.  LLVM's text
    #: reader leaves such a record the bitmap its reused record still holds (see
    #: ``InstrProfWriter.add_records``); None for profiles not read from text
    without_bitmap_block: frozenset[int] | None = None

    def __repr__(self) -> str:
        """Short, and touching nothing read lazily: the field-by-field dataclass repr would
        list every record, and raise where binary ids or records fail when read."""
        version = "" if self.version is None else f" version={self.version}"
        return f"<{type(self).__name__} {self.format}{version} kind={self.kind!r}>"

    @property
    def kind_at_end(self) -> ProfileKind:
        """The flags a reader states once every record is read, which ``show`` prints: a
        raw file of several profiles gives the last header's (:attr:`kind`, the first's,
        is what ``merge`` takes, before the records)."""
        return self.kind

    def ir_records(self) -> npt.NDArray[np.bool_] | None:
        """Which records were read under an IR-level header, where the headers disagree
        (None: all as :attr:`kind` says)."""
        return None

    def binary_ids_seen(self, last_raw_profile_only: bool) -> list[bytes]:
        """The ids a reader reports: all of them, or (LLVM <= 16) the last raw profile's."""
        if last_raw_profile_only and self.last_raw_binary_ids is not None:
            return self.last_raw_binary_ids
        return self.binary_ids

    def __iter__(self) -> Iterator[InstrRecord]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def symbol(self, name_hash: int) -> str | None:
        return self.symbols.get(name_hash)

    @property
    def binary_ids_error(self) -> ProfdataError | None:
        """What ``readBinaryIds`` fails with (None: the ids read): only formats that read
        them lazily (indexed; raw for 14-16) can fail here, after the records."""
        try:
            _ = self.binary_ids
        except ProfdataError as exc:
            return exc
        return None

    def read_so_far(self) -> tuple[InstrProfile, ProfdataError | None]:
        """The profile as a streaming reader hands it out: whole, or (when a lazily read
        record fails, as a damaged indexed payload does) the records before that one,
        with the failure.  llvm-profdata merges, shows and overlaps those records."""
        if isinstance(self.records, list):
            return self, None
        records: list[InstrRecord] = []
        try:
            for record in iter(self.records):  # not extend(): it would ask len() first
                records.append(record)
        except ProfdataError as exc:
            return self.with_records(records), exc
        return self.with_records(records), None

    def with_records(self, records: list[InstrRecord]) -> InstrProfile:
        """This profile's header (kind, traces, names) with other records."""
        # a lazy profile builds these on first use
        lazy = ("records", "symbols", "binary_ids", "vtable_names")
        header = {f.name: getattr(self, f.name) for f in fields(InstrProfile) if f.name not in lazy}
        for name, empty in (("symbols", {}), ("binary_ids", []), ("vtable_names", [])):
            try:
                header[name] = getattr(self, name)
            except ProfdataError:  # a lazily read section that fails: nothing of it
                header[name] = empty
        return InstrProfile(**{**header, "records": records})

    def columns(self) -> RecordColumns:
        """The records as :class:`RecordColumns` (readers of binary formats build them faster)."""
        return RecordColumns.of(self.records)

    def hash_names_meanwhile(self) -> bool:
        """Start hashing the names :attr:`symbols` (or the raw records' names) will need in a
        forked child, where a reader has many to hash and a CPU is idle: the caller has
        other work before it asks.  Readers that hold names as text do nothing.  Whether
        a child runs."""
        return False

    def cheap_table(self) -> RecordTable | None:
        """The records as a table when the reader holds them so (None: only as records).

        Flattening 100k record objects into a table costs more than a bulk
        reader takes to build the table straight from the file.
        """
        return None


def read_streamed(
    loaded: InstrProfile | ProfdataError, release: Release
) -> tuple[InstrProfile | None, ProfdataError | None]:
    """What a streaming reader (``release``'s llvm-profdata) delivers of an input, and how
    it failed: an eager reader's failure carries the records read before it (``partial``;
    the failure as that release meets it), a lazy profile fails while its records are
    decoded (:meth:`InstrProfile.read_so_far`)."""
    if isinstance(loaded, ProfdataError):
        loaded = loaded.for_release(release)
        part = loaded.partial
        return (part if isinstance(part, InstrProfile) else None), loaded
    return loaded.read_so_far()
