"""``render_rows`` against the same rows formatted one by one in Python, and the
column order's shortcuts (direct location numbering, targets already in order)
against the sorts they stand in for."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import row_text, sample_column_order
from profdata.formats.row_text import Decimal, Field, Pick, Strings, render_rows, row_lengths
from profdata.formats.sample_column_order import (
    BodyRows,
    Framed,
    _factorize,
    _target_order,
)
from profdata.model.record_table import Ints
from profdata.pieces import Stream, flat, joined

U64_MAX = (1 << 64) - 1

NUMBERS = st.one_of(
    st.integers(0, 9),
    st.integers(0, 10**6),
    st.sampled_from([9, 10, 99, 100, 4294967295, 4294967296, 10**19 - 1, 10**19, U64_MAX]),
    st.integers(0, U64_MAX),
)
TEXTS = st.binary(max_size=12)
#: items of a picked table: mostly short, some far longer (long C++ names)
ITEMS = st.one_of(TEXTS, TEXTS, st.binary(min_size=30, max_size=300))


@st.composite
def tables(draw: st.DrawFn, rows: int | None = None) -> tuple[list[Field], list[bytes]]:
    """Random fields over ``rows`` rows (drawn if not given), and each row as Python
    formats it."""
    if rows is None:
        rows = draw(st.integers(0, 40))
    # texts without NUL bytes take the renderer's one-pass mask (padding is NUL), others
    # the masks gathered with the items
    clean = draw(st.booleans())

    def text(raw: bytes) -> bytes:
        return raw.replace(b"\0", b"\1") if clean else raw

    fields: list[Field] = []
    columns: list[list[bytes]] = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["const", "pick", "decimal", "some"]))
        if kind == "const":
            const = text(draw(TEXTS))
            fields.append(const)
            columns.append([const] * rows)
        elif kind == "pick":
            items = [text(item) for item in draw(st.lists(ITEMS, min_size=1, max_size=6))]
            index = draw(st.lists(st.integers(0, len(items) - 1), min_size=rows, max_size=rows))
            fields.append(Pick(Strings(items), np.array(index, dtype=np.int64)))
            columns.append([items[i] for i in index])
        else:
            values = draw(st.lists(NUMBERS, min_size=rows, max_size=rows))
            where = draw(st.lists(st.booleans(), min_size=rows, max_size=rows))
            array = np.array(values, dtype=np.uint64)
            if kind == "decimal":
                fields.append(Decimal(array))
                columns.append([str(v).encode() for v in values])
            else:
                fields.append(Decimal(array, np.array(where, dtype=bool)))
                columns.append(
                    [str(v).encode() if w else b"" for v, w in zip(values, where, strict=True)]
                )
    return fields, [b"".join(parts) for parts in zip(*columns, strict=True)] if columns else []


@settings(max_examples=300, deadline=None)
@given(tables(), st.sampled_from([1, 3, 64]))
def test_rows_render_as_python_formats_them(
    table: tuple[list[Field], list[bytes]], piece: int
) -> None:
    fields, want = table
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(row_text, "_PIECE", piece)  # rows cross piece boundaries
        got, offsets = render_rows(fields, len(want))
    assert got.tobytes() == b"".join(want)
    assert row_lengths(fields, len(want)).tolist() == [len(w) for w in want]
    assert offsets.tolist() == [0, *np.cumsum([len(w) for w in want]).tolist()]


@settings(max_examples=300, deadline=None)
@given(tables(), st.sampled_from([1, 3, 64]), st.sampled_from([0, 1, 40]))
def test_rows_with_cut_items_render_as_python_formats_them(
    table: tuple[list[Field], list[bytes]], piece: int, cut_cost: int
) -> None:
    """With putting an item's rest back made cheap, table columns are padded to less
    than their longest item, often in several fields of a row."""
    fields, want = table
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(row_text, "_PIECE", piece)
        patch.setattr(row_text, "_CUT_COST", cut_cost)
        got, _ = render_rows(fields, len(want))
    assert got.tobytes() == b"".join(want)


def test_one_long_name_does_not_widen_every_row() -> None:
    """A 4,000-byte name picked by two rows of 100k: the column stays as wide as the
    short names, and the two rows print the whole name."""
    rows = 100_000
    names = [b"n%d" % i for i in range(1000)] + [b"L" * 4000]
    index = np.arange(rows, dtype=np.int64) % 1000
    index[[7, rows - 3]] = 1000
    table = Strings(names)
    assert table.column_width(index) == 4
    values = np.arange(rows, dtype=np.uint64)
    fields: list[Field] = [b"  ", Pick(table, index), b": ", Decimal(values), b"\n"]
    layout = row_text._Layout(fields, rows)
    assert layout.widths == [2, 4, 2, 5, 1]
    got, _ = render_rows(fields, rows)
    want = b"".join(
        b"  " + names[i] + b": " + str(v).encode() + b"\n"
        for i, v in zip(index.tolist(), values.tolist(), strict=True)
    )
    assert got.tobytes() == want


def test_a_long_name_picked_by_most_rows_is_not_cut() -> None:
    names = [b"a", b"L" * 500]
    index = np.ones(10_000, dtype=np.int64)
    index[::100] = 0
    assert Strings(names).column_width(index) == 500
    assert Strings(names).column_width(np.zeros(0, dtype=np.int64)) == 500


def test_a_padded_table_is_cut_and_masked() -> None:
    table = Strings([b"abcdef", b"", b"xy"])
    padded, masks = table.padded(3)
    assert padded.view(np.uint8).reshape(3, 3).tolist() == [list(b"abc"), [0, 0, 0], list(b"xy\0")]
    assert masks.view(bool).reshape(3, 3).tolist() == [
        [True, True, True],
        [False, False, False],
        [True, True, False],
    ]
    wider = table.plus_empty()
    assert wider.lengths.tolist() == [6, 0, 2, 0]
    assert wider.padded(6)[0].view(np.uint8).reshape(4, 6)[3].tolist() == [0] * 6


FramedCase = tuple[Ints, list[Field], list[bytes], BodyRows, list[bytes], list[Field], list[bytes]]


@st.composite
def framed(draw: st.DrawFn) -> FramedCase:
    """Nodes in some order with a head row, body rows (often none, a table's rows in
    node order or not) and a tail row each."""
    nodes = draw(st.integers(1, 12))
    order = np.array(draw(st.permutations(range(nodes))), dtype=np.int64)
    head, heads = draw(tables(nodes))
    tail, tails = draw(tables(nodes))
    counts = draw(st.lists(st.sampled_from([0, 0, 1, 2, 3]), min_size=nodes, max_size=nodes))
    rows = sum(counts)
    fields, texts = draw(tables(rows))
    at = np.array([0, *np.cumsum(counts).tolist()], dtype=np.int64)
    bodies = [b"".join(texts[at[n] : at[n + 1]]) for n in range(nodes)]
    classes = draw(
        st.none() | st.lists(st.integers(0, 3), min_size=nodes, max_size=nodes).map(np.array)
    )
    return order, head, heads, BodyRows(fields, at, classes), bodies, tail, tails


def framed_pieces(
    order: Ints, head: Sequence[Field], body: BodyRows, tail: Sequence[Field]
) -> list[memoryview]:
    """The stream's pieces, all kept good (each chunk in its own buffers)."""
    return [p for batch in Framed(order, head, body, tail, reuse=False) for p in batch]


def _wanted(case: FramedCase) -> bytes:
    order, _, heads, _, bodies, _, tails = case
    return b"".join(heads[n] + bodies[n] + tails[n] for n in order.tolist())


@settings(max_examples=300, deadline=None)
@given(framed())
def test_framed_pieces_are_each_nodes_head_body_and_tail_in_order(case: FramedCase) -> None:
    order, head, _, body, _, tail, _ = case
    pieces = framed_pieces(order, head, body, tail)
    assert b"".join(pieces) == _wanted(case)
    assert all(len(p) for p in pieces)  # empty pieces are dropped
    # pieces that continue each other in one text are one piece: at most a frame and
    # a body slice per node, and one more frame
    assert len(pieces) <= 2 * len(order) + 1


@settings(max_examples=300, deadline=None)
@given(framed(), st.sampled_from([1, 2, 5, 1 << 15]), st.sampled_from([1, 2, 1 << 12]))
def test_a_stream_in_chunks_reusing_its_buffers_gives_the_same_text(
    case: FramedCase, chunk: int, group: int
) -> None:
    """Chunks of a few nodes, their body rows rendered a class or a few at a time."""
    order, head, _, body, _, tail, _ = case
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sample_column_order, "_CHUNK_ROWS", chunk)
        patch.setattr(sample_column_order, "_GROUP_ROWS", group)
        # each piece copied as it comes: the next chunk overwrites the buffers
        got = b"".join(bytes(p) for b in Framed(order, head, body, tail) for p in b)
    assert got == _wanted(case)


def test_a_stream_reuses_its_buffers_and_is_taken_once() -> None:
    order = np.arange(4, dtype=np.int64)
    head: list[Field] = [b"<", Decimal(np.arange(4, dtype=np.uint64))]
    body = BodyRows([b"row\n"], np.arange(5, dtype=np.int64))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sample_column_order, "_CHUNK_ROWS", 2)  # a node and its row
        kept = [p for batch in Framed(order, head, body, [b">"]) for p in batch]
    # four chunks into the same two buffers: every kept piece shows the last chunk's
    assert b"".join(bytes(p) for p in kept) != b"".join(b"<%drow\n>" % n for n in range(4))
    stream = Stream(Framed(order, head, body, [b">"]))
    assert (
        joined([b"[", stream, b"]"]) == b"[" + b"".join(b"<%drow\n>" % n for n in range(4)) + b"]"
    )
    with pytest.raises(RuntimeError, match="taken once"):
        list(flat([stream]))


def test_framed_pieces_join_the_frames_around_a_node_without_body() -> None:
    order = np.array([1, 0, 2], dtype=np.int64)
    head: list[Field] = [b"<", Decimal(np.array([10, 11, 12], dtype=np.uint64))]
    tail: list[Field] = [Pick(Strings([b">", b"/>"]), np.array([0, 1, 0], dtype=np.int64))]
    body = BodyRows([Pick(Strings([b"A", b"C"]), np.array([0, 0, 1]))], np.array([0, 2, 2, 3]))
    pieces = framed_pieces(order, head, body, tail)
    assert [bytes(p) for p in pieces] == [b"<11/><10", b"AA", b"><12", b"C", b">"]


def test_framed_pieces_of_no_nodes_are_none() -> None:
    body = BodyRows([], np.zeros(1, dtype=np.int64))
    assert framed_pieces(np.zeros(0, dtype=np.int64), [b"head"], body, [b"tail"]) == []


def test_a_table_of_empty_strings_and_zero_rows() -> None:
    empty = Strings([b"", b""])
    assert empty.width == 0
    assert render_rows([b"<", Pick(empty, np.array([1, 0])), b">"], 2)[0].tobytes() == b"<><>"
    assert render_rows([Pick(empty, np.array([1, 0]))], 2)[1].tolist() == [0, 0, 0]
    assert render_rows([b"x", Decimal(np.zeros(0, dtype=np.uint64))], 0)[0].tobytes() == b""


def test_numbers_of_every_width_including_the_largest() -> None:
    values = [0, *(10**k for k in range(20)), *(10**k - 1 for k in range(1, 20)), U64_MAX]
    got, _ = render_rows([Decimal(np.array(values, dtype=np.uint64)), b","], len(values))
    assert got.tobytes() == b"".join(f"{v},".encode() for v in values)


def test_many_rows_in_many_pieces() -> None:
    rng = np.random.default_rng(5)
    rows = 3 * row_text._PIECE + 17
    names = [f"f{i}".encode() * (i % 4) for i in range(50)]
    index = rng.integers(0, len(names), rows)
    values = rng.integers(0, 1 << 40, rows).astype(np.uint64)
    got, _ = render_rows([b" ", Pick(Strings(names), index), b":", Decimal(values), b"\n"], rows)
    want = b"".join(
        b" " + names[i] + b":" + str(v).encode() + b"\n"
        for i, v in zip(index.tolist(), values.tolist(), strict=True)
    )
    assert got.tobytes() == want


LOCATIONS = st.lists(
    st.tuples(
        st.integers(0, 0xFFFF),
        st.one_of(st.integers(0, 7), st.integers(0, 0xFFFFFFFF)),
    ),
    max_size=60,
)


@given(LOCATIONS)
def test_locations_are_numbered_as_unique_numbers_them(pairs: list[tuple[int, int]]) -> None:
    packed = np.array([o << 32 | d for o, d in pairs], dtype=np.uint64)
    values, index = _factorize(packed)
    want_values, want_index = np.unique(packed, return_inverse=True)
    assert values.dtype == np.uint64
    assert values.tolist() == want_values.tolist()
    assert index.tolist() == want_index.reshape(-1).tolist()


#: line, count (a few, or any of 64 bits: the keys no longer pack into one), name rank
TARGETS = st.lists(
    st.tuples(
        st.integers(0, 5),
        st.integers(0, 4) | st.integers(0, (1 << 64) - 1),
        st.integers(0, 6),
    ),
    max_size=40,
)


@settings(max_examples=300)
@given(TARGETS, st.booleans())
def test_targets_already_in_order_are_kept_and_others_sorted(
    rows: list[tuple[int, int, int]], presort: bool
) -> None:
    if presort:  # as LLVM writes them: by line, count descending, then name
        rows = sorted(rows, key=lambda r: (r[0], -r[1], r[2]))
    line = np.array([r[0] for r in rows], dtype=np.int64)
    count = np.array([r[1] for r in rows], dtype=np.uint64)
    rank = np.array([r[2] for r in rows], dtype=np.int64)
    got = _target_order(line, count, rank)
    assert got.tolist() == np.lexsort((rank, ~count, line)).tolist()


def test_classes_are_grouped_lowest_first_until_a_group_holds_enough_rows() -> None:
    classes = np.array([0, 2, 1, 0, 2], dtype=np.int64)
    lengths = np.array([1, 2, 2, 1, 3], dtype=np.int64)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sample_column_order, "_GROUP_ROWS", 3)
        # class 0 holds 2 rows and class 1 two more: one group; class 2 the next
        assert sample_column_order._groups(classes, lengths).tolist() == [0, 1, 0, 0, 1]
        patch.setattr(sample_column_order, "_GROUP_ROWS", 1)
        assert sample_column_order._groups(classes, lengths).tolist() == [0, 2, 1, 0, 2]


def test_pickers_of_few_rows_and_of_many() -> None:
    """Rows pick from the table of the next power of two wide, cut to the column's
    width as pieces take it; a few rows that would need a large one, from a table of
    their own items."""
    rng = np.random.default_rng(7)
    items = [b"%d" % i + b"q" * int(rng.integers(0, 300)) for i in range(1000)]
    table = Strings(items)
    few = np.array([5, 999, 5, 17], dtype=np.int64)
    assert table.picker(100, few).stride == 128  # a small table: shared
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(row_text, "_SHARED_BYTES", 1000)
        picker = table.picker(100, few)
    assert picker.stride == 100
    assert len(picker.padded) == 3  # items 5, 17 and 999
    assert picker.index.tolist() == [0, 2, 0, 1]
    many = rng.integers(0, 1000, 5000)
    picker = table.picker(100, many)
    assert picker.stride == 128
    assert len(picker.padded) == 1000
    assert table.picker(90, many).padded is picker.padded  # one table for both widths
    for index in (few, many):
        rows = len(index)
        values = rng.integers(0, 1000, rows).astype(np.uint64)
        fields: list[Field] = [b"<", Pick(table, index), b">", Decimal(values), b"\n"]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(row_text, "_PIECE", 700)
            patch.setattr(row_text, "_SHARED_BYTES", 1000)  # few rows: their own table
            got, _ = render_rows(fields, rows)
        want = b"".join(
            b"<" + items[i] + b">" + str(v).encode() + b"\n"
            for i, v in zip(index.tolist(), values.tolist(), strict=True)
        )
        assert got.tobytes() == want
