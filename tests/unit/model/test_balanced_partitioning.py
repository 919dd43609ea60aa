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
    _Level,
    _Log2Table,
    _Work,
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


def _sequential_gains(level: _Level, side: np.ndarray, log2: np.ndarray) -> list[np.float32]:
    """``moveGain`` as LLVM's loop runs it: one float32 addition per utility, in list order."""
    span = int(level.utilities.max()) + 1
    owner = np.repeat(np.arange(len(level.nodes)), level.lengths)
    left = np.bincount(level.utilities[side[owner]], minlength=span)
    right = np.bincount(level.utilities[~side[owner]], minlength=span)
    terms = BalancedPartitioning._move_gains(left, right, log2)
    out, at = [], 0
    for node, length in enumerate(level.lengths.tolist()):
        total = np.float32(0.0)
        for u in level.utilities[at : at + length].tolist():
            total = np.float32(total + terms[u + span * int(side[node])])
        out.append(total)
        at += length
    return out


@pytest.mark.parametrize("seed", range(6))
def test_node_gains_add_each_list_in_order(seed: int) -> None:
    # long lists with terms of many magnitudes, where a pairwise sum rounds differently;
    # after keep() the grid is a column selection, which numpy hands back in Fortran order
    rng = np.random.default_rng(seed)
    sizes = np.array([60, 50, 40])
    count = int(sizes.sum())
    lengths = rng.integers(1, 80, count)
    utilities = np.concatenate([rng.permutation(300)[:n] for n in lengths]).astype(np.int64)
    segment_of_utility = np.repeat(np.repeat(np.arange(3), sizes), lengths)
    utilities = utilities + 300 * segment_of_utility  # a depth numbers utilities apart
    level = _Level(np.arange(count), utilities, lengths, sizes, np.arange(3), np.zeros(3, int))
    log2 = _Log2Table().need(count + 2)
    side = rng.random(count) < 0.5
    work = _Work(level, np.arange(count), np.arange(3))
    assert BalancedPartitioning._node_gains(work, side, log2).tolist() == _sequential_gains(
        level, side, log2
    )
    kept = work.keep(np.array([True, False, True]))
    nodes = np.repeat(np.array([True, False, True]), sizes)
    got = BalancedPartitioning._node_gains(kept, side[nodes], log2).tolist()
    assert got == _sequential_gains(kept.level, side[nodes], log2)
