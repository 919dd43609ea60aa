"""``llvm-profdata show`` for instrumentation profiles: what is shown (``showInstrProfile``).

The output must equal the real tool's byte for byte for the release chosen
with ``--llvm-release`` (``shared/spec/show-output.md`` §1).  LLVM decides
everything in one loop over the reader's records; :func:`collect` replays that
loop -- the CS filter, ``--text`` dumps, ``--covered``, pseudo counts,
``--value-cutoff`` and ``--list-below-cutoff``, the ``--topn`` queue, the
``--hot-func-list`` candidates and the value-site statistics -- and records
the outcome in a :class:`ShowReport`.  Renderers only format a report:
:mod:`profdata.ops.show_text` prints llvm-profdata's text and
:mod:`profdata.ops.show_json` the JSON extra, so both honour the same filters.

The records arrive as the profile's :class:`~profdata.model.instr.RecordColumns`
(names, hashes and one concatenated counter array, built in bulk by the raw
and indexed readers), so per-record maxima, sums and the summary of 100k
functions cost a few numpy calls; whole :class:`InstrRecord` objects are only
built for the value-site statistics and ``--text`` dumps.

Behaviour that belongs to LLVM's *reader* of a format rather than to the model
(what ``--profile-version`` prints, when ``Binary IDs:`` appears, the text
reader's reused bitmap) is keyed by :attr:`InstrProfile.format` in
:data:`READER_TRAITS`; behaviour that changed between releases is asked of
:class:`~profdata.releases.Release`.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

import numpy as np

from profdata.errors import UsageError
from profdata.model.counters import U64_MAX
from profdata.model.instr import PSEUDO_WARM, InstrProfile, InstrRecord, RecordColumns
from profdata.model.kinds import CS_HASH_BIT, ValueKind
from profdata.model.record_table import RecordTable
from profdata.model.summary import (
    DEFAULT_CUTOFFS,
    DEFAULT_THRESHOLDS,
    ProfileSummary,
    SummaryThresholds,
    summarize_counts,
)
from profdata.ops.cxx_heap import PriorityQueue
from profdata.releases import OLD_SHOW_CUTOFFS, Release

_U64 = np.uint64


@dataclass(frozen=True)
class ShowOptions:
    """The ``show`` options that apply to instrumentation profiles (LLVM's names)."""

    all_functions: bool = False  # --all-functions
    function: str = ""  # --function: substring filter
    counts: bool = False  # --counts
    ic_targets: bool = False  # --ic-targets
    memop_sizes: bool = False  # --memop-sizes
    vtables: bool = False  # --show-vtables
    text: bool = False  # --text
    topn: int = 0  # --topn
    detailed_summary: bool = False  # --detailed-summary
    cutoffs: tuple[int, ...] = ()  # --detailed-summary-cutoffs
    value_cutoff: int = 0  # --value-cutoff
    list_below_cutoff: bool = False  # --list-below-cutoff
    covered: bool = False  # --covered
    showcs: bool = False  # --showcs
    hot_func_list: bool = False  # --hot-func-list
    binary_ids: bool = False  # --binary-ids
    profile_version: bool = False  # --profile-version
    temporal_traces: bool = False  # --temporal-profile-traces
    #: the hot threshold of --hot-func-list (--profile-summary-cutoff-hot, -hot-count)
    thresholds: SummaryThresholds = DEFAULT_THRESHOLDS

    def value_kinds(self) -> list[ValueKind]:
        """Kinds whose results and statistics are printed, in LLVM's order."""
        wanted = (
            (ValueKind.INDIRECT_CALL_TARGET, self.ic_targets),
            (ValueKind.VTABLE_TARGET, self.vtables),
            (ValueKind.MEMOP_SIZE, self.memop_sizes),
        )
        return [kind for kind, on in wanted if on]


@dataclass(frozen=True)
class ReaderTraits:
    """What LLVM's reader of one format answers where the model has no say."""

    #: ``getVersion()`` returns the whole raw version word, flags included.
    version_is_word: bool
    #: ``getVersion()`` of the text reader is always 0.
    has_version: bool
    #: ``printBinaryIds`` exists for the format at all.
    has_binary_ids: bool
    #: prints the ``Binary IDs:`` header with no ids (when the release does).
    header_without_ids: bool


READER_TRAITS: dict[str, ReaderTraits] = {
    "raw": ReaderTraits(
        version_is_word=True, has_version=True, has_binary_ids=True, header_without_ids=False
    ),
    "indexed": ReaderTraits(
        version_is_word=False, has_version=True, has_binary_ids=True, header_without_ids=True
    ),
    "text": ReaderTraits(
        version_is_word=False,
        has_version=False,
        has_binary_ids=False,
        header_without_ids=False,
    ),
}


def reader_traits(profile: InstrProfile) -> ReaderTraits:
    return READER_TRAITS.get(profile.format, READER_TRAITS["text"])


def profile_version(profile: InstrProfile) -> int:
    """What ``InstrProfReader::getVersion()`` returns for the profile's reader."""
    traits = reader_traits(profile)
    if not traits.has_version or profile.version is None:
        return 0
    if traits.version_is_word:
        return profile.kind_at_end.version_word(profile.version)
    return profile.version & 0xFFFFFFFF


class ItemKind(Enum):
    """What one record contributes to the output, in reader order."""

    TEXT = "text"  # --text dump of a shown record
    COVERED = "covered"  # --covered: the name of a record with a non-zero counter
    PSEUDO = "pseudo"  # a shown record whose first counter is a pseudo count
    BELOW_CUTOFF = "below_cutoff"  # --list-below-cutoff line
    FUNCTION = "function"  # a shown record's block


@dataclass
class ValueSiteStats:
    """``ValueSitesStats``: value sites of the shown records of one kind."""

    num_sites: int = 0
    num_sites_with_values: int = 0
    num_values: int = 0
    #: histogram[k - 1] = sites with exactly k values
    histogram: list[int] = field(default_factory=list)

    def add_table(self, table: RecordTable, kind: ValueKind) -> None:
        """The sites of ``kind`` of every record of ``table``."""
        vals = table.values
        rows = np.flatnonzero(vals.row_kind == int(kind))
        lengths = vals.site_lengths[vals.sites_of_rows(rows)]
        filled = lengths[lengths > 0]
        self.num_sites += len(lengths)
        self.num_sites_with_values += len(filled)
        self.num_values += int(filled.sum())
        if len(filled):
            per_size = np.bincount(filled)[1:].tolist()  # sites with 1, 2, ... values
            hist = self.histogram
            if len(per_size) > len(hist):
                hist.extend([0] * (len(per_size) - len(hist)))
            for index, sites in enumerate(per_size):
                hist[index] += sites


def stale_firsts(rows: RecordColumns) -> np.ndarray | None:
    """What each record reads as its first counter, where some have none (None if all
    have some).

    The indexed reader refuses no record for having no counters, and ``show``
    reads ``Counts[0]`` all the same (the summary's entry count, the pseudo-count
    test): the reader copies each record into one ``InstrProfRecord``, and
    copying an empty vector keeps the buffer, so the read finds the first counter
    of the last record before it that had some (0 here for a first record, where
    LLVM reads a null pointer).  Checked with 14, 16, 19 and 22."""
    lengths = rows.lengths
    nonempty = lengths > 0
    if nonempty.all():
        return None
    first = np.zeros(len(lengths), dtype=_U64)
    first[nonempty] = rows.counts[rows.starts[nonempty]]
    last = np.maximum.accumulate(np.where(nonempty, np.arange(len(lengths)), -1))
    stale = np.where(last >= 0, first[np.maximum(last, 0)], _U64(0))
    return np.where(nonempty, first, stale)


@dataclass
class CounterColumns:
    """Per-record numbers of the processed records, computed on one counter array.

    Before pseudo counts (LLVM 14), a counter of 2**64-1 was an "invalid count":
    the summary builder and the per-function maximum and sum skipped it (the
    function is still counted), while ``--covered`` still sees it as non-zero.
    """

    all_counts: np.ndarray
    lengths: np.ndarray
    starts: np.ndarray
    first: np.ndarray
    #: any counter non-zero (``--covered``)
    covered: np.ndarray
    maxima: np.ndarray
    #: wrapping at 2**64 like LLVM's ``FuncSum``
    sums: np.ndarray
    skip_invalid: bool

    @classmethod
    def of(
        cls, rows: RecordColumns, skip_invalid: bool, stale: np.ndarray | None = None
    ) -> CounterColumns:
        """``stale``: what a record without counters reads as its first (see
        :func:`stale_firsts`), for the rows as selected."""
        n = len(rows)
        all_counts, lengths, starts = rows.counts, rows.lengths, rows.starts
        nonempty = lengths > 0
        first = np.zeros(n, dtype=_U64) if stale is None else stale.astype(_U64)
        covered = np.zeros(n, dtype=bool)
        maxima = np.zeros(n, dtype=_U64)
        sums = np.zeros(n, dtype=_U64)
        if all_counts.size:
            idx = starts[nonempty]
            first[nonempty] = all_counts[idx]
            valid = all_counts
            if skip_invalid:
                valid = np.where(all_counts == _U64(U64_MAX), _U64(0), all_counts)
            maxima[nonempty] = np.maximum.reduceat(valid, idx)
            covered[nonempty] = (
                np.maximum.reduceat(all_counts, idx) > 0 if skip_invalid else maxima[nonempty] > 0
            )
            with np.errstate(over="ignore"):
                sums[nonempty] = np.add.reduceat(valid, idx, dtype=_U64)
        return cls(all_counts, lengths, starts, first, covered, maxima, sums, skip_invalid)

    def summary(self, keep: np.ndarray, cutoffs: Sequence[int]) -> ProfileSummary:
        """``InstrProfSummaryBuilder`` over the records selected by ``keep``; a record
        without counters adds its stale first counter (``first``) as its entry count."""
        if keep.all():
            internal = np.ones(len(self.all_counts), dtype=bool)
        else:
            internal = np.repeat(keep, self.lengths)
        internal[self.starts[keep & (self.lengths > 0)]] = False
        entry = self.first[keep]
        counts = self.all_counts[internal]
        if not self.skip_invalid:
            return summarize_counts(entry, counts, cutoffs)
        summary = summarize_counts(
            entry[entry != _U64(U64_MAX)], counts[counts != _U64(U64_MAX)], cutoffs
        )
        return replace(summary, num_functions=len(entry) & 0xFFFFFFFF)


@dataclass
class ShowReport:
    """Everything ``show`` prints, decided once; renderers only format it.

    Rows are the processed records (CS-filtered), in reader order; their names,
    hashes and counters are columns (``rows``, ``columns``), and whole
    :class:`InstrRecord` objects (``records``) are only built when asked for --
    value sites and ``--text`` dumps need them, function blocks do not.
    """

    profile: InstrProfile
    options: ShowOptions
    release: Release
    rows: RecordColumns
    columns: CounterColumns
    #: what each contributing row prints (``ITEM_KINDS`` codes) and its row, reader order
    item_codes: np.ndarray
    item_rows: np.ndarray
    #: function blocks printed, pseudo-count blocks included (``ShownFunctions``)
    num_shown: int
    num_below_cutoff: int
    #: None in --text and --covered modes, which print no summary
    summary: ProfileSummary | None
    #: --topn: (name, max count), hottest first
    top: list[tuple[str, int]]
    #: --hot-func-list (LLVM 22): threshold and (name, max count), hottest first
    hot_threshold: int | None
    hot: list[tuple[str, int]]
    site_stats: dict[ValueKind, ValueSiteStats]
    #: the profile's rows that were kept (None: all of them)
    kept: np.ndarray | None = None
    _records: list[InstrRecord] | None = None

    @property
    def is_ir(self) -> bool:
        """How the records print (a function count and block counts from the second
        counter for a front end's): as the first header says, which ``show`` asks once
        before the loop.  The level line after the loop is the last header's
        (``profile.kind_at_end``); the CS filter in the loop each record's own."""
        return self.profile.kind.is_ir

    @property
    def records(self) -> list[InstrRecord]:
        """The processed records, as LLVM's reader hands them to ``show``."""
        if self._records is None:
            self._records = _processed_records(self.profile, self.options, self.kept)
        return self._records

    def table(self, rows: np.ndarray) -> RecordTable:
        """The processed records ``rows`` as a table: taken from the reader's own table when
        it has one (an indexed profile's bulk decoding), with no record objects built."""
        whole = self.profile.cheap_table()
        if whole is None:  # text profiles too: their processed records carry bitmaps on
            records = self.records
            return RecordTable.of([records[i] for i in rows.tolist()])
        if self.kept is not None:
            rows = np.flatnonzero(self.kept)[rows]
        return whole.take(rows)

    def items(self) -> Iterator[tuple[ItemKind, int]]:
        """(what a record prints, its index in ``records``), reader order."""
        kinds = map(ITEM_KINDS.__getitem__, self.item_codes.tolist())
        return zip(kinds, self.item_rows.tolist(), strict=True)

    def max_count(self, index: int) -> int:
        return int(self.columns.maxima[index])

    def sum_count(self, index: int) -> int:
        return int(self.columns.sums[index])


def summary_cutoffs(options: ShowOptions, release: Release) -> tuple[int, ...]:
    """The builder's cutoffs: the given ones, else the release's defaults when needed."""
    if options.cutoffs:
        return options.cutoffs
    if options.detailed_summary or (options.hot_func_list and release.show_instr_hot_func_list):
        return OLD_SHOW_CUTOFFS if release.show_old_default_cutoffs else DEFAULT_CUTOFFS
    return ()


def hot_count_threshold(summary: ProfileSummary, thresholds: SummaryThresholds) -> int:
    """``ProfileSummaryBuilder::getHotCountThreshold`` over the summary's detailed entries."""
    threshold = thresholds.hot(summary)
    if threshold is not None:
        return threshold
    raise UsageError(
        f"--hot-func-list needs a detailed-summary cutoff of at least {thresholds.cutoff_hot} "
        "(llvm-profdata aborts: Desired percentile exceeds the maximum cutoff)"
    )


#: :attr:`ShowReport.item_codes`: code k is ``ITEM_KINDS[k]``
ITEM_KINDS: tuple[ItemKind, ...] = tuple(ItemKind)
CODE = {kind: code for code, kind in enumerate(ITEM_KINDS)}
_NOTHING = -1


def collect(profile: InstrProfile, options: ShowOptions, release: Release) -> ShowReport:
    """Decide, as ``showInstrProfile``'s loop does, what every record contributes.

    LLVM's per-record ``continue`` chain (text dump, covered, pseudo count,
    value cutoff, list-below-cutoff, shown) is evaluated as boolean masks over
    the profile's :class:`RecordColumns`; only the value-site statistics visit
    records one by one, and only the records that reach them.
    """
    rows = profile.columns()
    stale = stale_firsts(rows)
    kept: np.ndarray | None = None
    ir = profile.ir_records()  # the headers of a raw file's profiles disagree: per record
    if ir is not None or profile.kind.is_ir:
        keep = ((rows.hashes & _U64(CS_HASH_BIT)) != 0) == options.showcs
        if ir is not None:
            keep |= ~ir
        if not keep.all():
            kept = keep
            rows = rows.select(keep)
            stale = None if stale is None else stale[keep]
    n = len(rows)
    cols = CounterColumns.of(rows, skip_invalid=not release.show_pseudo_counts, stale=stale)
    if options.all_functions:
        show = np.ones(n, dtype=bool)
    elif options.function:
        needle = options.function
        show = np.fromiter((needle in name for name in rows.names), dtype=bool, count=n)
    else:
        show = np.zeros(n, dtype=bool)
    if release.show_pseudo_counts:
        pseudo = cols.first >= _U64(PSEUDO_WARM)
    else:
        pseudo = np.zeros(n, dtype=bool)

    code = np.full(n, _NOTHING, dtype=np.int8)
    dumped = show if options.text else np.zeros(n, dtype=bool)
    code[dumped] = CODE[ItemKind.TEXT]
    rest = ~dumped
    below = np.zeros(n, dtype=bool)
    reached = np.zeros(n, dtype=bool)  # records that get past every `continue`
    if options.covered:
        code[rest & cols.covered] = CODE[ItemKind.COVERED]
    else:
        code[rest & pseudo & show] = CODE[ItemKind.PSEUDO]
        rest &= ~pseudo
        below = rest & (cols.maxima < _U64(options.value_cutoff))
        if options.list_below_cutoff:
            code[below] = CODE[ItemKind.BELOW_CUTOFF]
        else:
            reached = rest & ~below
            code[reached & show] = CODE[ItemKind.FUNCTION]
    item_rows = np.flatnonzero(code != _NOTHING)
    is_function = code == CODE[ItemKind.FUNCTION]
    num_shown = int(np.count_nonzero(is_function)) + int(
        np.count_nonzero(code == CODE[ItemKind.PSEUDO])
    )

    report = ShowReport(
        profile=profile,
        options=options,
        release=release,
        rows=rows,
        columns=cols,
        item_codes=code[item_rows],
        item_rows=item_rows,
        num_shown=num_shown,
        num_below_cutoff=int(np.count_nonzero(below)),
        summary=None,
        top=[],
        hot_threshold=None,
        hot=[],
        site_stats={kind: ValueSiteStats() for kind in options.value_kinds()},
        kept=kept,
    )
    if report.site_stats:
        table = report.table(np.flatnonzero(is_function))
        for kind, kind_stats in report.site_stats.items():
            kind_stats.add_table(table, kind)

    want_hot = options.hot_func_list and release.show_instr_hot_func_list
    candidates: list[tuple[str, int]] = []
    if options.topn or want_hot:
        hits = np.flatnonzero(reached)
        names = rows.names
        candidates = list(
            zip([names[i] for i in hits.tolist()], cols.maxima[hits].tolist(), strict=True)
        )
    if options.topn and not release.show_topn_stable:
        report.top = _libstdcxx_top(candidates, options.topn)
    else:
        report.top = heapq.nsmallest(options.topn, candidates, key=_hottest_first)

    if not (options.text or options.covered):
        summary = cols.summary(~dumped & ~pseudo, summary_cutoffs(options, release))
        report.summary = summary
        if want_hot:
            report.hot_threshold = threshold = hot_count_threshold(summary, options.thresholds)
            report.hot = sorted((c for c in candidates if c[1] >= threshold), key=_hottest_first)
    return report


def _processed_records(
    profile: InstrProfile, options: ShowOptions, kept: np.ndarray | None
) -> list[InstrRecord]:
    """The reader's records that :func:`collect` kept, as ``show`` sees them."""
    records = list(iter(profile.records))  # no len(): a lazy reader would index itself first
    if options.text and profile.without_bitmap_block:
        records = _with_carried_bitmaps(records, profile.without_bitmap_block)
    if kept is not None:
        records = [records[i] for i in np.flatnonzero(kept).tolist()]
    return records


def _libstdcxx_top(candidates: list[tuple[str, int]], topn: int) -> list[tuple[str, int]]:
    """``--topn`` before LLVM 22: a ``std::priority_queue`` of N, printed by popping."""
    heap: PriorityQueue[tuple[str, int]] = PriorityQueue(lambda a, b: a[1] > b[1])
    for candidate in candidates:
        if len(heap) == topn:
            if heap.top()[1] < candidate[1]:
                heap.pop()
                heap.push(candidate)
        else:
            heap.push(candidate)
    return heap.drain()[::-1]


def _with_carried_bitmaps(
    records: list[InstrRecord], no_block: frozenset[int]
) -> list[InstrRecord]:
    """The records as LLVM's text reader hands them to ``show``: it iterates the reader's
    one reused record by reference, and the reader sets the bitmap only for a record
    with a ``$`` block, so each record in ``no_block`` repeats the bitmap before it."""
    out: list[InstrRecord] = []
    last = b""
    for index, rec in enumerate(records):
        if index not in no_block:
            last = rec.bitmap
        elif last:
            rec = replace(rec, bitmap=last)
        out.append(rec)
    return out


def _hottest_first(candidate: tuple[str, int]) -> int:
    """Sort key: descending count; Python's sorts are stable, so ties keep reader order."""
    return -candidate[1]
