"""Balanced graph partitioning, bit-for-bit as LLVM's ``BalancedPartitioning``.

``llvm-profdata order`` (LLVM 17+) lays functions out by recursively bisecting
them so that functions sharing "utility nodes" (here: temporal trace prefixes)
end up close together.  The result depends on every detail of LLVM's
implementation, so this module reproduces them rather than the idea:

* each bisection seeds its own ``std::mt19937`` with its root bucket number and
  skips a move when ``std::uniform_real_distribution<float>(0, 1)`` draws
  ``<= 0.1f`` (libstdc++'s ``generate_canonical``: one 32-bit draw over 2**32);
* costs and gains are ``float`` arithmetic in LLVM's operation order (a node's
  gain is a left-to-right float32 sum over its utility nodes);
* the gain list is split with libstdc++'s (unstable) ``std::partition`` and then
  stable-sorted, so ties keep that partition's order; the nodes themselves are
  split with ``std::partition`` too, and (LLVM 19) arranged by
  ``std::nth_element`` before each bisection, so their memory order is tracked;
* utility nodes used once or by every node of a bisection are dropped from the
  nodes for good, which also changes what the deeper bisections see.

Bisections of one recursion depth are independent (LLVM runs them on threads),
so they run here as one batch: every array below holds all nodes of a depth,
grouped in contiguous segments (one per bisection), and the iterations of all
segments advance in lockstep, each segment stopping when LLVM's would.  Only
the random draws are per segment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from profdata.model.cxx_algo import nth_element

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]
_Grid = tuple[npt.NDArray[np.int32], int, IntArray]

LOG_CACHE_SIZE = 16384  # BalancedPartitioning::LOG_CACHE_SIZE
_MT_STATE = 624  # std::mt19937 state words
_MT_INIT = 1812433253  # std::mt19937 initialization multiplier
_U32 = 0xFFFFFFFF


@dataclass(frozen=True)
class BalancedPartitioningConfig:
    """``BalancedPartitioningConfig``: LLVM's defaults (unchanged from 17 to 22) plus the
    one algorithm difference between releases."""

    split_depth: int = 18
    iterations_per_split: int = 40
    skip_probability: float = 0.1
    #: ``split`` sorts the range by input order; before (LLVM 19), it only
    #: ``std::nth_element``-ed it, leaving an order that decides gain ties
    split_sorts: bool = True


@dataclass
class _Level:
    """All bisections of one recursion depth.

    ``nodes`` holds input order indices (``InputOrderIndex``) in LLVM's memory
    order, segment after segment; ``utilities`` concatenates the nodes' utility
    lists in that order (LLVM keeps each list in insertion order, which fixes
    the float summation order of gains).
    """

    nodes: IntArray
    utilities: IntArray
    lengths: IntArray
    sizes: IntArray  # nodes per segment
    buckets: IntArray  # the root bucket (and RNG seed) of each segment
    offsets: IntArray  # where each segment's nodes end up in the final order

    @property
    def segment_of_node(self) -> IntArray:
        return np.repeat(np.arange(len(self.sizes), dtype=np.int64), self.sizes)

    @property
    def starts(self) -> IntArray:
        out: IntArray = np.cumsum(self.sizes) - self.sizes
        return out

    def owners(self) -> IntArray:
        """The node (position) of each utility entry."""
        return np.repeat(np.arange(len(self.nodes), dtype=np.int64), self.lengths)

    def take(self, order: IntArray) -> _Level:
        """The nodes rearranged (new position -> old position) within their segments."""
        starts = np.cumsum(self.lengths) - self.lengths
        lengths = self.lengths[order]
        new_starts = np.cumsum(lengths) - lengths
        within = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(new_starts, lengths)
        gather = np.repeat(starts[order], lengths) + within
        return _Level(
            self.nodes[order], self.utilities[gather], lengths,
            self.sizes, self.buckets, self.offsets,
        )  # fmt: skip

    def select(self, segments: BoolArray) -> _Level:
        """Only the chosen segments."""
        node_mask = segments[self.segment_of_node]
        return _Level(
            self.nodes[node_mask], self.utilities[node_mask[self.owners()]],
            self.lengths[node_mask], self.sizes[segments], self.buckets[segments],
            self.offsets[segments],
        )  # fmt: skip


class _Log2Table:
    """``Log2Cache``: float32 of the double ``std::log2(i)``, grown on demand."""

    def __init__(self) -> None:
        self.values = self._build(LOG_CACHE_SIZE)

    @staticmethod
    def _build(size: int) -> FloatArray:
        table = np.zeros(size, dtype=np.float32)
        table[1:] = np.log2(np.arange(1, size, dtype=np.float64)).astype(np.float32)
        return table

    def need(self, largest: int) -> FloatArray:
        if largest >= len(self.values):
            self.values = self._build(max(largest + 1, 2 * len(self.values)))
        return self.values


def mt19937_keys(seeds: IntArray) -> npt.NDArray[np.uint32]:
    """The state words ``std::mt19937(seed)`` starts from, for many seeds at once."""
    keys = np.empty((_MT_STATE, len(seeds)), dtype=np.uint32)
    word = (seeds & _U32).astype(np.uint32)
    keys[0] = word
    multiplier, shift = np.uint32(_MT_INIT), np.uint32(30)
    for i in range(1, _MT_STATE):
        word = multiplier * (word ^ (word >> shift)) + np.uint32(i)  # wraps mod 2**32
        keys[i] = word
    return np.ascontiguousarray(keys.T)


def _mt_twist(state: npt.NDArray[np.uint32]) -> None:
    """Regenerate each row's 624 words in place, as ``mersenne_twister_engine::_M_gen_rand``.

    Word i reads words i + 1 and i + 397 (mod 624); the chunks below are the
    largest runs whose inputs are all either untouched or already rewritten, as
    in the sequential loop.
    """
    upper, lower, matrix = np.uint32(0x80000000), np.uint32(0x7FFFFFFF), np.uint32(0x9908B0DF)
    zero = np.uint32(0)
    for first, last in ((0, 227), (227, 454), (454, 623), (623, 624)):
        nxt = [(i + 1) % _MT_STATE for i in range(first, last)]
        far = [(i + 397) % _MT_STATE for i in range(first, last)]
        y = (state[:, first:last] & upper) | (state[:, nxt] & lower)
        mixed = state[:, far] ^ (y >> np.uint32(1)) ^ np.where(y & np.uint32(1), matrix, zero)
        state[:, first:last] = mixed


def _mt_temper(words: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    y = words ^ (words >> np.uint32(11))
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    out: npt.NDArray[np.uint32] = y ^ (y >> np.uint32(18))
    return out


class Mt19937Bank:
    """Many ``std::mt19937`` engines (one per seed), drawn from together.

    Each engine yields exactly the 32-bit outputs of ``std::mt19937(seed)()``;
    engines that run out of their 624 tempered words are twisted together.
    """

    def __init__(self, seeds: IntArray) -> None:
        self._state = mt19937_keys(seeds)
        self._output = np.zeros_like(self._state)
        self._pos = np.full(len(seeds), _MT_STATE, dtype=np.int64)

    def draw(self, counts: IntArray) -> npt.NDArray[np.uint32]:
        """``counts[e]`` next outputs of every engine ``e``, engine after engine."""
        counts = counts.astype(np.int64)
        out = np.empty(int(counts.sum()), dtype=np.uint32)
        filled = np.cumsum(counts) - counts
        remaining = counts.copy()
        while True:
            wanted = np.flatnonzero(remaining > 0)
            if not len(wanted):
                return out
            spent = wanted[self._pos[wanted] == _MT_STATE]
            if len(spent):
                block = self._state[spent]
                _mt_twist(block)
                self._state[spent] = block
                self._output[spent] = _mt_temper(block)
                self._pos[spent] = 0
            take = np.minimum(remaining[wanted], _MT_STATE - self._pos[wanted])
            rows = np.repeat(wanted, take)
            step = np.arange(int(take.sum()), dtype=np.int64) - np.repeat(
                np.cumsum(take) - take, take
            )
            out[np.repeat(filled[wanted], take) + step] = self._output[
                rows, np.repeat(self._pos[wanted], take) + step
            ]
            self._pos[wanted] += take
            filled[wanted] += take
            remaining[wanted] -= take


def cxx_partition_order(pred: BoolArray, sizes: IntArray | None = None) -> IntArray:
    """Where libstdc++'s ``std::partition`` moves each element of each segment.

    The bidirectional algorithm swaps the k-th element failing ``pred`` from the
    front with the k-th element satisfying it from the back, for as long as the
    two positions have not crossed.  ``sizes`` cuts ``pred`` into consecutive
    segments partitioned separately (default: one).  Returns the permutation
    (new position -> old position); each segment's first ``pred.sum()``
    positions then hold its elements satisfying ``pred``.
    """
    count = len(pred)
    if sizes is None:
        sizes = np.array([count], dtype=np.int64)
    position = np.arange(count, dtype=np.int64)
    segment = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    starts = np.cumsum(sizes) - sizes
    trues_upto = np.cumsum(pred)
    falses_upto = position + 1 - trues_upto
    trues_before = np.concatenate(([0], trues_upto))[starts]
    falses_before = np.concatenate(([0], falses_upto))[starts]
    num_true = np.add.reduceat(pred.astype(np.int64), starts) if count else sizes * 0
    num_true = np.where(sizes > 0, num_true, 0)
    pairs = np.minimum(num_true, sizes - num_true)
    false_rank = falses_upto - 1 - falses_before[segment]
    true_rank = num_true[segment] - (trues_upto - trues_before[segment])
    fronts = position[~pred & (false_rank < pairs[segment])]
    back_mask = pred & (true_rank < pairs[segment])
    backs = position[back_mask]
    backs = backs[np.lexsort((true_rank[back_mask], segment[back_mask]))]
    crossing = fronts < backs
    order = position.copy()
    order[fronts[crossing]] = backs[crossing]
    order[backs[crossing]] = fronts[crossing]
    return order


def _log_cost(left: IntArray, right: IntArray, log2: FloatArray) -> FloatArray:
    """``logCost(X, Y) = -(X * log2(X + 1) + Y * log2(Y + 1))`` in float32."""
    x = left.astype(np.float32) * log2[left + 1]
    y = right.astype(np.float32) * log2[right + 1]
    out: FloatArray = -(x + y)
    return out


class BalancedPartitioning:
    """``llvm::BalancedPartitioning``: ``run`` returns the node order LLVM computes."""

    def __init__(self, config: BalancedPartitioningConfig | None = None) -> None:
        self.config = config or BalancedPartitioningConfig()
        self._log2 = _Log2Table()
        #: a 32-bit draw ``u`` skips a move iff ``float(u) / 2**32 <= SkipProbability``
        self._skip_cutoff = np.float32(self.config.skip_probability) * np.float32(2.0**32)

    def run(self, utility_lists: Sequence[Sequence[int]]) -> list[int]:
        """Indices of the nodes (given in input order) in partitioned order."""
        count = len(utility_lists)
        lengths = np.array([len(u) for u in utility_lists], dtype=np.int64)
        flat = np.fromiter(
            (un for u in utility_lists for un in u), dtype=np.int64, count=int(lengths.sum())
        )
        out = np.zeros(count, dtype=np.int64)
        one = np.ones(1, dtype=np.int64)
        level: _Level | None = _Level(
            np.arange(count, dtype=np.int64), flat, lengths, count * one, one, 0 * one
        )
        depth = 0
        while level is not None and len(level.sizes):
            level = self._bisect_level(level, depth, out)
            depth += 1
        return [int(i) for i in out]

    def _bisect_level(self, level: _Level, depth: int, out: IntArray) -> _Level | None:
        """Run every bisection of one depth; returns the next depth's bisections."""
        leaf = (level.sizes <= 1) | (depth >= self.config.split_depth)
        if leaf.any():
            self._place_leaves(level.select(leaf), out)
            level = level.select(~leaf)
        if not len(level.sizes):
            return None
        level = level.take(self._split_order(level))
        level = self._drop_trivial_utilities(level)
        segment = level.segment_of_node
        within = np.arange(len(level.nodes), dtype=np.int64) - level.starts[segment]
        on_left = within < (level.sizes[segment] + 1) // 2
        on_left = self._run_iterations(level, on_left)
        level = level.take(cxx_partition_order(on_left, level.sizes))
        num_left = np.add.reduceat(on_left.astype(np.int64), level.starts)
        sizes = np.stack((num_left, level.sizes - num_left), axis=1).reshape(-1)
        buckets = np.stack((2 * level.buckets, 2 * level.buckets + 1), axis=1).reshape(-1)
        offsets = np.stack((level.offsets, level.offsets + num_left), axis=1).reshape(-1)
        child = _Level(level.nodes, level.utilities, level.lengths, sizes, buckets, offsets)
        return child.select(sizes > 0)

    @staticmethod
    def _place_leaves(level: _Level, out: IntArray) -> None:
        """Leaves keep input order (``llvm::sort`` by ``InputOrderIndex``)."""
        segment = level.segment_of_node
        ordered = level.nodes[np.lexsort((level.nodes, segment))]
        within = np.arange(len(ordered), dtype=np.int64) - level.starts[segment]
        out[level.offsets[segment] + within] = ordered

    def _split_order(self, level: _Level) -> IntArray:
        """Where ``split`` moves each segment's nodes before halving it (new -> old)."""
        segment = level.segment_of_node
        by_input: IntArray = np.lexsort((level.nodes, segment))
        if self.config.split_sorts:
            return by_input
        order = np.empty(len(level.nodes), dtype=np.int64)
        for start, size in zip(level.starts.tolist(), level.sizes.tolist(), strict=True):
            keys = level.nodes[start : start + size].tolist()
            nth_element(keys, (size + 1) // 2)
            sorted_nodes = np.sort(level.nodes[start : start + size])
            rank = np.searchsorted(sorted_nodes, np.array(keys, dtype=np.int64))
            order[start : start + size] = by_input[start + rank]
        return order

    @staticmethod
    def _drop_trivial_utilities(level: _Level) -> _Level:
        """Remove utility nodes with one edge or connected to every node of their
        bisection, and renumber them (distinct across the depth's bisections)."""
        owner = level.owners()
        segment = level.segment_of_node[owner]
        span = int(level.utilities.max()) + 1 if len(level.utilities) else 1
        _, local, uses = np.unique(
            segment * span + level.utilities, return_inverse=True, return_counts=True
        )
        local = local.reshape(-1)
        keep = (uses[local] != 1) & (uses[local] != level.sizes[segment])
        lengths = np.bincount(owner[keep], minlength=len(level.nodes)).astype(np.int64)
        return _Level(
            level.nodes, local[keep].astype(np.int64), lengths,
            level.sizes, level.buckets, level.offsets,
        )  # fmt: skip

    def _run_iterations(self, level: _Level, on_left: BoolArray) -> BoolArray:
        """``runIterations`` of every segment, in lockstep.

        Segments whose iteration moved nothing are done (LLVM breaks out of their
        loop); the working arrays then shrink to the segments still running.
        """
        engines = Mt19937Bank(level.buckets)
        log2 = self._log2.need(int(level.sizes.max()) + 2)
        work = _Work(level, np.arange(len(level.nodes)), np.arange(len(level.sizes)))
        for _ in range(self.config.iterations_per_split):
            side = on_left[work.where]
            node_gain = self._node_gains(work, side, log2)
            candidates, pairs = self._candidates(work, side, node_gain)
            wanted = np.zeros(len(level.sizes), dtype=np.int64)
            wanted[work.segments] = 2 * pairs
            draws = engines.draw(wanted)
            movers = candidates[draws.astype(np.float32) > self._skip_cutoff]
            on_left[work.where[movers]] = ~side[movers]
            still = np.bincount(work.segment[movers], minlength=len(work.segments)) > 0
            if not still.any():
                break
            if not still.all():
                work = work.keep(still)
        return on_left

    @classmethod
    def _node_gains(cls, work: _Work, side: BoolArray, log2: FloatArray) -> FloatArray:
        """``moveGain`` of every node: its utilities' terms summed in list order."""
        if not len(work.grid):
            return np.zeros(len(side), dtype=np.float32)
        left = np.bincount(work.level.utilities[side[work.owner]], minlength=work.span)
        gains = cls._move_gains(left, work.uses - left, log2)
        # a reduction down the rows of a C-ordered grid adds row after row (numpy sums
        # pairwise only along the contiguous axis), so each node's float32 sum is
        # moveGain's, in its order
        terms = gains.take(work.grid + np.int32(work.span) * side)  # C order, always
        assert terms.flags.c_contiguous
        out: FloatArray = np.add.reduce(terms, axis=0)
        return out

    @staticmethod
    def _move_gains(left: IntArray, right: IntArray, log2: FloatArray) -> FloatArray:
        """Each utility's term of ``moveGain`` for a node on the right (``CachedGainRL``),
        then for a node on the left (``CachedGainLR``)."""
        cost = _log_cost(left, right, log2)
        zero = np.float32(0.0)
        gain_lr = np.where(
            left > 0, cost - _log_cost(np.maximum(left - 1, 0), right + 1, log2), zero
        )
        gain_rl = np.where(
            right > 0, cost - _log_cost(left + 1, np.maximum(right - 1, 0), log2), zero
        )
        return np.concatenate((gain_rl, gain_lr)).astype(np.float32)

    @staticmethod
    def _candidates(work: _Work, on_left: BoolArray, node_gain: FloatArray) -> tuple[
        IntArray, IntArray
    ]:  # fmt: skip
        """The nodes ``runIteration`` tries to move, in LLVM's order, and the pairs per segment.

        Per segment: ``std::partition`` the nodes by side, stable-sort each side by
        descending gain, pair the sides rank by rank while the pair's gain sum is
        positive; the candidates alternate left, right (one draw each).
        """
        sizes, segment = work.level.sizes, work.segment
        order = cxx_partition_order(on_left, sizes)
        ranked = order[np.lexsort((-node_gain[order], ~on_left[order], segment[order]))]
        ranked_right = ~on_left[ranked]
        ranked_segment = segment[ranked]
        boundary = (np.diff(ranked_segment) != 0) | (np.diff(ranked_right) != 0)
        group_start = np.flatnonzero(np.concatenate(([True], boundary)))
        group_size = np.diff(np.concatenate((group_start, [len(ranked)])))
        rank = np.arange(len(ranked), dtype=np.int64) - np.repeat(group_start, group_size)
        num_left = np.bincount(segment[on_left], minlength=len(sizes))
        pairs = np.minimum(num_left, sizes - num_left)
        in_pair = rank < pairs[ranked_segment]
        lefts = ranked[in_pair & ~ranked_right]
        rights = ranked[in_pair & ranked_right]
        pair_segment = segment[lefts]
        pair_rank = rank[in_pair & ~ranked_right]
        unprofitable = node_gain[lefts] + node_gain[rights] <= np.float32(0.0)
        np.minimum.at(pairs, pair_segment[unprofitable], pair_rank[unprofitable])
        chosen = pair_rank < pairs[pair_segment]
        candidates = np.empty(2 * int(chosen.sum()), dtype=np.int64)
        candidates[0::2] = lefts[chosen]
        candidates[1::2] = rights[chosen]
        return candidates, pairs


class _Work:
    """The segments of a depth still iterating, with their per-iteration index arrays."""

    def __init__(
        self, level: _Level, where: IntArray, segments: IntArray, grid: _Grid | None = None
    ) -> None:
        self.level = level
        self.where = where  # positions in the depth's arrays
        self.segments = segments  # segment numbers in the depth
        self.segment = level.segment_of_node
        self.owner = level.owners()
        self.grid, self.span, self.uses = grid if grid is not None else self._grid(level)

    def _grid(self, level: _Level) -> _Grid:
        """One row per list position, each node's utilities down its column (a utility no
        node uses fills the empty cells), so a sum down the rows adds each node's terms one
        after the other in float32, as ``moveGain``'s loop does; the span of utility
        numbers and each utility's number of nodes."""
        utilities = level.utilities
        span = int(utilities.max()) + 2 if len(utilities) else 1
        entry_starts = np.cumsum(level.lengths) - level.lengths
        column = np.arange(len(self.owner), dtype=np.int64) - entry_starts[self.owner]
        width = int(level.lengths.max()) if len(level.lengths) else 0
        grid = np.full((width, len(level.nodes)), span - 1, dtype=np.int32)
        grid[column, self.owner] = utilities
        return grid, span, np.bincount(utilities, minlength=span)

    def keep(self, segments: BoolArray) -> _Work:
        """Only the segments still iterating: their grid columns, and the rows they fill
        (utility numbers are the depth's, so they stay)."""
        nodes = segments[self.segment]
        level = self.level.select(segments)
        width = int(level.lengths.max()) if len(level.lengths) else 0
        grid = (self.grid[:width, nodes], self.span, self.uses)  # (Fortran-ordered)
        return _Work(level, self.where[nodes], self.segments[segments], grid)
