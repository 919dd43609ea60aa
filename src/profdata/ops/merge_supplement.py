"""Supplementing an instrumentation profile with a sample profile.

Mirrors ``supplementInstrProfile`` / ``adjustInstrProfile`` of llvm-profdata
(``merge --supplement-instr-with-sample``): functions a sample (AutoFDO)
profile finds warm or hot but the instrumentation profile finds cold had
their instrumented run miss them, so their counters are raised -- scaled to
a multiple of the hot or cold counter threshold -- or, when most of them are
zero, replaced by a pseudo count that makes profile-use drop the counters but
keep the function's temperature.

Two algorithms, by release (:attr:`~profdata.releases.Release.supplement_flattens_samples`):

* LLVM 16+: the sample profile is flattened (inlinees fold into the nearest
  enclosing function the instr profile has, else into their top-level root),
  static functions are matched by their ``file;name`` (``file:name`` before
  18) PGO names with or without ``-funique-internal-linkage-names`` suffixes,
  sample warmth decides hot or warm, size is the instr counter count, and
  counters are never scaled down.
* LLVM 12-15: only top-level sample profiles with head samples above the cold
  threshold, size is the number of sample body lines, every adjusted function
  is scaled to three times the hot threshold (down as well as up) and
  dropped functions get all counters set to 2**64-1.

Records are changed in place in the writer, by replacing their arrays (a
loaded record may share its counters with the input).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from profdata.errors import MergeError, UsageError
from profdata.model.counters import INSTR_MAX_COUNT, U64_MAX
from profdata.model.instr import PSEUDO_HOT, PSEUDO_WARM, InstrRecord, ValueData, ValueSite
from profdata.model.kinds import ValueKind
from profdata.model.llvm_containers import densemap_order, stringmap_order
from profdata.model.names import name_bytes
from profdata.model.sample import FunctionSamples, SampleProfile
from profdata.model.sample_map_order import profile_map_order, string_hash
from profdata.model.sample_summary import release_summary
from profdata.model.summary import ProfileSummary, summarize_records
from profdata.ops.merge import (
    Diagnostic,
    DiagnosticSink,
    InstrProfWriter,
    MergeOptions,
    merge_instr,
)
from profdata.ops.merge_inputs import FailureMode, InputFailure, WeightedFile
from profdata.releases import Release

HOT_PERCENTILE = 990000  # DefaultCutoffs[HotPercentileIdx]
COLD_PERCENTILE = 999999  # DefaultCutoffs[ColdPercentileIdx]
MULTIPLY_FACTOR = 3  # updateInstrProfileEntry's MultiplyFactor
UNIQ_SUFFIX = ".__uniq."  # FunctionSamples::UniqSuffix
DUPLICATE_NAME = "----"  # DuplicateNameStr: a static name shared by several functions
#: the file extensions ``buildStaticFuncMap`` tries, in its order ("cc" has no dot in LLVM)
FILE_PREFIXES = (".cpp", "cc", ".c", ".hpp", ".h")

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class SupplementOptions:
    """The thresholds of ``merge --supplement-instr-with-sample`` (LLVM's defaults)."""

    release: Release
    #: functions with fewer instr counters (12-15: sample body lines) are left alone
    min_size_threshold: int = 10  # --suppl-min-size-threshold
    #: a zero-counter ratio above this drops the counters (compared as a C float)
    zero_counter_threshold: float = 0.7  # --zero-counter-threshold
    #: overrides the instr profile's cold threshold when not 0
    instr_cold_threshold: int = 0  # --instr-prof-cold-threshold

    @property
    def zero_threshold(self) -> np.float32:
        """The threshold as the ``float`` LLVM holds (a double beyond its range is infinite)."""
        with np.errstate(over="ignore"):
            return np.float32(self.zero_counter_threshold)


@dataclass(frozen=True)
class StaticNameConflict:
    """``warning: Static function NAME has multiple promoted names, cannot adjust profile.``"""

    name: str

    def text(self) -> str:
        return f"Static function {self.name} has multiple promoted names, cannot adjust profile."


@dataclass(frozen=True)
class CounterOverflow:
    """``warning: counter overflow``: one counter or value count saturated while scaling."""

    function: str

    def text(self) -> str:
        return "counter overflow"


SupplementWarning = StaticNameConflict | CounterOverflow


@dataclass(frozen=True)
class Thresholds:
    """The counts that make a function hot or cold in each profile."""

    hot_sample: int
    cold_sample: int
    hot_instr: int
    cold_instr: int


@dataclass
class SupplementResult:
    """What the adjustment did, in the order llvm-profdata does (and warns) it."""

    thresholds: Thresholds
    adjusted: list[str] = field(default_factory=list)
    warnings: list[SupplementWarning] = field(default_factory=list)


# -- loading the one instr input -----------------------------------------------------
def load_instr_input(
    entry: WeightedFile, release: Release, sink: DiagnosticSink | None = None
) -> InstrProfWriter:
    """``loadInput`` into a fresh writer context, as ``supplementInstrProfile`` does.

    Record problems go to ``sink`` as in any merge; an input that cannot be
    used raises its error (with the path), which llvm-profdata reports with
    ``exitWithError`` instead of a warning.  The context is LLVM's default one:
    no vtable names, no temporal traces kept.
    """
    failures: list[InputFailure] = []

    def forward(diagnostic: Diagnostic) -> None:
        if isinstance(diagnostic, InputFailure):
            failures.append(diagnostic)
        elif sink is not None:
            sink(diagnostic)

    options = MergeOptions(
        release=release,
        num_threads=1,
        failure_mode=FailureMode.WARN,
        trace_reservoir_size=0,
        max_trace_length=0,
    )
    result = merge_instr([entry], options, sink=forward)
    if failures:
        failure = failures[0]
        if failure.error is not None:
            raise failure.error.with_path(failure.path)
        error = MergeError(failure.message, path=failure.path)
        error.llvm_message = failure.message
        raise error
    return result.writer


# -- thresholds -------------------------------------------------------------------------
def min_count_at(summary: ProfileSummary, percentile: int) -> int:
    """``getEntryForPercentile(...).MinCount`` (:meth:`ProfileSummary.entry_for_percentile`)."""
    entry = summary.entry_for_percentile(percentile)
    if entry is not None:
        return entry.min_count
    error = MergeError(f"the summary has no cutoff at or above {percentile}")
    error.llvm_message = "Desired percentile exceeds the maximum cutoff"
    raise error


def thresholds(
    writer: InstrProfWriter, samples: SampleProfile, options: SupplementOptions
) -> Thresholds:
    """Hot and cold counts of both profiles (the instr one from the merged records)."""
    rel = options.release
    instr = summarize_records(
        writer.records(), legacy_invalid_counts=not rel.summary_skips_pseudo_records
    )
    sample = samples.summary
    if sample is None:
        sample = release_summary(samples, rel)
    cold_instr = options.instr_cold_threshold or min_count_at(instr, COLD_PERCENTILE)
    return Thresholds(
        hot_sample=min_count_at(sample, HOT_PERCENTILE),
        cold_sample=min_count_at(sample, COLD_PERCENTILE),
        hot_instr=min_count_at(instr, HOT_PERCENTILE),
        cold_instr=cold_instr,
    )


# -- one instr function ---------------------------------------------------------------
@dataclass
class InstrProfileEntry:
    """``InstrProfileEntry``: a function with one record, and its counters as first seen."""

    name: str  # the writer's key
    record: InstrRecord
    max_count: int
    num_counters: int
    zero_ratio: np.float32  # (float)ZeroCntNum / CntNum

    @classmethod
    def of(cls, name: str, record: InstrRecord) -> InstrProfileEntry:
        counts = record.counts
        num = len(counts)
        zeros = int(np.count_nonzero(counts == 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.float32(zeros) / np.float32(num)
        return cls(name, record, int(counts.max()) if num else 0, num, ratio)

    def install(self, writer: InstrProfWriter, record: InstrRecord) -> None:
        """Put the changed record where the writer keeps this function's."""
        writer.functions[self.name][record.hash] = record
        self.record = record


class InstrProfileMap:
    """The single-record functions of the writer by name; statistics taken on first use.

    LLVM computes every entry before changing any, and a record is looked up
    before it is changed, so computing on first lookup gives the same numbers.
    """

    def __init__(self, records: dict[str, InstrRecord]) -> None:
        self._records = records
        self._entries: dict[str, InstrProfileEntry] = {}

    def __contains__(self, name: str) -> bool:
        return name in self._records

    def get(self, name: str) -> InstrProfileEntry | None:
        entry = self._entries.get(name)
        if entry is None:
            record = self._records.get(name)
            if record is None:
                return None
            entry = self._entries[name] = InstrProfileEntry.of(name, record)
        return entry


def scale_record(
    record: InstrRecord, numerator: int, denominator: int, clamp: bool
) -> tuple[InstrRecord, int]:
    """``InstrProfRecord::scale(N, D)``: ``min(x * N, 2**64-1) // D`` for counters and values.

    Counters above ``getInstrMaxCountValue()`` are clamped to it when
    ``clamp`` (LLVM 16+).  Returns the new record and how many counts
    overflowed (LLVM warns once for each).
    """
    counts = np.asarray(record.counts, dtype=np.uint64)
    if numerator:
        over = counts > np.uint64(U64_MAX // numerator)
        with np.errstate(over="ignore"):
            product = counts * np.uint64(numerator)
        product[over] = np.uint64(U64_MAX)
    else:
        over = np.zeros(len(counts), dtype=bool)
        product = np.zeros_like(counts)
    scaled = product // np.uint64(denominator)
    if clamp:
        high = scaled > np.uint64(INSTR_MAX_COUNT)
        scaled[high] = np.uint64(INSTR_MAX_COUNT)
        over |= high
    overflows = int(np.count_nonzero(over))
    sites: dict[ValueKind, list[ValueSite]] = {}
    for kind in sorted(record.value_sites):
        new_sites = []
        for site in record.value_sites[kind]:
            new_site: ValueSite = []
            for vd in site:
                product_value = vd.count * numerator
                if product_value > U64_MAX:
                    product_value = U64_MAX
                    overflows += 1
                new_site.append(ValueData(vd.value, product_value // denominator))
            new_sites.append(new_site)
        sites[kind] = new_sites
    return replace(record, counts=scaled, value_sites=sites), overflows


# -- the adjustment ------------------------------------------------------------------
def _single_records(writer: InstrProfWriter) -> Iterator[tuple[str, InstrRecord]]:
    """Names with one record, in the writer's ``StringMap`` order."""
    for name, records in writer.iteration_order():
        if len(records) == 1:
            yield name, records[0]


def supplement(
    writer: InstrProfWriter, samples: SampleProfile, options: SupplementOptions
) -> SupplementResult:
    """``adjustInstrProfile``: change the writer's records; report what was done."""
    limits = thresholds(writer, samples, options)
    result = SupplementResult(limits)
    if options.release.supplement_flattens_samples:
        _adjust_flattened(writer, samples, options, result)
    else:
        _adjust_top_level(writer, samples, options, result)
    return result


def _adjust_top_level(
    writer: InstrProfWriter,
    samples: SampleProfile,
    options: SupplementOptions,
    result: SupplementResult,
) -> None:
    """LLVM 12-15: top-level profiles, head samples, body lines, hot scaling only."""
    limits = result.thresholds
    instr = InstrProfileMap(dict(_single_records(writer)))
    threshold = options.zero_threshold
    for fs in samples.profiles.values():
        name = str(fs.context)
        if fs.head_samples <= limits.cold_sample:
            continue
        entry = instr.get(name)
        if entry is None or entry.max_count > limits.cold_instr:
            continue
        if len(fs.body_samples) < options.min_size_threshold or not entry.num_counters:
            continue
        record = entry.record
        if not entry.max_count or entry.zero_ratio > threshold:
            counts = np.full(entry.num_counters, U64_MAX, dtype=np.uint64)
            new = replace(record, counts=counts)
        else:
            numerator = (limits.hot_instr * MULTIPLY_FACTOR) & U64_MAX
            new, overflows = scale_record(
                record, numerator, entry.max_count, options.release.merge_pseudo_counts
            )
            result.warnings.extend(CounterOverflow(entry.name) for _ in range(overflows))
        entry.install(writer, new)
        result.adjusted.append(entry.name)


def _adjust_flattened(
    writer: InstrProfWriter,
    samples: SampleProfile,
    options: SupplementOptions,
    result: SupplementResult,
) -> None:
    """LLVM 16+: the flattened sample profile against single-record instr functions."""
    rel = options.release
    limits = result.thresholds
    singles = list(_single_records(writer))
    instr = InstrProfileMap(dict(singles))
    delimiter = ";" if rel.pgo_name_semicolon_delimiter else ":"
    sample_unique = any(UNIQ_SUFFIX in str(context) for context in samples.profiles)
    static_names: dict[str, str] = {}
    for name, _ in singles:
        add_static_name(static_names, name, sample_unique, delimiter)
    flat = flatten_samples(samples, instr, static_names, rel)
    keys = list(flat)
    if rel.supplement_flat_map_stringmap:
        order = stringmap_order([name_bytes(k) for k in keys], xxh3=rel.stringmap_xxh3_hash)
    else:
        order = densemap_order([string_hash(name_bytes(k)) & 0xFFFFFFFF for k in keys])
    threshold = options.zero_threshold
    for index in order:
        key = keys[index]
        entry_samples, max_body = flat[key]
        sample_max = max(entry_samples, max_body)
        if sample_max < limits.cold_sample:
            continue
        entry = instr.get(key)
        if entry is None:
            alias = static_names.get(key)
            if alias is not None:
                entry = instr.get(alias)
                if alias == DUPLICATE_NAME:
                    result.warnings.append(StaticNameConflict(key))
        if entry is None or not entry.num_counters:
            continue
        if entry.max_count > limits.cold_instr or entry.num_counters < options.min_size_threshold:
            continue
        to_hot = sample_max >= limits.hot_sample
        new = _updated(entry, to_hot, limits, threshold, rel, result)
        if new is not None:
            entry.install(writer, new)
            result.adjusted.append(entry.name)


def _updated(
    entry: InstrProfileEntry,
    to_hot: bool,
    limits: Thresholds,
    zero_threshold: np.float32,
    rel: Release,
    result: SupplementResult,
) -> InstrRecord | None:
    """``updateInstrProfileEntry``: a pseudo count, a scaled copy, or None (left as is)."""
    record = entry.record
    if not entry.max_count or entry.zero_ratio > zero_threshold:
        counts = record.counts.copy()
        counts[0] = PSEUDO_HOT if to_hot else PSEUDO_WARM  # setPseudoCount
        return replace(record, counts=counts)
    threshold = limits.hot_instr if to_hot else limits.cold_instr
    numerator = (threshold * MULTIPLY_FACTOR) & U64_MAX
    if numerator <= entry.max_count:
        return None
    new, overflows = scale_record(record, numerator, entry.max_count, rel.merge_pseudo_counts)
    result.warnings.extend(CounterOverflow(entry.name) for _ in range(overflows))
    return new


# -- static function names -------------------------------------------------------------
def unique_linkage_postfix(file_name: str) -> str:
    """``getUniqueInternalLinkagePostfix``: ``.__uniq.`` and the file name's MD5 in decimal."""
    digest = hashlib.md5(name_bytes(file_name)).digest()
    return UNIQ_SUFFIX + str(int.from_bytes(digest, "big"))


def add_static_name(
    static_names: dict[str, str], name: str, sample_unique: bool, delimiter: str
) -> None:
    """``buildStaticFuncMap``: map a static function's bare name to its ``file;name``.

    The bare name is what follows the first of :data:`FILE_PREFIXES` (in
    that order, ASCII case-insensitive) plus the delimiter.  When only one
    profile uses ``.__uniq.`` suffixes the instr side is trimmed or given the
    suffix the compiler would have made; two functions with one bare name
    map to :data:`DUPLICATE_NAME`.
    """
    lowered = name.translate(_ASCII_LOWER)
    start = -1
    for prefix in FILE_PREFIXES:
        found = lowered.find(prefix + delimiter)
        if found >= 0:
            start = found + len(prefix) + len(delimiter)
            break
    if start < 0:
        return
    bare = name[start:]
    if not bare:
        return
    suffix_at = bare.find(UNIQ_SUFFIX)
    instr_unique = suffix_at >= 0
    if sample_unique != instr_unique:
        if instr_unique:
            bare = bare[:suffix_at]
        else:
            static_names[bare + unique_linkage_postfix(name[: start - 1])] = name
            return
    static_names[bare] = DUPLICATE_NAME if bare in static_names else name


# -- flattening ------------------------------------------------------------------------
def reader_order(samples: SampleProfile, rel: Release) -> list[FunctionSamples]:
    """The top-level profiles in the reader's ``SampleProfileMap`` order.

    The map is a ``std::unordered_map`` keyed by the context's hash: MD5 of
    the name since 19 (``FunctionId``); in 16 ``hash_value`` of the name (or
    of the frames), which decides the insertion order into 16's ``DenseMap``.
    """
    return profile_map_order(samples, md5_frames=rel.sample_cs_hash_md5_frames)


def flatten_samples(
    samples: SampleProfile,
    instr: InstrProfileMap,
    static_names: dict[str, str],
    rel: Release,
) -> dict[str, list[int]]:
    """``BuildMaxSampleMap`` over every top-level profile: root -> [entry sum, max body].

    Profiles in the reader's order, depth first, each before its inlinees (by
    call site, then callee name), so the keys come in LLVM's insertion order.  A profile the instr
    profile has (directly or as a static name) becomes the root of what is
    inlined into it; an unknown inlinee adds its body maximum to its root but
    not its entry count.
    """
    flat: dict[str, list[int]] = {}
    is_cs = samples.is_cs
    for top in reader_order(samples, rel):
        stack: list[tuple[FunctionSamples, str]] = [(top, top.name)]
        while stack:
            fs, root = stack.pop()
            name = fs.name
            entry_samples = fs.head_samples_estimate(is_cs)
            max_body = max((r.samples for r in fs.body_samples.values()), default=0)
            new_root = root
            if name in instr:
                new_root = name
            else:
                alias = static_names.get(name)
                if alias is None:
                    entry_samples = 0
                elif alias != DUPLICATE_NAME:
                    new_root = alias
            slot = flat.get(new_root)
            if slot is None:
                slot = flat[new_root] = [0, 0]
            slot[0] = (slot[0] + entry_samples) & U64_MAX
            slot[1] = max(slot[1], max_body)
            children = [(callee, new_root) for _, callee in fs.sorted_callsites(samples.is_md5)]
            stack.extend(reversed(children))
    return flat


def check_single_input(inputs: Sequence[WeightedFile]) -> WeightedFile:
    """The one unweighted instr input ``supplementInstrProfile`` accepts."""
    if len(inputs) != 1:
        raise UsageError("expect one input to be an instr profile")
    if inputs[0].weight != 1:
        raise UsageError("expect instr profile doesn't have weight")
    return inputs[0]


__all__ = [
    "CounterOverflow",
    "InstrProfileEntry",
    "StaticNameConflict",
    "SupplementOptions",
    "SupplementResult",
    "SupplementWarning",
    "Thresholds",
    "add_static_name",
    "check_single_input",
    "flatten_samples",
    "load_instr_input",
    "scale_record",
    "supplement",
    "thresholds",
    "unique_linkage_postfix",
]
