"""Profile summaries (LLVM's ``ProfileSummaryBuilder`` for instrumentation profiles).

The indexed writer stores a summary and ``show`` prints one; both must match
LLVM to the count, so the cutoff walk below follows LLVM's loop exactly
(descending distinct counts, 128-bit ``Desired``), but on numpy arrays so a
million counters cost one tally (:func:`~profdata.model.counters.value_counts`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter

import numpy as np

from profdata.model.counters import value_counts
from profdata.model.instr import InstrRecord

#: ``ProfileSummaryBuilder::DefaultCutoffs`` (parts per million).
DEFAULT_CUTOFFS: tuple[int, ...] = (
    10000, 100000, 200000, 300000, 400000, 500000, 600000, 700000, 800000,
    900000, 950000, 990000, 999000, 999900, 999990, 999999,
)  # fmt: skip
SCALE = 1_000_000  # ProfileSummary::Scale
U64 = (1 << 64) - 1


@dataclass(frozen=True)
class SummaryThresholds:
    """``ProfileSummaryBuilder``'s hot and cold count thresholds and the global libLLVM
    options that move them (``--profile-summary-cutoff-hot``/``-cold``, and the
    ``ReallyHidden`` ``--profile-summary-hot-count``/``-cold-count`` that replace the
    count, once the cutoff's entry is found).  ``overlap --sample``, the instrumentation
    ``show --hot-func-list`` and the cold-context options of ``merge --sample`` use them."""

    cutoff_hot: int = 990000
    cutoff_cold: int = 999999
    hot_count: int | None = None
    cold_count: int | None = None

    def hot(self, summary: ProfileSummary) -> int | None:
        """``getHotCountThreshold``; None where LLVM aborts ("Desired percentile exceeds
        the maximum cutoff": the cutoff, read as ``uint64_t``, is past the last entry)."""
        return _threshold(summary, self.cutoff_hot, self.hot_count)

    def cold(self, summary: ProfileSummary) -> int | None:
        """``getColdCountThreshold`` (None: as :meth:`hot`)."""
        return _threshold(summary, self.cutoff_cold, self.cold_count)


def _threshold(summary: ProfileSummary, cutoff: int, count: int | None) -> int | None:
    entry = summary.entry_for_percentile(cutoff & U64)
    if entry is None:
        return None
    return entry.min_count if count is None else count


#: the options' defaults
DEFAULT_THRESHOLDS = SummaryThresholds()


@dataclass(frozen=True)
class SummaryEntry:
    """``ProfileSummaryEntry``: this many counters reach min_count for the cutoff."""

    cutoff: int
    min_count: int
    num_counts: int


@dataclass(frozen=True)
class ProfileSummary:
    """The six summary fields plus the detailed (cutoff) entries."""

    num_functions: int = 0  # TotalNumFunctions
    num_counts: int = 0  # TotalNumBlocks
    max_function_count: int = 0
    max_count: int = 0  # MaxBlockCount
    max_internal_count: int = 0  # MaxInternalBlockCount
    total_count: int = 0  # TotalBlockCount
    detailed: tuple[SummaryEntry, ...] = field(default_factory=tuple)

    def entry_for_percentile(self, percentile: int) -> SummaryEntry | None:
        """``getEntryForPercentile``: ``partition_point`` of ``Cutoff < percentile`` over the
        entries as they are -- a binary search, so entries out of order (a damaged file's
        summary) give the entry libstdc++'s search lands on; None past the last (LLVM
        aborts: "Desired percentile exceeds the maximum cutoff")."""
        # bisect_left probes the very midpoints partition_point does, in the same order
        at = bisect_left(self.detailed, percentile, key=attrgetter("cutoff"))
        return self.detailed[at] if at < len(self.detailed) else None


def detailed_entries(
    values: np.ndarray, freqs: np.ndarray, total: int, cutoffs: Sequence[int]
) -> tuple[SummaryEntry, ...]:
    """LLVM's ``computeDetailedSummary`` over distinct count values (descending)."""
    order = np.argsort(values)[::-1]
    vals = values[order].astype(np.uint64)
    frq = freqs[order].astype(np.uint64)
    with np.errstate(over="ignore"):
        cum = np.cumsum(vals * frq, dtype=np.uint64)
    if len(cum) > 1 and bool(np.any(cum[1:] < cum[:-1])):
        return _detailed_entries_wrapping(vals, frq, total, cutoffs)
    seen = np.cumsum(frq, dtype=np.uint64)
    entries: list[SummaryEntry] = []
    taken = -1  # index of the last distinct value consumed
    for cutoff in sorted(cutoffs):
        desired = total * cutoff // SCALE
        if desired > 0 and len(cum):
            # a uint64 needle: a Python int would meet the uint64 array as float64 and lose
            # the low bits of counts past 2**53
            idx = (
                int(np.searchsorted(cum, np.uint64(desired), side="left"))
                if desired <= U64
                else len(cum)
            )
            idx = min(idx, len(cum) - 1)
            taken = max(taken, idx)
        if taken < 0:
            entries.append(SummaryEntry(cutoff, 0, 0))
        else:
            entries.append(SummaryEntry(cutoff, int(vals[taken]), int(seen[taken]) & 0xFFFFFFFF))
    return tuple(entries)


def _detailed_entries_wrapping(
    vals: np.ndarray, frq: np.ndarray, total: int, cutoffs: Sequence[int]
) -> tuple[SummaryEntry, ...]:
    """LLVM's loop verbatim, for when ``CurrSum`` wraps past 2**64 and stops being sorted."""
    entries: list[SummaryEntry] = []
    i = curr = seen = count = 0
    for cutoff in sorted(cutoffs):
        desired = total * cutoff // SCALE
        while curr < desired and i < len(vals):
            count = int(vals[i])
            curr = (curr + count * int(frq[i])) & U64
            seen = (seen + int(frq[i])) & 0xFFFFFFFF
            i += 1
        entries.append(SummaryEntry(cutoff, count, seen))
    return tuple(entries)


def summarize_counts(
    entry_counts: np.ndarray,
    internal_counts: np.ndarray,
    cutoffs: Sequence[int] = DEFAULT_CUTOFFS,
) -> ProfileSummary:
    """Summary of functions given their first counters and all their other counters."""
    entry = np.asarray(entry_counts, dtype=np.uint64)
    internal = np.asarray(internal_counts, dtype=np.uint64)
    max_entry = int(entry.max()) if len(entry) else 0
    max_internal = int(internal.max()) if len(internal) else 0
    total = (int(np.sum(entry, dtype=np.uint64)) + int(np.sum(internal, dtype=np.uint64))) & U64
    detailed: tuple[SummaryEntry, ...] = ()
    if cutoffs:
        detailed = _detailed_of_counts(entry, internal, total, cutoffs)
    return ProfileSummary(
        num_functions=len(entry) & 0xFFFFFFFF,
        num_counts=(len(entry) + len(internal)) & 0xFFFFFFFF,
        max_function_count=max_entry,
        max_count=max(max_entry, max_internal),
        max_internal_count=max_internal,
        total_count=total,
        detailed=detailed,
    )


def _detailed_of_counts(
    entry: np.ndarray, internal: np.ndarray, total: int, cutoffs: Sequence[int]
) -> tuple[SummaryEntry, ...]:
    """:func:`detailed_entries` of all the counts, sorting only the non-zero ones when it can.

    Zeros come last in the descending walk and add nothing to the running sum,
    so no cutoff of at most 100% reaches them -- unless that sum wraps past
    2**64, after which LLVM's walk may run on into them.
    """
    counts = np.concatenate([entry, internal])
    if max(cutoffs) <= SCALE:
        values, freqs = value_counts(counts[counts != 0])
        if not _sum_wraps(values, freqs):
            return detailed_entries(values, freqs, total, cutoffs)
    values, freqs = value_counts(counts)
    return detailed_entries(values, freqs, total, cutoffs)


def _sum_wraps(values: np.ndarray, freqs: np.ndarray) -> bool:
    """Whether the counts (distinct ``values``, ascending, with ``freqs``) sum past 2**64-1."""
    if not len(values) or int(values[-1]) * int(freqs.sum()) <= U64:
        return False
    total: int = sum(v * f for v, f in zip(values.tolist(), freqs.tolist(), strict=True))
    return total > U64


def summarize_records(
    records: Iterable[InstrRecord],
    cutoffs: Sequence[int] = DEFAULT_CUTOFFS,
    *,
    legacy_invalid_counts: bool = False,
) -> ProfileSummary:
    """Summary as ``InstrProfSummaryBuilder::addRecord`` builds it.

    Since LLVM 16 records with a pseudo entry count are skipped.  LLVM 14 and 15 have
    no pseudo counts; with ``legacy_invalid_counts`` every record counts as a
    function but counters equal to 2**64-1 ("invalid") stay out of the counts.
    """
    firsts: list[int] = []
    rests: list[np.ndarray] = []
    num_functions = 0
    for rec in records:
        if not len(rec.counts) or (not legacy_invalid_counts and rec.pseudo_kind is not None):
            continue
        num_functions += 1
        firsts.append(int(rec.counts[0]))
        rests.append(rec.counts[1:])
    entry = np.array(firsts, dtype=np.uint64)
    internal = np.concatenate(rests) if rests else np.zeros(0, dtype=np.uint64)
    if legacy_invalid_counts:
        entry = entry[entry != np.uint64(U64)]
        internal = internal[internal != np.uint64(U64)]
    summary = summarize_counts(entry, internal, cutoffs)
    if num_functions != summary.num_functions:
        summary = replace(summary, num_functions=num_functions & 0xFFFFFFFF)
    return summary
