"""``llvm-profdata overlap`` for instrumentation profiles (``overlapInstrProfile``).

How similar a test profile is to a base profile, program-wide and per
function, with LLVM's exact arithmetic so the printed percentages match the
real tool digit for digit (``shared/spec/show-output.md`` §3).  The steps
are LLVM's, in LLVM's order, because each one leaves marks on the output:

1. ``OverlapStats::accumulateCounts`` sums both profiles as their readers
   return them: per function a ``uint64_t`` sum that wraps, added to a
   ``double``.  In IR profiles only records whose CS bit equals ``--cs``
   count.  A sum below 1 ends the command ("Sum of edge counts for profile
   F is 0.").
2. ``loadInput`` merges the base into an :class:`InstrProfWriter` with weight
   1, so duplicate (name, hash) records of the base are merged (saturating)
   and its merge warnings are reported.
3. Every test record, *CS or not*, is looked up by name, then by hash
   (``InstrProfWriter::overlapRecord``): an unknown name is "only in
   test"; a known name whose record sums to less than 1 counts as an overlap
   without a score; an unknown hash, another counter count or another
   number of value sites is a mismatch; otherwise ``InstrProfRecord::overlap``
   adds ``min(base/baseSum, test/testSum)`` per counter and per value (value
   sites are matched by value after a stable sort), program-wide with the
   step-1 sums and per function with the two records' own sums.
4. A per-function block is kept when the test record's largest counter is
   at least ``--value-cutoff`` (default ``2**64-1``), or for every record
   whose name contains ``--function``.

Scores are summed sequentially in counter order (``numpy.cumsum``, never a
pairwise ``sum``) so the doubles are bit-identical to LLVM's.

:func:`render_text` prints the result as llvm-profdata does; the JSON extra
lives in :mod:`profdata.ops.overlap_json`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

import numpy as np
import numpy.typing as npt

from profdata.model.counters import U64_MAX
from profdata.model.instr import InstrProfile, InstrRecord, ValueSite
from profdata.model.kinds import ValueKind
from profdata.model.record_table import record_table
from profdata.ops.merge import InstrProfWriter, RecordWarning
from profdata.ops.merge_records import WarningKind, merge_record, new_record, sort_by_value
from profdata.releases import Release

Ints = npt.NDArray[np.int64]
_U64_MASK = U64_MAX
#: ``DenseMapInfo<uint64_t>::getEmptyKey()``: a FuncHash the writer's map cannot hold.
DENSEMAP_EMPTY_KEY = U64_MAX

#: What ``OverlapStats::dump`` calls each value kind.
KIND_NAMES = {
    ValueKind.INDIRECT_CALL_TARGET: "IndirectCall",
    ValueKind.MEMOP_SIZE: "MemOP",
    ValueKind.VTABLE_TARGET: "VTable",
}


class Level(Enum):
    PROGRAM = "program"  # OverlapStats::ProgramLevel
    FUNCTION = "function"  # OverlapStats::FunctionLevel


@dataclass(slots=True)
class CountSum:
    """LLVM's ``CountSumOrPercent``: an entry count, an edge sum and one sum per value kind.

    The same type holds raw sums (base, test) and fractions of the test sum
    (overlap, mismatch, unique), as in LLVM.
    """

    num_entries: int
    count_sum: float
    value_counts: list[float]

    @classmethod
    def zero(cls, num_kinds: int) -> CountSum:
        return cls(0, 0.0, [0.0] * num_kinds)


@dataclass(slots=True)
class OverlapStats:
    """LLVM's ``OverlapStats`` of the whole program or of one function."""

    level: Level
    base: CountSum
    test: CountSum
    overlap: CountSum
    mismatch: CountSum
    unique: CountSum
    func_name: str = ""
    func_hash: int = 0

    @classmethod
    def new(cls, level: Level, num_kinds: int, name: str = "", func_hash: int = 0) -> OverlapStats:
        zero = CountSum.zero
        return cls(
            level,
            zero(num_kinds),
            zero(num_kinds),
            zero(num_kinds),
            zero(num_kinds),
            zero(num_kinds),
            name,
            func_hash,
        )

    @property
    def num_kinds(self) -> int:
        return len(self.base.value_counts)

    def add_one_mismatch(self, func: CountSum) -> None:
        """``addOneMismatch``: the function's share of the test sums."""
        _add_share(self.mismatch, func, self.test)

    def add_one_unique(self, func: CountSum) -> None:
        """``addOneUnique``: the function's share of the test sums."""
        _add_share(self.unique, func, self.test)

    def kinds_shown(self) -> list[ValueKind]:
        """The value kinds ``dump`` prints: those with a base or test sum of at least 1."""
        base, test = self.base.value_counts, self.test.value_counts
        return [ValueKind(k) for k in range(len(base)) if base[k] >= 1.0 or test[k] >= 1.0]


def _add_share(into: CountSum, func: CountSum, test: CountSum) -> None:
    into.num_entries += 1
    into.count_sum += func.count_sum / test.count_sum
    for k, total in enumerate(test.value_counts):
        if total >= 1.0:
            into.value_counts[k] += func.value_counts[k] / total


@dataclass(frozen=True)
class OverlapOptions:
    """The ``overlap`` options for instrumentation profiles (LLVM's names)."""

    release: Release
    value_cutoff: int = U64_MAX  # --value-cutoff (cl::init(-1))
    function: str = ""  # --function: substring that forces a function block
    cs: bool = False  # --cs: sum the context-sensitive records of IR profiles


@dataclass
class OverlapResult:
    """Everything ``overlap`` prints, in the order it prints it."""

    base_name: str
    test_name: str
    release: Release
    program: OverlapStats
    #: the function blocks (LLVM's valid function-level stats), in test-reader order
    functions: list[OverlapStats] = field(default_factory=list)
    #: the input whose edge sum is below 1 when LLVM stopped early, else None
    zero_sum_profile: str | None = None
    #: the base merge's warnings (``loadInput``), in order
    warnings: list[RecordWarning] = field(default_factory=list)


WarningSink = Callable[[RecordWarning], None]


def value_kinds(release: Release) -> list[ValueKind]:
    """``IPVK_First..IPVK_Last`` of the release."""
    return [ValueKind(k) for k in range(release.max_value_kind + 1)]


@dataclass(slots=True)
class _Match:
    """A test record whose (name, hash) the base has, with the same shape."""

    dest: InstrRecord
    test: InstrRecord
    test_sum: float
    #: the function block when the record passes the cutoff, else None
    func: OverlapStats | None


def overlap_instr(
    base: InstrProfile,
    test: InstrProfile,
    options: OverlapOptions,
    *,
    base_name: str = "base",
    test_name: str = "test",
    sink: WarningSink | None = None,
    tables: bool = True,
) -> OverlapResult:
    """``overlapInstrProfile`` on two profiles already read (names are only printed).

    Profiles that allow it are compared as tables (:mod:`profdata.ops.overlap_tables`);
    ``tables=False`` always takes the record-by-record path, the reference.
    """
    num_kinds = options.release.max_value_kind + 1
    program = OverlapStats.new(Level.PROGRAM, num_kinds)
    result = OverlapResult(base_name, test_name, options.release, program)
    if tables:
        from profdata.ops.overlap_tables import overlap_tables  # it builds on this module

        base_table, test_table = record_table(base), record_table(test)
        if overlap_tables(
            base_table, test_table, base.kind.is_ir, test.kind.is_ir, options, result
        ):
            return result
    base_records = list(iter(base.records))  # not list(records): no len() pass first
    test_records = list(iter(test.records))
    base_sums = edge_sums(base_records)
    test_sums, test_maxima = edge_stats(test_records)
    accumulate_profile(base_records, base_sums, base.kind.is_ir, options.cs, program.base)
    accumulate_profile(test_records, test_sums, test.kind.is_ir, options.cs, program.test)
    if program.base.count_sum < 1.0:
        result.zero_sum_profile = base_name
        return result
    if program.test.count_sum < 1.0:
        result.zero_sum_profile = test_name
        return result
    functions = _load_base(base_records, base_name, options.release, result.warnings, sink)
    matches = _classify(test_records, test_sums, test_maxima, functions, program, options)
    _score_edges(matches, program)
    result.functions = [m.func for m in matches if m.func is not None]
    return result


def _load_base(
    records: list[InstrRecord],
    name: str,
    release: Release,
    warnings: list[RecordWarning],
    sink: WarningSink | None,
) -> dict[str, dict[int, InstrRecord]]:
    """``loadInput`` of the base with weight 1, as name -> hash -> merged record.

    Only a (name, hash) seen more than once needs the writer's merge (and
    can warn); a record seen once is what ``addRecord`` stores for it: the
    record itself, value sites sorted and cut to 255 (:func:`new_record`).
    Skipping the writer for those keeps a 100k-function base cheap.

    A FuncHash of 2**64-1 is the empty key of the writer's ``SmallDenseMap``:
    LLVM's lookup "finds" an empty bucket, merges the record into the empty
    record found there (a counter mismatch) and stores nothing, though the
    name is now known.
    """
    seen: set[tuple[str, int]] = set()
    repeated: set[tuple[str, int]] = set()
    for rec in records:
        key = (rec.name, rec.hash)
        if key in seen:
            repeated.add(key)
        seen.add(key)
    functions: dict[str, dict[int, InstrRecord]] = {}
    writer = InstrProfWriter(release)
    pseudo = release.merge_pseudo_counts
    reported: set[WarningKind] = set()
    for rec in records:
        problems: list[WarningKind] = []
        if rec.hash == DENSEMAP_EMPTY_KEY:
            functions.setdefault(rec.name, {})
            merge_record(_empty_record(rec), rec, 1, pseudo, problems, introsort=False)
        elif repeated and (rec.name, rec.hash) in repeated:
            problems = writer.add_record(rec, 1)
        else:
            stored = new_record(rec, rec.name, 1, pseudo, problems) if rec.value_sites else rec
            by_hash = functions.get(rec.name)
            if by_hash is None:
                functions[rec.name] = {rec.hash: stored}
            else:
                by_hash[rec.hash] = stored
        if problems:
            kind = problems[0]
            warning = RecordWarning(kind, name, rec.name, kind not in reported)
            reported.add(kind)
            warnings.append(warning)
            if sink is not None:
                sink(warning)
    for func_name, merged in writer.functions.items():
        functions.setdefault(func_name, {}).update(merged)
    return functions


def _empty_record(like: InstrRecord) -> InstrRecord:
    """The default-constructed ``InstrProfRecord`` an empty DenseMap bucket holds."""
    return InstrRecord(like.name, like.hash, np.zeros(0, dtype=np.uint64))


def _classify(
    records: list[InstrRecord],
    record_sums: npt.NDArray[np.uint64],
    record_maxima: npt.NDArray[np.uint64],
    functions: dict[str, dict[int, InstrRecord]],
    program: OverlapStats,
    options: OverlapOptions,
) -> list[_Match]:
    """``overlapRecord`` for every test record, except the edge scores (vectorized later).

    Unknown names, zero sums and mismatches are settled here in test order;
    value sites are scored here too, since they are irregular.
    """
    num_kinds = program.num_kinds
    kinds = [ValueKind(k) for k in range(num_kinds)]
    no_values = [0.0] * num_kinds  # shared, read-only: records without value sites
    introsort = options.release.value_sort_introsort
    sums = record_sums.tolist()
    maxima = record_maxima.tolist()
    matches: list[_Match] = []
    for rec, edge_sum, max_count in zip(records, sums, maxima, strict=True):
        values = _value_sums(rec, num_kinds) if rec.value_sites else no_values
        test_sum = float(edge_sum)
        by_hash = functions.get(rec.name)
        if by_hash is None:
            program.add_one_unique(CountSum(len(rec.counts), test_sum, values))
            continue
        if test_sum < 1.0:
            program.overlap.num_entries += 1
            continue
        dest = None if rec.hash == DENSEMAP_EMPTY_KEY else by_hash.get(rec.hash)
        if dest is None or not _same_shape(dest, rec, kinds):
            program.add_one_mismatch(CountSum(len(rec.counts), test_sum, values))
            continue
        forced = bool(options.function) and options.function in rec.name
        func: OverlapStats | None = None
        if max_count >= (0 if forced else options.value_cutoff):
            func = OverlapStats.new(Level.FUNCTION, num_kinds, rec.name, rec.hash)
            func.test = CountSum(len(rec.counts), test_sum, list(values))
            func.base.value_counts = _value_sums(dest, num_kinds)
        if dest.value_sites and rec.value_sites:
            for kind in kinds:
                theirs = rec.value_sites.get(kind)
                if theirs:
                    for mine_site, their_site in zip(dest.value_sites[kind], theirs, strict=True):
                        _overlap_site(mine_site, their_site, kind, program, func, introsort)
        program.overlap.num_entries += 1
        matches.append(_Match(dest, rec, test_sum, func))
    return matches


def _same_shape(dest: InstrRecord, other: InstrRecord, kinds: list[ValueKind]) -> bool:
    """Same counter count and the same number of sites of every value kind."""
    if len(dest.counts) != len(other.counts):
        return False
    mine, theirs = dest.value_sites, other.value_sites
    if not mine and not theirs:
        return True
    return all(len(mine.get(k, ())) == len(theirs.get(k, ())) for k in kinds)


# -- sums ------------------------------------------------------------------------
def accumulate_profile(
    records: list[InstrRecord],
    sums: npt.NDArray[np.uint64],
    is_ir: bool,
    cs: bool,
    into: CountSum,
) -> None:
    """``InstrProfReader::accumulateCounts``: the CS filter applies to IR profiles only.

    ``sums`` are the records' :func:`edge_sums`.
    """
    if is_ir:
        keep = np.fromiter((rec.is_cs == cs for rec in records), dtype=bool, count=len(records))
        kept = [rec for rec, k in zip(records, keep.tolist(), strict=True) if k]
        sums = sums[keep]
    else:
        kept = records
    into.count_sum = sequential_sum(sums.astype(np.float64), into.count_sum)
    for rec in kept:
        if rec.value_sites:
            for k, total in enumerate(_value_sums(rec, len(into.value_counts))):
                into.value_counts[k] += total
    into.num_entries = len(kept)


def edge_stats(
    records: Sequence[InstrRecord],
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """Each record's counter sum (wrapping at 2**64 like LLVM's ``uint64_t FuncSum``) and
    largest counter (0 for a record without counters), from one concatenation."""
    arrays = [rec.counts for rec in records]
    lengths = np.fromiter((len(a) for a in arrays), dtype=np.int64, count=len(arrays))
    flat = (
        np.concatenate(arrays).astype(np.uint64, copy=False) if arrays else np.zeros(0, np.uint64)
    )
    return segment_sums(flat, lengths), segment_maxima(flat, lengths)


def segment_sums(flat: npt.NDArray[np.uint64], lengths: Ints) -> npt.NDArray[np.uint64]:
    """The sum of each run of ``lengths[i]`` consecutive values, wrapping at 2**64 (0 for an
    empty run)."""
    return _reduce_runs(np.add, flat, lengths)


def segment_maxima(flat: npt.NDArray[np.uint64], lengths: Ints) -> npt.NDArray[np.uint64]:
    """The largest of each run of ``lengths[i]`` consecutive values (0 for an empty run)."""
    return _reduce_runs(np.maximum, flat, lengths)


def _reduce_runs(
    op: np.ufunc, flat: npt.NDArray[np.uint64], lengths: Ints
) -> npt.NDArray[np.uint64]:
    out = np.zeros(len(lengths), dtype=np.uint64)
    nonempty = lengths > 0
    if nonempty.any():  # reduceat needs non-empty runs
        out[nonempty] = op.reduceat(flat, (np.cumsum(lengths) - lengths)[nonempty])
    return out


def edge_sums(records: Sequence[InstrRecord]) -> npt.NDArray[np.uint64]:
    return edge_stats(records)[0]


def edge_maxima(records: Sequence[InstrRecord]) -> npt.NDArray[np.uint64]:
    return edge_stats(records)[1]


def _value_sums(rec: InstrRecord, num_kinds: int) -> list[float]:
    """Per kind, the record's value counts summed as a wrapping ``uint64_t``, as a double."""
    totals = [0.0] * num_kinds
    for kind, sites in rec.value_sites.items():
        if kind < num_kinds:
            totals[kind] = float(sum(vd.count for site in sites for vd in site) & _U64_MASK)
    return totals


def sequential_sum(values: npt.NDArray[np.float64], start: float = 0.0) -> float:
    """``start + v0 + v1 + ...`` left to right, as a C loop adds doubles."""
    if not len(values):
        return start
    if start:
        values = np.concatenate(([start], values))
    return float(np.cumsum(values)[-1])


# -- scores ----------------------------------------------------------------------------
def _score(base: int, test: int, base_sum: float, test_sum: float) -> float:
    """``OverlapStats::score``: ``min(base/baseSum, test/testSum)``, 0 when a sum is below 1."""
    if base_sum < 1.0 or test_sum < 1.0:
        return 0.0
    return min(base / base_sum, test / test_sum)


def _score_edges(matches: list[_Match], program: OverlapStats) -> None:
    """The counter part of ``InstrProfRecord::overlap`` for all matches at once.

    Matches are grouped by counter count so each group is one 2-D array; a
    row-wise ``cumsum`` adds each record's scores left to right like LLVM's
    loop, and the per-record scores are then added in test order.
    """
    by_length: dict[int, list[int]] = {}
    for i, m in enumerate(matches):
        by_length.setdefault(len(m.test.counts), []).append(i)
    scores = np.zeros(len(matches), dtype=np.float64)
    base_total, test_total = program.base.count_sum, program.test.count_sum
    for rows in by_length.values():
        dest = np.stack([matches[i].dest.counts for i in rows]).astype(np.float64)
        test = np.stack([matches[i].test.counts for i in rows]).astype(np.float64)
        scores[rows] = row_sums(np.minimum(dest / base_total, test / test_total))
        blocks = [pos for pos, i in enumerate(rows) if matches[i].func is not None]
        if blocks:
            chosen = [matches[rows[pos]] for pos in blocks]
            _score_functions(chosen, dest[blocks], test[blocks])
    program.overlap.count_sum = sequential_sum(scores, program.overlap.count_sum)


def _score_functions(
    matches: list[_Match], dest: npt.NDArray[np.float64], test: npt.NDArray[np.float64]
) -> None:
    """The function-level edge score of the matches that print a block."""
    funcs = [m.func for m in matches if m.func is not None]
    dest_sums = edge_sums([m.dest for m in matches]).astype(np.float64)
    test_sums = np.array([m.test_sum for m in matches], dtype=np.float64)
    usable = dest_sums >= 1.0
    safe = np.where(usable, dest_sums, 1.0)
    per_row = row_sums(np.minimum(dest / safe[:, None], test / test_sums[:, None]))
    per_row[~usable] = 0.0
    width = dest.shape[1]
    for func, base_sum, score in zip(funcs, dest_sums.tolist(), per_row.tolist(), strict=True):
        func.base.count_sum = base_sum
        func.overlap.count_sum = score
        func.overlap.num_entries = width


def row_sums(scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each row summed left to right (``cumsum``; ``sum`` would add pairwise)."""
    return np.cumsum(scores, axis=1)[:, -1]


def _overlap_site(
    mine: ValueSite,
    theirs: ValueSite,
    kind: int,
    program: OverlapStats,
    func: OverlapStats | None,
    introsort: bool,
) -> None:
    """``InstrProfValueSiteRecord::overlap``: both sides sorted by value, equal values scored.

    LLVM sorts the base record's site in place (a second test record of the same
    function meets it sorted) and a value held several times pairs in the order
    :func:`~profdata.ops.merge_records.sort_by_value` leaves it.
    """
    sort_by_value(mine, introsort)
    a = mine
    b = list(theirs)
    sort_by_value(b, introsort)
    p_base, p_test = program.base.value_counts[kind], program.test.value_counts[kind]
    f_base = func.base.value_counts[kind] if func is not None else 0.0
    f_test = func.test.value_counts[kind] if func is not None else 0.0
    score = 0.0
    func_score = 0.0
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i].value == b[j].value:
            score += _score(a[i].count, b[j].count, p_base, p_test)
            func_score += _score(a[i].count, b[j].count, f_base, f_test)
            i += 1
        elif a[i].value < b[j].value:
            i += 1
            continue
        j += 1
    program.overlap.value_counts[kind] += score
    if func is not None:
        func.overlap.value_counts[kind] += func_score


# -- text ----------------------------------------------------------------------------
def render_text(result: OverlapResult) -> str:
    """What llvm-profdata writes: the function blocks, then the program block.

    A result that stopped early renders as the "Sum of edge counts" line;
    whether that line reaches the output is the caller's business (llvm-profdata
    loses it unless its output is a terminal).
    """
    if result.zero_sum_profile is not None:
        return zero_sum_line(result.zero_sum_profile)
    parts = [_dump(func, result) for func in result.functions]
    parts.append(_dump(result.program, result))
    return "".join(parts)


def zero_sum_line(name: str) -> str:
    return f"Sum of edge counts for profile {name} is 0.\n"


def _pct(fraction: float) -> str:
    """``format("%.3f%%", x * 100)``; Python rounds the exact binary value as glibc does."""
    return f"{fraction * 100:.3f}%"


def _whole(value: float) -> str:
    return f"{value:.0f}"


def _dump(stats: OverlapStats, result: OverlapResult) -> str:
    """``OverlapStats::dump``."""
    lines: list[str] = []
    add = lines.append
    if stats.level is Level.PROGRAM:
        word = "infomation" if result.release.overlap_typo else "information"
        add(
            f"Profile overlap {word} for base_profile: {result.base_name} "
            f"and test_profile: {result.test_name}"
        )
        add("Program level:")
        entry = "functions"
    else:
        add("Function level:")
        add(f"  Function: {stats.func_name} (Hash={stats.func_hash})")
        entry = "edge counters"
    mismatch, unique = stats.mismatch.num_entries, stats.unique.num_entries
    add(f"  # of {entry} overlap: {stats.overlap.num_entries}")
    if mismatch:
        add(f"  # of {entry} mismatch: {mismatch}")
    if unique:
        add(f"  # of {entry} only in test_profile: {unique}")
    add(f"  Edge profile overlap: {_pct(stats.overlap.count_sum)}")
    if mismatch:
        add(f"  Mismatched count percentage (Edge): {_pct(stats.mismatch.count_sum)}")
    if unique:
        add(f"  Percentage of Edge profile only in test_profile: {_pct(stats.unique.count_sum)}")
    add(f"  Edge profile base count sum: {_whole(stats.base.count_sum)}")
    add(f"  Edge profile test count sum: {_whole(stats.test.count_sum)}")
    for kind in stats.kinds_shown():
        k, name = int(kind), KIND_NAMES[kind]
        add(f"  {name} profile overlap: {_pct(stats.overlap.value_counts[k])}")
        if mismatch:
            add(f"  Mismatched count percentage ({name}): {_pct(stats.mismatch.value_counts[k])}")
        if unique:
            add(
                f"  Percentage of {name} profile only in test_profile: "
                f"{_pct(stats.unique.value_counts[k])}"
            )
        add(f"  {name} profile base count sum: {_whole(stats.base.value_counts[k])}")
        add(f"  {name} profile test count sum: {_whole(stats.test.value_counts[k])}")
    return "\n".join(lines) + "\n"
