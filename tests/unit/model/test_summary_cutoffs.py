"""The detailed summary's cutoffs: the vectorized walk against LLVM's loop, counts past 2**53.

``computeDetailedSummary`` walks the distinct counts in descending order and
stops at the first running sum that reaches ``TotalCount * Cutoff / 10**6``.
The vectorized walk finds that place with a binary search over the running
sums; a Python int needle met the uint64 sums as float64 and rounded away the
low bits of counts above 2**53 (found with counters near 2**57 from a shadow
program: ``1 blocks ... >= 3*2**56+21`` where LLVM says ``2 blocks``).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.summary import (
    DEFAULT_CUTOFFS,
    U64,
    ProfileSummary,
    SummaryEntry,
    _detailed_entries_wrapping,
    detailed_entries,
)

_COUNT = st.one_of(
    st.integers(1, 100),
    st.integers(2**53, 2**58).map(lambda v: v | 1),
    st.integers(1, 2**64 - 1),
)


_PAIRS = st.lists(
    st.tuples(_COUNT, st.integers(1, 4)), min_size=1, max_size=8, unique_by=lambda t: t[0]
)


@settings(max_examples=400, deadline=None)
@given(_PAIRS)
def test_vectorized_cutoffs_are_llvms_loop(pairs: list[tuple[int, int]]) -> None:
    pairs.sort()
    values = np.array([v for v, _ in pairs], dtype=np.uint64)
    freqs = np.array([f for _, f in pairs], dtype=np.int64)
    total = sum(v * f for v, f in pairs) & U64
    order = np.argsort(values)[::-1]
    expected = _detailed_entries_wrapping(
        values[order], freqs[order].astype(np.uint64), total, DEFAULT_CUTOFFS
    )
    assert detailed_entries(values, freqs, total, DEFAULT_CUTOFFS) == expected


def test_a_cutoff_between_two_sums_past_2_53() -> None:
    big, second, small = 3 * 2**56 + 21, 2**57 + 9, 15
    values = np.array([small, second, big], dtype=np.uint64)
    freqs = np.ones(3, dtype=np.int64)
    total = big + second + small  # 60% of it is 6 more than ``big``
    entries = {e.cutoff: e for e in detailed_entries(values, freqs, total, DEFAULT_CUTOFFS)}
    assert (entries[500000].min_count, entries[500000].num_counts) == (big, 1)
    assert (entries[600000].min_count, entries[600000].num_counts) == (second, 2)


# -- getEntryForPercentile ------------------------------------------------------------
_STANDARD = (10000, 100000, 200000, 300000, 400000, 500000, 600000, 700000, 800000,
             900000, 950000, 990000, 999000, 999900, 999990, 999999)  # fmt: skip


def _summary(cutoffs: tuple[int, ...]) -> ProfileSummary:
    return ProfileSummary(detailed=tuple(SummaryEntry(c, i, i) for i, c in enumerate(cutoffs)))


def test_entry_for_percentile_in_order() -> None:
    summary = _summary(_STANDARD)
    for percentile in (0, 10000, 10001, 990000, 999999):
        entry = summary.entry_for_percentile(percentile)
        assert entry is not None
        assert entry.cutoff == min(c for c in _STANDARD if c >= percentile)
    assert summary.entry_for_percentile(1_000_000) is None
    assert _summary(()).entry_for_percentile(0) is None


def test_entry_for_percentile_out_of_order_is_libstdcxx_partition_point() -> None:
    """990000 moved to the third place: a scan would find it there; the binary search
    (halves of 16, 7, 3, 1) steps over it and lands on 999000, as llvm-profdata does."""
    cutoffs = list(_STANDARD)
    cutoffs[2], cutoffs[11] = cutoffs[11], cutoffs[2]
    entry = _summary(tuple(cutoffs)).entry_for_percentile(990000)
    assert entry is not None
    assert (entry.cutoff, entry.min_count) == (999000, 12)
