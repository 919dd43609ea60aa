"""``context_arrays.by_count``: a context's value entries in written order.

Written order is by site, then count descending, then raw rank (a single
input's) or value id.  One sort of packed (site, count, id) words must give
exactly what sorting Python tuples gives, from a store (entries in stored
order) and from sorted arrays, and so must the way taken when the three do
not fit in 63 bits (counts near 2**64).
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.ops import context_arrays
from profdata.ops.merge_value_store import ValueStore


@st.composite
def _entries(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, int, int]]]:
    id_bits = draw(st.integers(1, 12))
    num_sites = draw(st.integers(1, 40))
    top = draw(st.sampled_from([1, 1000, 2**40, 2**63, 2**64 - 1]))
    pairs = draw(
        st.lists(
            st.tuples(st.integers(0, num_sites - 1), st.integers(0, (1 << id_bits) - 1)),
            unique=True,
            max_size=60,
        )
    )
    counts = [draw(st.integers(0, top)) for _ in pairs]
    return id_bits, num_sites, [(s, i, c) for (s, i), c in zip(pairs, counts, strict=True)]


def _expected(entries: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    return sorted(entries, key=lambda e: (e[0], -e[2], e[1]))


@settings(max_examples=300, deadline=None)
@given(
    _entries(), st.sampled_from(["sorted", "store", "entries"]), st.randoms(use_true_random=False)
)
def test_written_order_is_site_count_then_id(
    case: tuple[int, int, list[tuple[int, int, int]]], held: str, rnd: random.Random
) -> None:
    id_bits, num_sites, entries = case
    shape = SimpleNamespace(id_bits=id_bits, num_sites=num_sites)
    by_key = sorted(entries)
    keys = np.array([s << id_bits | i for s, i, _ in by_key], dtype=np.int64)
    counts = np.array([c for _, _, c in by_key], dtype=np.uint64)
    fill = np.bincount(keys >> id_bits, minlength=num_sites).astype(np.int64)
    values: context_arrays.ContextValues | ValueStore
    order = list(range(len(keys)))
    rnd.shuffle(order)
    if held == "store":  # a store that took the entries in some other order, as runs add them
        store = ValueStore(keys[:0], counts[:0], np.zeros(num_sites, np.int64), id_bits)
        found = store.find(keys[order])
        assert found is not None
        store.merge_found(found, counts[order], 1)
        values = store
    elif held == "entries":  # a store's entries as a worker sends them: in no order
        values = context_arrays.ContextValues(keys[order], counts[order], None, fill, ordered=False)
        state = context_arrays.ContextState(values=values)
        again = state.sorted_values()
        assert again.keys.tolist() == keys.tolist() and again.counts.tolist() == counts.tolist()
    else:
        values = context_arrays.ContextValues(keys, counts, None, fill)
    sites, ids, got = context_arrays.by_count(values, shape)  # type: ignore[arg-type]
    result = list(zip(sites.tolist(), ids.tolist(), got.tolist(), strict=True))
    assert result == _expected(entries)


def test_raw_ranks_break_ties_of_a_single_input() -> None:
    shape = SimpleNamespace(id_bits=4, num_sites=2)
    keys = np.array([0 << 4 | 1, 0 << 4 | 2, 0 << 4 | 3, 1 << 4 | 5], dtype=np.int64)
    counts = np.array([7, 7, 9, 1], dtype=np.uint64)
    ranks = np.array([2, 1, 0, 0], dtype=np.int64)
    values = context_arrays.ContextValues(keys, counts, ranks, np.array([3, 1]))
    sites, ids, got = context_arrays.by_count(values, shape)  # type: ignore[arg-type]
    assert sites.tolist() == [0, 0, 0, 1]
    assert ids.tolist() == [3, 2, 1, 5]  # 9 first; of the two 7s the lower rank
    assert got.tolist() == [9, 7, 7, 1]
