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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum

import numpy as np
import numpy.typing as npt

from profdata.model.counters import U64_MAX
from profdata.model.instr import InstrProfile, InstrRecord, ValueSite
from profdata.model.kinds import ValueKind
from profdata.ops.merge import InstrProfWriter, RecordWarning
from profdata.ops.merge_records import WarningKind
from profdata.releases import Release

_U64_MASK = U64_MAX

#: What ``OverlapStats::dump`` calls each value kind.
KIND_NAMES = {
    ValueKind.INDIRECT_CALL_TARGET: "IndirectCall",
    ValueKind.MEMOP_SIZE: "MemOP",
    ValueKind.VTABLE_TARGET: "VTable",
}


class Level(Enum):
    PROGRAM = "program"  # OverlapStats::ProgramLevel
    FUNCTION = "function"  # OverlapStats::FunctionLevel


@dataclass
class CountSum:
    """LLVM's ``CountSumOrPercent``: an entry count, an edge sum and one sum per value kind.

    The same type holds raw sums (base, test) and fractions of the test sum
    (overlap, mismatch, unique), as in LLVM.
    """

    num_kinds: int
    num_entries: int = 0
    count_sum: float = 0.0
    value_counts: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.value_counts:
            self.value_counts = [0.0] * self.num_kinds


@dataclass
class OverlapStats:
    """LLVM's ``OverlapStats`` of the whole program or of one function."""

    level: Level
    num_kinds: int
    func_name: str = ""
    func_hash: int = 0
    #: ``Valid``: a function block passed the cutoff; the program level is always valid
    valid: bool = False
    base: CountSum = field(init=False)
    test: CountSum = field(init=False)
    overlap: CountSum = field(init=False)
    mismatch: CountSum = field(init=False)
    unique: CountSum = field(init=False)

    def __post_init__(self) -> None:
        for name in ("base", "test", "overlap", "mismatch", "unique"):
            setattr(self, name, CountSum(self.num_kinds))

    def add_one_mismatch(self, func: CountSum) -> None:
        """``addOneMismatch``: the function's share of the test sums."""
        _add_share(self.mismatch, func, self.test)

    def add_one_unique(self, func: CountSum) -> None:
        """``addOneUnique``: the function's share of the test sums."""
        _add_share(self.unique, func, self.test)

    def kinds_shown(self) -> list[ValueKind]:
        """The value kinds ``dump`` prints: those with a base or test sum of at least 1."""
        return [
            ValueKind(k)
            for k in range(self.num_kinds)
            if self.base.value_counts[k] >= 1.0 or self.test.value_counts[k] >= 1.0
        ]


def _add_share(into: CountSum, func: CountSum, test: CountSum) -> None:
    into.num_entries += 1
    into.count_sum += func.count_sum / test.count_sum
    for k in range(into.num_kinds):
        if test.value_counts[k] >= 1.0:
            into.value_counts[k] += func.value_counts[k] / test.value_counts[k]


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
    #: the function blocks, in test-reader order
    functions: list[OverlapStats] = field(default_factory=list)
    #: the input whose edge sum is below 1 when LLVM stopped early, else None
    zero_sum_profile: str | None = None
    #: the base merge's warnings (``loadInput``), in order
    warnings: list[RecordWarning] = field(default_factory=list)


WarningSink = Callable[[RecordWarning], None]


def value_kinds(release: Release) -> list[ValueKind]:
    """``IPVK_First..IPVK_Last`` of the release."""
    return [ValueKind(k) for k in range(release.max_value_kind + 1)]


def overlap_instr(
    base: InstrProfile,
    test: InstrProfile,
    options: OverlapOptions,
    *,
    base_name: str = "base",
    test_name: str = "test",
    sink: WarningSink | None = None,
) -> OverlapResult:
    """``overlapInstrProfile`` on two profiles already read (names are only printed)."""
    kinds = value_kinds(options.release)
    program = OverlapStats(Level.PROGRAM, len(kinds), valid=True)
    result = OverlapResult(base_name, test_name, options.release, program)
    accumulate_profile(base, options.cs, program.base)
    accumulate_profile(test, options.cs, program.test)
    if program.base.count_sum < 1.0:
        result.zero_sum_profile = base_name
        return result
    if program.test.count_sum < 1.0:
        result.zero_sum_profile = test_name
        return result
    writer = _load_base(base, base_name, options.release, result.warnings, sink)
    functions = writer.functions
    for rec in test.records:
        func = OverlapStats(Level.FUNCTION, len(kinds), rec.name, rec.hash)
        accumulate_record(rec, func.test)
        by_hash = functions.get(rec.name)
        if by_hash is None:
            program.add_one_unique(func.test)
            continue
        if func.test.count_sum < 1.0:
            program.overlap.num_entries += 1
            continue
        dest = by_hash.get(rec.hash)
        if dest is None:
            program.add_one_mismatch(func.test)
            continue
        cutoff = 0 if options.function and options.function in rec.name else options.value_cutoff
        overlap_record(dest, rec, program, func, cutoff)
        if func.valid:
            result.functions.append(func)
    return result


def _load_base(
    base: InstrProfile,
    name: str,
    release: Release,
    warnings: list[RecordWarning],
    sink: WarningSink | None,
) -> InstrProfWriter:
    """``loadInput`` of the base with weight 1: the first problem of a record is reported."""
    writer = InstrProfWriter(release)
    writer.merge_kind(base.kind, base.explicit_frontend)
    seen: set[WarningKind] = set()
    for rec in base.records:
        problems = writer.add_record(rec, 1)
        if problems:
            kind = problems[0]
            warning = RecordWarning(kind, name, rec.name, kind not in seen)
            seen.add(kind)
            warnings.append(warning)
            if sink is not None:
                sink(warning)
    return writer


# -- sums ------------------------------------------------------------------------
def accumulate_profile(profile: InstrProfile, cs: bool, into: CountSum) -> None:
    """``InstrProfReader::accumulateCounts``: the CS filter applies to IR profiles only."""
    ir = profile.kind.is_ir
    records = [rec for rec in profile.records if not ir or rec.is_cs == cs]
    edge = edge_sums(records)
    if len(edge):
        into.count_sum = _sequential_sum(edge.astype(np.float64), into.count_sum)
    for rec in records:
        if rec.value_sites:
            for k, total in enumerate(_value_sums(rec, into.num_kinds)):
                into.value_counts[k] += float(total)
    into.num_entries = len(records)


def accumulate_record(rec: InstrRecord, into: CountSum) -> None:
    """``InstrProfRecord::accumulateCounts`` of one record."""
    into.num_entries += len(rec.counts)
    into.count_sum += float(int(rec.counts.sum(dtype=np.uint64)))
    if rec.value_sites:
        for k, total in enumerate(_value_sums(rec, into.num_kinds)):
            into.value_counts[k] += float(total)


def edge_sums(records: Iterable[InstrRecord]) -> npt.NDArray[np.uint64]:
    """Each record's counter sum, wrapping at 2**64 as LLVM's ``uint64_t FuncSum`` does."""
    arrays = [rec.counts for rec in records]
    if not arrays:
        return np.zeros(0, dtype=np.uint64)
    lengths = np.fromiter((len(a) for a in arrays), dtype=np.int64, count=len(arrays))
    flat = np.concatenate(arrays).astype(np.uint64, copy=False)
    out = np.zeros(len(arrays), dtype=np.uint64)
    nonempty = lengths > 0
    if nonempty.any():
        starts = (np.cumsum(lengths) - lengths)[nonempty]
        out[nonempty] = np.add.reduceat(flat, starts)
    return out


def _value_sums(rec: InstrRecord, num_kinds: int) -> list[int]:
    return [
        sum(vd.count for site in rec.sites(ValueKind(k)) for vd in site) & _U64_MASK
        for k in range(num_kinds)
    ]


def _sequential_sum(values: npt.NDArray[np.float64], start: float = 0.0) -> float:
    """``start + v0 + v1 + ...`` left to right, as a C loop adds doubles."""
    if not len(values):
        return start
    if start:
        values = np.concatenate(([start], values))
    return float(np.cumsum(values)[-1])


# -- one record --------------------------------------------------------------------
def _scores(
    base: npt.NDArray[np.uint64], test: npt.NDArray[np.uint64], base_sum: float, test_sum: float
) -> npt.NDArray[np.float64]:
    """``OverlapStats::score`` per counter: ``min(base/baseSum, test/testSum)`` (0 for sums < 1)."""
    if base_sum < 1.0 or test_sum < 1.0:
        return np.zeros(len(test), dtype=np.float64)
    return np.minimum(base.astype(np.float64) / base_sum, test.astype(np.float64) / test_sum)


def _score(base: int, test: int, base_sum: float, test_sum: float) -> float:
    if base_sum < 1.0 or test_sum < 1.0:
        return 0.0
    return min(float(base) / base_sum, float(test) / test_sum)


def overlap_record(
    dest: InstrRecord,
    other: InstrRecord,
    program: OverlapStats,
    func: OverlapStats,
    value_cutoff: int,
) -> None:
    """``InstrProfRecord::overlap`` of the merged base record ``dest`` and a test record."""
    accumulate_record(dest, func.base)
    kinds = [ValueKind(k) for k in range(program.num_kinds)]
    if len(dest.counts) != len(other.counts) or any(
        dest.num_sites(k) != other.num_sites(k) for k in kinds
    ):
        program.add_one_mismatch(func.test)
        return
    for kind in kinds:
        for mine, theirs in zip(dest.sites(kind), other.sites(kind), strict=True):
            _overlap_site(mine, theirs, kind, program, func)
    score = _sequential_sum(
        _scores(dest.counts, other.counts, program.base.count_sum, program.test.count_sum)
    )
    program.overlap.count_sum += score
    program.overlap.num_entries += 1
    max_count = int(other.counts.max()) if len(other.counts) else 0
    if max_count >= value_cutoff:
        func.overlap.count_sum = _sequential_sum(
            _scores(dest.counts, other.counts, func.base.count_sum, func.test.count_sum)
        )
        func.overlap.num_entries = len(other.counts)
        func.valid = True


def _by_value(vd: tuple[int, int]) -> int:
    return vd[0]


def _overlap_site(
    mine: ValueSite,
    theirs: ValueSite,
    kind: ValueKind,
    program: OverlapStats,
    func: OverlapStats,
) -> None:
    """``InstrProfValueSiteRecord::overlap``: both sides sorted by value, equal values scored."""
    a = sorted(mine, key=_by_value)
    b = sorted(theirs, key=_by_value)
    k = int(kind)
    p_base, p_test = program.base.value_counts[k], program.test.value_counts[k]
    f_base, f_test = func.base.value_counts[k], func.test.value_counts[k]
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
    program.overlap.value_counts[k] += score
    func.overlap.value_counts[k] += func_score


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
