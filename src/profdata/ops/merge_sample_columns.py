"""``merge --sample`` of binary and ext-binary inputs summed as arrays, objects built once.

The record-by-record merge (:func:`profdata.ops.merge_sample.merge_samples`)
reads every input into ``FunctionSamples`` and adds them into the merged map:
for 16 inputs of 5,000 functions that is 16 times the Python objects of one
profile, built and thrown away.  Here each input is read into columns
(:mod:`profdata.formats.sample_columns`), every function profile and inlined
instance gets a number that is the same in all inputs (its parent's number,
call site and name), and body samples and call targets are summed per key
with numpy.  The merged profile's objects are built at the end, once.

The result must be the record-by-record merge's, byte for byte once
written, including every dict's order (writers and the emulated LLVM hash
maps look at it).  That holds because:

* no sum can saturate: the weighted sum of every count of every input is
  kept below 2**63 (else this path declines), so adding in any grouping
  gives the same numbers and no overflow warning is due;
* keys are numbered in first-seen order (inputs in order, each in file
  order), which is the order in which the record-by-record merge inserts
  body lines, call targets and inlined callees into the dicts it grows;
* the top-level profiles are placed as that merge places them: each input's
  new ones in the input's own map order (:func:`release_map_order`);
* a CS profile's checksum and attributes are those of the input that first
  brought the context (a checksum of 0 takes the next one), as
  ``FunctionSamples::merge`` keeps them.

Everything else declines (``None``) and the caller merges record by record:
text, GCC and compact inputs, inputs of different kinds (plain, CS,
probe-based: the readers' static flags decide those), a checksum mismatch
(warned and skipped there), plain probe-based profiles and vtable type
samples, remapping, standard input, and any input the column reader cannot
take (faults are reported by the full read).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import replace
from functools import partial

import numpy as np
import numpy.typing as npt

from profdata.errors import ProfdataError
from profdata.formats._collector import collector_paused
from profdata.formats._files import map_file
from profdata.formats.sample_column_reads import ColumnRead, read_sample_columns
from profdata.formats.sample_columns import ProfileColumns
from profdata.model.instr import distinct
from profdata.model.record_table import Ints, U64s
from profdata.model.sample import (
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleProfile,
    SampleRecord,
    md5_function_ids,
)
from profdata.model.sample_map_order import (
    UnorderedMapTable,
    context_hash,
    merge_map_key,
    release_map_order,
)
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample_readers import read_in_order
from profdata.ops.sample_static_flags import static_fs_flag, static_preinlined_flag
from profdata.releases import Release

#: the weighted sum of all counts stays below this, so no merged counter saturates
_BOUND = float(1 << 63)
#: bits of a body key below the node number: the location's number
_LOC_BITS = 24
#: bits of a call-target key below the record's number: the target name's number
_NAME_BITS = 24
#: an inlined instance's key: parent's number, then call site and callee name numbers
_SITE_BITS = 16
_CALLEE_BITS = 20
U32 = 0xFFFFFFFF


class _Index:
    """Keys sorted, with a number each: the lookup every numbering here makes."""

    def __init__(self, dtype: type[np.generic]) -> None:
        self.keys: npt.NDArray[np.generic] = np.zeros(0, dtype=dtype)
        self.numbers = np.zeros(0, dtype=np.int64)

    def find(self, keys: npt.NDArray[np.generic]) -> tuple[Ints, Ints]:
        """Each key's number (-1 if unknown), and where the unknown ones are."""
        known = self.keys
        pos = np.searchsorted(known, keys)
        found = pos < len(known)
        found[found] = known[pos[found]] == keys[found]
        numbers = np.full(len(keys), -1, dtype=np.int64)
        numbers[found] = self.numbers[pos[found]]
        return numbers, np.flatnonzero(~found)

    def insert(self, distinct: npt.NDArray[np.generic], numbers: Ints) -> None:
        """New keys (sorted, distinct, none known) with their numbers."""
        at = np.searchsorted(self.keys, distinct)
        self.keys = np.insert(self.keys, at, distinct)
        self.numbers = np.insert(self.numbers, at, numbers)


class _Keyed:
    """Counts summed per key; each distinct key numbered in first-seen order (inputs in
    order, each in file order), which is the order the record-by-record merge inserts
    them in, so the numbers are also the build order."""

    def __init__(self) -> None:
        self.index = _Index(np.int64)
        #: by number: the key and the summed count
        self.keys = np.zeros(0, dtype=np.int64)
        self.counts = np.zeros(0, dtype=np.uint64)

    def add(self, keys: Ints, counts: U64s) -> Ints:
        """Add the counts; the number of each entry's key."""
        ids, new = self.index.find(keys)
        if len(new):
            distinct, first, inverse = np.unique(keys[new], return_index=True, return_inverse=True)
            rank = np.empty(len(distinct), dtype=np.int64)
            by_first = np.argsort(first, kind="stable")
            rank[by_first] = np.arange(len(distinct), dtype=np.int64)
            numbers = len(self.keys) + rank
            ids[new] = numbers[inverse.reshape(-1)]
            self.index.insert(distinct, numbers)
            self.keys = np.concatenate([self.keys, distinct[by_first]])
            self.counts = np.concatenate([self.counts, np.zeros(len(distinct), dtype=np.uint64)])
        np.add.at(self.counts, ids, counts)
        return ids


class _Merge:
    """The merged profile as numbered nodes (function profiles, inlined instances)."""

    def __init__(self, release: Release) -> None:
        self.release = release
        self.md5_frames = release.sample_cs_hash_md5_frames
        self.tops: dict[object, int] = {}
        #: a top-level name's context and map key, by whether names are MD5 values
        self.top_keys: dict[bool, dict[str, tuple[SampleContext, object]]] = {False: {}, True: {}}
        #: inlined instances by (parent number, call site, callee) packed
        self.inlined = _Index(np.int64)
        self.callee_ids: dict[str, int] = {}
        #: an inlined instance's context by callee name (contexts are immutable: shared)
        self.callee_contexts: dict[str, SampleContext] = {}
        self.site_ids: dict[int, int] = {}
        self.node_parent: list[int] = []
        self.node_site: list[int] = []
        self.node_context: list[SampleContext] = []
        self.totals = np.zeros(0, dtype=np.uint64)
        self.heads = np.zeros(0, dtype=np.uint64)
        self.top_order: list[int] = []
        #: checksum and attributes of each node (set for top-level CS profiles only)
        self.hashes: list[int] = []
        self.attributes: list[int] = []
        self.placed: set[int] = set()
        self.locations: dict[int, int] = {}
        self.location_index = _Index(np.uint64)
        self.target_names: dict[str, int] = {}
        self.body = _Keyed()
        self.targets = _Keyed()
        self.bound = 0.0

    def _new(
        self, parent: int, site: int, context: SampleContext, checksum: int = 0, attrs: int = 0
    ) -> int:
        self.node_parent.append(parent)
        self.node_site.append(site)
        self.node_context.append(context)
        self.hashes.append(checksum)
        self.attributes.append(attrs)
        return len(self.node_parent) - 1

    def add(self, profile: SampleProfile, cols: ProfileColumns, weight: int) -> bool:
        """One input's columns at ``weight``; False to decline."""
        self.bound += weight * cols.count_sum()
        if self.bound >= _BOUND:
            return False
        nodes = self._number_nodes(profile, cols)
        if nodes is None:
            return False
        count = len(self.node_parent)
        if count >= 1 << (63 - _LOC_BITS):
            return False
        grow = count - len(self.totals)
        if grow:
            self.totals = np.concatenate([self.totals, np.zeros(grow, dtype=np.uint64)])
            self.heads = np.concatenate([self.heads, np.zeros(grow, dtype=np.uint64)])
        w = np.uint64(weight)
        np.add.at(self.totals, nodes, cols.node_total * w)
        np.add.at(self.heads, nodes, cols.node_head * w)
        loc_ids = self._number_locations(cols.rec_loc)
        if loc_ids is None:
            return False
        rec_keys = (nodes[cols.rec_node] << _LOC_BITS) | loc_ids
        records = self.body.add(rec_keys, cols.rec_samples * w)
        if len(cols.tgt_rec):
            used = distinct(cols.tgt_name)
            ids = np.zeros(len(cols.names), dtype=np.int64)
            known = self.target_names
            ids[used] = [known.setdefault(cols.names[i], len(known)) for i in used.tolist()]
            if len(known) >= 1 << _NAME_BITS or len(self.body.keys) >= 1 << (63 - _NAME_BITS):
                return False
            keys = (records[cols.tgt_rec] << _NAME_BITS) | ids[cols.tgt_name]
            self.targets.add(keys, cols.tgt_count * w)
        return True

    def _number_nodes(self, profile: SampleProfile, cols: ProfileColumns) -> Ints | None:
        """Each node's number, new ones in file order; the input's top-level profiles
        placed in its map order.  None for what the record-by-record merge does
        differently: a repeated profile the release replaces, two contexts of one key."""
        names = cols.names
        local: dict[object, SampleContext] = {}
        md5 = profile.is_md5
        # a repeated profile adds up in 17+ and replaces the one before in 16 and older
        replaces = profile.format in ("extbinary", "binary") and (
            not self.release.sample_binary_duplicates_merge
        )
        tops = self.tops
        cache = self.top_keys[md5]
        numbers = [-1] * len(cols.node_parent)
        top = np.flatnonzero(cols.node_parent < 0)
        table = cols.contexts
        metadata = cols.metadata
        hashes = self.hashes
        for index, name in zip(top.tolist(), cols.node_name[top].tolist(), strict=True):
            if table is None:
                text = names[name]
                known = cache.get(text)
                if known is None:
                    context = SampleContext(text)
                    known = cache[text] = (context, merge_map_key(context, self.release, md5))
                context, key = known
            else:
                context = table[name]
                key = merge_map_key(context, self.release, md5, profile.is_cs)
            seen = local.get(key)
            if seen is not None and (seen != context or replaces):
                return None
            local[key] = context
            checksum, attrs = metadata.get(context, (0, 0)) if metadata else (0, 0)
            number = tops.get(key)
            if number is None:
                number = tops[key] = self._new(-1, 0, context, checksum, attrs)
            elif checksum != hashes[number]:
                if hashes[number]:
                    return None  # a checksum mismatch: the merge skips it with a warning
                hashes[number] = checksum
            numbers[index] = number
        result = np.array(numbers, dtype=np.int64)
        if not self._number_inlined(cols, result):
            return None
        if not self._place(profile, local):
            return None
        return result

    def _number_inlined(self, cols: ProfileColumns, numbers: Ints) -> bool:
        """Number the inlined instances, one nesting level at a time (a level's parents are
        numbered before it); new ones in file order within their level, so each parent's
        callees keep the order the record merge inserts them in.  False to decline."""
        parents = cols.node_parent
        below = np.flatnonzero(parents >= 0)
        if not len(below):
            return True
        names = cols.names
        callees = distinct(cols.node_name[below])
        known = self.callee_ids
        name_ids = np.zeros(len(names), dtype=np.int64)
        name_ids[callees] = [known.setdefault(names[i], len(known)) for i in callees.tolist()]
        site_values, inverse = np.unique(cols.node_site[below], return_inverse=True)
        sites = self.site_ids
        site_ids = np.array([sites.setdefault(v, len(sites)) for v in site_values.tolist()])
        if len(known) >= 1 << _CALLEE_BITS or len(sites) >= 1 << _SITE_BITS:
            return False
        site_of = np.zeros(len(parents), dtype=np.int64)
        site_of[below] = site_ids[inverse.reshape(-1)]
        depth = np.zeros(len(parents), dtype=np.int64)
        while True:  # parents come first, so each pass settles at least one more level
            deeper = depth[parents[below]] + 1
            if np.array_equal(deeper, depth[below]):
                break
            depth[below] = deeper
        for level in range(1, int(depth.max()) + 1):
            nodes = below[depth[below] == level]
            parent_numbers = numbers[parents[nodes]]
            if int(parent_numbers.max()) >= 1 << (63 - _SITE_BITS - _CALLEE_BITS):
                return False
            keys = (
                (parent_numbers << (_SITE_BITS + _CALLEE_BITS))
                | (site_of[nodes] << _CALLEE_BITS)
                | name_ids[cols.node_name[nodes]]
            )
            numbers[nodes] = self._inlined_numbers(cols, nodes, keys, parent_numbers)
        return True

    def _inlined_numbers(
        self, cols: ProfileColumns, nodes: Ints, keys: Ints, parent_numbers: Ints
    ) -> Ints:
        """Each key's node number; a key not seen before makes a node (first seen first)."""
        out, new = self.inlined.find(keys)
        if len(new):
            fresh, first, inverse = np.unique(keys[new], return_index=True, return_inverse=True)
            by_first = np.argsort(first, kind="stable")
            entries = new[first[by_first]]  # each new node's first entry, in file order
            names, contexts = cols.names, self.callee_contexts
            callees = [names[i] for i in cols.node_name[nodes[entries]].tolist()]
            count = len(entries)
            start = len(self.node_parent)
            self.node_parent.extend(parent_numbers[entries].tolist())
            self.node_site.extend(cols.node_site[nodes[entries]].tolist())
            for callee in set(callees).difference(contexts):
                contexts[callee] = SampleContext(callee)
            self.node_context.extend(map(contexts.__getitem__, callees))
            self.hashes.extend([0] * count)
            self.attributes.extend([0] * count)
            made = np.empty(count, dtype=np.int64)
            made[by_first] = np.arange(start, start + count, dtype=np.int64)
            out[new] = made[inverse.reshape(-1)]
            self.inlined.insert(fresh, made)
        return out

    def _place(self, profile: SampleProfile, local: dict[object, SampleContext]) -> bool:
        """The input's new top-level profiles, in the order the merge loop visits them:
        the input's map order (only needed when it brings a new profile)."""
        tops, placed = self.tops, self.placed
        if all(tops[key] in placed for key in local):
            return True
        contexts = list(local.values())
        md5_ids = md5_function_ids(profile, self.release)
        if self.release.sample_string_map_profiles:
            stand_in = SampleProfile(
                profiles={c: FunctionSamples(c) for c in contexts}, is_md5=profile.is_md5
            )
            ordered = [fs.context for fs in release_map_order(stand_in, self.release, md5_ids)]
        else:  # profile_map_order of the input's keys
            hashes = [context_hash(c, self.md5_frames, md5_ids, profile.is_cs) for c in contexts]
            by_hash = dict(zip(hashes, contexts, strict=True))
            ordered = [by_hash[h] for h in UnorderedMapTable.filled(hashes).order()]
            if len(by_hash) != len(hashes):
                return False  # the map keeps one of two contexts of a hash
        key_of = {context: key for key, context in local.items()}
        for context in ordered:
            number = tops[key_of[context]]
            if number not in placed:
                placed.add(number)
                self.top_order.append(number)
        return True

    def _number_locations(self, packed: U64s) -> Ints | None:
        """Each body line's location number (``offset << 32 | discriminator`` numbered as
        first met); a search of the known ones, most lines' locations being known."""
        ids, new = self.location_index.find(packed)
        if len(new):
            distinct, inverse = np.unique(packed[new], return_inverse=True)
            known = self.locations
            numbers = np.array(
                [known.setdefault(v, len(known)) for v in distinct.tolist()], dtype=np.int64
            )
            if len(known) >= 1 << _LOC_BITS:
                return None
            ids[new] = numbers[inverse.reshape(-1)]
            self.location_index.insert(distinct, numbers)
        return ids

    def columns(self) -> ProfileColumns:
        """The merged nodes, body lines and call targets as columns (plain profiles:
        a node's context is its name); names numbered as first met."""
        index = dict(self.target_names)  # a target name's number is its index
        node_name = [index.setdefault(c.name, len(index)) for c in self.node_context]
        body, targets = self.body, self.targets
        locations = np.array(list(self.locations), dtype=np.uint64)
        return ProfileColumns(
            names=list(index),
            contexts=None,
            node_parent=np.array(self.node_parent, dtype=np.int64),
            node_name=np.array(node_name, dtype=np.int64),
            node_total=self.totals,
            node_head=self.heads,
            node_site=np.array(self.node_site, dtype=np.uint64),
            rec_node=body.keys >> _LOC_BITS,
            rec_loc=locations[body.keys & ((1 << _LOC_BITS) - 1)],
            rec_samples=body.counts,
            tgt_rec=targets.keys >> _NAME_BITS,
            tgt_name=targets.keys & ((1 << _NAME_BITS) - 1),
            tgt_count=targets.counts,
        )

    def profiles(self) -> dict[SampleContext, FunctionSamples]:
        """The merged map, built once; dicts filled in first-seen order."""
        totals, heads = self.totals.tolist(), self.heads.tolist()
        nodes: list[FunctionSamples] = []
        site_locations: dict[int, LineLocation] = {}
        for number, (parent, site, context) in enumerate(
            zip(self.node_parent, self.node_site, self.node_context, strict=True)
        ):
            fs = FunctionSamples(
                context,
                totals[number],
                heads[number],
                function_hash=self.hashes[number],
                attributes=self.attributes[number],
            )
            nodes.append(fs)
            if parent >= 0:
                loc = site_locations.get(site)
                if loc is None:
                    loc = site_locations[site] = LineLocation(site >> 32, site & U32)
                callees = nodes[parent].callsite_samples
                at = callees.get(loc)
                if at is None:
                    at = callees[loc] = {}
                at[context.name] = fs
        locations = [LineLocation(v >> 32, v & U32) for v in self.locations]
        body = self.body
        records = [SampleRecord(count, {}) for count in body.counts.tolist()]
        mask = (1 << _LOC_BITS) - 1
        for node, loc, record in zip(
            (body.keys >> _LOC_BITS).tolist(), (body.keys & mask).tolist(), records, strict=True
        ):
            nodes[node].body_samples[locations[loc]] = record
        targets = self.targets
        if len(targets.keys):
            names = list(self.target_names)
            name_mask = (1 << _NAME_BITS) - 1
            for index, name, count in zip(
                (targets.keys >> _NAME_BITS).tolist(),
                (targets.keys & name_mask).tolist(),
                targets.counts.tolist(),
                strict=True,
            ):
                records[index].call_targets[names[name]] = count
        return {self.node_context[n]: nodes[n] for n in self.top_order}


def merge_columns(
    inputs: Sequence[WeightedFile], release: Release, processes: int = 0
) -> tuple[SampleProfile, set[str]] | None:
    """The merged profile (flags set, symbol list not) and the inputs' symbols; ``None``
    when the record-by-record merge must do it.  ``processes``: 1 reads every input
    here, 0 lets a second process read every other one when a CPU is idle."""
    with collector_paused():  # numbering makes many small acyclic objects
        summed = _summed(inputs, release, processes)
        if summed is None:
            return None
        merge, merged, symbols = summed
        merged.profiles = merge.profiles()
    return merged, symbols


def merge_as_columns(
    inputs: Sequence[WeightedFile], release: Release, processes: int = 0
) -> tuple[SampleProfile, ProfileColumns, set[str]] | None:
    """:func:`merge_columns` without building the merged profile's objects: its flags
    (no functions), its functions as columns (names in first-seen order, nodes in
    numbering order), and the inputs' symbols; plain profiles only (``None`` for CS
    and probe-based ones, whose contexts, checksums and attributes are objects)."""
    with collector_paused():
        summed = _summed(inputs, release, processes)
        if summed is None:
            return None
        merge, merged, symbols = summed
        if merged.is_cs or merged.is_probe_based:
            return None
        return merged, merge.columns(), symbols


def input_as_columns(
    entry: WeightedFile, release: Release
) -> tuple[SampleProfile, ProfileColumns, set[str]] | None:
    """:func:`merge_as_columns` of one input: its own columns, counts times its weight.
    The columns may repeat a key where the file does (the merge would sum them):
    the caller checks.  ``None`` where :func:`merge_as_columns` would decline."""
    if entry.path == "-":
        return None
    read = _read(entry, release)
    if read is None:
        return None
    profile, cols = read
    if cols is None or profile.is_cs or profile.is_probe_based:
        return None
    if entry.weight != 1:
        if entry.weight * cols.count_sum() >= _BOUND:
            return None
        w = np.uint64(entry.weight)
        cols = replace(
            cols,
            node_total=cols.node_total * w,
            node_head=cols.node_head * w,
            rec_samples=cols.rec_samples * w,
            tgt_count=cols.tgt_count * w,
        )
    merged = SampleProfile(
        format="merged",
        is_preinlined=profile.is_preinlined,
        is_fs=profile.is_fs,
        is_md5=profile.is_md5,
    )
    return merged, cols, set(profile.symbol_list or ())


def _summed(
    inputs: Sequence[WeightedFile], release: Release, processes: int
) -> tuple[_Merge, SampleProfile, set[str]] | None:
    if any(entry.path == "-" for entry in inputs):
        return None  # standard input cannot be read twice
    merge = _Merge(release)
    merged = SampleProfile(format="merged")
    symbols: set[str] = set()
    reads = read_in_order(inputs, partial(_read, release=release), processes)
    with closing(reads):
        if not _add_all(inputs, reads, merge, merged, symbols):
            return None
    return merge, merged, symbols


def _read(entry: WeightedFile, release: Release) -> ColumnRead | None:
    """One input as its format's column reader reads it; None to decline."""
    try:
        view = map_file(entry.path)
    except ProfdataError:
        return None
    return read_sample_columns(view, entry.path, release)


def _add_all(
    inputs: Sequence[WeightedFile],
    reads: Iterable[ColumnRead | None],
    merge: _Merge,
    merged: SampleProfile,
    symbols: set[str],
) -> bool:
    kinds: set[tuple[bool, bool]] = set()
    for entry, read in zip(inputs, reads, strict=True):
        if read is None:
            return False
        profile, cols = read
        kind = (profile.is_cs, profile.is_probe_based)
        if kinds and kind not in kinds:
            return False  # a mix: the readers' static flags decide (see merge_sample)
        kinds.add(kind)
        merged.is_preinlined = static_preinlined_flag(profile, merged.is_preinlined, merge.release)
        merged.is_fs = static_fs_flag(profile, merged.is_fs)
        merged.is_md5 = merged.is_md5 or profile.is_md5
        if cols is not None and not merge.add(profile, cols, entry.weight):
            return False
        if profile.symbol_list is not None:
            symbols.update(profile.symbol_list)
    if kinds:
        merged.is_cs, merged.is_probe_based = kinds.pop()
    return True


__all__ = ["input_as_columns", "merge_as_columns", "merge_columns"]
