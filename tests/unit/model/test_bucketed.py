"""``BucketedValues``: sorted values found through buckets, checked against a dictionary.

The two users cut values into buckets differently (top bits of a hash,
shifted address offsets); the lookup must find every value whatever the
buckets hold -- one value, none, or a crowd to step through -- and give -1
for a target that is not there, below, between or above a bucket's values.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.bucketed import BucketedValues


def _check(values: list[int], shift: int, targets: list[int]) -> None:
    ordered = np.array(sorted(set(values)), dtype=np.uint64)
    count = (max(values, default=0) >> shift) + 1
    lookup = BucketedValues.of(ordered, (ordered >> np.uint64(shift)).astype(np.int64), count)
    wanted = np.array([t for t in targets if (t >> shift) < count], dtype=np.uint64)
    found = lookup.find(wanted, (wanted >> np.uint64(shift)).astype(np.int64))
    where = {int(v): i for i, v in enumerate(ordered.tolist())}
    assert found.tolist() == [where.get(int(t), -1) for t in wanted.tolist()]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 1 << 20), max_size=60),
    st.integers(0, 22),
    st.lists(st.integers(0, 1 << 20), max_size=60),
)
def test_every_value_is_found_and_no_other(values: list[int], shift: int, extra: list[int]) -> None:
    _check(values, shift, values + extra)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, (1 << 64) - 1), min_size=1, max_size=50), st.data())
def test_top_bits_of_hashes(values: list[int], data: st.DataObject) -> None:
    shift = 64 - data.draw(st.integers(1, 12))
    others = data.draw(st.lists(st.integers(0, (1 << 64) - 1), max_size=20))
    _check(values, shift, values + others + [v + 1 for v in values if v < (1 << 64) - 1])


def test_a_crowded_bucket_is_stepped_through() -> None:
    _check([8, 9, 10, 11, 12, 13, 40], 6, [7, 8, 11, 13, 14, 39, 40, 41])


def test_no_values() -> None:
    lookup = BucketedValues.of(np.zeros(0, np.uint64), np.zeros(0, np.int64), 1)
    assert lookup.find(np.array([0, 5], np.uint64), np.zeros(2, np.int64)).tolist() == [-1, -1]
