"""Binary and ext-binary sample profiles read into flat arrays, not ``FunctionSamples``.

A merge of many binary sample profiles spent most of its time building
Python objects for every body line of every input (``SampleRecord``, its
call-target dict, the ``LineLocation`` key), only to add them into the
merged profile and drop them.  Walking the same pre-decoded ULEB128 numbers
without building anything is about fifteen times cheaper; the walk here only
notes where each function profile and each body record starts, and numpy
gathers the fields from those positions.  ``ops/merge_sample_columns.py``
sums the columns of all inputs and builds objects once, for the merged
profile.

The walk covers what ``sample_body.read_profiles`` reads, for plain and (14+)
context-sensitive profiles, with a CS profile's function metadata (checksum,
attributes; top level only) kept by context.  Anything the object reader
treats otherwise declines -- vtable type samples, a plain profile's metadata
(it can create inlined instances), an illegal line offset (release-dependent),
a count or index out of range, any fault: :func:`read_columns` answers
``None`` and the caller reads the file the usual way, which reports any fault
where LLVM does.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from profdata.errors import ColumnsDeclined, ProfdataError
from profdata.formats._binary import ByteReader
from profdata.formats._collector import collector_paused
from profdata.formats._uleb import UlebRun, decode_run
from profdata.formats.sample_binary import SPF_BINARY, read_magic, read_name_table, read_summary
from profdata.formats.sample_binary_cut import guessed_cut
from profdata.formats.sample_extbinary import (
    FLAG_HAS_ATTRIBUTE,
    FLAG_PROBE_BASED,
    SecHdrTableEntry,
    SecType,
    _Reader,
    read_section_table,
)
from profdata.model.record_table import Ints, U64s
from profdata.model.sample import SampleContext, SampleProfile
from profdata.offload import in_two
from profdata.releases import Release

U32 = 0xFFFFFFFF
Buffer = bytes | bytearray | memoryview


@dataclass(slots=True)
class ProfileColumns:
    """One input's function profiles; nodes are function profiles and inlined
    instances in file order (a node's parent comes before it)."""

    names: list[str]
    #: the CS name table a CS profile's top-level nodes index (None: they index ``names``)
    contexts: list[SampleContext] | None
    #: the parent node of each node, -1 for a top-level profile
    node_parent: Ints
    #: each node's function: an index into ``names`` (top-level nodes of a CS profile:
    #: into ``contexts``)
    node_name: Ints
    node_total: U64s
    #: head samples (top-level profiles only; 0 for inlined instances)
    node_head: U64s
    #: the call site of an inlined instance, ``offset << 32 | discriminator``
    node_site: U64s
    #: the node of each body record, and its ``offset << 32 | discriminator``
    rec_node: Ints
    rec_loc: U64s
    rec_samples: U64s
    #: each call target: its record, name-table index and count
    tgt_rec: Ints
    tgt_name: Ints
    tgt_count: U64s
    #: a CS profile's function metadata: checksum and attributes by context
    metadata: dict[SampleContext, tuple[int, int]] = field(default_factory=dict)

    def count_sum(self) -> float:
        """The sum of every count, as float: a bound on any merged counter's share."""
        return float(
            self.node_total.sum(dtype=np.float64)
            + self.node_head.sum(dtype=np.float64)
            + self.rec_samples.sum(dtype=np.float64)
            + self.tgt_count.sum(dtype=np.float64)
        )


class _Positions:
    """Where each node (function profile, inlined instance) and body record starts.

    A node is kept as its parent and its first number: a function profile's head
    samples (name index and total follow), an inlined instance's call-site offset
    (discriminator, callee index and total follow); the rest is gathered from there.
    """

    __slots__ = ("calls", "first_records", "parents", "record_counts", "starts", "values")

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values
        #: a record's call-target count, by the record's start (a view: no ``+ 3`` a record)
        self.calls = values[3:]
        # arrays, not lists: numpy takes their buffers without converting each int
        self.parents = array("q")
        self.starts = array("q")
        #: each node's first body record and how many it has (the others are found
        #: again by :func:`_record_starts`, for all nodes at once)
        self.first_records = array("q")
        self.record_counts = array("q")

    def body(self, i: int, parent: int) -> int:
        """``readProfile`` from number ``i`` (its total samples); the number after it."""
        values = self.values
        num_records = values[i + 1]
        if num_records > U32:
            raise ColumnsDeclined
        i += 2
        self.first_records.append(i)
        self.record_counts.append(num_records)
        calls = self.calls
        for _ in range(num_records):
            i += 4 + 2 * calls[i]
        num_callsites = values[i]
        if num_callsites > U32:
            raise ColumnsDeclined
        i += 1
        parents = self.parents
        node = len(parents) - 1
        for _ in range(num_callsites):
            parents.append(node)
            self.starts.append(i)
            i = self.body(i + 3, node)
        return i


def walk_profiles(
    run: UlebRun, end: int, names: list[str], contexts: list[SampleContext] | None = None
) -> ProfileColumns | None:
    """``readFuncProfile`` until ``end`` as positions, then columns; ``None`` to decline.
    ``contexts``: the CS name table, which a CS profile's function indexes refer to."""
    values = run.numbers
    count = len(values)
    walk = _Positions(values)
    i = 0
    try:
        while i < count:
            walk.parents.append(-1)
            walk.starts.append(i)
            i = walk.body(i + 2, -1)
    except (IndexError, ColumnsDeclined, RecursionError):
        return None
    if i != count or run.end != end:
        return None
    return _columns(run.array, names, contexts, walk)


def _record_starts(numbers: U64s, firsts: Ints, counts: Ints) -> Ints:
    """Where every body record starts, node by node: each node's chain of records
    (a record is 4 numbers and 2 per call target) followed for all nodes at once, a
    step per record of the longest chain.  The walk went the same way, so every
    position is inside ``numbers``."""
    ends = np.cumsum(counts)
    base = ends - counts
    rec = np.empty(int(ends[-1]) if len(ends) else 0, dtype=np.int64)
    by_count = np.argsort(-counts, kind="stable")  # the nodes still going are a prefix
    at = firsts[by_count]
    out = base[by_count]
    going = np.searchsorted(-counts[by_count], -np.arange(int(counts.max(initial=0))), "left")
    calls = numbers[3:]  # a record's call count, from its start (no index array + 3)
    for step, active in enumerate(going.tolist()):
        here = at[:active]
        rec[out[:active] + step] = here
        at[:active] = here + 4 + 2 * calls[here].astype(np.int64)
    return rec


def _columns(
    numbers: U64s, names: list[str], contexts: list[SampleContext] | None, walk: _Positions
) -> ProfileColumns | None:
    rec = _record_starts(
        numbers,
        np.frombuffer(walk.first_records, dtype=np.int64),
        np.frombuffer(walk.record_counts, dtype=np.int64),
    )
    # a record's fields are numbers k = 0..3 after its start: gathered from views that
    # begin k numbers in, not through index arrays ``rec + k`` (each a fresh 17 MB for
    # a 16 MB profile, whose pages cost more than the gathers)
    offsets = numbers[rec]
    calls = numbers[3:][rec]
    if len(rec) and (int(offsets.max()) > 0xFFFF or int(calls.max()) > U32):
        return None  # an illegal offset ends a record early in some releases
    u32 = np.uint64(U32)
    rec_loc = (offsets << np.uint64(32)) | (numbers[1:][rec] & u32)
    ncalls = calls.astype(np.int64)
    # each call target's (name, count) pair: two numbers apart from its record's fifth
    before = np.cumsum(ncalls) - ncalls
    pair = np.repeat(rec + 4 - 2 * before, ncalls)
    pair += 2 * np.arange(len(pair))
    target_index = numbers[pair]
    if len(pair) and int(target_index.max()) >= len(names):
        return None
    parents = np.frombuffer(walk.parents, dtype=np.int64)
    starts = np.frombuffer(walk.starts, dtype=np.int64)
    top = parents < 0
    inlined = ~top
    # head, name, total | offset, discriminator, name, total
    name_index = numbers[starts + np.where(top, 1, 2)]
    tops, callees = name_index[top], name_index[inlined]
    if len(tops) and int(tops.max()) >= len(names if contexts is None else contexts):
        return None
    if len(callees) and int(callees.max()) >= len(names):
        return None
    totals = starts + np.where(top, 2, 3)
    node_head = np.zeros(len(starts), dtype=np.uint64)
    node_head[top] = numbers[starts[top]]
    node_site = np.zeros(len(starts), dtype=np.uint64)
    sites = starts[inlined]
    node_site[inlined] = ((numbers[sites] & u32) << np.uint64(32)) | (numbers[sites + 1] & u32)
    # a node's records follow its header, before any callee's: numbered in node order
    per_node = numbers[totals + 1].astype(np.int64)
    return ProfileColumns(
        names=names,
        contexts=contexts,
        node_parent=parents,
        node_name=name_index.astype(np.int64),
        node_total=numbers[totals],
        node_head=node_head,
        node_site=node_site,
        rec_node=np.repeat(np.arange(len(starts), dtype=np.int64), per_node),
        rec_loc=rec_loc,
        rec_samples=numbers[2:][rec],
        tgt_rec=np.repeat(np.arange(len(rec), dtype=np.int64), ncalls),
        tgt_name=target_index.astype(np.int64),
        tgt_count=numbers[1:][pair],
    )


def concatenated(
    parts: Sequence[ProfileColumns],
    names: list[str],
    contexts: list[SampleContext] | None = None,
    name_maps: Sequence[Ints] | None = None,
) -> ProfileColumns:
    """The profiles of ``parts`` one after the other, as one read gives them: the
    nodes and records of each part numbered after the earlier parts'; names indexes
    taken through each part's ``name_maps`` (its table's index in ``names``) if given."""
    nodes = np.cumsum([0, *(len(c.node_parent) for c in parts)]).tolist()
    records = np.cumsum([0, *(len(c.rec_node) for c in parts)]).tolist()

    def named(k: int, index: Ints) -> Ints:
        return index if name_maps is None else name_maps[k][index]

    def joined(column: str) -> npt.NDArray[Any]:
        return np.concatenate([getattr(c, column) for c in parts])

    def parents(k: int, c: ProfileColumns) -> Ints:
        return np.where(c.node_parent < 0, c.node_parent, c.node_parent + nodes[k])

    return ProfileColumns(
        names=names,
        contexts=contexts,
        node_parent=np.concatenate([parents(k, c) for k, c in enumerate(parts)]),
        node_name=np.concatenate([named(k, c.node_name) for k, c in enumerate(parts)]),
        node_total=joined("node_total"),
        node_head=joined("node_head"),
        node_site=joined("node_site"),
        rec_node=np.concatenate([c.rec_node + nodes[k] for k, c in enumerate(parts)]),
        rec_loc=joined("rec_loc"),
        rec_samples=joined("rec_samples"),
        tgt_rec=np.concatenate([c.tgt_rec + records[k] for k, c in enumerate(parts)]),
        tgt_name=np.concatenate([named(k, c.tgt_name) for k, c in enumerate(parts)]),
        tgt_count=joined("tgt_count"),
    )


#: profile sections smaller than this are read by one process: a fork costs more than
#: half of them
_SPLIT_BYTES = 2 << 20


def _cut_pays(start: int, end: int) -> bool:
    """Whether a profiles section ``[start, end)`` is large enough to read in two parts."""
    return end - start >= _SPLIT_BYTES


def read_profiles(
    data: Buffer,
    start: int,
    end: int,
    names: list[str],
    contexts: list[SampleContext] | None,
    function_starts: Ints | None,
) -> ProfileColumns | None:
    """:func:`walk_profiles` of ``data[start:end]``; a large section (with the offset of
    each function, from the function offset table) in two parts, cut at the function
    nearest its middle, the second read by a forked child when a CPU is idle for it.

    Each part must be whole functions: the first part's walk ending exactly at the
    cut proves the cut is where one read finds a function.  A part that declines (a
    wrong offset table, say) leaves the section to one read here."""
    cut = _middle_function(function_starts, start, end)
    if cut is not None:
        parts = in_two(
            partial(_walk, data, start, cut, names, contexts),
            partial(_part_of, data, cut, end, names, contexts),
        )
        mine, theirs = parts or (None, None)
        if mine is not None and theirs is not None:
            return concatenated([mine, theirs], names, contexts)
    return _walk(data, start, end, names, contexts)


def _middle_function(function_starts: Ints | None, start: int, end: int) -> int | None:
    """Where the function nearest the middle of ``data[start:end]`` starts (offsets
    from ``start``), if the section is large enough to cut."""
    if function_starts is None or not _cut_pays(start, end):
        return None
    starts = function_starts[(function_starts > 0) & (function_starts < end - start)]
    if not len(starts):
        return None
    middle = (end - start) // 2
    return start + int(starts[np.argmin(np.abs(starts - middle))])


def _walk(
    data: Buffer, start: int, end: int, names: list[str], contexts: list[SampleContext] | None
) -> ProfileColumns | None:
    return walk_profiles(decode_run(data, start, end), end, names, contexts)


def _part_of(
    data: Buffer, start: int, end: int, names: list[str], contexts: list[SampleContext] | None
) -> ProfileColumns | None:
    """A forked child's part: its columns without the name tables (the parent has them)."""
    part = _walk(data, start, end, names, contexts)
    return None if part is None else replace(part, names=[], contexts=None)


class _ColumnReader(_Reader):
    """The ext-binary reader with the LBR profiles walked into :class:`ProfileColumns`."""

    def __init__(self, data: memoryview, path: str | None, release: Release) -> None:
        super().__init__(data, path, release)
        self.columns: ProfileColumns | None = None
        self.declined = False
        #: where each function starts in the profiles section (the function offset table)
        self.function_starts: Ints | None = None

    def decode(self, cur: ByteReader, entry: SecHdrTableEntry) -> None:
        if entry.type == SecType.FUNC_METADATA:
            self.metadata_columns(cur, entry)
        elif entry.type == SecType.LBR_PROFILE:
            self.profile_columns(cur)
        elif entry.type == SecType.FUNC_OFFSET_TABLE:
            self.offset_table(cur)
        else:
            super().decode(cur, entry)

    def offset_table(self, cur: ByteReader) -> None:
        """``readFuncOffsetTable``'s offsets, only to cut the profiles section (which
        checks them): a count, then a function's name index and offset each.  Releases
        that read the table (14-18) also fail on it as :meth:`func_offset_table` does."""
        run = decode_run(cur.data, cur.pos, cur.end)
        numbers = run.array
        if run.end == cur.end and len(numbers) and len(numbers) == 1 + 2 * int(numbers[0]):
            offsets = numbers[2::2]
            if int(offsets.max(initial=0)) < 1 << 62:
                self.function_starts = np.sort(offsets.astype(np.int64))
        if self.stepped_over(SecType.FUNC_OFFSET_TABLE):
            cur.pos = cur.end
        else:  # left where the table ends: the section must end there too
            self.func_offset_table(cur)

    def profile_columns(self, cur: ByteReader) -> None:
        cs = self.profile.is_cs
        # 13 spells CS contexts as names (no CS name table); vtable samples are not walked
        if (
            (cs and self.release.sample_string_map_profiles)
            or self.has_vtables
            or self.columns is not None
        ):
            self.declined = True
        else:
            tops = self.contexts if cs else None
            starts = self.function_starts
            self.columns = read_profiles(cur.data, cur.pos, cur.end, self.names, tops, starts)
            self.declined = self.columns is None
        cur.pos = cur.end

    def metadata_columns(self, cur: ByteReader, entry: SecHdrTableEntry) -> None:
        """``readFuncMetadata`` of a CS profile: a checksum and attributes per context
        (top level only).  A plain profile's metadata may create inlined instances:
        declined, as is metadata before the profiles (it would apply to nothing)."""
        probe = entry.has(FLAG_PROBE_BASED)
        attributes = entry.has(FLAG_HAS_ATTRIBUTE)
        self.profile.is_probe_based = probe
        self.profile.probe_flag_read = True
        columns = self.columns
        if not self.profile.is_cs or columns is None:
            self.declined = True
            return
        run = decode_run(cur.data, cur.pos, cur.end)
        values = run.values
        contexts = self.contexts
        meta = columns.metadata
        i = 0
        try:
            while i < len(values):
                context = contexts[values[i]]
                i += 1
                checksum = attrs = None
                if probe:
                    checksum = values[i]
                    i += 1
                if attributes:
                    attrs = values[i]
                    i += 1
                    if attrs > U32:
                        raise ColumnsDeclined
                old = meta.get(context, (0, 0))
                meta[context] = (
                    old[0] if checksum is None else checksum,
                    old[1] if attrs is None else attrs,
                )
        except (IndexError, ColumnsDeclined):
            self.declined = True
        if i != len(values) or run.end != cur.end:
            self.declined = True
        cur.pos = cur.end


def read_columns(
    view: memoryview, path: str | None, release: Release
) -> tuple[SampleProfile, ProfileColumns | None] | None:
    """An ext-binary profile's other sections as :func:`sample_extbinary.read` reads them,
    and its profiles as columns (``None`` without an LBR section); ``None`` to decline."""
    try:
        table = read_section_table(ByteReader(view, path=path))
        with collector_paused():
            reader = _ColumnReader(view, path, release)
            for entry in table:
                if entry.size:
                    reader.section(entry)
                    if reader.declined or reader.recheck:
                        return None
    except ProfdataError:
        return None
    return reader.profile, reader.columns


def read_binary_columns(
    view: memoryview, path: str | None, release: Release
) -> tuple[SampleProfile, ProfileColumns] | None:
    """:func:`read_columns` of an ``SPF_Binary`` profile (``sample_binary.read``: header,
    summary, name table, then profiles to the end; repeated profiles are left in the
    columns, for the merge to add or to decline where the release replaces them)."""
    del release  # the walk is the same in every release; what differs declines
    try:
        cur = ByteReader(view, path=path)
        read_magic(cur, SPF_BINARY)
        summary = read_summary(cur)
        names = read_name_table(cur)
    except ProfdataError:
        return None
    cut = None
    if _cut_pays(cur.pos, cur.end):  # no function offset table: a start is guessed
        cut = guessed_cut(cur.data, cur.pos, cur.end, len(names))
    starts = None if cut is None else np.array([cut], dtype=np.int64)
    columns = read_profiles(cur.data, cur.pos, cur.end, names, None, starts)
    if columns is None:
        return None
    return SampleProfile(format="binary", summary=summary), columns


__all__ = [
    "ProfileColumns",
    "concatenated",
    "read_binary_columns",
    "read_columns",
    "read_profiles",
    "walk_profiles",
]
