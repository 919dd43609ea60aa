"""``value_counts``: the distinct counts of a summary tallied, the same as numpy's sort.

Summaries walk the distinct counts with their frequencies; a tally by value
replaces the sort for counts below 2**16 once there are thousands of them, so
both sides of that line, the line itself and short inputs (sorted whole) are
held against ``np.unique``.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model import counters
from profdata.model.counters import value_counts

_TALLIED = counters._TALLIED
_VALUE = st.one_of(
    st.integers(0, 40),
    st.integers(_TALLIED - 2, _TALLIED + 1),
    st.integers(0, 2**64 - 1),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(_VALUE, st.integers(1, 3000)), max_size=12),
    st.integers(0, 2**32 - 1),
)
def test_the_tally_is_numpys_unique(runs: list[tuple[int, int]], seed: int) -> None:
    values = np.repeat(
        np.array([v for v, _ in runs], dtype=np.uint64), [n for _, n in runs]
    ).astype(np.uint64)
    np.random.default_rng(seed).shuffle(values)
    got, freqs = value_counts(values)
    want, want_freqs = np.unique(values, return_counts=True)
    assert got.dtype == np.uint64 and freqs.dtype == np.int64
    assert got.tolist() == want.tolist() and freqs.tolist() == want_freqs.tolist()


def test_long_inputs_take_the_tally() -> None:
    """Long enough to be tallied (the property above reaches both paths; this pins one)."""
    values = np.array([3, _TALLIED, 2**64 - 1, 3, 0] * counters._TALLY_FROM, dtype=np.uint64)
    got, freqs = value_counts(values)
    assert got.tolist() == [0, 3, _TALLIED, 2**64 - 1]
    assert (
        freqs.tolist()
        == [counters._TALLY_FROM, 2 * counters._TALLY_FROM] + [counters._TALLY_FROM] * 2
    )
