"""``profdata.model.balanced_partitioning`` and the libstdc++ pieces it replays.

LLVM's unit test (BalancedPartitioningTest.Basic) gives the expected order of
a small case; the generator is checked against numpy's Mersenne Twister,
whose legacy seeding is ``std::mt19937``'s (tests/compat checks both against
a compiled C++ program).  Whole orders are checked against the real tools in
tests/golden/order.
"""

from __future__ import annotations

import numpy as np
import pytest

from profdata.model.balanced_partitioning import (
    BalancedPartitioning,
    BalancedPartitioningConfig,
    Mt19937Bank,
    cxx_partition_order,
)

#: std::mt19937(1)'s first outputs (cppreference / libstdc++; seed 5489 gives 3499211612)
MT_SEED_1 = [1791095845, 4282876139, 3093770124, 4005303368, 491263]


def _reference_stream(seed: int, count: int) -> list[int]:
    _, key, pos, _, _ = np.random.RandomState(seed).get_state(legacy=True)
    bits = np.random.MT19937(0)
    words = np.asarray(key, dtype=np.uint32)
    bits.state = {"bit_generator": "MT19937", "state": {"key": words, "pos": int(pos)}}
    return [int(v) for v in bits.random_raw(count)]


@pytest.mark.parametrize("split_sorts", [True, False])
def test_llvm_basic_case(split_sorts: bool) -> None:
    # BPFunctionNode(0, {1, 2}), (2, {3, 4}), (1, {1, 2}), (3, {3, 4}), (4, {4}) -> ids 0..4
    ids = [0, 2, 1, 3, 4]
    utilities = [[1, 2], [3, 4], [1, 2], [3, 4], [4]]
    bp = BalancedPartitioning(BalancedPartitioningConfig(split_sorts=split_sorts))
    assert [ids[i] for i in bp.run(utilities)] == [0, 1, 2, 3, 4]


def test_no_nodes_and_one_node() -> None:
    bp = BalancedPartitioning()
    assert bp.run([]) == []
    assert bp.run([[]]) == [0]


def test_mt19937_first_outputs() -> None:
    bank = Mt19937Bank(np.array([1, 5489]))
    draws = bank.draw(np.array([5, 1]))
    assert draws.tolist() == [*MT_SEED_1, 3499211612]


def test_mt19937_bank_matches_numpy_twister_across_refills() -> None:
    seeds = np.array([2, 3, 262143, 77])
    bank = Mt19937Bank(seeds)
    requests = [np.array([3, 700, 0, 1500]), np.array([624, 1, 5, 0]), np.array([0, 0, 2000, 9])]
    got: list[list[int]] = [[] for _ in seeds]
    for counts in requests:
        flat = bank.draw(counts).tolist()
        at = 0
        for engine, count in enumerate(counts.tolist()):
            got[engine] += flat[at : at + count]
            at += count
    for engine, seed in enumerate(seeds.tolist()):
        assert got[engine] == _reference_stream(seed, len(got[engine]))


def _partition_by_swapping(pred: list[bool]) -> list[int]:
    """libstdc++'s bidirectional ``std::partition`` loop, on indices."""
    items = list(range(len(pred)))
    first, last = 0, len(items)
    while True:
        while first != last and pred[items[first]]:
            first += 1
        if first == last:
            return items
        last -= 1
        while first != last and not pred[items[last]]:
            last -= 1
        if first == last:
            return items
        items[first], items[last] = items[last], items[first]
        first += 1


@pytest.mark.parametrize("seed", range(20))
def test_partition_order_matches_the_swapping_loop(seed: int) -> None:
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 12, size=rng.integers(1, 6))
    pred = rng.random(int(sizes.sum())) < rng.random()
    order = cxx_partition_order(pred, sizes)
    start = 0
    for size in sizes.tolist():
        expected = _partition_by_swapping(pred[start : start + size].tolist())
        assert (order[start : start + size] - start).tolist() == expected
        start += size
