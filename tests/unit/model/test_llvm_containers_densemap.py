"""``DenseMap`` and ``SmallDenseMap`` iteration orders (one growth/probing model for both)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from profdata.model.llvm_containers import densemap_order, small_densemap_order


def test_densemap_starts_with_64_buckets() -> None:
    # in 64 buckets 65 collides with 1 and probes on (+1, +2) to bucket 4
    assert densemap_order([2, 1, 65]) == [1, 0, 2]
    # 100 lands in bucket 36, before 40
    assert densemap_order([40, 100]) == [1, 0]


def test_densemap_doubles_when_three_quarters_full() -> None:
    # 48 entries fill 64 buckets to 3/4: the 48th insert grows to 128, where 64 + i
    # no longer shares bucket i with i
    hashes = [64 + i for i in range(24)] + list(range(24))
    order = densemap_order(hashes)
    assert [hashes[i] for i in order] == sorted(hashes)
    assert [hashes[i] for i in densemap_order(hashes[:47])] != sorted(hashes[:47])


def test_small_densemap_skips_repeated_keys() -> None:
    assert small_densemap_order([7, 7, 8], mix=True) in ([0, 2], [2, 0])
    assert small_densemap_order([2, 1, 2], mix=False) == [1, 0]


@given(st.lists(st.integers(0, 2**32 - 1), unique=True, max_size=200))
def test_densemap_visits_each_key_once(hashes: list[int]) -> None:
    assert sorted(densemap_order(hashes)) == list(range(len(hashes)))
