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
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

from profdata.cpus import idle_cpus
from profdata.errors import EmptyProfileError, FileError, ProfdataError
from profdata.fork_policy import can_fork
from profdata.formats import map_file
from profdata.formats.crossed_runs import CrossedRun, Crossing, crossing, table_run
from profdata.formats.raw_columns import RANK_BITS, RawRun, RawShape, read_run, shape_of
from profdata.formats.raw_layout import sniff
from profdata.formats.raw_profile import RawProfile
from profdata.model.counters import INSTR_MAX_COUNT, U64_MAX, merge_counts_mask
from profdata.model.instr import (
    PSEUDO_WARM,
    InstrProfile,
    InstrRecord,
    RecordColumns,
    TemporalTrace,
    spans,
)
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.llvm_containers import small_densemap_order, stringmap_order
from profdata.model.names import md5_array, name_bytes
from profdata.model.record_table import RecordTable, TableProfile, ValueColumns
from profdata.offload import fork
from profdata.ops.merge import (
    DENSEMAP_TOMBSTONE_KEY,
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
from profdata.ops.merge_inputs import FilterNote, InputFailure, WeightedFile, filter_regex
from profdata.ops.merge_records import MAX_VALUES_PER_SITE, WarningKind
from profdata.ops.merge_records import has_duplicate_memop_values as record_has_duplicates
from profdata.ops.merge_threads import context_of
from profdata.ops.merge_value_store import (
    Lookup,
    ValueStore,
    add_found,
    add_scaled,
    beyond_cut,
)
from profdata.ops.merge_workers import LoadStep, TaggedReporter
from profdata.reaping import reap_later
from profdata.releases import Release

if TYPE_CHECKING:  # the indexed and text sides are imported when such an input comes
    from profdata.formats.indexed_runs import IndexedShape
    from profdata.formats.table_shapes import TableShape

Ints = npt.NDArray[np.int64]
#: what the inputs of a group share: raw runs, indexed or text profiles of one binary
Shape: TypeAlias = "RawShape | IndexedShape | TableShape"
U64s = npt.NDArray[np.uint64]
Bytes = npt.NDArray[np.uint8]
Loaded = InstrProfile | ProfdataError
Loader = Callable[[str], InstrProfile]
#: a run's value entries sorted by key: keys, counts, raw ranks
_SortedEntries = tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int64]]

_MIN_SPLIT = 8  # inputs left before loading them in several processes can pay off
_LOOK_FOR_RAW = 8  # inputs after an indexed or text first one looked at for a raw run
_CROSSINGS = 4  # other shapes mapped onto the group's, at most: each costs a full read
_CHUNK = 1 << 15  # counters added a chunk at a time: 256 KiB, held in the CPU's cache

_RANK_BITS = RANK_BITS
_RANK_MASK = (1 << _RANK_BITS) - 1
_U64_MAX = np.uint64(U64_MAX)


# -- the state of one writer context --------------------------------------------------
@dataclass(eq=False)
class _Values:
    """A context's value sites: ``keys`` (site << id_bits | value id) with counts, ascending
    unless ``ordered`` is false (a store's entries as they were stored, which is how a
    worker sends them: whoever needs them sorted sorts them, and a fold into a store
    does not).

    ``ranks`` is each entry's position in its raw site while the context
    holds a single input (its order then is the raw order by count).
    """

    keys: Ints
    counts: U64s
    ranks: Ints | None
    fill: Ints  # entries per site
    ordered: bool = True


@dataclass(eq=False)
class _State:
    """One writer context's records as arrays."""

    inputs: int = 0
    counts: U64s | None = None
    counts_max: int = 0  # an upper bound of ``counts``
    bitmaps: Bytes | None = None
    values: _Values | ValueStore | None = None  # a store from the second run on
    order: Ints | None = None  # first-seen record order, if not the data order

    def sorted_values(self) -> _Values:
        """The value sites as sorted arrays (a store is turned back into them once)."""
        values = self.values
        assert values is not None
        if isinstance(values, ValueStore):
            keys, counts = values.sorted()
            values = self.values = _Values(keys, counts, None, values.fill.copy())
        elif not values.ordered:
            keys, counts, ranks = _sorted_by_key(values.keys, values.counts, values.ranks)
            values = self.values = _Values(keys, counts, ranks, values.fill)
        return values

    def unsorted_values(self) -> _Values:
        """The value sites in any order: a store becomes its entries (arrays travel lighter
        to another process than a store, and need no sort to be folded into one)."""
        values = self.values
        assert values is not None
        if isinstance(values, ValueStore):
            keys, counts = values.entries()
            values = self.values = _Values(keys, counts, None, values.fill.copy(), False)
        return values


class _Group:
    """The binary every fast input comes from, and what the merge derives from it once.

    Its names, and the name hashes that follow from them, are made on first
    use: that hashes every name (0.08-0.14 s for 100k), which a worker
    process of :meth:`FastMerge.split` never needs, so the workers are
    started before it.  Whether the group holds (no two records share name
    and function hash) is told first from the hashes the file states (a raw
    profile's NameRefs, an indexed profile's item key hashes:
    ``shape.quick_refs``), and again from the names when their hashes differ
    from those (see :meth:`sure`).
    """

    def __init__(self, shape: Shape, remapping: Mapping[str, str]) -> None:
        self.shape = shape
        self.remapping = remapping or None
        lengths = shape.lengths
        self.counter_starts: Ints = np.cumsum(lengths) - lengths  # each record's first counter

    @property
    def names(self) -> list[str]:
        """Each record's name, remapped."""
        return self._named[0]

    @property
    def name_hashes(self) -> U64s:
        """The MD5 of each record's name as merged (the NameRef unless renamed or nameless)."""
        return self._named[1]

    @cached_property
    def _named(self) -> tuple[list[str], U64s]:
        shape, remap = self.shape, self.remapping
        names = [remap.get(n, n) for n in shape.names] if remap else shape.names
        name_hashes = shape.name_refs.copy()
        if remap:  # renamed, or "" where the file has no name: hashed from the name used
            pairs = zip(names, shape.names, strict=True)
            redo = [i for i, (n, o) in enumerate(pairs) if not n or n != o]
        else:
            redo = [i for i, n in enumerate(names) if not n] if "" in names else []
        if redo:
            name_hashes[redo] = md5_array([name_bytes(names[i]) for i in redo])
        return names, name_hashes

    @cached_property
    def record_index(self) -> dict[tuple[str, int], int]:
        """Each record's position by (name, function hash): where a text input's go."""
        keys = zip(self.names, self.shape.hashes.tolist(), strict=True)
        return {key: index for index, key in enumerate(keys)}

    def plausible(self) -> bool:
        """False if two records surely share name and function hash (the record-by-record
        merge folds those); told without the names unless they are remapped.

        Equal stated hashes are equal names (or an MD5 collision, which only
        ever says no), so a pair twice among them is one among the names; the
        converse fails only where a stated hash is not its name's MD5 (records
        without a name, all hashed as "", or a hand-made indexed file) or
        names are remapped onto one another.
        """
        hashes = self.shape.quick_refs if self.remapping is None else self.name_hashes
        return not _has_pair_twice(hashes, self.shape.hashes)

    def sure(self) -> bool:
        """Whether the group holds, from the names (made now if not yet)."""
        if self.remapping or np.array_equal(self.name_hashes, self.shape.quick_refs):
            return True  # :meth:`plausible` looked at these very hashes
        return not _has_pair_twice(self.name_hashes, self.shape.hashes)


@dataclass(eq=False)
class _Input:
    """An input as :meth:`FastMerge.add` reads it: its bytes mapped, the profile where it
    had to be read in full (or the error that made), and the run it makes.  The first
    input's full read, which made the group and that run, is not kept."""

    mapped: memoryview | None
    loaded: Loaded | None
    run: RawRun | None


class FastMerge:
    """Runs of one binary merged as arrays, one :class:`_State` per writer context."""

    def __init__(
        self,
        options: MergeOptions,
        contexts: Sequence[WriterContext],
        load: Loader,
    ) -> None:
        self.options = options
        self.contexts = list(contexts)
        self.states = [_State() for _ in contexts]
        self.load = load
        self.group: _Group | None = None
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
        #: no worker process will be started (one context, or too few inputs for them):
        #: a second CPU is free to hash the first input's names (see :meth:`read_ahead`)
        self._alone = len(self.contexts) == 1

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

        Where no worker process will come (one writer context, or fewer inputs
        than a split needs: ``-j2`` of one file), a forked child hashes a raw
        first input's names meanwhile, as for ``-j1``.
        """
        if self.group is None and not self.started and not self.gave_up:
            self._alone = not _split_pays(1 + len(later), len(self.contexts))
            self._ahead = self._read_input(entry)
            if self.group is not None and not isinstance(self.group.shape, RawShape):
                then = next((e for e in later[:_LOOK_FOR_RAW] if _looks_raw(e.path)), None)
                if then is not None:
                    self._regroup(self._ahead, then)

    def _regroup(self, ahead: _Input, then: WeightedFile) -> None:
        """Make the group from ``then`` if it is a raw run onto whose shape the first input
        (indexed or text) crosses; the first input becomes that crossed run.  Otherwise
        nothing changes (the raw run read here is read again as it comes)."""
        group, run = self.group, ahead.run
        if self.options.remapping or ahead.mapped is None or group is None or run is None:
            return
        mapped = _map(then.path)
        if mapped is None:
            return
        loaded = _read(self.load, then.path)
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
                loaded = _read(self.load, entry.path)
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
            return self._leave(ctx_index, _read(self.load, entry.path))
        return None

    def _read_input(self, entry: WeightedFile) -> _Input:
        """An input mapped and read as a run of the group; the first one makes the group."""
        mapped = _map(entry.path)
        if mapped is not None and not len(mapped):
            return _Input(mapped, None, None)
        if mapped is not None and self.group is not None:
            run = _read_run(mapped, self.group.shape, entry.path, self.options.release)
            if run is None:
                run = self._crossed_run(mapped, entry.path)
            if run is not None:
                return _Input(mapped, None, run)
        loaded = _read(self.load, entry.path)
        first = self.group is None and not self.started and not self.gave_up
        if first and self._alone and isinstance(loaded, RawProfile):
            # one process from here on (no split): a second CPU can hash the names,
            # which are needed once this input's group is made
            loaded.hash_names_meanwhile()
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
            run = _read_run(view, known.source, path, self.options.release)
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
        shaped = _shape_of(view, profile, self.options.release)
        if shaped is None:
            return None
        shape, run = shaped
        known = crossing(shape, shape.names, group.shape, group.names)
        if known is None:
            return None
        self.crossings.append(known)
        return known.run(run)

    def _group_of(self, view: memoryview, profile: InstrProfile) -> tuple[_Group, RawRun] | None:
        """The group of the first input, and that input read as its first run."""
        shaped = _shape_of(view, profile, self.options.release)
        if shaped is None:
            return None
        shape, run = shaped
        group = _Group(shape, self.options.remapping)
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
            self.contexts[ctx_index].writer.functions = _functions(self._table(state).records())
        self.states[ctx_index] = _State()
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
        ready = self.folds or (self._ahead is not None and self._ahead.run is not None)
        if not _split_pays(remaining, count) or not ready or not can_fork():
            return 1
        wanted = self.options.processes
        if wanted <= 0:
            # a look at the CPUs takes milliseconds: a busy machine is looked at again
            # only every few inputs, not before each one
            if remaining > self._look_again_at:
                return 1
            wanted = idle_cpus()
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
                _take_back(state, run.counts)
            return False
        ctx = self.contexts[ctx_index]
        writer = ctx.writer
        frontend = extras.explicit_frontend if extras is not None else False
        if writer.merge_kind(origin.kind, frontend) is not None:
            ctx.errors.append(InputFailure(entry.path, KIND_CONFLICT))
            if added is not None:
                _take_back(state, run.counts)
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

    def _entries(self, state: _State, run: RawRun) -> _SortedEntries | Lookup | None:
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
            return _sorted_entries(run, shape)
        if not isinstance(state.values, ValueStore):
            vals = state.values
            sized = shape.values.site_kind == int(ValueKind.MEMOP_SIZE)
            state.values = ValueStore(vals.keys, vals.counts, vals.fill, shape.id_bits, sized)
        keys = run.entry_site << shape.id_bits
        keys |= run.entry_id
        return state.values.find(keys, run.calls)

    def _merge_values(
        self,
        state: _State,
        entries: _SortedEntries | Lookup,
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
        state.values = _Values(keys, scaled, ranks, run.site_lengths.copy())
        return over if bool(over.any()) else None

    def _add_unchecked(self, state: _State, raw: U64s) -> int | None:
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
                _take_back(state, raw[:start])
                return None
            top = max(top, high)
            np.add(counts[start : start + _CHUNK], part, out=counts[start : start + _CHUNK])
        return top

    def _merge_counters(
        self, state: _State, raw: U64s, raw_max: int, weight: int, overflowed: npt.NDArray[np.bool_]
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
            self.states[dst_index] = _State(
                src.inputs, src.counts, src.counts_max, src.bitmaps, src.sorted_values(),
                self._iteration_order(src),
            )  # fmt: skip
            self.states[src_index] = _State()
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
            value_flags = _merge_values(
                dst.sorted_values(), theirs.keys, theirs.counts, 1, self.group.shape
            )
        if bool(flags.any()) or value_flags is not None:
            warnings.append(WarningKind.COUNTER_OVERFLOW)
        dst.inputs += src.inputs
        self.states[src_index] = _State()
        return warnings

    def _iteration_order(self, state: _State) -> Ints:
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

    def _table(self, state: _State) -> RecordTable:
        """The context's records as a table, in its first-seen order."""
        group = self.group
        assert group is not None and state.counts is not None and state.bitmaps is not None
        shape = group.shape
        sites, ids, counts = _by_count(state.values, shape)
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


def _by_count(values: _Values | ValueStore | None, shape: Shape) -> tuple[Ints, Ints, U64s]:
    """A context's value entries as written: by site, then count descending, then raw rank
    (a single input's) or value id; their sites, ids and counts.

    Site, count and id usually fit in one 63-bit word together, and one sort
    of those words orders the entries straight from the store; otherwise
    the entries are sorted by key, then by site and count.
    """
    assert values is not None
    ranks = None
    if isinstance(values, ValueStore):
        keys, counts = values.entries()
    else:
        keys, counts, ranks = values.keys, values.counts, values.ranks
    id_bits = shape.id_bits
    id_mask = (1 << id_bits) - 1
    ids = keys & id_mask
    top = int(counts.max()) if len(counts) else 0
    count_bits = top.bit_length()
    low = int(ids.max()).bit_length() if len(ids) else 0  # the ids' bits in use
    site_bits = max(shape.num_sites - 1, 0).bit_length()
    if ranks is None and site_bits + count_bits + low <= 63:
        packed = (keys >> id_bits) << (count_bits + low)
        packed |= (np.int64(top) - counts.astype(np.int64)) << low
        packed |= ids
        packed.sort()
        below = (packed >> low) & ((1 << count_bits) - 1)
        sites = packed >> (count_bits + low)
        return sites, packed & ((1 << low) - 1), (top - below).astype(np.uint64)
    if isinstance(values, ValueStore) or not values.ordered:
        keys, counts, ranks = _sorted_by_key(keys, counts, ranks)
    sites = keys >> id_bits
    # lexsort is stable and the keys are in (site, id) order: without raw ranks, equal
    # counts keep their ids' order with no third key to sort by
    sort_keys: list[npt.NDArray[np.integer]] = [_U64_MAX - counts, sites]
    if ranks is not None:
        sort_keys.insert(0, ranks)
    by_count = np.lexsort(sort_keys)
    return sites[by_count], (keys & id_mask)[by_count], counts[by_count]


def _sorted_by_key(keys: Ints, counts: U64s, ranks: Ints | None) -> tuple[Ints, U64s, Ints | None]:
    """Entries held in any order (a store's, or a worker's sent as stored) by key."""
    by_key = np.argsort(keys, kind="stable")
    return keys[by_key], counts[by_key], None if ranks is None else ranks[by_key]


def _widen(pipe: int) -> None:
    """Give a worker's pipe a buffer of 1 MiB where the system allows it: its arrays
    (10 MiB after 128 inputs of a 100k-function program) then cross in 15 ms, not 26."""
    import fcntl  # POSIX only, as fork is

    size = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if size is not None:
        with suppress(OSError):
            fcntl.fcntl(pipe, size, 1 << 20)


def _take_back(state: _State, raw: U64s) -> None:
    """Subtract counters :meth:`FastMerge._add_unchecked` added to the first ones of the
    context (exactly: no sum wrapped)."""
    if state.counts is not None and len(raw):
        view = state.counts[: len(raw)]
        np.subtract(view, raw, out=view)


def _has_pair_twice(name_hashes: U64s, hashes: U64s) -> bool:
    """Whether two records share name and function hash, told by their name hashes (MD5
    collisions only ever make this say yes, which takes the safe, record-by-record way)."""
    if len(hashes) < 2:
        return False
    names = np.sort(name_hashes)
    if not bool(np.any(names[1:] == names[:-1])):
        return False  # no name twice (one sort of one key, not a lexsort of two)
    order = np.lexsort((hashes, name_hashes))
    a, b = name_hashes[order], hashes[order]
    return bool(np.any((a[1:] == a[:-1]) & (b[1:] == b[:-1])))


# -- value sites ---------------------------------------------------------------------
def _sorted_entries(run: RawRun, shape: Shape) -> _SortedEntries | None:
    """The run's profiled values sorted by key, with counts and raw ranks; None on a
    duplicate (the same value twice in a site)."""
    lengths = run.site_lengths
    order = np.arange(len(lengths)) if run.site_order is None else run.site_order
    ordered = lengths[order]  # where each site's entries begin, the sites in that order
    first = np.empty_like(lengths)
    first[order] = np.cumsum(ordered) - ordered
    site = run.entry_site
    rank = np.arange(len(site), dtype=np.int64) - first[site]
    packed = (site << (shape.id_bits + _RANK_BITS)) | (run.entry_id << _RANK_BITS) | rank
    packed.sort()
    rank = packed & _RANK_MASK
    keys = packed >> _RANK_BITS
    if len(keys) > 1 and bool(np.any(keys[1:] == keys[:-1])):
        return None
    counts = run.entry_count[first[keys >> shape.id_bits] + rank]
    return keys, counts, rank


def _merge_values(
    state: _Values, keys: Ints, counts: U64s, weight: int, shape: Shape
) -> npt.NDArray[np.bool_] | None:
    """Merge sorted entries into the state; the overflow flag per entry if any overflowed."""
    state.ranks = None
    pos = np.searchsorted(state.keys, keys)
    found = pos < len(state.keys)
    found[found] = state.keys[pos[found]] == keys[found]
    flags = add_found(state.counts, pos[found], found, counts, weight)
    new = ~found
    if bool(new.any()):
        new_keys = keys[new]
        at_new = pos[new] + np.arange(len(new_keys))  # where they land in the merged arrays
        is_new = np.zeros(len(state.keys) + len(new_keys), dtype=bool)
        is_new[at_new] = True
        merged_keys = np.empty(len(is_new), dtype=np.int64)
        merged_counts = np.empty(len(is_new), dtype=np.uint64)
        merged_keys[at_new] = new_keys
        merged_counts[at_new] = counts[new]
        is_new = ~is_new
        merged_keys[is_new] = state.keys
        merged_counts[is_new] = state.counts
        state.keys, state.counts = merged_keys, merged_counts
        state.fill += np.bincount(new_keys >> shape.id_bits, minlength=len(state.fill))
        if int(state.fill.max()) > MAX_VALUES_PER_SITE:
            _truncate(state, shape)
    return flags


def _truncate(state: _Values, shape: Shape) -> None:
    """``sortByCount``'s cut: a site keeps its 255 first entries by (count desc, value asc)."""
    heavy = np.flatnonzero(state.fill > MAX_VALUES_PER_SITE)
    lo = np.searchsorted(state.keys, heavy << shape.id_bits)
    hi = np.searchsorted(state.keys, (heavy + 1) << shape.id_bits)
    sizes = hi - lo
    index = spans(lo, sizes)
    drop = index[beyond_cut(state.keys[index], state.counts[index], sizes, shape.id_bits)]
    state.keys = np.delete(state.keys, drop)
    state.counts = np.delete(state.counts, drop)
    state.fill[heavy] = MAX_VALUES_PER_SITE


# -- records, writers -------------------------------------------------------------------
def _functions(records: Sequence[InstrRecord]) -> dict[str, dict[int, InstrRecord]]:
    functions: dict[str, dict[int, InstrRecord]] = {}
    for rec in records:
        functions.setdefault(rec.name, {})[rec.hash] = rec
    return functions


class TableWriter(InstrProfWriter):
    """A merged writer context whose records stay a :class:`RecordTable` until asked for.

    The CLI writes the table straight to the indexed format; ``functions``
    (the record-by-record view) is built on first use.
    """

    def __init__(self, base: InstrProfWriter, table: RecordTable) -> None:
        self._functions: dict[str, dict[int, InstrRecord]] = {}
        super().__init__(
            release=base.release,
            traces=base.traces,
            kind=base.kind,
            frontend=base.frontend,
            functions={},
            binary_ids=base.binary_ids,
            vtable_names=base.vtable_names,
        )
        self._table: RecordTable | None = table

    @property
    def functions(self) -> dict[str, dict[int, InstrRecord]]:
        if self._table is not None:
            self._functions = _functions(self._table.records())
            self._table = None
        return self._functions

    @functions.setter
    def functions(self, value: dict[str, dict[int, InstrRecord]]) -> None:
        self._functions = value
        self._table = None

    def filter_functions(self, keep: str = "", drop: str = "") -> FilterNote | None:
        if self._table is None:
            return super().filter_functions(keep, drop)
        if not keep and not drop:
            return None
        keep_re, drop_re = filter_regex(keep), filter_regex(drop)
        names = self._table.columns.names
        verdict: dict[str, bool] = {}
        for name in names:
            if name not in verdict:
                verdict[name] = not (
                    (drop_re is not None and drop_re.search(name))
                    or (keep_re is not None and not keep_re.search(name))
                )
        kept = np.array([verdict[name] for name in names], dtype=bool)
        self._table = self._table.take(np.flatnonzero(kept))
        return FilterNote(sum(1 for v in verdict.values() if not v), len(verdict))

    def to_profile(self, *, sparse: bool = False) -> InstrProfile:
        if self._table is None:
            return super().to_profile(sparse=sparse)
        table = self._table
        if sparse:  # the names with data: a name's records go, or stay, together
            has = table.has_data()
            if not table.names_distinct:
                names = table.columns.names
                with_data = {name for name, flag in zip(names, has.tolist(), strict=True) if flag}
                has = np.fromiter(map(with_data.__contains__, names), dtype=bool, count=len(has))
            table = table.take(np.flatnonzero(has))
        return TableProfile(
            table=table,
            distinct_values=True,  # a context's values are keyed by (site, value)
            kind=self.kind,
            format="merged",
            binary_ids=list(self.binary_ids),
            traces=list(self.traces.traces),
            trace_stream_size=self.traces.stream_size,
            vtable_names=list(dict.fromkeys(self.vtable_names)),
            symbols={},
            explicit_frontend=self.frontend,
        )


def has_duplicate_memop_values(profile: InstrProfile) -> bool:
    """``validateRecord`` over a whole profile: some memop site holds a size twice."""
    if not isinstance(profile, TableProfile):
        return any(record_has_duplicates(rec) for rec in profile.records)
    if profile.distinct_values:
        return False
    vals = profile.table.values
    site_kind = np.repeat(vals.row_kind, vals.row_sites)
    site_of_value = np.repeat(np.arange(len(vals.site_lengths)), vals.site_lengths)
    memop = site_kind[site_of_value] == int(ValueKind.MEMOP_SIZE)
    sites, values = site_of_value[memop], vals.values[memop]
    if not len(values):
        return False
    if int(values.max()) < 1 << 32 and len(site_kind) < 1 << 31:  # sizes: one word sorts
        joined = np.sort((sites.astype(np.uint64) << np.uint64(32)) | values)
        return bool(np.any(joined[1:] == joined[:-1]))
    order = np.lexsort((values, sites))
    sites, values = sites[order], values[order]
    return bool(np.any((sites[1:] == sites[:-1]) & (values[1:] == values[:-1])))


# -- files -------------------------------------------------------------------------
def _split_pays(remaining: int, count: int) -> bool:
    """Whether ``remaining`` inputs of ``count`` writer contexts are worth worker
    processes (:meth:`FastMerge.split`); if not, none is ever started for them."""
    return count >= 2 and remaining >= _MIN_SPLIT


def _shape_of(
    view: memoryview, profile: InstrProfile, release: Release
) -> tuple[Shape, RawRun] | None:
    """A profile's shape (raw or indexed), and the profile read as its first run (as
    ``release`` reads it); None also where a function hash is one of ``DenseMap``'s
    reserved keys (the long way warns about those)."""
    shaped: tuple[Shape, RawRun] | None = None
    if profile.format == "raw":
        shaped = shape_of(view, profile)
    elif profile.format == "indexed":
        from profdata.formats.indexed_runs import indexed_shape

        shaped = indexed_shape(view, release=release)
    elif profile.format == "text":
        from profdata.formats.table_shapes import table_shape

        shaped = table_shape(profile)
    if shaped is None or bool(np.any(shaped[0].hashes >= np.uint64(DENSEMAP_TOMBSTONE_KEY))):
        return None
    return shaped


def _looks_raw(path: str) -> bool:
    """Whether the file starts as a raw profile does (what it holds is checked on reading)."""
    if path == "-":
        return False
    try:
        with open(path, "rb") as file:
            return sniff(file.read(8))
    except OSError:
        return False


def _read_run(view: memoryview, shape: Shape, path: str, release: Release) -> RawRun | None:
    """The input as a run of ``shape``; a raw run's header words are the shape's, an indexed
    one is read as ``release`` reads it."""
    if isinstance(shape, RawShape):
        return read_run(view, shape)
    from profdata.formats.indexed_runs import IndexedShape, read_indexed_run

    if not isinstance(shape, IndexedShape):
        return None  # nothing reads as a text's run: other texts cross onto it
    return read_indexed_run(view, shape, path, release)


def _map(path: str) -> memoryview | None:
    """The file's bytes, memory-mapped; None if it cannot be (the full read says why)."""
    if path == "-":
        return None
    try:
        return map_file(path, populate=True)  # every page is read: map them all at once
    except FileError:
        return None


def _read(load: Loader, path: str) -> Loaded:
    try:
        return load(path)
    except ProfdataError as exc:
        return exc


__all__ = ["FastMerge", "TableWriter", "has_duplicate_memop_values"]
