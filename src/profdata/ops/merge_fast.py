"""The fast path of ``merge``: many raw profiles of one binary, summed as whole arrays.

Merging N runs of one program record by record costs N times 100k Python
record merges.  But runs of one binary share everything except their
counters, bitmap bytes and profiled values (:mod:`profdata.formats.raw_columns`),
so :class:`FastMerge` keeps each LLVM writer context as arrays -- all
counters in one uint64 array, bitmaps in one byte array, the value sites as
(site, value id) keys with counts, sorted arrays for the first run and a
hash table (:class:`~profdata.ops.merge_value_store.ValueStore`) from the
second on -- and merges a run with a few vector operations.  Inputs are
read one at a time, so memory does not grow with their number.

It reproduces ``InstrProfWriter`` exactly (:mod:`profdata.ops.merge` is the
reference, and the tests hold the two side by side):

* counters add with saturation and the ``2**64-3`` clamp; a context's first
  input is only scaled when its weight is above 1 (then it is also clamped);
* bitmap bytes are ORed;
* a value site's entries are LLVM's merge result: a value already in the
  site adds ``count * weight``, a new value is inserted with its count as is
  (LLVM's unscaled insert), a context's first input is scaled whole; after
  every merge a site keeps its 255 largest entries by (count desc, value
  asc), the order a merged site always ends up in.  A site that was never
  merged (the whole merge had one input) keeps the raw order, stably sorted
  by count;
* counter overflows warn per input and function, in input and record order,
  like the record-by-record merge; contexts fold in LLVM's schedule, and a
  context that only receives another's records takes that context's
  iteration order as its first-seen order.

The group's shape comes from the first input: a raw run's layout, an
indexed profile's, or a text profile's records
(:mod:`profdata.formats.table_shapes`).  A run of the same binary in another
shape -- an indexed or text profile among raw runs, or the reverse -- is
mapped onto the group's shape record for record
(:mod:`profdata.formats.crossed_runs`) and merged the same way.
Whenever a run cannot be merged this way -- another binary, a profile
without some of the records, pseudo counts, one value twice in a site
(unknown indirect-call targets all become 0, and LLVM pairs such duplicates
by position) -- its writer context
is turned into ordinary :class:`~profdata.ops.merge.InstrProfWriter` records,
exactly what the record-by-record merge would hold at that point, and that
context goes on that way (contexts never meet before the final fold, so the
others stay arrays until then).

The same independence lets :meth:`FastMerge.split` load the contexts in
several processes (fork, results pickled back), one per idle CPU; measured on
a 2-core machine it nearly halves the load time when the second core is
idle, and makes it slower when other work keeps that core busy.  The workers
start as soon as the first input is read up to its group: its names (every
name hashed) are made afterwards by the parent, which owns that input, and
if they show that the group does not hold after all, the workers' arrays
are dropped and everything is merged record by record.

Beside this module: the group and the inputs read as its runs
(:mod:`profdata.ops.merge_group`), a context's arrays and the sorted merge of
value entries (:mod:`profdata.ops.context_arrays`), and the writer that keeps
a merged context as one table (:mod:`profdata.ops.table_writer`).
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from profdata.cpus import idle_cpus
from profdata.errors import EmptyProfileError, ProfdataError
from profdata.fork_policy import can_fork
from profdata.formats.crossed_runs import CrossedRun, Crossing, crossing, table_run
from profdata.formats.raw_columns import RawRun, RawShape
from profdata.formats.raw_profile import RawProfile
from profdata.model.counters import INSTR_MAX_COUNT, U64_MAX, merge_counts_mask
from profdata.model.instr import (
    PSEUDO_WARM,
    InstrProfile,
    RecordColumns,
    TemporalTrace,
)
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.llvm_containers import small_densemap_order, stringmap_order
from profdata.model.names import name_bytes
from profdata.model.record_table import RecordTable, ValueColumns
from profdata.offload import fork
from profdata.ops.context_arrays import (
    ContextState,
    ContextValues,
    SortedEntries,
    by_count,
    merge_sorted,
    sorted_entries,
    take_back,
)
from profdata.ops.merge import (
    KIND_CONFLICT,
    MAX_RAW_COUNTER,
    InstrProfWriter,
    MergeOptions,
    RecordWarning,
    Reporter,
    WriterContext,
    input_failure,
    large_counter_failure,
    vtable_names_error,
)
from profdata.ops.merge_group import (
    Group,
    Loaded,
    Loader,
    Shape,
    looks_raw,
    map_input,
    read_group_run,
    read_loaded,
    shape_of_input,
)
from profdata.ops.merge_inputs import InputFailure, WeightedFile
from profdata.ops.merge_records import WarningKind
from profdata.ops.merge_threads import context_of
from profdata.ops.merge_value_store import (
    Lookup,
    ValueStore,
    add_scaled,
)
from profdata.ops.merge_workers import LoadStep, TaggedReporter
from profdata.ops.table_writer import TableWriter, functions_of
from profdata.reaping import reap_later

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]

_MIN_SPLIT = 8  # inputs left before loading them in several processes can pay off
_LOOK_FOR_RAW = 8  # inputs after an indexed or text first one looked at for a raw run
_CROSSINGS = 4  # other shapes mapped onto the group's, at most: each costs a full read
_CHUNK = 1 << 15  # counters added a chunk at a time: 256 KiB, held in the CPU's cache


@dataclass(eq=False)
class _Input:
    """An input as :meth:`FastMerge.add` reads it: its bytes mapped, the profile where it
    had to be read in full (or the error that made), and the run it makes.  The first
    input's full read, which made the group and that run, is not kept."""

    mapped: memoryview | None
    loaded: Loaded | None
    run: RawRun | None


class FastMerge:
    """Runs of one binary merged as arrays, one :class:`ContextState` per writer context."""

    def __init__(
        self,
        options: MergeOptions,
        contexts: Sequence[WriterContext],
        load: Loader,
    ) -> None:
        self.options = options
        self.contexts = list(contexts)
        self.states = [ContextState() for _ in contexts]
        self.load = load
        self.group: Group | None = None
        self.started = False
        #: contexts handed over to the record-by-record merge; contexts never meet before
        #: the final fold, so each one switches on its own
        self.slow: set[int] = set()
        self.gave_up = False  # the first input was no raw profile this path can take
        self.max_count = INSTR_MAX_COUNT if options.release.merge_pseudo_counts else U64_MAX
        self._look_again_at = 1 << 62  # inputs left at the next look at the idle CPUs
        self._ahead: _Input | None = None  # the first input, read before the split
        #: the group was found to hold from its names (or a parent process does that)
        self.trusted = False
        #: other shapes whose runs map onto the group's (an indexed profile among raw runs)
        self.crossings: list[Crossing] = []
        #: a forked child of this merge hashes the first input's names (see
        #: :meth:`read_ahead`): the CPU it holds until shortly after the split is not
        #: another program's
        self._hashing = False

    def takes(self, ctx_index: int) -> bool:
        """Whether the next input of this context comes here."""
        return not self.gave_up and ctx_index not in self.slow

    @property
    def folds(self) -> bool:
        """Whether every context is still arrays, so the contexts fold here too."""
        return self.started and not self.gave_up and not self.slow

    # -- loading --------------------------------------------------------------------
    def read_ahead(self, entry: WeightedFile, later: Sequence[WeightedFile] = ()) -> None:
        """Read the first input now, up to its group (names aside), so that
        :meth:`split` can start the workers before the names are made; the
        first :meth:`add` takes it from here.

        An indexed or text profile followed by raw runs (one of the next few
        inputs, ``later``, is one) is the incremental merge: the group is then
        made from that raw run, and the first input crosses onto it once (see
        :meth:`_regroup`).  The first input's own shape would do, but every
        raw run would then cross onto it (4-5 ms more per run for the bench's
        100k functions).

        While this process makes a raw first input's shape, a forked child
        hashes its names on the idle CPU (:meth:`RawProfile.hash_names_meanwhile`),
        so that the names cost this process only their decoding when its first
        run needs them.  That child ends about when the worker processes start:
        the split counts its CPU as free.  (Made here, the names were the whole
        of the parent's lag behind its workers at ``-j2``: 0.1 s of 1.1.)
        """
        if self.group is None and not self.started and not self.gave_up:
            self._ahead = self._read_input(entry)
            if self.group is not None and not isinstance(self.group.shape, RawShape):
                then = next((e for e in later[:_LOOK_FOR_RAW] if looks_raw(e.path)), None)
                if then is not None:
                    self._regroup(self._ahead, then)

    def _regroup(self, ahead: _Input, then: WeightedFile) -> None:
        """Make the group from ``then`` if it is a raw run onto whose shape the first input
        (indexed or text) crosses; the first input becomes that crossed run.  Otherwise
        nothing changes (the raw run read here is read again as it comes)."""
        group, run = self.group, ahead.run
        if self.options.remapping or ahead.mapped is None or group is None or run is None:
            return
        mapped = map_input(then.path)
        if mapped is None:
            return
        loaded = read_loaded(self.load, then.path)
        if not isinstance(loaded, RawProfile):
            return
        grouped = self._group_of(mapped, loaded)
        if grouped is None:
            return
        # the run read here is read again when it comes: it, its full read and its mapped
        # file go before the names and the crossing are made (the read-ahead's peak)
        raw_group = grouped[0]
        del grouped, loaded, mapped
        known = crossing(group.shape, group.shape.names, raw_group.shape, raw_group.names)
        crossed = None if known is None else known.run(run)
        if known is None or crossed is None:
            return
        self.group, self.crossings = raw_group, [known]
        ahead.run = crossed

    def add(self, ctx_index: int, entry: WeightedFile, reporter: Reporter) -> Loaded | None:
        """Merge one input; None if done (merged, skipped or failed), else the input read
        in full, which the caller merges record by record (this context now goes that way)."""
        ctx = self.contexts[ctx_index]
        read, self._ahead = self._ahead, None
        if read is None:
            read = self._read_input(entry)
        mapped, loaded, run = read.mapped, read.loaded, read.run
        if mapped is not None and not len(mapped):
            return None  # an empty file is skipped, as EmptyProfileError is
        if run is not None and not self.trusted:  # the first run: its group is checked once
            self.trusted = True
            assert self.group is not None
            if not self.group.sure():
                run = None  # a (name, hash) twice: the record-by-record merge folds those
        if run is None:
            if loaded is None:
                loaded = read_loaded(self.load, entry.path)
            if isinstance(loaded, EmptyProfileError):
                return None
            if isinstance(loaded, ProfdataError):
                loaded = loaded.for_release(self.options.release)
                if loaded.partial is not None:  # its first records count: the long way
                    return self._leave(ctx_index, loaded)
                ctx.errors.append(input_failure(entry.path, loaded, self.options.release))
                return None
            return self._leave(ctx_index, loaded)
        if not self._merge_run(ctx_index, entry, run, reporter):
            return self._leave(ctx_index, read_loaded(self.load, entry.path))
        return None

    def _read_input(self, entry: WeightedFile) -> _Input:
        """An input mapped and read as a run of the group; the first one makes the group."""
        mapped = map_input(entry.path)
        if mapped is not None and not len(mapped):
            return _Input(mapped, None, None)
        if mapped is not None and self.group is not None:
            run = read_group_run(mapped, self.group.shape, entry.path, self.options.release)
            if run is None:
                run = self._crossed_run(mapped, entry.path)
            if run is not None:
                return _Input(mapped, None, run)
        loaded = read_loaded(self.load, entry.path)
        first = self.group is None and not self.started and not self.gave_up
        if first and isinstance(loaded, RawProfile):
            # a second CPU hashes the names, which are needed once this input's group is
            # made, while this one makes the group
            self._hashing = loaded.hash_names_meanwhile()
        if mapped is not None and not isinstance(loaded, ProfdataError):
            if first:
                grouped = self._group_of(mapped, loaded)
                if grouped is not None:
                    self.group, run = grouped
                    # the full read made the group and the run; it goes now (the long
                    # way, should the group not hold, reads the file again)
                    return _Input(mapped, None, run)
            elif self.group is not None:
                crossed = self._cross(mapped, loaded)
                if crossed is not None:
                    return _Input(mapped, loaded, crossed)
        return _Input(mapped, loaded, None)

    def _crossed_run(self, view: memoryview, path: str) -> CrossedRun | None:
        """The input as a run of a shape met before that crosses to the group's."""
        for known in self.crossings:
            run = read_group_run(view, known.source, path, self.options.release)
            if run is not None:
                return known.run(run)
        return None

    def _cross(self, view: memoryview, profile: InstrProfile) -> CrossedRun | None:
        """The input as a run of the group's shape, read in its own shape (the other
        format's, or its other way of stating call targets) and mapped record for record
        (:mod:`profdata.formats.crossed_runs`); None if that cannot be done."""
        group = self.group
        if group is None or group.remapping is not None:
            return None
        if profile.format == "text":  # no shape: mapped anew for each text input
            return table_run(profile, group.shape, group.record_index)
        if len(self.crossings) >= _CROSSINGS:
            return None
        shaped = shape_of_input(view, profile, self.options.release)
        if shaped is None:
            return None
        shape, run = shaped
        known = crossing(shape, shape.names, group.shape, group.names)
        if known is None:
            return None
        self.crossings.append(known)
        return known.run(run)

    def _group_of(self, view: memoryview, profile: InstrProfile) -> tuple[Group, RawRun] | None:
        """The group of the first input, and that input read as its first run."""
        shaped = shape_of_input(view, profile, self.options.release)
        if shaped is None:
            return None
        shape, run = shaped
        group = Group(shape, self.options.remapping)
        if not group.plausible():
            return None  # a (name, hash) twice: the record-by-record merge folds those
        return group, run

    def _leave(self, ctx_index: int, loaded: Loaded) -> Loaded:
        """Hand a context over to the record-by-record merge (see the module docstring);
        all of them if no input has come this way yet."""
        if not self.started:
            self.gave_up = True
        else:
            self.hand_over(ctx_index)
        return loaded

    def hand_over(self, ctx_index: int) -> None:
        """Turn a context's arrays into its writer's records, exactly as the
        record-by-record merge would hold them."""
        state = self.states[ctx_index]
        if state.inputs:
            self.contexts[ctx_index].writer.functions = functions_of(self._table(state).records())
        self.states[ctx_index] = ContextState()
        self.slow.add(ctx_index)

    def hand_over_all(self) -> None:
        if self.started and not self.gave_up:
            for index in range(len(self.states)):
                if index not in self.slow:
                    self.hand_over(index)

    # -- several processes ---------------------------------------------------------------
    def split(
        self, index: int, total: int, count: int, load_one: LoadStep, reporter: Reporter
    ) -> bool:
        """Load inputs ``index..total-1`` in worker processes, each owning some of the
        ``count`` writer contexts; False (and nothing done) when that cannot help.

        Contexts never meet before the final fold, so each worker merges its
        contexts' inputs in order exactly as one process would.  Diagnostics
        are collected and emitted in input order at the end.  A worker that
        meets an input it would have to merge record by record, or a bad one,
        gives up, and its contexts are loaded here afterwards.
        """
        workers = self._workers(total - index, count)
        if workers < 2:
            return False
        todo = [[i for i in range(index, total) if context_of(i, count) % workers == w]
                for w in range(workers)]  # fmt: skip
        children: dict[int, tuple[int, int]] = {}
        for worker in range(1, workers):
            read_end, write_end = os.pipe()
            _widen(write_end)
            pid = fork()
            if pid == 0:  # pragma: no cover - runs in the child, which never returns
                os.close(read_end)
                self._work_in_child(worker, workers, count, todo[worker], load_one, write_end)
            os.close(write_end)
            children[worker] = (pid, read_end)
        tagged = TaggedReporter()
        tagged.load(todo[0], load_one)
        for worker, (pid, read_end) in children.items():
            with os.fdopen(read_end, "rb") as pipe:
                payload = pipe.read()
            reap_later(pid)
            if not payload or self.gave_up:  # gave up: the first input's group did not hold
                tagged.load(todo[worker], load_one)
                continue
            contexts, items = pickle.loads(payload)
            for ctx_index, state, writer in contexts:
                self.states[ctx_index] = state
                self.contexts[ctx_index].writer = writer
            tagged.items.extend(items)
        tagged.replay(reporter)
        return True

    def _workers(self, remaining: int, count: int) -> int:
        # the names' child is counted at the first look only: it is done by the next one
        own, self._hashing = int(self._hashing), False
        ready = self.folds or (self._ahead is not None and self._ahead.run is not None)
        if not _split_pays(remaining, count) or not ready or not can_fork():
            return 1
        wanted = self.options.processes
        if wanted <= 0:
            # a look at the CPUs takes milliseconds: a busy machine is looked at again
            # only every few inputs, not before each one
            if remaining > self._look_again_at:
                return 1
            wanted = idle_cpus() + own
            self._look_again_at = remaining - _MIN_SPLIT
        return max(1, min(wanted, count))

    def _work_in_child(
        self, worker: int, workers: int, count: int, todo: list[int], load_one: LoadStep, pipe: int
    ) -> None:  # pragma: no cover - runs in a forked child
        payload = b""  # nothing: the parent loads this worker's inputs itself
        try:
            # the first input is the parent's, which also tells whether the group holds
            # (if not, it loads this worker's inputs again)
            self._ahead, self.trusted = None, True
            tagged = TaggedReporter()
            for index in todo:
                ctx_index = context_of(index, count)
                errors = len(self.contexts[ctx_index].errors)
                tagged.index = index
                load_one(index, tagged)
                if not self.takes(ctx_index) or len(self.contexts[ctx_index].errors) > errors:
                    return  # an input it does not take: the parent loads them all again
            mine = [c for c in range(count) if c % workers == worker]
            for c in mine:
                if self.states[c].values is not None:
                    self.states[c].unsorted_values()
            payload = pickle.dumps(
                ([(c, self.states[c], self.contexts[c].writer) for c in mine], tagged.items),
                protocol=pickle.HIGHEST_PROTOCOL,
            )
        except BaseException:
            payload = b""
        finally:
            with os.fdopen(pipe, "wb") as out:
                out.write(payload)
            os._exit(0)

    # -- one run ----------------------------------------------------------------------
    def _merge_run(
        self, ctx_index: int, entry: WeightedFile, run: RawRun, reporter: Reporter
    ) -> bool:
        """``loadInput`` of a run; False (nothing changed) if it needs the long way."""
        group = self.group
        assert group is not None
        shape = group.shape
        origin: Shape = shape
        if isinstance(run, CrossedRun) and run.source is not None:
            origin = run.source
        extras = run.profile  # indexed and text runs carry the rest of their profile
        keep = self.options.keep_vtable_symbols
        if keep and extras is not None and vtable_names_error(extras) is not None:
            return False  # the long way counts the failure against the input
        state = self.states[ctx_index]
        weight = entry.weight
        # counters added now, read once, where they cannot saturate; taken back (exactly:
        # nothing wrapped) if the run is not merged after all
        added = self._add_unchecked(state, run.counts) if weight == 1 else None
        raw_max = added if added is not None else int(run.counts.max()) if len(run.counts) else 0
        if self.options.release.merge_pseudo_counts and raw_max >= PSEUDO_WARM:
            assert added is None  # such a counter is past the maximum count: never added
            firsts = run.counts[group.counter_starts[shape.lengths > 0]]
            if bool(np.any(firsts >= np.uint64(PSEUDO_WARM))):
                return False
        entries = self._entries(state, run)
        if entries is None:
            if added is not None:
                take_back(state, run.counts)
            return False
        ctx = self.contexts[ctx_index]
        writer = ctx.writer
        frontend = extras.explicit_frontend if extras is not None else False
        if writer.merge_kind(origin.kind, frontend) is not None:
            ctx.errors.append(InputFailure(entry.path, KIND_CONFLICT))
            if added is not None:
                take_back(state, run.counts)
            return True
        overflowed = np.zeros(len(shape.hashes), dtype=bool)
        if added is None:
            self._merge_counters(state, run.counts, raw_max, weight, overflowed)
        else:
            state.counts_max += added
        if state.bitmaps is None:
            state.bitmaps = run.bitmaps.copy()
        else:
            np.bitwise_or(state.bitmaps, run.bitmaps, out=state.bitmaps)
        flags = self._merge_values(state, entries, weight, run)
        if flags is not None:  # a lookup's flags are the run's entries', else the sorted ones'
            if isinstance(entries, Lookup):
                sites = run.entry_site[flags]
            else:
                sites = entries[0][flags] >> shape.id_bits
            overflowed[shape.values.site_record[sites]] = True
        records = run.records if isinstance(run, CrossedRun) else None
        if records is not None:
            if not state.inputs:  # the order the record-by-record merge first meets them
                state.order = records
            hit = records[np.flatnonzero(overflowed[records])]  # in the run's order
        else:
            hit = np.flatnonzero(overflowed)
        state.inputs += 1
        self.started = True
        for index in hit.tolist():
            kind = WarningKind.COUNTER_OVERFLOW
            name = group.names[index]
            reporter.emit(RecordWarning(kind, entry.path, name, reporter.first_time(kind)))
        if extras is not None:
            writer._add_extras(extras, weight, self.options.keep_vtable_symbols)
            return True
        release = self.options.release
        if raw_max > MAX_RAW_COUNTER:
            own = run.own_counts if isinstance(run, CrossedRun) else None
            too_large = large_counter_failure(
                entry.path, run.counts if own is None else own, release
            )
            if too_large is not None:
                ctx.errors.append(too_large)
        if release.merge_temporal_traces and origin.kind & ProfileKind.TEMPORAL and run.trace:
            writer.traces.add_traces([TemporalTrace(weight, run.trace)], 1)
        writer.binary_ids.extend(origin.binary_ids)
        return True

    def _entries(self, state: ContextState, run: RawRun) -> SortedEntries | Lookup | None:
        """A run's value entries as the context takes them; None if a site holds one value
        twice (the long way pairs those).

        A context's first run stays sorted arrays, with its raw ranks (the order
        a single-input merge keeps); from the second on the entries live in a
        :class:`ValueStore`, which finds a run's keys in any order, so those runs
        are not sorted.
        """
        assert self.group is not None
        shape = self.group.shape
        if state.values is None:
            return sorted_entries(run, shape)
        if not isinstance(state.values, ValueStore):
            vals = state.values
            sized = shape.values.site_kind == int(ValueKind.MEMOP_SIZE)
            state.values = ValueStore(vals.keys, vals.counts, vals.fill, shape.id_bits, sized)
        keys = run.entry_site << shape.id_bits
        keys |= run.entry_id
        return state.values.find(keys, run.calls)

    def _merge_values(
        self,
        state: ContextState,
        entries: SortedEntries | Lookup,
        weight: int,
        run: RawRun,
    ) -> npt.NDArray[np.bool_] | None:
        """A run's value entries (:meth:`_entries`) into the context; the overflow flag of
        each if any saturated.  A first run is scaled when its weight is above 1."""
        if isinstance(entries, Lookup):
            assert isinstance(state.values, ValueStore)
            return state.values.merge_found(entries, run.entry_count, weight)
        keys, counts, ranks = entries
        scaled, over = add_scaled(np.zeros_like(counts), counts, weight)
        state.values = ContextValues(keys, scaled, ranks, run.site_lengths.copy())
        return over if bool(over.any()) else None

    def _add_unchecked(self, state: ContextState, raw: U64s) -> int | None:
        """Add ``raw`` to the context's counters a cache-sized chunk at a time, each chunk's
        maximum taken as it goes by (one read of the run's counters, not two); the run's
        maximum, or None (nothing added) where a sum could pass the maximum count."""
        counts = state.counts
        if counts is None or not len(raw):
            return None
        room = self.max_count - state.counts_max
        top = 0
        for start in range(0, len(raw), _CHUNK):
            part = raw[start : start + _CHUNK]
            high = int(part.max())
            if high > room:
                take_back(state, raw[:start])
                return None
            top = max(top, high)
            np.add(counts[start : start + _CHUNK], part, out=counts[start : start + _CHUNK])
        return top

    def _merge_counters(
        self,
        state: ContextState,
        raw: U64s,
        raw_max: int,
        weight: int,
        overflowed: npt.NDArray[np.bool_],
    ) -> None:
        flags = None
        if state.counts is None:
            if weight == 1:
                state.counts = raw.copy()
            else:
                state.counts, flags = merge_counts_mask(
                    np.zeros_like(raw), raw, weight, self.max_count
                )
            state.counts_max = int(state.counts.max()) if len(raw) else 0
        elif weight == 1 and state.counts_max + raw_max <= self.max_count:
            np.add(state.counts, raw, out=state.counts)
            state.counts_max += raw_max
        else:
            state.counts, flags = merge_counts_mask(state.counts, raw, weight, self.max_count)
            state.counts_max = int(state.counts.max()) if len(raw) else 0
        if flags is not None and bool(flags.any()):
            assert self.group is not None
            starts = self.group.counter_starts
            hit = np.searchsorted(starts, np.flatnonzero(flags), side="right") - 1
            overflowed[hit] = True

    # -- folding the contexts -----------------------------------------------------------
    def fold(self, dst_index: int, src_index: int) -> list[WarningKind]:
        """``mergeRecordsFromWriter`` of two contexts' records (weight 1); the problems."""
        writer, other = self.contexts[dst_index].writer, self.contexts[src_index].writer
        writer.binary_ids.extend(other.binary_ids)
        writer.traces.add_traces(other.traces.traces, other.traces.stream_size)
        dst, src = self.states[dst_index], self.states[src_index]
        if not src.inputs:
            return []
        if not dst.inputs:
            self.states[dst_index] = ContextState(
                src.inputs, src.counts, src.counts_max, src.bitmaps, src.sorted_values(),
                self._iteration_order(src),
            )  # fmt: skip
            self.states[src_index] = ContextState()
            return []
        assert dst.counts is not None and src.counts is not None
        assert dst.values is not None and src.values is not None
        assert dst.bitmaps is not None and src.bitmaps is not None
        warnings: list[WarningKind] = []
        total, flags = merge_counts_mask(dst.counts, src.counts, 1, self.max_count)
        dst.counts, dst.counts_max = total, int(total.max()) if len(total) else 0
        np.bitwise_or(dst.bitmaps, src.bitmaps, out=dst.bitmaps)
        assert self.group is not None
        theirs = src.unsorted_values()
        found = dst.values.find(theirs.keys) if isinstance(dst.values, ValueStore) else None
        if found is not None:  # looked up where the context's runs went, not sorted first
            assert isinstance(dst.values, ValueStore)
            value_flags = dst.values.merge_found(found, theirs.counts, 1)
        else:
            theirs = src.sorted_values()
            value_flags = merge_sorted(
                dst.sorted_values(), theirs.keys, theirs.counts, 1, self.group.shape
            )
        if bool(flags.any()) or value_flags is not None:
            warnings.append(WarningKind.COUNTER_OVERFLOW)
        dst.inputs += src.inputs
        self.states[src_index] = ContextState()
        return warnings

    def _iteration_order(self, state: ContextState) -> Ints:
        """``InstrProfWriter``'s iteration order of a context: names in ``StringMap`` order,
        each name's records in ``SmallDenseMap`` order."""
        assert self.group is not None
        release = self.options.release
        order = (
            state.order if state.order is not None else np.arange(len(self.group.shape.hashes))
        ).tolist()
        by_name: dict[str, list[int]] = {}
        for index in order:
            by_name.setdefault(self.group.names[index], []).append(index)
        names = list(by_name)
        result: list[int] = []
        hashes = self.group.shape.hashes
        for i in stringmap_order([name_bytes(n) for n in names], xxh3=release.stringmap_xxh3_hash):
            members = by_name[names[i]]
            if len(members) > 1:
                slots = small_densemap_order(
                    [int(hashes[m]) for m in members], mix=release.densemap_mix_hash
                )
                members = [members[s] for s in slots]
            result.extend(members)
        return np.array(result, dtype=np.int64)

    # -- the result ----------------------------------------------------------------------
    def writer(self, index: int) -> InstrProfWriter:
        """Context ``index``'s writer holding its records as a table."""
        base = self.contexts[index].writer
        state = self.states[index]
        if not state.inputs:
            return base
        return TableWriter(base, self._table(state))

    def _table(self, state: ContextState) -> RecordTable:
        """The context's records as a table, in its first-seen order."""
        group = self.group
        assert group is not None and state.counts is not None and state.bitmaps is not None
        shape = group.shape
        sites, ids, counts = by_count(state.values, shape)
        vshape = shape.values
        rows = vshape.row_sites > 0
        values = ValueColumns(
            row_record=vshape.blob_records[vshape.row_blob[rows]],
            row_kind=vshape.row_kind[rows],
            row_sites=vshape.row_sites[rows],
            site_lengths=np.bincount(sites, minlength=shape.num_sites).astype(np.int64),
            values=shape.values_of(ids, sites),
            counts=counts,
        )
        columns = RecordColumns(group.names, shape.hashes, state.counts, shape.lengths)
        table = RecordTable(
            columns,
            shape.bitmap_lengths,
            state.bitmaps,
            values,
            group.name_hashes,
        )
        return table if state.order is None else table.take(state.order)


def _widen(pipe: int) -> None:
    """Give a worker's pipe a buffer of 1 MiB where the system allows it: its arrays
    (10 MiB after 128 inputs of a 100k-function program) then cross in 15 ms, not 26."""
    import fcntl  # POSIX only, as fork is

    size = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if size is not None:
        with suppress(OSError):
            fcntl.fcntl(pipe, size, 1 << 20)


# -- files -------------------------------------------------------------------------
def _split_pays(remaining: int, count: int) -> bool:
    """Whether ``remaining`` inputs of ``count`` writer contexts are worth worker
    processes (:meth:`FastMerge.split`); if not, none is ever started for them."""
    return count >= 2 and remaining >= _MIN_SPLIT


__all__ = ["FastMerge", "TableWriter"]
