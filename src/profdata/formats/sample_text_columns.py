"""Text sample profiles read into :class:`ProfileColumns`, not ``FunctionSamples``.

``merge --sample`` of many text profiles spent most of its time in the text
reader: matching every line with a regular expression and building a
``SampleRecord``, a call-target dict and a location per body line, only to
add them into the merged profile and drop them.  Here the text is scanned as
a byte array: where the lines start, how deep each is indented, where its
colons and spaces are; each line's owner is the last function or call site
one level up, and the numbers are summed from their digits, all with a few
numpy passes over the whole text.  :mod:`profdata.ops.merge_sample_columns`
then sums the columns of all inputs.

Only what the text reader's fast path (``sample_text._LINE``) reads, and reads
the same way in every release, is taken: headers ``name:total:head`` of plain
(not ``[context]``) functions, each name once; indented body lines
``loc: samples[ name:count]*`` (target names without space or colon) and
call-site lines ``loc: name:total`` (name not starting with a digit), each at
most one level deeper than the line before it.  Anything else declines
(``None``) and the caller reads the file the usual way, which decides every
error: a checksum or ``!Attributes`` line (probe-based and pre-inlined
profiles), ``vtables`` and ``!Flat`` lines, comments, blank lines, carriage
returns or a NUL, a context, a header that appears twice (releases differ on
merging or replacing it), a location out of ``ParseLine``'s ranges, a call
target named twice in one line (the reader keeps its last count), a number of
20 digits or more.
"""

from __future__ import annotations

import mmap
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain

import numpy as np
import numpy.typing as npt

from profdata.errors import ColumnsDeclined
from profdata.formats.sample_columns import ProfileColumns, concatenated
from profdata.model.instr import spans
from profdata.model.names import name_str
from profdata.model.record_table import Ints, U64s
from profdata.model.sample import SampleProfile
from profdata.offload import in_two
from profdata.releases import Release

Flags = npt.NDArray[np.bool_]

_SPACE, _COLON, _DOT, _NEWLINE = 0x20, 0x3A, 0x2E, 0x0A
_CONTEXT = 0x5B  # "["
#: a number of more digits declines (its value might not fit in 64 bits)
_MAX_DIGITS = 19
_POW10 = np.array([10**k for k in range(_MAX_DIGITS)], dtype=np.uint64)
#: bytes that make the text reader see other lines than the text's own
_ODD = (b"\0", b"\r")
_COMMENT = 0x23  # "#" starting a line: the reader skips it
#: indents deeper than this decline (each level is one pass over the lines)
_MAX_INDENT = 64
U32 = 0xFFFFFFFF


def read_text_columns(
    view: memoryview, path: str | None, release: Release
) -> tuple[SampleProfile, ProfileColumns] | None:
    """A text profile as columns, or None where the object reader must read it."""
    del path, release  # what differs between releases declines; errors are the reader's
    raw = _source(view)
    if raw[:1] in (b"", b"#", b"\n") or any(raw.find(odd) >= 0 for odd in _ODD):
        return None
    stop = len(raw) - (raw[-1:] == b"\n")
    if stop >= 1 << 62:
        return None
    try:
        columns = _read(raw, stop)
    except ColumnsDeclined:
        return None
    return SampleProfile(format="text"), columns


def _source(view: memoryview) -> bytes | mmap.mmap:
    """The bytes of ``view`` as an object whose slices are ``bytes``: the file's map or
    the bytes themselves as they are (a copy of 55 MB cost 0.06 s)."""
    whole = view.obj
    if isinstance(whole, bytes | mmap.mmap) and len(whole) == view.nbytes:
        return whole
    return bytes(view)


#: texts smaller than this are read by one process: a fork costs more than half saves
_SPLIT_BYTES = 4 << 20
#: a line that starts a function: a header after a newline
_HEADER_START = re.compile(rb"\n[^ ]")


def _read(raw: bytes | mmap.mmap, stop: int) -> ProfileColumns:
    """The columns of ``raw[:stop]``; a large text in two parts, cut between functions,
    the second read by a forked child when a CPU is idle for it."""
    found = _HEADER_START.search(raw, stop // 2, stop) if stop >= _SPLIT_BYTES else None
    if found is not None:
        cut = found.start() + 1
        parts = in_two(
            lambda: _Scan(raw, 0, cut - 1).part(), partial(_part_or_none, raw, cut, stop)
        )
        if parts is not None:
            mine, theirs = parts
            if theirs is None:
                raise ColumnsDeclined
            return joined_parts([mine, theirs])
    return _Scan(raw, 0, stop).part().columns


def _part_or_none(raw: bytes | mmap.mmap, start: int, stop: int) -> _Part | None:
    """The part of ``raw[start:stop]``, None where it declines (a forked child's result)."""
    try:
        return _Scan(raw, start, stop).part()
    except ColumnsDeclined:
        return None


@dataclass(frozen=True, slots=True)
class _Part:
    """The columns of a stretch of whole functions, names by the stretch's own table:
    first the names of its headers (``tops`` of them), then those first named by a
    call site (``callees``), then by a call target."""

    columns: ProfileColumns
    tops: int
    callees: int


def joined_parts(parts: Sequence[_Part]) -> ProfileColumns:
    """The columns of the stretches one after the other, as read in one: the name table
    is every part's header names, then every part's call-site names, then the call
    targets' (the order of one read: names in order of first use, headers first)."""
    tables = [p.columns.names for p in parts]
    tops = [n for p in parts for n in p.columns.names[: p.tops]]
    if len(set(tops)) < len(tops):
        raise ColumnsDeclined  # a header twice: releases merge or replace it
    callees = [n for p in parts for n in p.columns.names[p.tops : p.tops + p.callees]]
    targets = [n for p in parts for n in p.columns.names[p.tops + p.callees :]]
    names = list(dict.fromkeys(chain(tops, callees, targets)))
    ids = dict(zip(names, range(len(names)), strict=True)).__getitem__
    new_id = [np.fromiter(map(ids, table), np.int64, len(table)) for table in tables]
    return concatenated([p.columns for p in parts], names, None, new_id)


class _Marks:
    """Where one kind of byte is in the text (the text's end appended), searched for
    the next one after any offset and the number in any range."""

    def __init__(self, text: npt.NDArray[np.uint8], byte: int) -> None:
        # the text's end marked too: one array of positions, not a second one joined
        mask = np.empty(len(text) + 1, dtype=bool)
        np.equal(text, byte, out=mask[:-1])
        mask[-1] = True
        self.at: Ints = np.flatnonzero(mask)

    def rank(self, start: Ints) -> Ints:
        """How many come before each of ``start``."""
        before: Ints = np.searchsorted(self.at, start)
        return before

    def next(self, start: Ints) -> Ints:
        """The first one at or after each of ``start`` (the text's end if none)."""
        return self.of_rank(self.rank(start))

    def of_rank(self, rank: Ints) -> Ints:
        """The ``rank``-th of them (the text's end past the last)."""
        found: Ints = self.at[np.minimum(rank, len(self.at) - 1)]
        return found


@dataclass(frozen=True, slots=True)
class _Ranks:
    """For each indented line, ranks in the text's marks: the first space at or after its
    rest's start, the spaces before its end, the first colon after its rest's start
    (found from one search for every line instead of one per use)."""

    space: Ints
    space_end: Ints
    colon: Ints

    def rows(self, rows: Ints) -> _Ranks:
        return _Ranks(self.space[rows], self.space_end[rows], self.colon[rows])


class _Scan:
    """The text as bytes with its lines, colons, spaces, dots and digits marked, to
    check and cut every line with whole-array steps."""

    def __init__(self, raw: bytes | mmap.mmap, start: int, stop: int) -> None:
        self.raw = raw
        self.base = start  # where the stretch read starts in ``raw``
        text = np.frombuffer(raw, dtype=np.uint8, count=stop - start, offset=start)
        self.text = text
        size = len(text)
        self.size = size
        newlines = np.flatnonzero(text == _NEWLINE)
        self.starts: Ints = np.concatenate([np.zeros(1, dtype=np.int64), newlines + 1])
        self.ends: Ints = np.concatenate([newlines, np.array([size], dtype=np.int64)])
        self.colons = _Marks(text, _COLON)
        self.spaces = _Marks(text, _SPACE)
        self.dots = _Marks(text, _DOT)

    def _indents(self) -> Ints:
        """Each line's first byte that is not a space (a deep indent declines)."""
        first = self.starts.copy()
        lines = np.arange(len(first))
        for _ in range(_MAX_INDENT):
            spaced = self.text[np.minimum(first[lines], self.size - 1)] == _SPACE
            lines = lines[spaced & (first[lines] < self.ends[lines])]
            if not len(lines):
                return first
            first[lines] += 1
        raise ColumnsDeclined

    def _byte(self, at: Ints) -> npt.NDArray[np.uint8]:
        return self.text[np.minimum(at, self.size - 1)]

    def _require(self, ok: Flags) -> None:
        if not bool(np.all(ok)):
            raise ColumnsDeclined

    def _numbers(self, start: Ints, end: Ints) -> U64s:
        """The value of each ``[start, end)``, which must be 1 to 19 digits: a digit of
        every number per pass, as many passes as the longest has digits."""
        length = end - start
        self._require((length > 0) & (length <= _MAX_DIGITS))
        if not len(start):
            return np.zeros(0, dtype=np.uint64)
        text = self.text
        # the first digit of every number, then each next one of the numbers still going
        # (inside the text: a range ends at or before it)
        digits = text[start] - np.uint8(0x30)
        self._require(digits < np.uint8(10))
        values = digits.astype(np.uint64)
        going = np.flatnonzero(length > 1)
        k = 1
        while len(going):
            digits = text[start[going] + k] - np.uint8(0x30)
            self._require(digits < np.uint8(10))
            values[going] = values[going] * np.uint64(10) + digits
            k += 1
            going = going[length[going] > k]
        return values

    def _names(self, start: Ints, end: Ints) -> list[bytes]:
        raw, base = self.raw, self.base
        if base:
            start, end = start + base, end + base
        return [raw[s:e] for s, e in zip(start.tolist(), end.tolist(), strict=True)]

    # -- the lines ----------------------------------------------------------------------
    def part(self) -> _Part:
        starts, ends = self.starts, self.ends
        first = self._indents()
        self._require(first < ends)  # a blank line, or one of spaces only: release-dependent
        # a comment line (found here, a line at a time: a search of the text for "\n#"
        # stalls at every newline, 58 ms for 55 MB against 5 ms for one byte)
        self._require(self._byte(starts) != _COMMENT)
        depth = first - starts
        header = depth == 0
        self._require(header[:1])
        heads = np.flatnonzero(header)
        owned = np.flatnonzero(~header)
        top_names, top_total, top_head = self._headers(starts[heads], ends[heads])
        site, rest, colon_rank = self._locations(first[owned], ends[owned])
        self._require(rest < ends[owned])
        ranks = self._ranks(first, depth, owned, colon_rank)
        lead = self._byte(rest)
        body = (lead - np.uint8(0x30)) < np.uint8(10)
        callee = ~body & (lead != _SPACE) & (lead != _COLON)
        self._require(body | callee)
        body_rows = np.flatnonzero(body)
        callee_rows = np.flatnonzero(callee)
        samples, targets = self._bodies(
            rest[body_rows], ends[owned][body_rows], ranks.rows(body_rows)
        )
        callee_names, callee_total = self._callees(
            rest[callee_rows], ends[owned][callee_rows], ranks.rows(callee_rows)
        )
        tgt_count_per, target_names, target_counts = targets

        # each indented line belongs to the last function or call site one level up; a
        # line at most one level deeper than the InlineStack's height before it
        node = header.copy()
        node[owned[callee_rows]] = True
        height = depth + node
        self._require(depth[1:] <= height[:-1])
        node_lines = np.flatnonzero(node)
        level = depth[node_lines]
        owned_depth = depth[owned]
        owner = np.zeros(len(owned), dtype=np.int64)
        for up in range(int(depth.max())):
            at = np.flatnonzero(level == up)
            mine = np.flatnonzero(owned_depth == up + 1)
            owner[mine] = at[np.searchsorted(node_lines[at], owned[mine], side="right") - 1]

        if len(set(top_names)) < len(top_names):
            raise ColumnsDeclined  # a header twice: releases merge or replace it
        first_use = dict.fromkeys(top_names + callee_names)
        callees = len(first_use) - len(top_names)
        first_use.update(dict.fromkeys(target_names))
        names = list(first_use)
        ids = dict(zip(names, range(len(names)), strict=True)).__getitem__
        is_top = header[node_lines]
        inlined = ~is_top
        count = len(node_lines)
        node_parent = np.full(count, -1, dtype=np.int64)
        node_parent[inlined] = owner[callee_rows]
        node_site = np.zeros(count, dtype=np.uint64)
        node_site[inlined] = site[callee_rows]
        node_total = np.zeros(count, dtype=np.uint64)
        node_total[is_top] = top_total
        node_total[inlined] = callee_total
        node_head = np.zeros(count, dtype=np.uint64)
        node_head[is_top] = top_head
        node_name = np.zeros(count, dtype=np.int64)
        node_name[is_top] = np.fromiter(map(ids, top_names), np.int64, len(top_names))
        node_name[inlined] = np.fromiter(map(ids, callee_names), np.int64, len(callee_names))
        tgt_rec = np.repeat(np.arange(len(body_rows), dtype=np.int64), tgt_count_per)
        tgt_name = np.fromiter(map(ids, target_names), np.int64, len(target_names))
        # a target named twice in a line: the reader keeps its last count
        keys = np.sort(tgt_rec * len(names) + tgt_name, kind="stable")
        self._require(keys[1:] != keys[:-1])
        columns = ProfileColumns(
            names=[name_str(n) for n in names],
            contexts=None,
            node_parent=node_parent,
            node_name=node_name,
            node_total=node_total,
            node_head=node_head,
            node_site=node_site,
            rec_node=owner[body_rows],
            rec_loc=site[body_rows],
            rec_samples=samples,
            tgt_rec=tgt_rec,
            tgt_name=tgt_name,
            tgt_count=target_counts,
        )
        return _Part(columns, len(top_names), callees)

    def _ranks(self, first: Ints, depth: Ints, owned: Ints, colon_rank: Ints) -> _Ranks:
        """The :class:`_Ranks` of the indented lines ``owned`` from one search: the
        spaces before each line's first byte past its indent, and so before its start
        (its indent is spaces) and before the previous line's end (a newline)."""
        ranks = self.spaces.rank(first)
        # an indented line's rest comes after ``LOC: ``: digits, a dot and one space
        rest = ranks[owned]
        rest += 1
        ranks -= depth  # now before each line's start
        after = owned + 1
        last = len(after) > 0 and int(after[-1]) == len(ranks)
        if last:
            after[-1] = 0
        end = ranks[after]
        if last:  # the text's last line: every space is before its end
            end[-1] = len(self.spaces.at) - 1
        del ranks, after
        colon_rank += 1  # a rest's first colon follows its location's
        return _Ranks(rest, end, colon_rank)

    def _headers(self, starts: Ints, ends: Ints) -> tuple[list[bytes], U64s, U64s]:
        """``name:total:head``: the name ends at the second-to-last colon."""
        colons = self.colons
        last = colons.rank(ends) - 1
        self._require(last >= 1)
        second, final = colons.at[last - 1], colons.at[last]
        self._require(second > starts)
        self._require(self._byte(starts) != _CONTEXT)
        return (
            self._names(starts, second),
            self._numbers(second + 1, final),
            self._numbers(final + 1, ends),
        )

    def _locations(self, starts: Ints, ends: Ints) -> tuple[U64s, Ints, Ints]:
        """``NUM[.NUM]: `` of indented lines as ``offset << 32 | discriminator`` (a bare
        offset at most 0xffff, a pair 32 bits each, as ``ParseLine`` takes them), where
        the rest of each line starts, and the rank of its colon among the colons."""
        colon_rank = self.colons.rank(starts)
        colon = self.colons.at[colon_rank]
        self._require((colon + 1 < ends) & (self._byte(colon + 1) == _SPACE))
        dot = self.dots.next(starts)
        pair = dot < colon
        self._require(self.dots.next(dot[pair] + 1) >= colon[pair])
        offset = self._numbers(starts, np.where(pair, dot, colon))
        disc = np.zeros(len(starts), dtype=np.uint64)
        disc[pair] = self._numbers(dot[pair] + 1, colon[pair])
        limit = np.where(pair, np.uint64(U32), np.uint64(0xFFFF))
        self._require((offset <= limit) & (disc <= np.uint64(U32)))
        return (offset << np.uint64(32)) | disc, colon + 2, colon_rank

    def _bodies(
        self, starts: Ints, ends: Ints, ranks: _Ranks
    ) -> tuple[U64s, tuple[Ints, list[bytes], U64s]]:
        """``samples[ name:count]*``: the samples, and per line its number of targets,
        then every target's name and count.

        The line's spaces from the first after the samples on each lead a target,
        and its colons after the rest's start are the targets' own, one each (their
        ranks taken as that, then checked)."""
        spaces, colons = self.spaces, self.colons
        low = ranks.space  # the first space at or after the rest's start
        stop = np.minimum(spaces.at[low], ends)
        samples = self._numbers(starts, stop)
        per_line = ranks.space_end - low
        self._require(per_line >= 0)
        at = spans(low, per_line)
        line_end = np.repeat(ends, per_line)
        last = at == np.repeat(low + per_line - 1, per_line)
        begin = spaces.at[at] + 1
        end = np.where(last, line_end, spaces.of_rank(at + 1))
        # the k-th target's colon is the k-th after the rest's start if each has one:
        # then it lies inside the target and the one after it past the target's end
        colon_rank = spans(ranks.colon, per_line)
        colon = colons.of_rank(colon_rank)
        self._require((colon > begin) & (colon < end))
        self._require(colons.of_rank(colon_rank + 1) >= end)
        return samples, (per_line, self._names(begin, colon), self._numbers(colon + 1, end))

    def _callees(self, starts: Ints, ends: Ints, ranks: _Ranks) -> tuple[list[bytes], U64s]:
        """``name:total``, the name without space or colon."""
        colon = self.colons.of_rank(ranks.colon)
        self._require((colon < ends) & (self.spaces.of_rank(ranks.space) >= ends))
        self._require(self.colons.of_rank(ranks.colon + 1) >= ends)
        return self._names(starts, colon), self._numbers(colon + 1, ends)


__all__ = ["read_text_columns"]
