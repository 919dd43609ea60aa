"""Merging instrumentation profiles the way ``llvm-profdata merge`` does.

:class:`InstrProfWriter` is one of LLVM's writer contexts: names in a
``StringMap``, the records of a name in a ``SmallDenseMap`` keyed by FuncHash,
plus flags, binary ids, vtable names and temporal traces.  Python dicts keep
first-seen order; LLVM's iteration orders are replayed from it where they
matter (:mod:`profdata.model.llvm_containers`).  :func:`merge_instr` runs
LLVM's ``mergeInstrProfile``: the split into contexts
(:mod:`profdata.ops.merge_threads`), ``loadInput`` per input, the pairwise
context merges, the failure-mode decision and the ``--function`` filters.

Problems are reported as typed :data:`Diagnostic` values, in the order
llvm-profdata prints them, to a callback (so a CLI prints them as they
happen) and in the result.  Release differences come from
:class:`~profdata.releases.Release`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, TypedDict

import numpy as np
import numpy.typing as npt

from profdata import releases
from profdata.errors import EmptyProfileError, MergeError, ProfdataError, without_detail
from profdata.formats import open_instr
from profdata.model.instr import InstrProfile, InstrRecord, TemporalTrace, read_streamed
from profdata.model.kinds import ProfileKind
from profdata.model.llvm_containers import small_densemap_order, stringmap_order, stringmap_ordered
from profdata.model.names import name_bytes
from profdata.ops.merge_inputs import (
    FailureMode,
    FilterNote,
    InputFailure,
    WeightedFile,
    filter_regex,
)
from profdata.ops.merge_memprof import checked_input, load_memprof_input, merged_memprof
from profdata.ops.merge_records import (
    CounterBatch,
    WarningKind,
    counters_mergeable,
    has_duplicate_memop_values,
    merge_beyond_counters,
    merge_record,
    new_record,
)
from profdata.ops.merge_threads import context_count, context_of, merge_schedule
from profdata.ops.merge_traces import TraceReservoir
from profdata.releases import Release

if TYPE_CHECKING:  # imported where MemProf data or --memprof-random-hotness comes
    from profdata.model.glibc_random import GlibcRandom
    from profdata.model.memprof import MemProfData

#: What ``loadInput`` reports for any flag conflict (LLVM drops the underlying error).
KIND_CONFLICT = "Merge IR generated profile with Clang generated profile."
#: ``MaxCounterValue`` of LLVM's raw reader (18+): a larger counter suggests corruption
MAX_RAW_COUNTER = 1 << 56
#: ``instrprof_error::unsupported_version``: a flag conflict between writer contexts.
UNSUPPORTED_VERSION = "unsupported instrumentation profile format version"
#: ``instrprof_error::invalid_prof`` with the bug URL of the Debian/apt.llvm.org builds.
INVALID_PROFILE = (
    "invalid profile created. Please file a bug at: "
    "https://github.com/llvm/llvm-project/issues/ "
    "and include the profraw files that caused this error."
)
_ENTRY_ONLY_CONFLICT = "cannot merge FunctionEntryOnly profiles and BB profiles together"
_BB_KINDS = ProfileKind.ENTRY_FIRST | ProfileKind.LOOP_ENTRIES


# -- diagnostics ----------------------------------------------------------------
@dataclass(frozen=True)
class RecordWarning:
    """A record that merged with a problem: ``FILE: FUNC: message`` (+ hint, first time)."""

    kind: WarningKind
    source: str
    function: str
    first_time: bool


@dataclass(frozen=True)
class ContextWarning:
    """A problem while folding writer contexts: ``warning: message`` (first time only)."""

    kind: WarningKind


Diagnostic = RecordWarning | ContextWarning | InputFailure | FilterNote
DiagnosticSink = Callable[[Diagnostic], None]


class ProfileFields(TypedDict):
    """The :class:`InstrProfile` fields a writer gives its merged profile beside the records."""

    kind: ProfileKind
    format: str
    binary_ids: list[bytes]
    traces: list[TemporalTrace]
    trace_stream_size: int
    vtable_names: list[str]
    symbols: dict[int, str]
    explicit_frontend: bool


# -- one writer context -----------------------------------------------------------
@dataclass
class InstrProfWriter:
    """The merged state of one LLVM writer context (``InstrProfWriter``)."""

    release: Release = field(default_factory=releases.release)
    traces: TraceReservoir = field(default_factory=TraceReservoir)
    #: variant flags; ``ProfileKind(0)`` with ``frontend`` False is LLVM's ``Unknown``
    kind: ProfileKind = ProfileKind.FRONTEND
    #: ``InstrProfKind::FrontendInstrumentation``, which only a ``:fe`` text header sets
    frontend: bool = False
    functions: dict[str, dict[int, InstrRecord]] = field(default_factory=dict)
    binary_ids: list[bytes] = field(default_factory=list)
    #: vtable names in insertion order, repeats allowed (the output keeps the first of each)
    vtable_names: list[str] = field(default_factory=list)
    #: MemProf data of MemProf YAML inputs (indexed inputs contribute none, as in LLVM)
    memprof: MemProfData | None = None
    #: ``--memprof-random-hotness``: glibc's ``rand()``, shared by the writer contexts
    hotness: GlibcRandom | None = None
    #: each name's record of the tombstone FuncHash (2**64-2), which LLVM's map holds
    #: where no iteration finds it (see :meth:`_reserved_key`)
    hidden: dict[str, InstrRecord] = field(default_factory=dict)
    #: the names that met a reserved FuncHash (those that may hold no record)
    reserved: set[str] = field(default_factory=set)

    def add_record(
        self, record: InstrRecord, weight: int = 1, name: str | None = None
    ) -> list[WarningKind]:
        """``InstrProfWriter::addRecord``; returns every problem LLVM's callback would see."""
        return self.add_records([record], weight, None if name is None else [name])[0]

    def add_records(
        self,
        records: Sequence[InstrRecord],
        weight: int = 1,
        names: Sequence[str] | None = None,
        *,
        without_bitmap_block: frozenset[int] = frozenset(),
    ) -> list[list[WarningKind]]:
        """``addRecord`` for each record in order (``names`` overrides their names).

        Returns the problems of each record.  Counter additions are queued in a
        :class:`CounterBatch` and done with one vector operation; a record seen
        twice in ``records`` flushes the queue first, so the result is that of
        adding the records one by one.

        ``without_bitmap_block`` (text files, LLVM 19+): LLVM's text reader reuses one
        record and sets its bitmap only for a record with a ``$`` block, and
        ``addRecord`` moves the record's vectors out only when it inserts it.  So each of
        these records read after one that was merged into an earlier record has that
        one's bitmap.
        """
        pseudo = self.release.merge_pseudo_counts
        introsort = self.release.value_sort_introsort
        warnings: list[list[WarningKind]] = [[] for _ in records]
        batch = CounterBatch(weight, pseudo)
        queued: set[tuple[str, int]] = set()
        left = b""  # the bitmap a moved-from record leaves in the reader's record: none
        for index, rec in enumerate(records):
            if without_bitmap_block:
                if left and index in without_bitmap_block:
                    rec = replace(rec, bitmap=left)
                left = rec.bitmap
            name = rec.name if names is None else names[index]
            by_hash = self.functions.get(name)
            if by_hash is None:
                by_hash = self.functions[name] = {}
            if rec.hash >= DENSEMAP_TOMBSTONE_KEY:
                self._reserved_key(name, rec, weight, warnings[index])
                left = b""
                continue
            dest = by_hash.get(rec.hash)
            if dest is None:
                by_hash[rec.hash] = new_record(rec, name, weight, pseudo, warnings[index])
                left = b""
                continue
            key = (name, rec.hash)
            if key in queued:
                self._flush(batch, warnings)
                queued.clear()
            if counters_mergeable(dest, rec, pseudo):
                batch.add(index, dest, rec)
                queued.add(key)
                merge_beyond_counters(dest, rec, weight, warnings[index], introsort=introsort)
            else:
                merge_record(dest, rec, weight, pseudo, warnings[index], introsort=introsort)
        self._flush(batch, warnings)
        return warnings

    def add_profile(
        self, profile: InstrProfile, weight: int = 1, *, keep_vtable_symbols: bool = False
    ) -> str | None:
        """Everything ``loadInput`` takes from one read profile; the reason if flags conflict.

        A library shortcut for :func:`merge_instr`'s per-input step, without
        remapping and with the record problems dropped.
        """
        if self.merge_kind(profile.kind, profile.explicit_frontend) is not None:
            return KIND_CONFLICT
        self.add_records(profile.records, weight)
        self._add_extras(profile, weight, keep_vtable_symbols)
        return None

    def _add_extras(
        self,
        profile: InstrProfile,
        weight: int,
        keep_vtable_symbols: bool,
        *,
        binary_ids: bool = True,
    ) -> None:
        """The vtable names (if kept), temporal traces and binary ids of a loaded input
        (LLVM reads the binary ids only after the last record)."""
        if keep_vtable_symbols and vtable_names_error(profile) is None:
            # loadInput walks the reader's symbol table, a StringMap filled in file order,
            # into the writer's StringSet: the input's names arrive in that map's order
            xxh3 = self.release.stringmap_xxh3_hash
            self.vtable_names.extend(stringmap_ordered(list(profile.vtable_names), xxh3=xxh3))
        if (
            self.release.merge_temporal_traces
            and profile.kind & ProfileKind.TEMPORAL
            and profile.traces
        ):
            traces = profile.traces
            if profile.format == "raw":  # RawInstrProfReader stamps the input's weight
                traces = [TemporalTrace(weight, t.function_hashes) for t in traces]
            self.traces.add_traces(traces, profile.trace_stream_size)
        if binary_ids:
            self.binary_ids.extend(
                profile.binary_ids_seen(self.release.raw_binary_ids_last_profile_only)
            )
        self.memprof = merged_memprof(self.memprof, profile.memprof, hotness=self.hotness)

    def _reserved_key(
        self, name: str, rec: InstrRecord, weight: int, warn: list[WarningKind]
    ) -> None:
        """A record whose FuncHash is a reserved ``DenseMap`` key is lost, as in LLVM.

        The tombstone key is stored in a bucket iteration never looks at: the
        name's next record of that key merges into it (warning as any merge
        may).  The empty key "finds" an empty bucket and merges into a blank
        record there, which warns like a counter mismatch unless the record has
        no counters.  Either way the name stays, with no record unless it has
        others (:attr:`~profdata.model.instr.InstrProfile.recordless_names`).
        """
        pseudo = self.release.merge_pseudo_counts
        introsort = self.release.value_sort_introsort
        self.reserved.add(name)
        if rec.hash == DENSEMAP_EMPTY_KEY:
            blank = InstrRecord(rec.name, rec.hash, np.zeros(0, dtype=np.uint64))
            merge_record(blank, rec, weight, pseudo, warn, introsort=introsort)
            return
        hidden = self.hidden.get(name)
        if hidden is None:
            self.hidden[name] = new_record(rec, name, weight, pseudo, warn)
        else:
            merge_record(hidden, rec, weight, pseudo, warn, introsort=introsort)

    @staticmethod
    def _flush(batch: CounterBatch, warnings: list[list[WarningKind]]) -> None:
        for index in batch.flush():
            warnings[index].insert(0, WarningKind.COUNTER_OVERFLOW)

    def merge_kind(self, kind: ProfileKind, frontend: bool) -> str | None:
        """``mergeProfileKind``: None on success, else the reason LLVM refuses."""
        if not self.release.merge_headerless_text_any_kind and not kind & ProfileKind.IR:
            # 13: every profile that is not IR is a front-end one (setIsIRLevelProfile), and
            # a front-end profile has no context-sensitive flag to keep
            frontend = True
            kind &= ~ProfileKind.CS
        if self.kind == ProfileKind.FRONTEND and not self.frontend:
            self.kind, self.frontend = kind, frontend
            return None
        if self.frontend != frontend:
            return UNSUPPORTED_VERSION
        entry_only = ProfileKind.FUNCTION_ENTRY_ONLY
        if (self.kind & entry_only and kind & _BB_KINDS) or (
            kind & entry_only and self.kind & _BB_KINDS
        ):
            return f"{UNSUPPORTED_VERSION}: {_ENTRY_ONLY_CONFLICT}"
        if not self.release.merge_kind_keeps_entry_first:  # setInstrEntryBBEnabled: this input's
            self.kind &= ~ProfileKind.ENTRY_FIRST
        self.kind |= kind
        return None

    def iteration_order(self) -> Iterator[tuple[str, list[InstrRecord]]]:
        """Names in ``StringMap`` order, each with its records in ``SmallDenseMap`` order."""
        names = list(self.functions)
        order = stringmap_order(
            [name_bytes(n) for n in names], xxh3=self.release.stringmap_xxh3_hash
        )
        for index in order:
            records = list(self.functions[names[index]].values())
            if len(records) > 1:
                slots = small_densemap_order(
                    [r.hash for r in records], mix=self.release.densemap_mix_hash
                )
                records = [records[i] for i in slots]
            yield names[index], records

    def merge_from(self, other: InstrProfWriter) -> list[WarningKind]:
        """``mergeRecordsFromWriter``: records, binary ids and traces (not vtable names)."""
        names: list[str] = []
        records: list[InstrRecord] = []
        for name, recs in other.iteration_order():
            names.extend(name for _ in recs)
            records.extend(recs)
        warnings = [w for ws in self.add_records(records, 1, names) for w in ws]
        self.binary_ids.extend(other.binary_ids)
        self.traces.add_traces(other.traces.traces, other.traces.stream_size)
        self.memprof = merged_memprof(
            self.memprof, other.memprof, from_writer=True, hotness=self.hotness
        )
        return warnings

    def filter_functions(self, keep: str = "", drop: str = "") -> FilterNote | None:
        """``filterFunctions``: drop names matching ``drop`` or not matching ``keep``."""
        if not keep and not drop:
            return None
        keep_re, drop_re = filter_regex(keep), filter_regex(drop)
        total = len(self.functions)
        for name in list(self.functions):
            if (drop_re is not None and drop_re.search(name)) or (
                keep_re is not None and not keep_re.search(name)
            ):
                del self.functions[name]
        return FilterNote(total - len(self.functions), total)

    def records(self) -> Iterator[InstrRecord]:
        """Records in first-seen order (names, then hashes under a name)."""
        for by_hash in self.functions.values():
            yield from by_hash.values()

    def to_profile(self, *, sparse: bool = False) -> InstrProfile:
        """The merged profile in first-seen order; ``sparse`` drops all-zero names.

        The indexed writer wants it unfiltered (it replays LLVM's ``--sparse``
        itself); the text writer wants it filtered.
        """
        recs = [
            rec
            for by_hash in self.functions.values()
            if not sparse or any(_has_data(r) for r in by_hash.values())
            for rec in by_hash.values()
        ]
        recordless: list[tuple[int, str]] = []
        if self.reserved and not sparse:  # only those names can be left without a record
            places = {name: place for place, name in enumerate(self.functions)}
            recordless = sorted(
                (places[name], name)
                for name in self.reserved
                if name in places and not self.functions[name]
            )
        return InstrProfile(
            records=recs,
            memprof=self.memprof,
            recordless_names=recordless,
            **self.profile_fields(),
        )

    def profile_fields(self) -> ProfileFields:
        """What the merged profile holds beside its records (a table writer's too)."""
        return {
            "kind": self.kind,
            "format": "merged",
            "binary_ids": list(self.binary_ids),
            "traces": list(self.traces.traces),
            "trace_stream_size": self.traces.stream_size,
            "vtable_names": list(dict.fromkeys(self.vtable_names)),
            "symbols": {},
            "explicit_frontend": self.frontend,
        }

    def invalid_records(self) -> list[InstrRecord]:
        """Records ``validateRecord`` rejects (LLVM warns after writing, keeps the file)."""
        return [rec for rec in self.records() if has_duplicate_memop_values(rec)]


#: ``DenseMapInfo<uint64_t>``'s tombstone and empty keys; FuncHashes LLVM's map cannot hold.
DENSEMAP_TOMBSTONE_KEY = (1 << 64) - 2
DENSEMAP_EMPTY_KEY = (1 << 64) - 1


def _has_data(rec: InstrRecord) -> bool:
    """``shouldEncodeData`` for ``--sparse``: some counter or bitmap byte is non-zero."""
    return bool(rec.counts.any()) or any(rec.bitmap)


# -- the whole merge -------------------------------------------------------------
@dataclass(frozen=True)
class MergeOptions:
    """The ``merge`` options that change what is merged (not how it is written)."""

    release: Release
    num_threads: int = 0  # -j: the number of LLVM writer contexts to replay (0: LLVM's default)
    failure_mode: FailureMode = FailureMode.ANY
    trace_reservoir_size: int = 100
    max_trace_length: int = 10000
    keep_vtable_symbols: bool = False
    remapping: Mapping[str, str] = field(default_factory=dict)
    function: str = ""
    no_function: str = ""
    #: processes that load raw profiles of one binary (writer contexts split between
    #: them); 0: one per available CPU.  The output does not depend on it.
    processes: int = 0
    #: ``--memprof-random-hotness``: the ``srand`` seed of the one ``rand()`` sequence every
    #: writer context draws from (None: off)
    random_hotness_seed: int | None = None


@dataclass
class MergeResult:
    writer: InstrProfWriter
    diagnostics: list[Diagnostic]
    failed_inputs: int


Loader = Callable[[str], InstrProfile]


def load_path(path: str, *, release: Release | None = None) -> InstrProfile:
    """Read one input, as ``release`` reads it where releases differ; ``-`` is standard
    input, as ``MemoryBuffer::getFileOrSTDIN``."""
    if path == "-":
        return open_instr(path, release=release)
    memprof = load_memprof_input(path)
    return open_instr(path, release=release) if memprof is None else memprof


@dataclass
class WriterContext:
    """LLVM's ``WriterContext``: a writer and the inputs it could not use."""

    writer: InstrProfWriter
    errors: list[InputFailure] = field(default_factory=list)


class Reporter:
    """Emits diagnostics in order and remembers which problem kinds were already shown."""

    def __init__(self, sink: DiagnosticSink | None) -> None:
        self.sink = sink
        self.seen: set[WarningKind] = set()
        self.diagnostics: list[Diagnostic] = []

    def emit(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)
        if self.sink is not None:
            self.sink(diagnostic)

    def first_time(self, kind: WarningKind) -> bool:
        new = kind not in self.seen
        self.seen.add(kind)
        return new


def merge_instr(
    inputs: Sequence[WeightedFile],
    options: MergeOptions,
    *,
    load: Loader = load_path,
    sink: DiagnosticSink | None = None,
) -> MergeResult:
    """``mergeInstrProfile`` up to (not including) writing; raises :class:`MergeError`.

    Record warnings are emitted as each input is merged; unusable inputs are
    listed after all inputs are in, as LLVM does, and decide the failure.
    Files read with the default loader go through
    :class:`~profdata.ops.merge_fast.FastMerge` while they are raw profiles of
    one binary; it hands over to the record-by-record merge at the first
    input it cannot take, with the same state.
    """
    from profdata.ops.merge_fast import FastMerge  # it builds on this module's writer

    reporter = Reporter(sink)
    release = options.release
    reads_files = load is load_path
    if reads_files:
        load = partial(load_path, release=release)
    if not release.merge_reads_stdin:
        load = _stdin_is_empty(load)
    count = context_count(len(inputs), options.num_threads)
    seed = options.random_hotness_seed
    hotness = None
    if seed is not None:
        from profdata.model.glibc_random import GlibcRandom

        hotness = GlibcRandom(seed)
    contexts = [WriterContext(_new_writer(options, hotness)) for _ in range(count)]
    fast = FastMerge(options, contexts, load) if reads_files else None

    def load_one(index: int, reporter: Reporter) -> None:
        ctx_index = context_of(index, count)
        entry = inputs[index]
        if fast is not None and fast.takes(ctx_index):
            loaded = fast.add(ctx_index, entry, reporter)
            if loaded is None:
                return
        else:
            loaded = _read(load, entry.path)
        _load_input(contexts[ctx_index], entry, loaded, options, reporter)

    if fast is not None and inputs:
        # its group lets the workers start before its names
        fast.read_ahead(inputs[0], inputs[1:])
    for index in range(len(inputs)):
        if fast is not None and fast.split(index, len(inputs), count, load_one, reporter):
            break
        load_one(index, reporter)
    folding = fast if fast is not None and fast.folds else None
    if fast is not None and folding is None:
        fast.hand_over_all()
    for dst_index, src_index in merge_schedule(count):
        dst, src = contexts[dst_index], contexts[src_index]
        dst.errors.extend(src.errors)
        src.errors = []
        if release.merge_contexts_merge_kind:
            reason = dst.writer.merge_kind(src.writer.kind, src.writer.frontend)
            if reason is not None:
                error = MergeError("the writer contexts hold profiles of incompatible kinds")
                error.llvm_message = reason
                raise error
        if folding is not None:
            problems = folding.fold(dst_index, src_index)
        else:
            problems = dst.writer.merge_from(src.writer)
        for kind in problems:
            if reporter.first_time(kind):
                reporter.emit(ContextWarning(kind))
    failures = [failure for ctx in contexts for failure in ctx.errors]
    for failure in failures:
        reporter.emit(failure)
    if (len(failures) == len(inputs) and options.failure_mode is FailureMode.ALL) or (
        failures and options.failure_mode is FailureMode.ANY
    ):
        raise MergeError(f"{len(failures)} of {len(inputs)} inputs could not be merged")
    writer = folding.writer(0) if folding is not None else contexts[0].writer
    note = writer.filter_functions(options.function, options.no_function)
    if note is not None:
        reporter.emit(note)
    return MergeResult(writer, reporter.diagnostics, len(failures))


def _read(load: Loader, path: str) -> InstrProfile | ProfdataError:
    """One input, or the error that makes it an ``InputFailure``.

    Inputs are read one at a time, each dropped once merged, so memory stays
    at one input plus the merged state.  (Reading on threads was measured
    slower: the readers' Python parts hold the GIL.)
    """
    try:
        return load(path)
    except ProfdataError as exc:
        return exc


def vtable_names_error(profile: InstrProfile) -> ProfdataError | None:
    """What decoding the vtable names fails with (an indexed profile decodes them on first
    use; ``merge --keep-vtable-symbols`` counts that failure against the input)."""
    try:
        _ = profile.vtable_names
    except ProfdataError as exc:
        return exc
    return None


def large_counter_failure(
    path: str, counts: npt.NDArray[np.uint64], release: Release
) -> InputFailure | None:
    """The failure LLVM 18+ counts against a raw input holding a counter above 2**56.

    ``RawInstrProfReader`` warns at the first such counter in record order;
    ``loadInput`` keeps that first warning and, once the input's records are
    merged (they stay merged), lists it among the inputs that failed, so it
    is printed at the end and decides ``--failure-mode`` like any failure.
    An input that fails for another reason reports only that.
    """
    if not release.merge_large_counter_check or not len(counts):
        return None
    over = np.flatnonzero(counts > np.uint64(MAX_RAW_COUNTER))
    if not len(over):
        return None
    value = int(counts[over[0]])
    return InputFailure(
        path, f"excessively large counter value suggests corrupted profile data: {value}"
    )


def input_failure(path: str, error: ProfdataError, release: Release) -> InputFailure:
    """An unreadable input, worded as the selected release words it."""
    reworded = error.for_release(release)
    message = reworded.llvm_message
    if reworded.opening and not release.merge_open_error_details:
        message = without_detail(message)  # as InstrProfError::take left it
    return InputFailure(path, message, reworded)


def _stdin_is_empty(load: Loader) -> Loader:
    """LLVM 16+ read nothing for ``-`` and skip it like an empty file."""

    def wrapped(path: str) -> InstrProfile:
        if path == "-":
            raise EmptyProfileError("llvm-profdata of this release reads no standard input")
        return load(path)

    return wrapped


def _new_writer(options: MergeOptions, hotness: GlibcRandom | None = None) -> InstrProfWriter:
    reservoir = TraceReservoir(
        reservoir_size=options.trace_reservoir_size,
        max_length=options.max_trace_length,
        fills_first=options.release.trace_reservoir_fills_first,
    )
    return InstrProfWriter(options.release, reservoir, hotness=hotness)


def _load_input(
    ctx: WriterContext,
    entry: WeightedFile,
    loaded: InstrProfile | ProfdataError,
    options: MergeOptions,
    reporter: Reporter,
) -> None:
    """``loadInput``: flags, records (remapped), vtable names, traces, binary ids.

    An input that fails after its first records keeps them, as LLVM's loop over
    the reader has added them by then (with the traces, not the binary ids).
    """
    if isinstance(loaded, EmptyProfileError):
        return
    checked = checked_input(loaded, entry.path, options.release)
    profile, failure = read_streamed(checked, options.release)
    reads_ids = options.release.merge_reads_binary_ids
    if failure is None and reads_ids and isinstance(checked, InstrProfile):
        failure = checked.binary_ids_error  # readBinaryIds, after the records
    if failure is None and options.keep_vtable_symbols and profile is not None:
        failure = vtable_names_error(profile)  # getSymtab, after the records
    merged = profile is not None and _merge_profile(
        ctx, entry, profile, options, reporter, binary_ids=failure is None and reads_ids
    )
    if failure is not None and (profile is None or merged):
        ctx.errors.append(input_failure(entry.path, failure, options.release))
    elif merged and profile is not None and profile.format == "raw":
        counts = profile.columns().counts
        too_large = large_counter_failure(entry.path, counts, options.release)
        if too_large is not None:
            ctx.errors.append(too_large)


def _merge_profile(
    ctx: WriterContext,
    entry: WeightedFile,
    profile: InstrProfile,
    options: MergeOptions,
    reporter: Reporter,
    *,
    binary_ids: bool,
) -> bool:
    """Merge a read input, or what was read of it, with its ``binary_ids`` if they are read
    and good; False if its kind conflicts with the context's (that failure is then the
    input's only one)."""
    writer = ctx.writer
    if writer.merge_kind(profile.kind, profile.explicit_frontend) is not None:
        ctx.errors.append(InputFailure(entry.path, KIND_CONFLICT))
        return False
    remap = options.remapping
    records = profile.records
    names = [remap.get(rec.name, rec.name) for rec in records] if remap else None
    no_block = profile.without_bitmap_block
    if no_block is None or not options.release.text_bitmaps:
        no_block = frozenset()
    added = writer.add_records(records, entry.weight, names, without_bitmap_block=no_block)
    for index, problems in enumerate(added):
        if problems:
            kind = problems[0]
            name = records[index].name if names is None else names[index]
            reporter.emit(RecordWarning(kind, entry.path, name, reporter.first_time(kind)))
    writer._add_extras(profile, entry.weight, options.keep_vtable_symbols, binary_ids=binary_ids)
    return True
