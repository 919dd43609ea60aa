"""``_onhash_write.bucket_order`` against a replay of LLVM's generator, insert by insert.

The fast order is a closed form (one sort by bucket, epoch parity and
insert position); the replay below moves items between linked chains
exactly as ``OnDiskChainedHashTableGenerator::insert`` and ``resize`` do,
growth rehashes and the final resize to the target size included.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import _onhash_write


def _replayed(hashes: list[int]) -> tuple[int, list[list[int]]]:
    """Bucket count and each bucket's chain (head first), inserting one item at a time."""

    def put(buckets: list[list[int]], item: int) -> None:
        buckets[hashes[item] & (len(buckets) - 1)].insert(0, item)  # the new head

    def resize(buckets: list[list[int]], size: int) -> list[list[int]]:
        fresh: list[list[int]] = [[] for _ in range(size)]
        for chain in buckets:  # old buckets in order, each chain from its head
            for item in chain:
                put(fresh, item)
        return fresh

    buckets: list[list[int]] = [[] for _ in range(64)]
    for item in range(len(hashes)):
        if 4 * (item + 1) >= 3 * len(buckets):  # ++NumEntries, then the 3/4 check
            buckets = resize(buckets, 2 * len(buckets))
        put(buckets, item)
    target = 1 if len(hashes) <= 2 else 1 << ((len(hashes) * 4 // 3).bit_length())
    if target != len(buckets):
        buckets = resize(buckets, target)
    return len(buckets), buckets


def _check(hashes: list[int]) -> None:
    size, chains = _replayed(hashes)
    order = _onhash_write.bucket_order(np.array(hashes, dtype=np.uint64))
    assert order.num_buckets == size
    assert order.items.tolist() == [item for chain in chains for item in chain]
    expected_buckets = [b for b, chain in enumerate(chains) for _ in chain]
    assert order.buckets.tolist() == expected_buckets


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 700).flatmap(
        lambda n: st.lists(st.integers(0, 2**64 - 1), min_size=n, max_size=n)
    )
)
def test_order_is_the_generators(hashes: list[int]) -> None:
    _check(hashes)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 1500), st.integers(0, 6), st.randoms(use_true_random=False))
def test_crowded_chains_keep_the_generators_order(
    count: int, bits: int, rnd: random.Random
) -> None:
    """Few distinct low bits put many items of several epochs into one chain."""
    hashes = [rnd.getrandbits(bits) << rnd.randrange(0, 40) for _ in range(count)]
    _check(hashes)


@pytest.mark.parametrize("count", [0, 1, 2, 3, 46, 47, 48, 95, 96, 97, 191, 192, 383, 385, 3000])
def test_counts_at_every_growth_edge(count: int) -> None:
    """Counts on both sides of each growth, with every item in bucket 0 of every size."""
    _check([i << 20 for i in range(count)])
    _check([(count - i) << 20 for i in range(count)])
