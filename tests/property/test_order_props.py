"""Properties of ``order``: a permutation of the traced functions, deterministic,
blind to trace weights, and a page-fault area within its bounds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.cxx_algo import nth_element
from profdata.model.instr import TemporalTrace
from profdata.ops.order import FUNCTIONS_PER_PAGE, order_functions
from profdata.releases import release

pytestmark = pytest.mark.property

traces_strategy = st.lists(
    st.lists(st.integers(0, 300), max_size=80).map(tuple), min_size=1, max_size=8
)


@settings(max_examples=40, deadline=None)
@given(traces_strategy, st.sampled_from([19, 22]))
def test_order_is_a_permutation_of_the_traced_functions(
    hashes: list[tuple[int, ...]], rel: int
) -> None:
    traces = [TemporalTrace(1, h) for h in hashes]
    order = order_functions(traces, release=release(rel))
    assert sorted(order.ids) == sorted({f for h in hashes for f in h})


@settings(max_examples=25, deadline=None)
@given(traces_strategy, st.lists(st.integers(1, 1000), min_size=8, max_size=8))
def test_order_is_deterministic_and_ignores_weights(
    hashes: list[tuple[int, ...]], weights: list[int]
) -> None:
    plain = order_functions([TemporalTrace(1, h) for h in hashes])
    again = order_functions([TemporalTrace(1, h) for h in hashes])
    weighted = order_functions(
        [TemporalTrace(w, h) for w, h in zip(weights[: len(hashes)], hashes, strict=True)]
    )
    assert plain.ids == again.ids == weighted.ids


@settings(max_examples=25, deadline=None)
@given(traces_strategy, st.lists(st.integers(0, 300), max_size=80).map(tuple))
def test_page_fault_area_bounds(hashes: list[tuple[int, ...]], test: tuple[int, ...]) -> None:
    traces = [TemporalTrace(1, h) for h in [*hashes, test]]
    order = order_functions(traces, num_test_traces=1)
    assert order.area is not None
    known = [f for f in test if f in set(order.ids)]
    pages = -(-len(order.ids) // FUNCTIONS_PER_PAGE)
    assert len(known) <= order.area <= len(known) * max(pages, 1)


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(40))).flatmap(
    lambda p: st.tuples(st.just(p), st.integers(0, len(p)))
))  # fmt: skip
def test_nth_element_postcondition(case: tuple[list[int], int]) -> None:
    keys, nth = list(case[0]), case[1]
    nth_element(keys, nth)
    assert sorted(keys) == sorted(case[0])
    if nth < len(keys):
        assert keys[nth] == nth
        assert all(k < nth for k in keys[:nth])
        assert all(k > nth for k in keys[nth + 1 :])
