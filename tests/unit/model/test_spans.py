"""``spans``: the indexes of many runs at once, held against the loop it replaces; and
``take``, the gather that runs on such indexes, held against indexing.

Long results are made as a running sum of steps (each run's first element
stepping from the previous run's last), short ones by ``np.repeat``: both
sides of that line, empty runs, runs in any order and every step in use.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model import instr
from profdata.model.instr import spans

_RUNS = st.lists(st.tuples(st.integers(-(2**40), 2**40), st.integers(0, 700)), max_size=12)


@settings(max_examples=300, deadline=None)
@given(_RUNS, st.sampled_from([1, 2, 8, 16]))
def test_spans_are_the_runs_concatenated(runs: list[tuple[int, int]], step: int) -> None:
    starts = np.array([s for s, _ in runs], dtype=np.int64)
    lengths = np.array([n for _, n in runs], dtype=np.int64)
    want = [s + step * i for s, n in runs for i in range(n)]
    got = spans(starts, lengths, step)
    assert got.dtype == np.int64
    assert got.tolist() == want


def test_a_long_result_with_empty_runs_takes_the_running_sum() -> None:
    """Past the line, with empty runs first, between and last (their first elements would
    land on the next run's)."""
    size = instr._SPANS_BY_STEPS
    starts = np.array([7, 100, -50, 10**6, 3], dtype=np.int64)
    lengths = np.array([0, size, 0, 3, 0], dtype=np.int64)
    got = spans(starts, lengths, 8)
    assert got.tolist() == [100 + 8 * i for i in range(size)] + [10**6, 10**6 + 8, 10**6 + 16]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=40),
    st.data(),
    st.sampled_from([np.uint64, np.int32, np.uint8, np.bool_]),
)
def test_take_is_indexing_inside_the_bounds(
    values: list[int], data: st.DataObject, dtype: type[np.generic]
) -> None:
    """``take`` leaves out the bounds check: for every index from ``-len`` to ``len - 1``
    it gives what indexing gives, in the values' own type."""
    array = np.array(values, dtype=np.uint64).astype(dtype)
    size = len(array)
    index = np.array(data.draw(st.lists(st.integers(-size, size - 1), max_size=60)), dtype=np.int64)
    got = instr.take(array, index)
    assert got.dtype == array.dtype
    assert got.tolist() == array[index].tolist()
