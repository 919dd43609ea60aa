"""``show --sample`` printed from columns, without ``FunctionSamples``.

The dump of a large profile spent most of its time building objects for
every body line (the reader) and then sorting each function's lines, call
targets and call sites one small dict at a time (the printer).  Here the
column readers (:mod:`profdata.formats.sample_column_reads`) give every node
and body line as arrays, :class:`~profdata.formats.sample_column_order.ColumnOrder`
puts them all in print order with a few numpy sorts (or none, when the file
is in order already), and the text is rendered as tables
(:func:`~profdata.formats.row_text.render_rows`): one row per body line and
call target, and per node (function profile or inlined instance) the text
before its lines and the text after them, which also closes the brackets of
the nodes it ends.  The only Python loops are over nodes: the print order,
and joining each node's header, body slice and tail.  The hot list and the entry-sample
estimate are computed from the same columns.

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

from collections.abc import Iterable, Sequence

import numpy as np

from profdata.formats.row_text import Decimal, Field, Pick, Strings, index_type
from profdata.formats.sample_column_order import (
    BodyRows,
    ColumnOrder,
    Framed,
    location_text,
)
from profdata.formats.sample_column_reads import read_sample_columns
from profdata.formats.sample_columns import ProfileColumns
from profdata.model.names import ENCODING, ERRORS, name_bytes, names_bytes
from profdata.model.sample import SampleProfile
from profdata.model.sample_map_order import name_map_order
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

    def text(self) -> Iterable[Sequence[memoryview]]:
        """``FunctionSamples::print`` of every function (no checksum, no vtables here).

        Rendered as tables (:func:`~profdata.formats.row_text.render_rows`): the body
        lines, and per node the text before its lines (header) and after them (up to
        its callees, followed by the closing braces of every callee list it ends, found
        from the depth of the next node in print order); the only loop joins each
        node's header, its slice of the body rows and its tail."""
        cols = self.cols
        body = self.body_text(lambda d, v: f"{' ' * (4 * d + 2)}{location_text(v)}: ", ", calls:")
        nodes = len(cols.node_parent)
        depths = self.depths
        lines = np.diff(self.first_line)
        has_lines = (lines > 0).astype(np.int64)
        has_callees = (self.callee_count > 0).astype(np.int64)
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
        return Framed(order, head_fields, body, tail_fields)

    def json(self) -> Iterable[Sequence[memoryview]]:
        """``dumpJson``: ``json::OStream`` with indent 2 over ``dumpFunctionProfileJson``'s
        objects; a node at depth D opens at indent 2 + 8 D.

        Rendered as :meth:`text` is: body records and call targets as rows of one
        table, each node's text before its records and after them (with the
        brackets of the nodes it ends) as two more, joined node by node."""
        if not self.top:
            return [[memoryview(b"[]\n")]]
        cols = self.cols
        nodes = len(cols.node_parent)
        depths = self.depths
        most = int(depths.max(initial=0)) + 1
        quoted = [quote_json(n).encode(ENCODING, ERRORS) for n in self.names]
        lines = np.diff(self.first_line)
        has_lines = (lines > 0).astype(np.int64)
        has_callees = (self.callee_count > 0).astype(np.int64)

        def sp(width: int) -> str:
            return " " * width

        def where(value: int, c: str) -> str:
            line, disc = value >> 32, value & U32
            return f'{line},\n{c}"discriminator": {disc}' if disc else str(line)

        # a node at depth k: indent I = 2 + 8k; its fields at I + 2; its records at I + 4
        def opening(k: int, site: str) -> str:
            i = 2 + 8 * k
            return (
                f'{sp(i - 4)}{{\n{sp(i - 2)}"line": {site},\n{sp(i - 2)}"samples": [\n'
                f'{sp(i)}{{\n{sp(i + 2)}"name": '
            )

        sites = self.site_values.tolist()
        site_count = max(len(sites), 1)
        inlined = cols.node_parent >= 0
        # a callee after the first at its caller, and a top-level profile after the first,
        # are preceded by a comma
        later = self.later_callees()
        later[self.top[1:]] = True
        key = np.where(inlined, 2 + (depths * site_count + self.site_of) * 2 + later, later)
        keys, key_index = np.unique(key, return_inverse=True)
        lead_texts = []
        for k in keys.tolist():
            if k < 2:
                lead_texts.append((',\n  {\n    "name": ' if k else '\n  {\n    "name": ').encode())
                continue
            pair, comma = divmod(k - 2, 2)
            depth, site = divmod(pair, site_count)
            indent = sp(2 + 8 * depth - 2)
            text = opening(depth, where(sites[site], indent))
            lead_texts.append(((",\n" if comma else "\n") + text).encode())
        field_pad = [sp(4 + 8 * k) for k in range(most)]
        head_fields: list[Field] = [
            Pick(Strings(lead_texts), key_index.reshape(-1)),
            Pick(Strings(quoted), cols.node_name),
            Pick(Strings([f',\n{p}"total": '.encode() for p in field_pad]), depths),
            Decimal(cols.node_total),
            Pick(Strings([b"", b',\n    "head": ']), (~inlined).astype(np.int64)),
            Decimal(cols.node_head, ~inlined),
            Pick(
                Strings(
                    [
                        f',\n{p}"body": [\n'.encode() if lined else b""
                        for p in field_pad
                        for lined in (False, True)
                    ]
                ),
                depths * 2 + has_lines,
            ),
        ]

        def closing(k: int, called: bool) -> str:
            """What ends a node at depth ``k`` (its callsite list, if ``called``)."""
            i = 2 + 8 * k
            text = (f"\n{sp(i + 2)}]" if called else "") + f"\n{sp(i)}}}"
            if k:
                text += f"\n{sp(i - 2)}]\n{sp(i - 4)}}}"
            return text

        order = self.preorder()
        depth = depths[order]
        following = np.minimum(np.append(depth[1:], 0), depth)
        below = np.zeros(nodes, dtype=np.int64)
        below[order] = following
        tails = []
        for k in range(most):
            for lined in (False, True):
                for called in (False, True):
                    for down_to in range(most):
                        text = f"\n{field_pad[k]}]" if lined else ""
                        if called:
                            text += f',\n{field_pad[k]}"callsites": ['
                        else:
                            text += closing(k, False)
                            text += "".join(closing(j, True) for j in range(k - 1, down_to - 1, -1))
                        tails.append(text.encode())
        tail_index = ((depths * 2 + has_lines) * 2 + has_callees) * most + below
        last_node = order[-1]
        end = np.zeros(nodes, dtype=np.int64)
        end[last_node] = 1
        tail_fields: list[Field] = [
            Pick(Strings(tails), tail_index),
            Pick(Strings([b"", b"\n]\n"]), end),
        ]
        body = self._json_body(quoted)
        return Framed(order, head_fields, body, tail_fields, lead=b"[")

    def _json_body(self, quoted: list[bytes]) -> BodyRows:
        """Each node's body records (``dumpFunctionProfileJson``'s ``body`` array items)
        as rows of a table."""
        cols = self.cols
        most = int(self.depths.max(initial=0)) + 1

        def record_start(depth: int, value: int) -> str:
            b, c = " " * (8 * depth + 6), " " * (8 * depth + 8)
            line, disc = value >> 32, value & U32
            where = f'{line},\n{c}"discriminator": {disc}' if disc else str(line)
            return f'{b}{{\n{c}"line": {where},\n{c}"samples": '

        starts, start_index = self.line_start_table(record_start)
        rows, per_line, head_row, target_row, last = self.line_rows()
        befores = [
            f'\n{" " * (8 * d + 10)}{{\n{" " * (8 * d + 12)}"function": '.encode()
            for d in range(most)
        ]
        mids = [f',\n{" " * (8 * d + 12)}"samples": '.encode() for d in range(most)]
        line_depth = self.line_depth
        target_depth = line_depth[self.target_line]
        # A line's start is cut into the three columns a target fills with its text before
        # the name, the name and its text after, as long as those at its depth: a line
        # row then leaves no column empty (with the start in one column and the others
        # empty, every row was as wide as a start and a target together, twice the text)
        start_depth = np.zeros(len(starts), dtype=np.int64)
        start_depth[start_index] = line_depth
        heads, middles, tails = [], [], []
        for text, depth in zip(starts, start_depth.tolist(), strict=True):
            head, rest = text[: len(befores[depth])], text[len(befores[depth]) :]
            cut = max(len(rest) - len(mids[depth]), 0)
            heads.append(head)
            middles.append(rest[:cut])
            tails.append(rest[cut:])
        # index columns as small as their tables allow: each is a column of millions of
        # rows in fresh pages, which cost about 2 ns a byte on the machines measured
        picks = index_type(len(quoted) + len(starts) + most)
        text_index = np.empty(rows, dtype=picks)
        text_index[head_row] = start_index
        text_index[target_row] = len(heads) + target_depth
        name_index = np.empty(rows, dtype=picks)
        name_index[head_row] = len(quoted) + start_index
        name_index[target_row] = self.target_name
        mid_index = np.empty(rows, dtype=picks)
        mid_index[head_row] = most + start_index
        mid_index[target_row] = target_depth
        numbers = np.empty(rows, dtype=np.uint64)
        numbers[head_row] = cols.rec_samples[self.order]
        numbers[target_row] = self.target_count
        # what ends a row: by depth, kind (0: a line without calls, 1: a line opening its
        # calls, 2: a target before another, 3: a line's last target) and whether the
        # line is its node's last
        last_line = np.zeros(len(self.order), dtype=bool)
        ends_at = self.first_line[1:][np.diff(self.first_line) > 0] - 1
        last_line[ends_at] = True
        ending = np.empty(rows, dtype=index_type(8 * most))
        ending[head_row] = (line_depth * 4 + (per_line > 0)) * 2 + last_line
        target_kind = np.where(last, 3, 2)
        ending[target_row] = (target_depth * 4 + target_kind) * 2 + last_line[self.target_line]
        endings = []
        for d in range(most):
            b, c, t = " " * (8 * d + 6), " " * (8 * d + 8), " " * (8 * d + 10)
            for k in range(4):
                for is_last in (False, True):
                    sep = "" if is_last else ",\n"
                    endings.append(
                        (
                            f"\n{b}}}{sep}",
                            f',\n{c}"calls": [',
                            f"\n{t}}},",
                            f"\n{t}}}\n{c}]\n{b}}}{sep}",
                        )[k].encode()
                    )
        fields: list[Field] = [
            Pick(Strings(heads + befores), text_index),
            Pick(Strings(quoted + middles), name_index),
            Pick(Strings(mids + tails), mid_index),
            Decimal(numbers),
            Pick(Strings(endings), ending),
        ]
        return BodyRows(fields, self.node_rows(head_row, rows), self.depths)

    def hot_rows(self, release: Release) -> tuple[list[tuple[str, int, int]], list[int]]:
        """Each function's name, TotalSamples and largest body sample (inlinees
        included) in the reader's map order, and its node."""
        cols = self.cols
        names = self.names
        parent = cols.node_parent
        # each node's function: its parent's, found for all nodes by pointer jumping
        root = np.where(parent < 0, np.arange(len(parent), dtype=np.int64), parent)
        while len(root):
            up = root[root]
            if np.array_equal(up, root):
                break
            root = up
        largest = np.zeros(len(parent), dtype=np.uint64)
        if len(cols.rec_node):
            at = root[cols.rec_node]
            if bool(np.all(at[1:] >= at[:-1])):  # a function's records are together
                first = np.flatnonzero(np.concatenate([[True], at[1:] != at[:-1]]))
                largest[at[first]] = np.maximum.reduceat(cols.rec_samples, first)
            else:
                np.maximum.at(largest, at, cols.rec_samples)
        top = np.flatnonzero(parent < 0)  # file order: the map's inserts
        top_names = [names[k] for k in cols.node_name[top].tolist()]
        in_order = name_map_order(top_names, release)
        ordered = top[in_order].tolist()
        rows = list(
            zip(
                [top_names[k] for k in in_order],
                cols.node_total[ordered].tolist(),
                largest[ordered].tolist(),
                strict=True,
            )
        )
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
