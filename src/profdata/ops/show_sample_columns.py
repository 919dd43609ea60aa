"""``show --sample`` printed from columns, without ``FunctionSamples``.

The dump of a large profile spent most of its time building objects for
every body line (the reader) and then sorting each function's lines, call
targets and call sites one small dict at a time (the printer).  Here the
column readers (:mod:`profdata.formats.sample_column_reads`) give every node
and body line as arrays, :class:`~profdata.formats.sample_column_order.ColumnOrder`
puts them all in print order with a few numpy sorts, and the lines are
formatted from plain lists; only the nesting walk is a Python loop, over
nodes (function profiles and inlined instances), not lines.  The hot list
and the entry-sample estimate are computed from the same columns.

It prints what :func:`profdata.ops.show_sample.print_function`,
``dump_json`` and ``hot_function_list`` print and takes only profiles for
which that is certain; anything else returns ``None`` and the object path
prints it (and reports every fault):

* a repeated function, call site callee, body line or call target in one
  file (the object readers sum some of them and, by release, replace others);
* MD5 names (ordered as numbers from 18 on), CS and probe-based profiles
  (contexts, checksums), LLVM 13 (its dump walks a ``StringMap``);
* inputs no column reader takes (vtable samples, GCC, compact binary, text
  with metadata or odd spacing).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from profdata.formats.row_text import Decimal, Field, Pick, Strings
from profdata.formats.sample_column_order import (
    ColumnOrder,
    joined_by_node,
    location_text,
    rendered_rows,
)
from profdata.formats.sample_column_reads import read_sample_columns
from profdata.formats.sample_columns import ProfileColumns
from profdata.model.names import name_bytes, names_bytes
from profdata.model.sample import FunctionSamples, SampleContext, SampleProfile
from profdata.model.sample_map_order import release_map_order
from profdata.releases import Release

U32 = 0xFFFFFFFF


def read_for_dump(
    view: memoryview, path: str | None, release: Release
) -> tuple[SampleProfile, ProfileColumns] | None:
    """The profile's flags and sections and its columns, when the dump can be printed
    from them; ``None`` for the object path."""
    if release.sample_string_map_profiles:
        return None
    read = read_sample_columns(view, path, release)
    if read is None:
        return None
    profile, cols = read
    if cols is None or profile.is_md5 or profile.is_cs or profile.is_probe_based:
        return None
    if cols.contexts is not None or cols.metadata:
        return None
    return profile, cols


class ColumnDump(ColumnOrder):
    """The walks that print ordered columns as ``show`` does, as text or JSON."""

    def text(self) -> bytes:
        """``FunctionSamples::print`` of every function (no checksum, no vtables here).

        Rendered as tables (:func:`~profdata.formats.row_text.render_rows`): the body
        lines, and per node the text before its lines (header) and after them (up to
        its callees); the walk only joins each node's three pieces and the closing
        brace after its callees."""
        cols = self.cols
        body = self.body_text(lambda d, v: f"{' ' * (4 * d + 2)}{location_text(v)}: ", ", calls:")
        nodes = len(cols.node_parent)
        depths = self.depths
        lines = np.diff(self.first_line)
        has_lines = (lines > 0).astype(np.int64)
        has_callees = np.fromiter(map(bool, self.children), dtype=np.int64, count=nodes)
        # an inlined callee's line starts at its parent's indent + 2: "SITE: inlined callee: "
        leads, lead_index = self.node_leads(
            "Function: ", lambda d, site: f"{' ' * (4 * d - 2)}{site}: inlined callee: "
        )
        most = int(depths.max(initial=0)) + 1
        pads = [b" " * (4 * d) for d in range(most)]
        opens = Strings(
            [
                pad + text
                for pad in pads
                for text in (
                    b"No samples collected in the function's body\n",
                    b"Samples collected in the function's body {\n",
                )
            ]
        )
        head_fields: list[Field] = [
            Pick(Strings(leads), lead_index),
            Pick(Strings([n + b": " for n in names_bytes(self.names)]), cols.node_name),
            Decimal(cols.node_total),
            b", ",
            Decimal(cols.node_head),
            b", ",
            Decimal(lines.astype(np.uint64)),
            b" sampled lines\n",
            Pick(opens, depths * 2 + has_lines),
        ]
        tails = Strings(
            [
                (pad + b"}\n" if lined else b"")
                + pad
                + (
                    b"Samples collected in inlined callsites {\n"
                    if called
                    else b"No inlined callsites in this function\n"
                )
                for pad in pads
                for lined in (False, True)
                for called in (False, True)
            ]
        )
        # after a node's text come the closing braces of the callee lists it ends: one
        # per depth from its own down to the next node's
        order = self.preorder()
        depth = depths[order]
        following = np.minimum(np.append(depth[1:], 0), depth)
        closing = np.zeros(nodes, dtype=np.int64)
        closing[order] = depth * most + following
        closers = Strings(
            [
                b"".join(pads[k] + b"}\n" for k in range(d - 1, below - 1, -1))
                for d in range(most)
                for below in range(most)
            ]
        )
        tail_fields: list[Field] = [
            Pick(tails, (depths * 2 + has_lines) * 2 + has_callees),
            Pick(closers, closing),
        ]
        heads, head_at = rendered_rows(head_fields, nodes)
        after, after_at = rendered_rows(tail_fields, nodes)
        return joined_by_node(order, (heads, head_at), body, (after, after_at))

    def json(self) -> str:
        """``dumpJson``: ``json::OStream`` with indent 2 over ``dumpFunctionProfileJson``'s
        objects; a node at depth D opens at indent 2 + 8 D."""
        if not self.top:
            return "[]\n"
        cols = self.cols
        quoted = [quote_json(n) for n in self.names]

        def where(value: int, c: str) -> str:
            line, disc = value >> 32, value & U32
            return f'{line},\n{c}"discriminator": {disc}' if disc else str(line)

        def record_start(depth: int, value: int) -> str:
            b, c = " " * (8 * depth + 6), " " * (8 * depth + 8)
            return f'{b}{{\n{c}"line": {where(value, c)},\n{c}"samples": '

        def target(depth: int) -> Callable[[str, int], str]:
            d, e = " " * (8 * depth + 10), " " * (8 * depth + 12)
            head, mid, tail = f'\n{d}{{\n{e}"function": ', f',\n{e}"samples": ', f"\n{d}}}"
            return lambda n, c: f"{head}{n}{mid}{c}{tail}"

        starts = self.line_starts(record_start)
        calls = self.calls(target, "", ",", quoted)
        ends = [f"\n{' ' * (8 * d + 6)}}}" for d in range(int(self.depths.max(initial=0)) + 1)]
        opens = [f',\n{" " * (8 * d + 8)}"calls": [' for d in range(len(ends))]
        closes = [f"\n{' ' * (8 * d + 8)}]" for d in range(len(ends))]
        body = [
            f"{start}{samples}{opens[depth]}{call}{closes[depth]}{ends[depth]}"
            if call
            else f"{start}{samples}{ends[depth]}"
            for start, samples, call, depth in zip(
                starts,
                cols.rec_samples[self.order].tolist(),
                calls,
                self.line_depth.tolist(),
                strict=True,
            )
        ]
        node_name = cols.node_name.tolist()
        totals = cols.node_total.tolist()
        heads = cols.node_head.tolist()
        first = self.first_line.tolist()
        children, site_of = self.children, self.site_of
        sites = self.site_values.tolist()
        out: list[str] = []
        add = out.append

        def node_json(node: int, indent: int, top_level: bool) -> None:
            a, b, c = " " * (indent + 2), " " * (indent + 4), " " * (indent + 6)
            add(f'{{\n{a}"name": {quoted[node_name[node]]},\n{a}"total": {totals[node]}')
            if top_level:
                add(f',\n{a}"head": {heads[node]}')
            start, end = first[node], first[node + 1]
            if end > start:
                add(f',\n{a}"body": [\n')
                add(",\n".join(body[start:end]))
                add(f"\n{a}]")
            callees = children[node]
            if callees:
                add(f',\n{a}"callsites": [')
                sep = "\n"
                d = " " * (indent + 8)
                for callee in callees:
                    add(f'{sep}{b}{{\n{c}"line": {where(sites[site_of[callee]], c)},')
                    add(f'\n{c}"samples": [\n{d}')
                    node_json(callee, indent + 8, False)
                    add(f"\n{c}]\n{b}}}")
                    sep = ",\n"
                add(f"\n{a}]")
            add("\n" + " " * indent + "}")

        add("[")
        sep = "\n  "
        for node in self.top:
            add(sep)
            node_json(node, 2, True)
            sep = ",\n  "
        add("\n]\n")
        return "".join(out)

    def hot_rows(self, release: Release) -> tuple[list[tuple[str, int, int]], list[int]]:
        """Each function's name, TotalSamples and largest body sample (inlinees
        included) in the reader's map order, and its node."""
        cols = self.cols
        names = self.names
        parents = cols.node_parent.tolist()
        roots = list(range(len(parents)))
        for node, parent in enumerate(parents):
            if parent >= 0:
                roots[node] = roots[parent]
        largest = np.zeros(len(parents), dtype=np.uint64)
        if len(cols.rec_node):
            at = np.array(roots, dtype=np.int64)[cols.rec_node]
            np.maximum.at(largest, at, cols.rec_samples)
        top = np.flatnonzero(cols.node_parent < 0).tolist()  # file order: the map's inserts
        node_name = cols.node_name.tolist()
        stand_in = SampleProfile(
            profiles={(c := SampleContext(names[node_name[n]])): FunctionSamples(c) for n in top}
        )
        node_of = {names[node_name[n]]: n for n in top}
        ordered = [node_of[fs.name] for fs in release_map_order(stand_in, release, False)]
        totals = cols.node_total.tolist()
        maxima = largest.tolist()
        rows = [(names[node_name[n]], totals[n], maxima[n]) for n in ordered]
        return rows, ordered

    def entry_samples(self, node: int) -> int:
        """``getHeadSamplesEstimate`` of a plain profile: the samples of its first body
        line, unless a call site comes first (then its callees' estimates summed)."""
        cols = self.cols
        start, end = int(self.first_line[node]), int(self.first_line[node + 1])
        callees = self.children[node]
        count = 0
        first_site = self.site_of[callees[0]] if callees else -1
        if end > start and (
            not callees
            or int(self.loc_values[self.line_loc[start]]) < int(self.site_values[first_site])
        ):
            count = int(cols.rec_samples[self.order[start]])
        elif callees:
            for callee in callees:
                if self.site_of[callee] != first_site:
                    break
                count += self.entry_samples(callee)
            count &= (1 << 64) - 1
        return count if count else int(int(cols.node_total[node]) > 0)


def quote_json(text: str) -> str:
    """``llvm::json`` string quoting (invalid UTF-8 becomes U+FFFD, as ``fixUTF8`` does)."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    data = name_bytes(text).decode("utf-8", "replace")
    out = ['"']
    for ch in data:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code >= 0x20:
            out.append(ch)
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        else:
            out.append(f"\\u{code:04x}")
    out.append('"')
    return "".join(out)


__all__ = ["ColumnDump", "quote_json", "read_for_dump"]
