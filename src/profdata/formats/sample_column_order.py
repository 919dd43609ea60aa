"""Sample profile columns put in the order LLVM's printers and text writer walk them.

``FunctionSamples::print``, ``dumpJson`` and ``SampleProfileWriterText`` walk a
profile the same way: top-level profiles by TotalSamples descending then name
(``sortFuncProfiles``), and in each profile its body lines by location, each
line's call targets by count descending then name, then its call sites by
location and the callees at one site by name, recursively.  The object
printers sort one small dict at a time; :class:`ColumnOrder` sorts every
node, line and target of a :class:`~profdata.formats.sample_columns.ProfileColumns`
at once, so that a printer only formats.

Columns come from one file (a column reader) or a merge; a file may repeat a
function, a callee at one site, a body line or a call target, which the
object readers sum (and some releases replace): :meth:`ColumnOrder.ordered`
answers False for those, and the caller takes the object path.  Names are
ordered as ``StringRef`` bytes (plain names only: MD5 names, which order as
numbers from LLVM 18, are the caller's to decline).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from profdata.formats.row_text import (
    Decimal,
    Field,
    Pick,
    Scratch,
    Strings,
    index_type,
    render_rows,
)
from profdata.formats.sample_columns import ProfileColumns
from profdata.model.counters import value_counts
from profdata.model.instr import distinct, spans
from profdata.model.names import name_bytes, names_bytes
from profdata.model.record_table import Ints, U64s
from profdata.model.sample import LineLocation
from profdata.model.summary import DEFAULT_CUTOFFS, ProfileSummary, detailed_entries
from profdata.pieces import Chunks

U32 = 0xFFFFFFFF
#: nodes nested deeper than this are left to the object path: the printers' text for
#: a node holds its depth's indent and the closing brackets of the nodes it ends, so
#: the padded tables they are rendered from grow with the square of the depth
DEEPEST = 24
#: packed int64 keys (node, location; parent, site, name; line, name) stay below this
_KEY_LIMIT = 1 << 62


def _name_ranks(names: Sequence[str]) -> tuple[Ints, Ints]:
    """Each name-table entry's first index (equal names are one name) and its rank in
    byte order, as ``StringRef`` compares them."""
    first: dict[str, int] = {}
    canon = np.array([first.setdefault(n, i) for i, n in enumerate(names)], dtype=np.int64)
    unique = list(first)
    if all(map(str.isascii, unique)):  # code points are the bytes
        ordered = sorted(range(len(unique)), key=unique.__getitem__)
    else:
        keys = [name_bytes(n) for n in unique]
        ordered = sorted(range(len(unique)), key=keys.__getitem__)
    rank_of_unique = np.empty(len(unique), dtype=np.int64)
    rank_of_unique[np.array(ordered, dtype=np.int64)] = np.arange(len(unique), dtype=np.int64)
    position = np.zeros(len(names), dtype=np.int64)
    position[np.array(list(first.values()), dtype=np.int64)] = np.arange(
        len(unique), dtype=np.int64
    )
    return canon, rank_of_unique[position[canon]]


def _has_repeats(keys: Ints) -> bool:
    return len(distinct(keys)) != len(keys)


def _identity(count: int) -> Ints:
    return np.arange(count, dtype=np.int64)


def _ascending(keys: Ints) -> bool:
    """Whether ``keys`` never decrease (then a stable sort keeps them where they are)."""
    return len(keys) < 2 or bool(np.all(keys[1:] >= keys[:-1]))


def _target_order(line: Ints, count: U64s, rank: Ints) -> Ints:
    """Call targets by line, count descending, then name rank: the order LLVM 14-22's
    writers put them in, so a file they wrote is checked rather than sorted."""
    if len(line) > 1:
        a, b = slice(None, -1), slice(1, None)
        later_line = line[b] > line[a]
        same_line = line[b] == line[a]
        fewer = count[b] < count[a]
        tie = (count[b] == count[a]) & (rank[b] >= rank[a])
        if bool(np.all(later_line | (same_line & (fewer | tie)))):
            return _identity(len(line))
    return _order_by(line, _descending(count), rank)


def _descending(values: U64s) -> U64s:
    """Keys that sort ``values`` from the largest down (as small as the values allow)."""
    result: U64s = np.uint64(int(values.max(initial=0))) - values
    return result


def _order_by(*keys: Ints | U64s) -> Ints:
    """``np.lexsort`` of the non-negative ``keys``, the most significant first: one stable
    sort of the keys packed into one number where their bits fit (840k call targets
    of a text profile not in LLVM's order: 11 ms against lexsort's 260 ms), else
    lexsort."""
    widths = [int(k.max(initial=0)).bit_length() for k in keys]
    if sum(widths) > 62:
        return np.lexsort(keys[::-1])
    packed = keys[0].astype(np.int64)
    for key, width in zip(keys[1:], widths[1:], strict=True):
        packed <<= width
        packed |= key.astype(np.int64)
    order: Ints = np.argsort(packed, kind="stable")
    return order


#: the largest table of location slots that :func:`_factorize` numbers directly
_DENSE_SLOTS = 1 << 22


def _factorize(locations: U64s) -> tuple[U64s, Ints]:
    """The distinct packed locations in order, and each location's index among them
    (``np.unique(..., return_inverse=True)``).  Offsets fit 16 bits and discriminators
    are usually small: then a table with a slot per (offset, discriminator) pair numbers
    them in one pass instead of a sort of every line."""
    if len(locations):
        offsets = locations >> np.uint64(32)
        discriminators = locations & np.uint64(U32)
        width = int(discriminators.max()) + 1
        slots = (int(offsets.max()) + 1) * width
        if slots <= _DENSE_SLOTS:
            slot = (offsets * np.uint64(width) + discriminators).astype(np.int64)
            used = np.zeros(slots, dtype=bool)
            used[slot] = True
            present = np.flatnonzero(used)
            number = np.cumsum(used, dtype=np.int64) - 1
            values = ((present // width).astype(np.uint64) << np.uint64(32)) | (
                present % width
            ).astype(np.uint64)
            return values, number[slot]
    values, index = np.unique(locations, return_inverse=True)
    return values, index.reshape(-1)


def _depths(parents: Ints, passes: int) -> Ints:
    """Each node's depth (a top-level node's is 0, a callee's one more than its caller's),
    at most ``passes``: after pass k every node holds the smaller of its depth and k."""
    depths = np.zeros(len(parents), dtype=np.int64)
    inner = np.flatnonzero(parents >= 0)
    callers = parents[inner]
    for _ in range(passes):
        deeper = depths[callers] + 1
        if np.array_equal(deeper, depths[inner]):
            break
        depths[inner] = deeper
    return depths


def location_text(value: int) -> str:
    """``LineLocation``'s text of a packed ``offset << 32 | discriminator``."""
    return str(LineLocation(value >> 32, value & U32))


class ColumnOrder:
    """The columns in print order: ``top`` (top-level nodes), ``children`` (each node's
    inlined callees), ``order`` (body lines; a node's lines are ``first_line[node]``
    up to ``first_line[node + 1]``) and the call targets by line."""

    def __init__(self, cols: ProfileColumns) -> None:
        self.cols = cols
        self.names = cols.names
        self.canon, self.rank = _name_ranks(cols.names)

    def ordered(self) -> bool:
        """Put everything in print order; False for a profile the object path must
        print (a repeat the object readers would sum)."""
        return self.tree() and self.lines()

    def tree(self) -> bool:
        """Depths, each node's inlined callees in print order (call site, then name) and
        the top-level order (TotalSamples descending, then name); False for a repeat or
        a nesting deeper than :data:`DEEPEST`."""
        cols = self.cols
        parents = cols.node_parent
        self.depths = _depths(parents, DEEPEST + 1)
        if int(self.depths.max(initial=0)) > DEEPEST:
            return False
        top = np.flatnonzero(parents < 0)
        if _has_repeats(self.canon[cols.node_name[top]]):
            return False
        by = _order_by(_descending(cols.node_total[top]), self.rank[cols.node_name[top]])
        self.top = top[by].tolist()
        inner = np.flatnonzero(parents >= 0)
        self.site_values, site_ids = np.unique(cols.node_site[inner], return_inverse=True)
        site_ids = site_ids.reshape(-1)
        #: each inlined node's call site, an index into ``site_values`` (0 for the others)
        self.site_of = np.zeros(len(parents), dtype=np.int64)
        self.site_of[inner] = site_ids
        #: every inlined node, by caller and then in print order
        self.callees = inner
        #: how many callees each node has
        self.callee_count = np.bincount(parents[inner], minlength=len(parents))
        if len(inner):
            names = len(self.names)
            if len(parents) * len(self.site_values) * names >= _KEY_LIMIT:
                return False  # the packed keys below would not fit
            keys = (parents[inner] * len(self.site_values) + site_ids) * names
            if _has_repeats(keys + self.canon[cols.node_name[inner]]):
                return False
            # by caller, call site, then name: the keys above with the name's rank
            self.callees = inner[np.argsort(keys + self.rank[cols.node_name[inner]], kind="stable")]
        return True

    @cached_property
    def children(self) -> list[list[int]]:
        """Each node's callees in print order, as lists (for the walks that go node by
        node; the dumps take the arrays)."""
        children: list[list[int]] = [[] for _ in range(len(self.cols.node_parent))]
        callers, _ = self._callers()
        for node, caller in zip(self.callees.tolist(), callers.tolist(), strict=True):
            children[caller].append(node)
        return children

    def later_callees(self) -> npt.NDArray[np.bool_]:
        """Which nodes are a callee printed after another of the same caller."""
        later = np.zeros(len(self.cols.node_parent), dtype=bool)
        later[self.callees[~self._callers()[1]]] = True
        return later

    def _callers(self) -> tuple[Ints, npt.NDArray[np.bool_]]:
        """The caller of each of :attr:`callees`, and whether it is its caller's first."""
        callers = self.cols.node_parent[self.callees]
        first = np.ones(len(callers), dtype=bool)
        first[1:] = callers[1:] != callers[:-1]
        return callers, first

    def lines(self) -> bool:
        """Body lines in print order (by node, then location) and where each node's
        lines start; call targets in print order (by line, count descending, then
        name); False for a repeat the object readers would sum."""
        cols = self.cols
        self.loc_values, loc_ids = _factorize(cols.rec_loc)
        nodes, names = len(cols.node_parent), len(self.names)
        if max(nodes * len(self.loc_values), len(cols.rec_loc) * names) >= _KEY_LIMIT:
            return False  # the packed keys below would not fit
        keys = cols.rec_node * max(len(self.loc_values), 1) + loc_ids
        # a file LLVM wrote has every node's lines in order already
        order = _identity(len(keys)) if _ascending(keys) else np.argsort(keys, kind="stable")
        in_order = keys[order]
        if len(in_order) > 1 and bool(np.any(in_order[1:] == in_order[:-1])):
            return False
        self.order = order
        self.line_loc = loc_ids[order]
        self.line_depth = self.depths[cols.rec_node[order]]
        self.first_line = np.searchsorted(
            cols.rec_node[order], np.arange(len(cols.node_parent) + 1, dtype=np.int64)
        )
        position = np.empty(len(order), dtype=np.int64)
        position[order] = np.arange(len(order), dtype=np.int64)
        line = position[cols.tgt_rec]
        if _has_repeats(line * len(self.names) + self.canon[cols.tgt_name]):
            return False
        by = _target_order(line, cols.tgt_count, self.rank[cols.tgt_name])
        self.target_line = line[by]
        self.target_name = cols.tgt_name[by]
        self.target_count = cols.tgt_count[by]
        return True

    def preorder(self, tops: Sequence[int] | None = None) -> Ints:
        """The nodes in print order: depth first, callees in order; only the subtrees of
        ``tops`` (top-level nodes, in the order given) when given.

        A node's place is its caller's plus one plus the sizes of the subtrees of the
        callees printed before it (the top-level profiles likewise from 0), worked out
        a depth at a time: a walk node by node took 0.1 s for 190k nodes."""
        parents = self.cols.node_parent
        count = len(parents)
        depths = self.depths
        deepest = int(depths.max(initial=0))
        size = np.ones(count, dtype=np.int64)  # each node's subtree
        for depth in range(deepest, 0, -1):
            at = np.flatnonzero(depths == depth)
            size += np.bincount(parents[at], weights=size[at], minlength=count).astype(np.int64)
        place = np.zeros(count, dtype=np.int64)
        chosen = np.array(self.top if tops is None else tops, dtype=np.int64)
        # the other top-level profiles go after the chosen ones, and are cut off below
        others = parents < 0
        others[chosen] = False  # (np.setdiff1d imports numpy.ma: 10 ms of a small show)
        top = np.concatenate([chosen, np.flatnonzero(others)])
        place[top] = np.cumsum(size[top]) - size[top]
        callees = self.callees
        if len(callees):
            # after its caller, behind the subtrees of the callees before it
            callers, first = self._callers()
            before = np.cumsum(size[callees]) - size[callees]
            group_start = np.maximum.accumulate(np.where(first, np.arange(len(callees)), 0))
            offset = 1 + before - before[group_start]
            callee_depth = depths[callees]
            for depth in range(1, deepest + 1):
                mine = np.flatnonzero(callee_depth == depth)
                place[callees[mine]] = place[callers[mine]] + offset[mine]
        order = np.empty(count, dtype=np.int64)
        order[place] = np.arange(count, dtype=np.int64)
        return order[: int(size[chosen].sum())]

    def body_text(self, start: Callable[[int, int], str], lead: str) -> BodyRows:
        """Every body line as rows of a table, each node's rows together.  A line is
        ``start(depth, location)`` (location packed as ``offset << 32 |
        discriminator``), the samples, then ``lead`` and `` name:count`` per call
        target.

        A line and each of its call targets are rows of one table ``[text, number,
        text]``: the line's start and samples, then ``lead`` (or the newline of a line
        without targets); a target's `` name:`` and count, then the newline after a
        line's last target."""
        cols = self.cols
        starts, start_index = self.line_start_table(start)
        rows, per_line, head_row, target_row, last = self.line_rows()
        texts = Strings(starts + [b" " + n + b":" for n in names_bytes(self.names)])
        # the index columns as small as their tables allow (fresh pages cost ~2 ns a byte)
        text_index = np.empty(rows, dtype=index_type(len(texts)))
        text_index[head_row] = start_index
        text_index[target_row] = len(starts) + self.target_name
        numbers = np.empty(rows, dtype=np.uint64)
        numbers[head_row] = cols.rec_samples[self.order]
        numbers[target_row] = self.target_count
        ends = Strings([b"\n", lead.encode(), b""])
        end_index = np.empty(rows, dtype=index_type(len(ends)))
        end_index[head_row] = per_line > 0
        end_index[target_row] = np.where(last, 0, 2)
        fields: list[Field] = [Pick(texts, text_index), Decimal(numbers), Pick(ends, end_index)]
        return BodyRows(fields, self.node_rows(head_row, rows), self.depths)

    def node_rows(self, head_row: Ints, rows: int) -> Ints:
        """Where each node's body rows start (one more entry: the end), from each body
        line's row."""
        at: Ints = np.append(head_row, rows)[self.first_line]
        return at

    def node_leads(self, top: str, callee: Callable[[int, str], str]) -> tuple[list[bytes], Ints]:
        """What starts each node's first line, as a table and each node's entry:
        ``top`` for a top-level profile, ``callee(depth, site)`` for an inlined one."""
        sites = self.site_values.tolist()
        count = max(len(sites), 1)
        inlined = self.cols.node_parent >= 0
        key = np.where(inlined, 1 + self.depths * count + self.site_of, 0)
        keys, index = np.unique(key, return_inverse=True)
        table = [
            (callee((k - 1) // count, location_text(sites[(k - 1) % count])) if k else top).encode()
            for k in keys.tolist()
        ]
        return table, index.reshape(-1)

    def line_rows(self) -> tuple[int, Ints, Ints, Ints, npt.NDArray[np.bool_]]:
        """Body lines and their call targets as one sequence of rows, each line followed
        by its targets: how many rows, each line's target count, each line's row, each
        target's row, and whether a target is its line's last."""
        lines, targets = len(self.order), len(self.target_line)
        per_line = np.bincount(self.target_line, minlength=lines)
        head_row = np.arange(lines, dtype=np.int64) + np.cumsum(per_line) - per_line
        target_row = self.target_line + 1 + np.arange(targets, dtype=np.int64)
        last = np.ones(targets, dtype=bool)
        last[:-1] = self.target_line[1:] != self.target_line[:-1]
        return lines + targets, per_line, head_row, target_row, last

    def line_start_table(self, start: Callable[[int, int], str]) -> tuple[list[bytes], Ints]:
        """``start(depth, location)`` of every body line as a table of texts (location
        packed as ``offset << 32 | discriminator``) and each line's entry in it: made once
        per (depth, location) pair that occurs."""
        values = self.loc_values.tolist()
        count = max(len(values), 1)
        pair = self.line_depth * count + self.line_loc
        depths = int(self.depths.max(initial=0)) + 1
        if depths * count <= 2 * len(pair) + 1024:
            table = [start(d, v).encode() for d in range(depths) for v in values]
            return table, pair
        pairs, index = np.unique(pair, return_inverse=True)
        table = [start(p // count, values[p % count]).encode() for p in pairs.tolist()]
        return table, index.reshape(-1)

    def summary(self) -> ProfileSummary:
        """``SampleProfileSummaryBuilder`` over the columns, as a text reader computes it
        (:func:`~profdata.model.sample_summary.summarize_samples`): every body line of
        every node is a block, top-level profiles are the functions.  No node carries
        attributes here, so no inlinee is skipped."""
        cols = self.cols
        top = cols.node_parent < 0
        counts = cols.rec_samples
        if len(counts):
            values, freqs = value_counts(counts)
        else:
            values, freqs = np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
        total = int(counts.sum(dtype=np.uint64))  # wraps as LLVM's uint64_t sum does
        return ProfileSummary(
            num_functions=int(top.sum()) & U32,
            num_counts=len(counts) & U32,
            max_function_count=int(cols.node_head[top].max(initial=0)),
            max_count=int(values[-1]) if len(values) else 0,
            max_internal_count=0,
            total_count=total,
            detailed=detailed_entries(values, freqs, total, DEFAULT_CUTOFFS),
        )


@dataclass(frozen=True, slots=True)
class BodyRows:
    """The body rows of every node as fields of one table (:func:`render_rows`): node
    ``n``'s rows are ``at[n]`` to ``at[n + 1]``; ``classes`` (if given) puts each node
    in a class whose rows have alike widths, a higher class wider rows (the node's
    depth, where indents grow with it)."""

    fields: list[Field]
    at: Ints
    classes: Ints | None = None


#: body rows (nodes count as rows too) rendered per chunk of :class:`Framed`
_CHUNK_ROWS = 1 << 16
#: a chunk's classes are rendered together, lowest first, until they hold this many rows
_GROUP_ROWS = 1 << 12


class Framed(Chunks):
    """Each node of ``order`` in turn as its ``head`` row, its ``body`` rows and its
    ``tail`` row, after ``lead``, as pieces to write in batches, a chunk of nodes
    each, made in any order
    (:mod:`profdata.turns` has two processes make them); a batch is good only until
    the next one is made: the nodes are rendered a chunk at a time into buffers that
    every chunk reuses, so a dump of hundreds of megabytes never has its whole text
    in memory (whose fresh pages cost about as much as rendering it).

    A node's tail and the next node's head are rendered as one row (frame ``p`` of
    ``len(order) + 1``: the tail of node ``order[p - 1]``, then the head of
    ``order[p]``), and pieces that follow each other in one text (around a node
    without body rows) are one piece: a profile of 190k nodes gave 570k pieces as
    three texts, each piece a Python object to make and to write.

    A chunk's body rows are rendered a group of classes at a time, each group's
    table as wide as its own rows need: JSON rows padded to the deepest node's
    indents were three times the text (1.2 GB of table for 0.4 GB of text).
    Without ``reuse`` every batch has buffers of its own, good for ever."""

    def __init__(
        self,
        order: Ints,
        head: Sequence[Field],
        body: BodyRows,
        tail: Sequence[Field],
        lead: bytes = b"",
        *,
        reuse: bool = True,
    ) -> None:
        count = len(order)
        self._order, self._body, self._lead, self._reuse = order, body, lead, reuse
        self._frame_scratch = Scratch() if reuse else None
        self._scratches: list[Scratch | None] = []
        self._bounds: list[int] = []
        if not count:
            return
        rows = count + 1
        valid = np.ones(rows, dtype=bool)
        before = np.concatenate([[0], order])  # frame p: the tail of the node before it
        valid[0] = False
        self._frame_fields = [_row_field(f, before, valid) for f in tail]
        after = np.append(order, 0)  # frame p: the head of node order[p]
        valid = np.ones(rows, dtype=bool)
        valid[count] = False
        self._frame_fields += [_row_field(f, after, valid) for f in head]
        self._sizes = sizes = np.diff(body.at)[order]  # body rows of each node in print order
        self._classes = (
            np.zeros(count, dtype=np.int64) if body.classes is None else body.classes[order]
        )
        # chunks of whole nodes: a node weighs its rows and one more
        weight = np.cumsum(sizes + 1) - (sizes + 1)
        chunk = weight // _CHUNK_ROWS
        self._bounds = [0, *(np.flatnonzero(chunk[1:] != chunk[:-1]) + 1).tolist(), count]

    def __len__(self) -> int:
        """The chunks and the last frame; none without a node (nor ``lead``)."""
        return len(self._bounds)

    def render(self, k: int) -> list[memoryview]:
        lead = [memoryview(self._lead)] if k == 0 and self._lead else []
        if k == len(self._bounds) - 1:  # the last node's tail
            rows = len(self._order) + 1
            last = [_rows_of(f, slice(rows - 1, rows)) for f in self._frame_fields]
            frames, _ = render_rows(last, 1)
            return [*lead, frames.data] if len(frames) else lead
        return lead + self._chunk(self._bounds[k], self._bounds[k + 1])

    def _chunk(self, first: int, last: int) -> list[memoryview]:
        """Nodes ``first`` to ``last`` of the order, with the frames before each."""
        body = self._body
        frames, frame_at = render_rows(
            [_rows_of(f, slice(first, last)) for f in self._frame_fields],
            last - first,
            self._frame_scratch,
        )
        nodes = self._order[first:last]
        lengths = self._sizes[first:last]
        group = _groups(self._classes[first:last], lengths)
        texts = [frames.data]
        source = np.zeros(len(nodes), dtype=np.int64)
        start = np.zeros(len(nodes), dtype=np.int64)
        end = np.zeros(len(nodes), dtype=np.int64)
        for g in range(int(group.max()) + 1):
            mine = np.flatnonzero(group == g)
            if g == len(self._scratches):
                self._scratches.append(Scratch() if self._reuse else None)
            picked = spans(body.at[nodes[mine]], lengths[mine])
            text, text_at = render_rows(
                [_rows_of(f, picked) for f in body.fields], len(picked), self._scratches[g]
            )
            node_at = np.zeros(len(mine) + 1, dtype=np.int64)
            np.cumsum(lengths[mine], out=node_at[1:])
            source[mine] = len(texts)
            start[mine], end[mine] = text_at[node_at[:-1]], text_at[node_at[1:]]
            texts.append(text.data)
        return _interleaved(texts, frame_at, source, start, end)


def _groups(classes: Ints, lengths: Ints) -> Ints:
    """Each node's group: its class and the next ones up, lowest first, until they hold
    :data:`_GROUP_ROWS` rows."""
    held = np.bincount(classes, weights=lengths).astype(np.int64)
    group = np.zeros(len(held), dtype=np.int64)
    current = total = 0
    for k, n in enumerate(held.tolist()):
        group[k] = current
        total += n
        if total >= _GROUP_ROWS:
            current, total = current + 1, 0
    grouped: Ints = group[classes]
    return grouped


def _interleaved(
    texts: list[memoryview], frame_at: Ints, source: Ints, start: Ints, end: Ints
) -> list[memoryview]:
    """Frame 0, body 0, frame 1, ... body ``n - 1`` of one chunk (``n`` nodes; frames
    in ``texts[0]``, node ``i``'s body in ``texts[source[i]]`` from ``start[i]`` to
    ``end[i]``), empty pieces dropped and pieces that continue each other in one text
    made one."""
    count = len(source)
    sources = np.zeros(2 * count, dtype=np.int64)
    sources[1::2] = source
    starts = np.empty(2 * count, dtype=np.int64)
    ends = np.empty(2 * count, dtype=np.int64)
    starts[0::2], ends[0::2] = frame_at[:-1], frame_at[1:]
    starts[1::2], ends[1::2] = start, end
    kept = ends > starts
    sources, starts, ends = sources[kept], starts[kept], ends[kept]
    if not len(starts):
        return []
    joins = (sources[1:] == sources[:-1]) & (starts[1:] == ends[:-1])
    first = np.flatnonzero(np.concatenate([[True], ~joins]))
    last = np.append(first[1:], len(starts)) - 1
    return [
        texts[k][a:b]
        for k, a, b in zip(
            sources[first].tolist(), starts[first].tolist(), ends[last].tolist(), strict=True
        )
    ]


def _rows_of(field: Field, rows: Ints | slice) -> Field:
    """``field`` of the chosen rows."""
    if isinstance(field, bytes):
        return field
    if isinstance(field, Pick):
        return Pick(field.table, field.index[rows])
    return Decimal(field.values[rows], None if field.where is None else field.where[rows])


def _row_field(field: Field, nodes: Ints, valid: npt.NDArray[np.bool_]) -> Field:
    """``field`` of a table of nodes as a field of rows, row ``r`` showing node
    ``nodes[r]`` where ``valid`` and nothing elsewhere."""
    if isinstance(field, bytes):
        return Pick(Strings([field]).plus_empty(), (~valid).astype(np.int64))
    if isinstance(field, Pick):
        empty = len(field.table)
        return Pick(field.table.plus_empty(), np.where(valid, field.index[nodes], empty))
    where = valid if field.where is None else valid & field.where[nodes]
    return Decimal(field.values[nodes], where)


__all__ = ["BodyRows", "ColumnOrder", "Framed", "location_text"]
