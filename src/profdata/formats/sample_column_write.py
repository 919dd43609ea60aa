"""Sample profiles written from ordered columns, without ``FunctionSamples``: text,
binary and ext-binary.

A merge of plain profiles ends as columns (``merge_as_columns`` in
``ops/merge_sample_columns.py``); building the merged profile's objects only
to write them took longer than the merge itself.
:class:`~profdata.formats.sample_column_order.ColumnOrder` puts the columns in
the writer's order, and the bytes here are what ``sample_text.write``,
``sample_binary.write`` and ``sample_extbinary_write.write`` write for the
same profile: plain names only (no context, checksum, attribute or vtable
lines and no MD5 names as input, which the callers decline), not pre-inlined
(its attributes are metadata), 14-22 order (LLVM 13 sorts ties the other way).
The binary encodings number the names the profiles use in byte order
(``stablizeNameTable``) and write each profile as ``writeBody`` does, the
numbers gathered with numpy and encoded as ULEB128 in one run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from profdata.formats._binary import ByteWriter
from profdata.formats._uleb import encode_array
from profdata.formats.row_text import Decimal, Field, Pick, Strings
from profdata.formats.sample_binary import VERSION, sp_magic, write_name_table, write_summary
from profdata.formats.sample_column_order import (
    ColumnOrder,
    Framed,
    location_text,
)
from profdata.formats.sample_extbinary_write import ExtBinaryWriteOptions, SectionWriter, assemble
from profdata.model.instr import distinct, spans
from profdata.model.names import names_bytes
from profdata.model.record_table import Ints
from profdata.model.sample import SampleContext, SampleProfile
from profdata.model.summary import ProfileSummary
from profdata.pieces import Stream

U32 = 0xFFFFFFFF


def write_text(order: ColumnOrder, mark_flat: bool = False) -> Stream:
    """``SampleProfileWriterText::write``; ``mark_flat``: LLVM 22's `` !Flat`` line after
    a top-level profile without call sites (``--split-layout`` with ``--text``).

    The body lines and each node's first line are rendered as tables
    (:func:`~profdata.formats.row_text.render_rows`) a chunk at a time, and
    the text is a stream of pieces to write as they come: the text of a large
    profile (90 MB) is never whole in memory, as ``show`` never holds its dump."""
    cols = order.cols
    body = order.body_text(lambda d, v: f"{' ' * (d + 1)}{location_text(v)}: ", "")
    top = cols.node_parent < 0
    leads, lead_index = order.node_leads("", lambda d, site: f"{' ' * d}{site}: ")
    # top: "NAME:TOTAL:HEAD"; inlined: "SITE: NAME:TOTAL"
    fields: list[Field] = [
        Pick(Strings(leads), lead_index),
        Pick(Strings([n + b":" for n in names_bytes(cols.names)]), cols.node_name),
        Decimal(cols.node_total),
        Pick(Strings([b"\n", b":"]), top.astype(np.int64)),
        Decimal(cols.node_head, top),
        Pick(Strings([b"", b"\n"]), top.astype(np.int64)),
    ]
    tail: list[Field] = []
    if mark_flat:
        flat = top & (order.callee_count == 0)
        tail.append(Pick(Strings([b"", b" !Flat\n"]), flat.astype(np.int64)))
    return Stream(Framed(order.preorder(), fields, body, tail))


def used_names(order: ColumnOrder) -> tuple[list[str], Ints]:
    """The names the profiles use (functions, callees, call targets) in byte order, and
    each name-table entry's number among them (-1: unused)."""
    cols = order.cols
    used = distinct(np.concatenate([order.canon[cols.node_name], order.canon[cols.tgt_name]]))
    by_rank = used[np.argsort(order.rank[used], kind="stable")]
    number = np.full(len(cols.names), -1, dtype=np.int64)
    number[by_rank] = np.arange(len(by_rank), dtype=np.int64)
    return [cols.names[i] for i in by_rank.tolist()], number[order.canon]


class BodyValues:
    """``writeBody``'s numbers of profiles in print order, gathered with numpy: each body
    line's (location, samples, target count, targets), then each node's."""

    def __init__(self, order: ColumnOrder, number: Ints) -> None:
        self.order = order
        self.number = number
        cols = order.cols
        lines = len(order.order)
        targets = np.bincount(order.target_line, minlength=lines).astype(np.int64)
        sizes = 4 + 2 * targets
        ends = np.cumsum(sizes)
        starts = ends - sizes
        flat = np.empty(int(ends[-1]) if lines else 0, dtype=np.uint64)
        locs = order.loc_values[order.line_loc]
        flat[starts] = locs >> np.uint64(32)
        flat[starts + 1] = locs & np.uint64(U32)
        flat[starts + 2] = cols.rec_samples[order.order]
        flat[starts + 3] = targets.astype(np.uint64)
        if len(order.target_line):
            first = np.cumsum(targets) - targets
            rank = np.arange(len(order.target_line)) - first[order.target_line]
            at = starts[order.target_line] + 4 + 2 * rank
            flat[at] = number[order.target_name].astype(np.uint64)
            flat[at + 1] = order.target_count
        self.flat = flat
        #: where each line's numbers start (one more: the end)
        self.bounds = np.concatenate([starts, [len(flat)]]).astype(np.int64)

    def profiles(self, tops: Sequence[int]) -> tuple[bytes, list[int]]:
        """``writeFuncProfiles`` of ``tops``: the bytes and where each profile starts.

        In a profile's preorder every node's numbers are contiguous: its call site
        (an inlinee) or head samples (a top-level profile), name, total, line count,
        lines, callee count; the callees follow.
        """
        if not tops:
            return b"", []
        order = self.order
        cols = order.cols
        nodes = order.preorder(tops)
        top = cols.node_parent[nodes] < 0
        first = order.first_line[nodes]
        last = order.first_line[nodes + 1]
        line_values = self.bounds[last] - self.bounds[first]
        callees = order.callee_count[nodes].astype(np.uint64)
        lead = np.where(top, 1, 2)
        sizes = lead + 4 + line_values
        ends = np.cumsum(sizes)
        starts = ends - sizes
        values = np.empty(int(ends[-1]), dtype=np.uint64)
        values[starts[top]] = cols.node_head[nodes[top]]
        inner = ~top
        sites = cols.node_site[nodes[inner]]
        values[starts[inner]] = sites >> np.uint64(32)
        values[starts[inner] + 1] = sites & np.uint64(U32)
        head = starts + lead
        values[head] = self.number[cols.node_name[nodes]].astype(np.uint64)
        values[head + 1] = cols.node_total[nodes]
        values[head + 2] = (last - first).astype(np.uint64)
        values[spans(head + 3, line_values)] = self.flat[spans(self.bounds[first], line_values)]
        values[head + 3 + line_values] = callees
        data, at = encode_array(values)
        offsets: list[int] = at[starts[top]].tolist()
        return data, offsets


def write_binary(order: ColumnOrder) -> bytes:
    """``SampleProfileWriterBinary::write`` (14-22)."""
    out = ByteWriter()
    out.uleb128(sp_magic())
    out.uleb128(VERSION)
    write_summary(out, order.summary())
    names, number = used_names(order)
    write_name_table(out, names)
    data, _ = BodyValues(order, number).profiles(order.top)
    out.bytes(data)
    return out.getvalue()


class _ColumnSections(SectionWriter):
    """The ext-binary sections of ordered columns: top-level nodes stand for profiles."""

    def __init__(
        self, profile: SampleProfile, options: ExtBinaryWriteOptions, order: ColumnOrder
    ) -> None:
        super().__init__(profile, options)
        self.order = order
        names, number = used_names(order)
        self.name_index = {name: i for i, name in enumerate(names)}
        self.values = BodyValues(order, number)
        self.in_print_order = {node: i for i, node in enumerate(order.top)}

    def summary(self) -> ProfileSummary:
        return self.order.summary()

    def lbr_profiles(self, out: ByteWriter, profiles: Sequence[int]) -> None:
        tops = sorted(profiles, key=self.in_print_order.__getitem__)
        data, offsets = self.values.profiles(tops)
        base = len(out)
        cols = self.order.cols
        names = [cols.names[i] for i in cols.node_name[tops].tolist()] if tops else []
        self.func_offsets.extend(
            (SampleContext(name), base + at) for name, at in zip(names, offsets, strict=True)
        )
        out.bytes(data)


def write_extbinary(
    order: ColumnOrder, profile: SampleProfile, options: ExtBinaryWriteOptions
) -> bytes:
    """``SampleProfileWriterExtBinary::write`` of ordered columns; ``profile`` gives the
    flags and the symbol list (its profiles are not read)."""
    writer = _ColumnSections(profile, options, order)
    tops = order.top
    has_callees = (order.callee_count[tops] > 0).tolist()
    nested = [n for n, c in zip(tops, has_callees, strict=True) if c]
    flat = [n for n, c in zip(tops, has_callees, strict=True) if not c]
    return assemble(writer, tops, nested, flat, [])


__all__ = ["BodyValues", "used_names", "write_binary", "write_extbinary", "write_text"]
