"""``llvm-profdata overlap --sample`` (``overlapSampleProfile``, ``SampleOverlapAggregator``).

How similar a test sample profile is to a base one, with LLVM's arithmetic
and LLVM's visiting order, because both leave marks on the printed digits
and rows (verified against 14, 16, 19 and 22, which differ only in the
"infomation" typo of the first line):

* every top-level profile (a CS context counts as its own function) gets
  ``FuncSampleStats``: the wrapping ``uint64_t`` sum of its body samples and
  its inlinees', the largest one, and how many reach the profile's hot
  threshold, the ``MinCount`` of the 99% (990000, ``--profile-summary-cutoff-hot``)
  entry of the summary the reader reports;
* the test profiles are visited in the reader's ``unordered_map`` order
  (:mod:`profdata.model.sample_map_order`); a matched pair is joined body
  location by body location, then call site by call site and callee by
  callee (recursively), adding ``1 - |b/B - t/T|`` differences against the
  two top-level sums; unmatched callees count as one block of their whole
  sum, and so do unmatched top-level functions for the hot-block tally;
* per-function rows are kept when the test function's largest sample is at
  least ``--value-cutoff``, or, for matched functions, when the similarity is
  below ``--similarity-cutoff`` / 10**6 or the base context contains
  ``--function``; rows are printed by base weight, descending, ties in visit
  order (``std::multimap<double, ..., std::greater<double>>``).

Profiles with no samples stop the command after "Sum of sample counts for
profile F is 0." (exit 0), as in LLVM.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum

from profdata.errors import FormatError, ProfdataError
from profdata.model.counters import U64_MAX
from profdata.model.llvm_containers import stringmap_order
from profdata.model.names import name_bytes
from profdata.model.sample import (
    FunctionSamples,
    SampleContext,
    SampleProfile,
    md5_name_value,
    spelled,
    string_map_key,
)
from profdata.model.sample_map_order import (
    context_hash,
    profile_map_order,
    unordered_map_order,
)
from profdata.model.sample_summary import summarize_profile
from profdata.model.summary import DEFAULT_THRESHOLDS, SummaryThresholds
from profdata.ops.formatted_columns import FormattedColumns
from profdata.releases import Release

#: ``OverlapAggr.Epsilon``: results are printed with 2-3 decimals of a percentage
EPSILON = 0.000005
#: ``SampleOverlapAggregator``'s column offsets of the function-level table
TEST_WEIGHT_COL = 15
SIMILARITY_COL = 30
OVERLAP_COL = 43
BASE_UNIQUE_COL = 53
TEST_UNIQUE_COL = 67
BASE_SAMPLE_COL = 81
TEST_SAMPLE_COL = 96
FUNC_NAME_COL = 111

MSG_PROBE_MISMATCH = "cannot compare probe-based profile with non-probe-based profile"
MSG_CS_MISMATCH = "cannot compare CS profile with non-CS profile"


class MatchStatus(Enum):
    MATCH = "match"  # MS_Match
    FIRST_UNIQUE = "first"  # MS_FirstUnique
    SECOND_UNIQUE = "second"  # MS_SecondUnique


@dataclass(frozen=True)
class SampleOverlapOptions:
    release: Release
    similarity_cutoff: int = 0  # percent times 10000
    value_cutoff: int = U64_MAX
    function: str = ""
    thresholds: SummaryThresholds = DEFAULT_THRESHOLDS


@dataclass(slots=True)
class FuncSampleStats:
    """``FuncSampleStats`` of a function and its inlinees."""

    sample_sum: int = 0
    max_sample: int = 0
    hot_block_count: int = 0


@dataclass(slots=True)
class SampleOverlapStats:
    """``SampleOverlapStats``: one function's (or the program's, or a hot set's) tallies."""

    base_name: str = ""
    test_name: str = ""
    base_sample: int = 0
    test_sample: int = 0
    union_sample: int = 0
    overlap_sample: int = 0
    base_unique_sample: int = 0
    test_unique_sample: int = 0
    base_count: int = 0
    test_count: int = 0
    union_count: int = 0
    overlap_count: int = 0
    base_unique_count: int = 0
    test_unique_count: int = 0
    base_weight: float = 0.0
    test_weight: float = 0.0
    similarity: float = 0.0


@dataclass
class SampleOverlapResult:
    """What ``overlap --sample`` reports; ``zero_sum_profiles`` non-empty ends it early."""

    release: Release
    program: SampleOverlapStats
    hot_functions: SampleOverlapStats = field(default_factory=SampleOverlapStats)
    hot_blocks: SampleOverlapStats = field(default_factory=SampleOverlapStats)
    functions: list[SampleOverlapStats] = field(default_factory=list)
    zero_sum_profiles: list[str] = field(default_factory=list)


def func_sample_stats(fs: FunctionSamples, hot_threshold: int) -> FuncSampleStats:
    """``getFuncSampleStats``: body samples of the function and, recursively, its inlinees."""
    stats = FuncSampleStats()
    for inst in fs.walk():
        for record in inst.body_samples.values():
            sample = record.samples
            stats.sample_sum = (stats.sample_sum + sample) & U64_MAX
            if sample > stats.max_sample:
                stats.max_sample = sample
            if sample >= hot_threshold:
                stats.hot_block_count += 1
    return stats


def hot_threshold(profile: SampleProfile, thresholds: SummaryThresholds) -> int:
    """``getHotCountThreshold`` of the reader's summary: by default the 99% entry's
    ``MinCount`` (:meth:`ProfileSummary.entry_for_percentile`)."""
    summary = profile.summary or summarize_profile(profile)
    threshold = thresholds.hot(summary)
    if threshold is None:
        cutoff = thresholds.cutoff_hot
        raise FormatError(
            f"the summary has no cutoff at or above {cutoff} (llvm-profdata aborts)",
            llvm_message="Desired percentile exceeds the maximum cutoff",
        )
    return threshold


def _match_steps(
    base_keys: Sequence[tuple[object, ...]], test_keys: Sequence[tuple[object, ...]]
) -> Iterator[tuple[MatchStatus, int, int]]:
    """``MatchStep``: a sort-merge join of two ordered key lists, as index pairs."""
    i = j = 0
    nb, nt = len(base_keys), len(test_keys)
    while i < nb or j < nt:
        if i < nb and (j >= nt or base_keys[i] < test_keys[j]):
            yield MatchStatus.FIRST_UNIQUE, i, -1
            i += 1
        elif j < nt and (i >= nb or test_keys[j] < base_keys[i]):
            yield MatchStatus.SECOND_UNIQUE, -1, j
            j += 1
        else:
            yield MatchStatus.MATCH, i, j
            i += 1
            j += 1


class _Aggregator:
    """``SampleOverlapAggregator`` between ``loadProfiles`` and the dumps."""

    def __init__(self, base_hot: int, test_hot: int, md5: bool) -> None:
        self.base_hot = base_hot
        self.test_hot = test_hot
        self.md5 = md5
        self.program = SampleOverlapStats()
        self.hot_blocks = SampleOverlapStats()

    def block_similarity(self, base: int, test: int, func: SampleOverlapStats) -> float:
        """``computeBlockSimilarity``: against the top-level function's sums."""
        base_frac = float(base) / float(func.base_sample) if func.base_sample > 0 else 0.0
        test_frac = float(test) / float(func.test_sample) if func.test_sample > 0 else 0.0
        return 1.0 - abs(base_frac - test_frac)

    def update_hot_block(self, base: int, test: int, count: int) -> None:
        """``updateHotBlockOverlap``."""
        is_base_hot = base >= self.base_hot
        is_test_hot = test >= self.test_hot
        if not is_base_hot and not is_test_hot:
            return
        hot = self.hot_blocks
        hot.union_count += count
        if is_base_hot:
            hot.base_count += count
        if is_test_hot:
            hot.test_count += count
        if is_base_hot and is_test_hot:
            hot.overlap_count += count

    def update_function(
        self, base: int, test: int, hot_count: int, func: SampleOverlapStats, status: MatchStatus
    ) -> float:
        """``updateOverlapStatsForFunction``; returns the difference to add."""
        if status is MatchStatus.FIRST_UNIQUE:
            test = 0
            func.base_unique_sample = (func.base_unique_sample + base) & U64_MAX
        elif status is MatchStatus.SECOND_UNIQUE:
            base = 0
            func.test_unique_sample = (func.test_unique_sample + test) & U64_MAX
        else:
            func.overlap_count += 1
        func.union_sample = (func.union_sample + max(base, test)) & U64_MAX
        func.overlap_sample = (func.overlap_sample + min(base, test)) & U64_MAX
        difference = 1.0 - self.block_similarity(base, test, func)
        self.update_hot_block(base, test, hot_count)
        return difference

    def update_unmatched_callee(
        self, callee: FunctionSamples, func: SampleOverlapStats, status: MatchStatus
    ) -> float:
        """``updateForUnmatchedCallee``: the whole callee as one block."""
        if status is MatchStatus.FIRST_UNIQUE:
            stats = func_sample_stats(callee, self.base_hot)
            return self.update_function(stats.sample_sum, 0, stats.hot_block_count, func, status)
        stats = func_sample_stats(callee, self.test_hot)
        return self.update_function(0, stats.sample_sum, stats.hot_block_count, func, status)

    def internal_overlap(
        self, base: FunctionSamples, test: FunctionSamples, func: SampleOverlapStats
    ) -> float:
        """``computeSampleFunctionInternalOverlap``."""
        difference = 0.0
        base_body = sorted(base.body_samples.items())
        test_body = sorted(test.body_samples.items())
        for status, i, j in _match_steps(
            [loc for loc, _ in base_body], [loc for loc, _ in test_body]
        ):
            b = base_body[i][1].samples if i >= 0 else 0
            t = test_body[j][1].samples if j >= 0 else 0
            difference += self.update_function(b, t, 1, func, status)
        base_sites = sorted(base.callsite_samples.items())
        test_sites = sorted(test.callsite_samples.items())
        for status, i, j in _match_steps(
            [loc for loc, _ in base_sites], [loc for loc, _ in test_sites]
        ):
            if status is not MatchStatus.MATCH:
                callees = base_sites[i][1] if i >= 0 else test_sites[j][1]
                for callee in callees.values():
                    difference += self.update_unmatched_callee(callee, func, status)
                continue
            base_callees = self._sorted_callees(base_sites[i][1])
            test_callees = self._sorted_callees(test_sites[j][1])
            for cstatus, ci, cj in _match_steps(
                [k for k, _ in base_callees], [k for k, _ in test_callees]
            ):
                if cstatus is MatchStatus.FIRST_UNIQUE:
                    difference += self.update_unmatched_callee(base_callees[ci][1], func, cstatus)
                elif cstatus is MatchStatus.SECOND_UNIQUE:
                    difference += self.update_unmatched_callee(test_callees[cj][1], func, cstatus)
                else:
                    inner = self.internal_overlap(base_callees[ci][1], test_callees[cj][1], func)
                    difference += 2.0 - 2 * inner
        return (2.0 - difference) / 2

    def _sorted_callees(
        self, callees: dict[str, FunctionSamples]
    ) -> list[tuple[tuple[int, bytes], FunctionSamples]]:
        """A call site's callees in ``FunctionSamplesMap`` order (MD5 names by value)."""
        keyed = [(self._callee_key(name), fs) for name, fs in callees.items()]
        return sorted(keyed, key=lambda item: item[0])

    def _callee_key(self, name: str) -> tuple[int, bytes]:
        value = md5_name_value(name) if self.md5 else None
        if value is not None:
            return value, b""
        return -1, name_bytes(name)

    def weight_for_similarity(self, internal: float, base_sum: int, test_sum: int) -> float:
        """``weightForFuncSimilarity``."""
        base_frac = float(base_sum) / float(self.program.base_sample)
        test_frac = float(test_sum) / float(self.program.test_sample)
        return internal * (1 - abs(base_frac - test_frac))

    def weight_by_importance(self, similarity: float, base_sum: int, test_sum: int) -> float:
        """``weightByImportance``."""
        base_frac = float(base_sum) / float(self.program.base_sample) / 2.0
        test_frac = float(test_sum) / float(self.program.test_sample) / 2.0
        return similarity * (base_frac + test_frac)

    def function_overlap(
        self, base: FunctionSamples, test: FunctionSamples, func: SampleOverlapStats
    ) -> float:
        """``computeSampleFunctionOverlap`` of a matched pair."""
        internal = self.internal_overlap(base, test, func)
        if abs(internal - 0) < EPSILON:
            internal = 0.0
        return self.weight_for_similarity(internal, func.base_sample, func.test_sample)


def _load_check(base: SampleProfile, test: SampleProfile) -> None:
    """``loadProfiles``' refusals once both inputs are read."""
    message = None
    if base.is_probe_based != test.is_probe_based:
        message = MSG_PROBE_MISMATCH
    elif base.is_cs != test.is_cs:
        message = MSG_CS_MISMATCH
    if message is not None:
        error = ProfdataError(
            f"base: probe-based={base.is_probe_based}, CS={base.is_cs}; "
            f"test: probe-based={test.is_probe_based}, CS={test.is_cs}"
        )
        error.llvm_message = message
        raise error


def overlap_sample(
    base: SampleProfile,
    test: SampleProfile,
    options: SampleOverlapOptions,
    *,
    base_name: str,
    test_name: str,
) -> SampleOverlapResult:
    """``overlapSampleProfile`` on two profiles already read."""
    _load_check(base, test)
    md5_frames = options.release.sample_cs_hash_md5_frames
    hot = options.thresholds
    md5 = base.is_md5 or test.is_md5
    aggr = _Aggregator(hot_threshold(base, hot), hot_threshold(test, hot), md5)
    program = aggr.program
    result = SampleOverlapResult(options.release, program)

    string_map = options.release.sample_string_map_profiles  # 13: StringMaps throughout
    base_order = profile_map_order(base, md5_frames, False, string_map)
    test_order = profile_map_order(test, md5_frames, False, string_map)
    base_stats: dict[SampleContext, FuncSampleStats] = {}
    for fs in base_order:
        program.base_count += 1
        stats = func_sample_stats(fs, aggr.base_hot)
        program.base_sample = (program.base_sample + stats.sample_sum) & U64_MAX
        base_stats.setdefault(fs.context, stats)
    test_stats: dict[SampleContext, FuncSampleStats] = {}
    for fs in test_order:
        program.test_count += 1
        stats = func_sample_stats(fs, aggr.test_hot)
        program.test_sample = (program.test_sample + stats.sample_sum) & U64_MAX
        test_stats.setdefault(fs.context, stats)
    program.base_name = base_name
    program.test_name = test_name
    if program.base_sample == 0:
        result.zero_sum_profiles.append(base_name)
    if program.test_sample == 0:
        result.zero_sum_profiles.append(test_name)
    if result.zero_sum_profiles:
        return result

    # BaseFuncProf: a second unordered_map filled in the first one's order
    base_funcs: dict[SampleContext, FunctionSamples] = {}
    if string_map:
        keys = [string_map_key(fs.context) for fs in base_order]
        second = stringmap_order(keys, xxh3=False)
    else:
        second = unordered_map_order(
            [context_hash(fs.context, md5_frames, cs=base.is_cs) for fs in base_order]
        )
    for index in second:
        base_funcs.setdefault(base_order[index].context, base_order[index])
    program.union_count = len(base_funcs)
    cutoff = float(options.similarity_cutoff) / 1000000
    dumped: list[SampleOverlapStats] = []
    for test_fs in test_order:
        func = SampleOverlapStats(test_name=spelled(test_fs.context, string_map))
        tstats = test_stats[test_fs.context]
        func.test_sample = tstats.sample_sum
        base_fs = base_funcs.pop(test_fs.context, None)
        if base_fs is None:
            program.test_unique_count += 1
            program.test_unique_sample = (program.test_unique_sample + tstats.sample_sum) & U64_MAX
            func.test_unique_sample = tstats.sample_sum
            aggr.update_hot_block(0, tstats.sample_sum, tstats.hot_block_count)
            similarity = aggr.weight_for_similarity(0.0, 0, tstats.sample_sum)
            program.similarity += aggr.weight_by_importance(similarity, 0, tstats.sample_sum)
            program.union_count += 1
            program.union_sample = (program.union_sample + tstats.sample_sum) & U64_MAX
        else:
            program.overlap_count += 1
            func.base_name = spelled(base_fs.context, string_map)
            func.base_sample = base_stats[base_fs.context].sample_sum
            func.similarity = aggr.function_overlap(base_fs, test_fs, func)
            program.similarity += aggr.weight_by_importance(
                func.similarity, func.base_sample, func.test_sample
            )
            program.overlap_sample = (program.overlap_sample + func.overlap_sample) & U64_MAX
            program.union_sample = (program.union_sample + func.union_sample) & U64_MAX
            program.base_unique_sample = (
                program.base_unique_sample + func.base_unique_sample
            ) & U64_MAX
            program.test_unique_sample = (
                program.test_unique_sample + func.test_unique_sample
            ) & U64_MAX
        matched = base_fs is not None
        if (
            tstats.max_sample >= options.value_cutoff
            or (matched and func.similarity < cutoff)
            or (matched and options.function and options.function in func.base_name)
        ):
            func.base_weight = float(func.base_sample) / float(program.base_sample)
            func.test_weight = float(func.test_sample) / float(program.test_sample)
            dumped.append(func)

    for base_fs in base_funcs.values():
        bstats = base_stats[base_fs.context]
        program.base_unique_count += 1
        program.base_unique_sample = (program.base_unique_sample + bstats.sample_sum) & U64_MAX
        aggr.update_hot_block(bstats.sample_sum, 0, bstats.hot_block_count)
        similarity = aggr.weight_for_similarity(0.0, bstats.sample_sum, 0)
        program.similarity += aggr.weight_by_importance(similarity, bstats.sample_sum, 0)
        program.union_sample = (program.union_sample + bstats.sample_sum) & U64_MAX

    if abs(program.similarity - 1) < EPSILON:
        program.similarity = 1.0
    result.hot_functions = _hot_function_overlap(base_stats, test_stats, aggr)
    result.hot_blocks = aggr.hot_blocks
    result.functions = sorted(dumped, key=lambda f: -f.base_weight)
    return result


def _hot_function_overlap(
    base_stats: dict[SampleContext, FuncSampleStats],
    test_stats: dict[SampleContext, FuncSampleStats],
    aggr: _Aggregator,
) -> SampleOverlapStats:
    """``computeHotFuncOverlap``: a function is hot when its largest sample is."""
    base_hot = {c for c, s in base_stats.items() if s.max_sample >= aggr.base_hot}
    test_hot = {c for c, s in test_stats.items() if s.max_sample >= aggr.test_hot}
    overlap = len(base_hot & test_hot)
    return SampleOverlapStats(
        base_count=len(base_hot),
        test_count=len(test_hot),
        union_count=len(test_hot) + len(base_hot) - overlap,
        overlap_count=overlap,
    )


# -- rendering -------------------------------------------------------------------
def _percent(numerator: float, denominator: float, digits: int) -> str:
    """``format("%.Nf%%", n / d * 100)``; 0/0 is the x86 default NaN, printed ``-nan``."""
    if denominator == 0:
        if numerator == 0:
            return "-nan%"
        return ("inf" if numerator > 0 else "-inf") + "%"
    return f"{float(numerator) / float(denominator) * 100:.{digits}f}%"


def render_sample_text(result: SampleOverlapResult) -> str:
    """``detectZeroSampleProfile``, or ``dumpProgramSummary``, ``dumpHotFuncAndBlockOverlap``
    and ``dumpFuncSimilarity``."""
    if result.zero_sum_profiles:
        return "".join(
            f"Sum of sample counts for profile {p} is 0.\n" for p in result.zero_sum_profiles
        )
    p = result.program
    word = "infomation" if result.release.overlap_typo else "information"
    out = [
        f"Profile overlap {word} for base_profile: {p.base_name} "
        f"and test_profile: {p.test_name}\nProgram level:\n",
        f"  Whole program profile similarity: {p.similarity * 100:.3f}%\n",
        f"  Whole program sample overlap: {_percent(p.overlap_sample, p.union_sample, 3)}\n",
        "    percentage of samples unique in base profile: "
        f"{_percent(p.base_unique_sample, p.base_sample, 3)}\n",
        "    percentage of samples unique in test profile: "
        f"{_percent(p.test_unique_sample, p.test_sample, 3)}\n",
        f"    total samples in base profile: {p.base_sample}\n",
        f"    total samples in test profile: {p.test_sample}\n",
        f"  Function overlap: {_percent(p.overlap_count, p.union_count, 3)}\n",
        f"    overlap functions: {p.overlap_count}\n",
        f"    functions unique in base profile: {p.base_unique_count}\n",
        f"    functions unique in test profile: {p.test_unique_count}\n",
    ]
    for title, noun, stats in (
        ("Hot-function", "hot functions", result.hot_functions),
        ("Hot-block", "hot blocks", result.hot_blocks),
    ):
        out.append(f"  {title} overlap: {_percent(stats.overlap_count, stats.union_count, 3)}\n")
        out.append(f"    overlap {noun}: {stats.overlap_count}\n")
        out.append(
            f"    {noun} unique in base profile: "
            f"{(stats.base_count - stats.overlap_count) & U64_MAX}\n"
        )
        out.append(
            f"    {noun} unique in test profile: "
            f"{(stats.test_count - stats.overlap_count) & U64_MAX}\n"
        )
    if result.functions:
        table = FormattedColumns()  # ``dumpFuncSimilarity``'s stream starts here
        table.write("Function-level details:\n")
        _columns(table, list(TABLE_HEADER))
        for f in result.functions:
            _columns(
                table,
                [
                    f"{f.base_weight * 100:.2f}%",
                    f"{f.test_weight * 100:.2f}%",
                    f"{f.similarity * 100:.2f}%",
                    _ratio(f.overlap_sample, f.union_sample),
                    _ratio(f.base_unique_sample, f.base_sample),
                    _ratio(f.test_unique_sample, f.test_sample),
                    str(f.base_sample),
                    str(f.test_sample),
                    f.test_name,
                ],
            )
        out.append(table.text())
    return "".join(out)


def _ratio(part: int, whole: int) -> str:
    """``dumpFuncSimilarity``'s percentages: 0 when the whole is 0."""
    return f"{(float(part) / float(whole) if whole > 0 else 0.0) * 100:.2f}%"


TABLE_HEADER = (
    "Base weight", "Test weight", "Similarity", "Overlap", "Base unique", "Test unique",
    "Base samples", "Test samples", "Function name",
)  # fmt: skip
_COLUMNS = (
    None, TEST_WEIGHT_COL, SIMILARITY_COL, OVERLAP_COL, BASE_UNIQUE_COL, TEST_UNIQUE_COL,
    BASE_SAMPLE_COL, TEST_SAMPLE_COL, FUNC_NAME_COL,
)  # fmt: skip


def _columns(table: FormattedColumns, cells: list[str]) -> None:
    """A row: the first cell, then ``PadToColumn`` before each other one."""
    table.row(_COLUMNS, cells)
