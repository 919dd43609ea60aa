"""``overlap`` of two profiles held as tables: :mod:`profdata.ops.overlap`'s steps as
array operations.

The record-by-record steps cost a few microseconds of Python per function
and per value site, about 12x llvm-profdata's whole run on a 100k-function
profile.  For the profiles nearly everyone has, every step reduces to
arrays:

* the base has one record per (name, hash) and no hash of 2**64-1, so
  ``loadInput`` merges nothing and warns about nothing: a base record is
  compared as it was read (``new_record``'s sort only reorders values, and
  the overlap sorts them by value anyway);
* no site holds more than 255 values or one value twice, so the value walk
  of ``InstrProfValueSiteRecord::overlap`` pairs exactly the equal values.

Anything else returns False and the record-by-record path, which is the
reference, runs.  Every floating-point sum is formed in LLVM's order:
sequential ``cumsum`` over one accumulator's terms in the order LLVM adds
them, and a site's (or a function's) own sum built one term at a time for
all sites at once, so the printed percentages stay digit for digit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from profdata.model.instr import distinct, spans
from profdata.model.kinds import CS_HASH_BIT
from profdata.model.record_table import RecordTable
from profdata.ops.overlap import (
    DENSEMAP_EMPTY_KEY,
    CountSum,
    Level,
    OverlapOptions,
    OverlapResult,
    OverlapStats,
    row_sums,
    segment_maxima,
    segment_sums,
    sequential_sum,
)

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

_MAX_VALUES = 255


class _Side:
    """One profile's table with what the overlap reads of it, all per record."""

    def __init__(self, table: RecordTable, num_kinds: int) -> None:
        cols = table.columns
        self.table = table
        self.names = cols.names
        self.hashes = cols.hashes
        self.lengths = cols.lengths
        self.counts = cols.counts
        self.starts = cols.starts
        vals = table.values
        known = np.flatnonzero(vals.row_kind < num_kinds)  # the site walk skips the others
        self.values = vals = vals if len(known) == len(vals.row_kind) else vals.rows(known)
        count = len(cols)
        self.sums = segment_sums(self.counts, self.lengths)  # wrapping, like uint64_t FuncSum
        self.maxima = segment_maxima(self.counts, self.lengths)
        #: (records, kinds): the row of each record's sites of a kind (-1: none) and their
        #: number; the wrapping sum of their counts as a double (``_value_sums``)
        self.row_of = np.full((count, num_kinds), -1, dtype=np.int64)
        self.row_of[vals.row_record, vals.row_kind] = np.arange(len(vals.row_record))
        self.num_sites = np.zeros((count, num_kinds), dtype=np.int64)
        self.num_sites[vals.row_record, vals.row_kind] = vals.row_sites
        per_row = vals.value_starts()[1]
        self.value_sums = np.zeros((count, num_kinds), dtype=np.float64)
        self.value_sums[vals.row_record, vals.row_kind] = segment_sums(vals.counts, per_row)
        self.site_starts = vals.site_starts()
        self.site_bounds = vals.site_bounds()

    def simple_sites(self) -> bool:
        """No site holds more than 255 values or one value twice."""
        vals = self.values
        if not len(vals.values):
            return True
        if int(vals.site_lengths.max()) > _MAX_VALUES:
            return False
        site = np.repeat(np.arange(len(vals.site_lengths)), vals.site_lengths)
        order = np.lexsort((vals.values, site))
        same_site = site[order][1:] == site[order][:-1]
        return not bool(np.any(same_site & (vals.values[order][1:] == vals.values[order][:-1])))

    def accumulate(self, is_ir: bool, cs: bool, into: CountSum) -> None:
        """``accumulateCounts`` (the CS filter applies to IR profiles only)."""
        keep = ((self.hashes & np.uint64(CS_HASH_BIT)) != 0) == cs if is_ir else None
        sums = self.sums if keep is None else self.sums[keep]
        into.count_sum = sequential_sum(sums.astype(np.float64))
        value_sums = self.value_sums if keep is None else self.value_sums[keep]
        into.value_counts = [sequential_sum(value_sums[:, k]) for k in range(value_sums.shape[1])]
        into.num_entries = len(sums)


def overlap_tables(
    base_table: RecordTable,
    test_table: RecordTable,
    base_ir: bool,
    test_ir: bool,
    options: OverlapOptions,
    result: OverlapResult,
) -> bool:
    """``overlapInstrProfile`` into ``result``; False (and ``result`` untouched) where the
    record-by-record path must decide (see the module docstring)."""
    num_kinds = options.release.max_value_kind + 1
    base, test = _Side(base_table, num_kinds), _Side(test_table, num_kinds)
    if bool(np.any(base.hashes == np.uint64(DENSEMAP_EMPTY_KEY))):
        return False
    name_ids = _name_ids(base.names)
    if _pair_twice(name_ids, base.hashes) or not base.simple_sites() or not test.simple_sites():
        return False
    program = result.program
    base.accumulate(base_ir, options.cs, program.base)
    test.accumulate(test_ir, options.cs, program.test)
    if program.base.count_sum < 1.0:
        result.zero_sum_profile = result.base_name
        return True
    if program.test.count_sum < 1.0:
        result.zero_sum_profile = result.test_name
        return True

    # overlapRecord of every test record: name, then hash, then shape
    dest = _dest(base, test, name_ids)
    known = dest >= -1  # -1: the name is known, not the hash
    test_sums = test.sums.astype(np.float64)
    zero = known & (test_sums < 1.0)
    found = np.maximum(dest, 0)
    same = (
        (dest >= 0)
        & (base.lengths[found] == test.lengths)
        & np.all(base.num_sites[found] == test.num_sites, axis=1)
    )
    unique = ~known
    mismatch = known & ~zero & ~same
    match = known & ~zero & same
    _add_shares(program.unique, unique, test, test_sums, program.test)
    _add_shares(program.mismatch, mismatch, test, test_sums, program.test)
    program.overlap.num_entries += int(np.count_nonzero(zero)) + int(np.count_nonzero(match))

    matched = _Matches.of(base, test, np.flatnonzero(match), dest, test_sums, options)
    _overlap_values(base, test, matched, program)
    _score_edges(base, test, matched, program)
    result.functions = matched.funcs
    return True


def _name_ids(names: list[str]) -> Ints:
    ids: dict[str, int] = {}
    return np.fromiter((ids.setdefault(n, len(ids)) for n in names), np.int64, len(names))


def _pair_twice(name_ids: Ints, hashes: U64s) -> bool:
    if len(hashes) < 2:
        return False
    order = np.lexsort((hashes, name_ids))
    a, b = name_ids[order], hashes[order]
    return bool(np.any((a[1:] == a[:-1]) & (b[1:] == b[:-1])))


def _dest(base: _Side, test: _Side, base_name_ids: Ints) -> Ints:
    """Each test record's base record: its row, -1 when the base has the name but not the
    hash (or the hash is the writer map's empty key), -2 when it lacks the name."""
    by_name: dict[str, int] = {}
    for name, index in zip(base.names, base_name_ids.tolist(), strict=True):
        by_name.setdefault(name, index)
    test_ids = np.fromiter(
        (by_name.get(name, -1) for name in test.names), np.int64, len(test.names)
    )
    # (name id, hash) of the base, sorted, looked up for each test record
    order = np.lexsort((base.hashes, base_name_ids))
    keys_id, keys_hash = base_name_ids[order], base.hashes[order]
    lo = np.searchsorted(keys_id, test_ids, side="left")
    hi = np.searchsorted(keys_id, test_ids, side="right")
    dest = np.where(test_ids >= 0, -1, -2).astype(np.int64)
    for k in range(int((hi - lo).max(initial=0))):  # a name's records: a few at most
        at = lo + k
        hit = (at < hi) & (keys_hash[np.minimum(at, len(order) - 1)] == test.hashes)
        dest[hit & (dest == -1)] = order[at[hit & (dest == -1)]]
    dest[(dest >= 0) & (test.hashes == np.uint64(DENSEMAP_EMPTY_KEY))] = -1
    return dest


def _add_shares(into: CountSum, chosen: Mask, test: _Side, sums: Floats, total: CountSum) -> None:
    """``addOneMismatch`` / ``addOneUnique`` of the chosen test records, in test order."""
    into.num_entries += int(np.count_nonzero(chosen))
    into.count_sum = sequential_sum(sums[chosen] / total.count_sum, into.count_sum)
    for k, kind_total in enumerate(total.value_counts):
        if kind_total >= 1.0:
            shares = test.value_sums[chosen, k] / kind_total
            into.value_counts[k] = sequential_sum(shares, into.value_counts[k])


@dataclass(eq=False)
class _Matches:
    """The test records whose (name, hash) and shape the base has, in test order, with
    their base records, and the function blocks of those that print one."""

    test: Ints
    base: Ints
    test_sums: Floats  # each match's counter sum as a double
    funcs: list[OverlapStats]
    block_of: Ints  # each match's block among ``funcs`` (-1: none)

    @classmethod
    def of(
        cls,
        base: _Side,
        test: _Side,
        matches: Ints,
        dest: Ints,
        sums: Floats,
        options: OverlapOptions,
    ) -> _Matches:
        partners = dest[matches]
        forced = np.zeros(len(matches), dtype=bool)
        if options.function:
            needle = options.function
            forced = np.array([needle in test.names[i] for i in matches.tolist()], dtype=bool)
        cutoff = np.where(forced, np.uint64(0), np.uint64(options.value_cutoff))
        blocks = np.flatnonzero(test.maxima[matches] >= cutoff)
        block_of = np.full(len(matches), -1, dtype=np.int64)
        block_of[blocks] = np.arange(len(blocks))
        num_kinds = base.value_sums.shape[1]
        funcs: list[OverlapStats] = []
        for t, d in zip(matches[blocks].tolist(), partners[blocks].tolist(), strict=True):
            func = OverlapStats.new(Level.FUNCTION, num_kinds, test.names[t], int(test.hashes[t]))
            func.test = CountSum(int(test.lengths[t]), float(sums[t]), test.value_sums[t].tolist())
            func.base.value_counts = base.value_sums[d].tolist()
            funcs.append(func)
        return cls(matches, partners, sums[matches], funcs, block_of)


def _overlap_values(base: _Side, test: _Side, matched: _Matches, program: OverlapStats) -> None:
    """``InstrProfValueSiteRecord::overlap`` of every site of every match.

    Site pairs go in LLVM's order (match, kind, site); a site's score adds its
    equal values' terms in ascending value order, starting from 0.
    """
    num_kinds = base.value_sums.shape[1]
    matches, partners, funcs = matched.test, matched.base, matched.funcs
    match_of = np.full(len(test.names), -1, dtype=np.int64)
    match_of[matches] = np.arange(len(matches))
    vals = test.values
    rows = np.flatnonzero(match_of[vals.row_record] >= 0)  # (record, kind) order
    if not len(rows):
        return
    kinds = vals.row_kind[rows]
    position = match_of[vals.row_record[rows]]
    base_rows = base.row_of[partners[position], kinds]
    nsites = vals.row_sites[rows]
    pair_position = np.repeat(position, nsites)
    pair_kind = np.repeat(kinds, nsites)
    within = spans(np.zeros(len(rows), dtype=np.int64), nsites)
    test_site = np.repeat(test.site_starts[rows], nsites) + within
    base_site = np.repeat(base.site_starts[base_rows], nsites) + within
    pairs = len(test_site)

    # the values of both sides of every pair; equal (pair, value) keys are the walk's matches
    def entries(side: _Side, sites: Ints) -> tuple[Ints, U64s, U64s]:
        lengths = side.values.site_lengths[sites]
        at = spans(side.site_bounds[sites], lengths)
        owner = np.repeat(np.arange(len(sites)), lengths)
        return owner, side.values.values[at], side.values.counts[at]

    b_pair, b_value, b_count = entries(base, base_site)
    t_pair, t_value, t_count = entries(test, test_site)
    pair = np.concatenate([b_pair, t_pair])
    value = np.concatenate([b_value, t_value])
    order = np.lexsort((value, pair))  # stable: a base entry before the test entry it equals
    pair, value = pair[order], value[order]
    first = np.flatnonzero((pair[1:] == pair[:-1]) & (value[1:] == value[:-1]))
    hit_pair = pair[first]
    a = np.concatenate([b_count, t_count])[order][first].astype(np.float64)
    b = np.concatenate([b_count, t_count])[order][first + 1].astype(np.float64)
    hit_kind = pair_kind[hit_pair]

    base_totals = np.array(program.base.value_counts, dtype=np.float64)
    test_totals = np.array(program.test.value_counts, dtype=np.float64)
    terms = _terms(a, b, base_totals[hit_kind], test_totals[hit_kind])
    site_scores = _segment_sums(hit_pair, terms, pairs)
    for k in range(num_kinds):
        mine = site_scores[pair_kind == k]
        if len(mine):
            program.overlap.value_counts[k] = sequential_sum(mine, program.overlap.value_counts[k])

    if not funcs:
        return
    block_of = matched.block_of
    hit_block = block_of[pair_position[hit_pair]]
    counted = hit_block >= 0
    hit_t = matches[pair_position[hit_pair]]
    hit_d = partners[pair_position[hit_pair]]
    f_base = base.value_sums[hit_d, hit_kind]
    f_test = test.value_sums[hit_t, hit_kind]
    terms = np.where(counted, _terms(a, b, f_base, f_test), 0.0)
    func_site = _segment_sums(hit_pair, terms, pairs)
    # each function's sum per kind: its sites in order, one term at a time
    pair_block = block_of[pair_position]
    shown = np.flatnonzero(pair_block >= 0)
    segment = pair_block[shown] * num_kinds + pair_kind[shown]
    sums = _segment_sums(segment, func_site[shown], len(funcs) * num_kinds).reshape(-1, num_kinds)
    for func, row in zip(funcs, sums.tolist(), strict=True):
        func.overlap.value_counts = row


def _terms(a: Floats, b: Floats, base_sum: Floats, test_sum: Floats) -> Floats:
    """``OverlapStats::score``: ``min(a/baseSum, b/testSum)``, 0 when a sum is below 1."""
    usable = (base_sum >= 1.0) & (test_sum >= 1.0)
    safe_base = np.where(usable, base_sum, 1.0)
    safe_test = np.where(usable, test_sum, 1.0)
    return np.where(usable, np.minimum(a / safe_base, b / safe_test), 0.0)


def _segment_sums(segment: Ints, terms: Floats, count: int) -> Floats:
    """``sums[s] = ((0.0 + t0) + t1) + ...`` over segment ``s``'s terms in order, for all
    segments at once: one vectorized add per term rank (``segment`` non-decreasing)."""
    sums = np.zeros(count, dtype=np.float64)
    if not len(segment):
        return sums
    starts = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
    sizes = np.diff(np.r_[starts, len(segment)])
    owners = segment[starts]
    for rank in range(int(sizes.max())):
        live = sizes > rank
        sums[owners[live]] += terms[starts[live] + rank]
    return sums


def _score_edges(base: _Side, test: _Side, matched: _Matches, program: OverlapStats) -> None:
    """The counter part of ``InstrProfRecord::overlap``: program-wide scores added in test
    order, and each function block's own score (see ``overlap._score_edges``)."""
    matches, partners, block_of = matched.test, matched.base, matched.block_of
    blocks = block_of >= 0
    lengths = test.lengths[matches]
    scores = np.zeros(len(matches), dtype=np.float64)
    base_total, test_total = program.base.count_sum, program.test.count_sum
    for width in distinct(lengths).tolist():
        rows = np.flatnonzero(lengths == width)
        dest = _counter_rows(base, partners[rows], width)
        mine = _counter_rows(test, matches[rows], width)
        scores[rows] = row_sums(np.minimum(dest / base_total, mine / test_total))
        chosen = rows[blocks[rows]]
        if not len(chosen):
            continue
        in_rows = blocks[rows]
        dest_sums = base.sums[partners[chosen]].astype(np.float64)
        usable = dest_sums >= 1.0
        safe = np.where(usable, dest_sums, 1.0)
        tsums = matched.test_sums[chosen]
        per_row = row_sums(
            np.minimum(dest[in_rows] / safe[:, None], mine[in_rows] / tsums[:, None])
        )
        per_row[~usable] = 0.0
        for block, base_sum, score in zip(
            block_of[chosen].tolist(), dest_sums.tolist(), per_row.tolist(), strict=True
        ):
            func = matched.funcs[block]
            func.base.count_sum = base_sum
            func.overlap.count_sum = score
            func.overlap.num_entries = width
    program.overlap.count_sum = sequential_sum(scores, program.overlap.count_sum)


def _counter_rows(side: _Side, records: Ints, width: int) -> Floats:
    at = spans(side.starts[records], np.full(len(records), width, dtype=np.int64))
    rows: Floats = side.counts[at].astype(np.float64).reshape(len(records), width)
    return rows


__all__ = ["overlap_tables"]
