"""Sample profile layouts: flat, nested, context-sensitive, and cold-context trimming.

``merge --sample`` can change how a profile is laid out before writing it:

* ``--convert-sample-profile-layout=flat`` (LLVM 17+): ``ProfileConverter::flattenProfile``
  -- CS contexts merge by leaf function (:func:`~profdata.model.sample.flatten_contexts`),
  nested inlinees of plain profiles become top-level profiles
  (:func:`flatten_nested`);
* ``--convert-sample-profile-layout=nest`` (17+) and ``--gen-cs-nested-profile``
  (14/16): CS contexts fold into their callers as inlinees (:func:`nest_contexts`,
  ``ProfileConverter::convertCSProfiles``, whose 14/16 form kept the call targets and
  also kept every folded context as a base profile);
* ``--sample-merge-cold-context`` / ``--sample-trim-cold-context``:
  ``SampleContextTrimmer::trimAndMergeColdContextProfiles`` (:func:`trim_cold_contexts`).

The contexts form a trie whose children LLVM keeps in a ``std::map`` keyed by a
call-site hash, so children are visited in that hash order; profiles are
visited in the reader map's order (``sample_map_order``).  Both only matter
when several profiles merge into one, which decides whose attributes survive.
"""

from __future__ import annotations

import copy
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Generic, Protocol, TypeVar

from profdata.model.llvm_containers import stringmap_order
from profdata.model.names import md5_hash, name_bytes
from profdata.model.sample import (
    U64,
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleContextFrame,
    SampleProfile,
    flatten_contexts,
    string_map_key,
    string_map_name,
)
from profdata.model.sample_map_order import (
    K,
    context_hash,
    flat_key,
    hash_map_table,
    profile_map_order,
    string_map_table,
    unordered_map_order,
)
from profdata.model.summary import SummaryThresholds
from profdata.releases import Release

_STD_HASH_SEED = 0xC70F6907
_STD_HASH_MUL = 0xC6A4A7935BD1E995


def std_hash_bytes(data: bytes, seed: int = _STD_HASH_SEED) -> int:
    """libstdc++'s ``std::hash<std::string>`` (``_Hash_bytes``, 64-bit)."""
    mul = _STD_HASH_MUL

    def shift_mix(v: int) -> int:
        return v ^ (v >> 47)

    n = len(data)
    aligned = n & ~7
    h = (seed ^ (n * mul)) & U64
    for (word,) in struct.iter_unpack("<Q", data[:aligned]):
        h ^= (shift_mix((word * mul) & U64) * mul) & U64
        h = (h * mul) & U64
    if n & 7:
        h ^= int.from_bytes(data[aligned:], "little")
        h = (h * mul) & U64
    h = (shift_mix(h) * mul) & U64
    return shift_mix(h)


def call_site_hash(callee: str, loc: LineLocation, md5_names: bool) -> int:
    """``FunctionSamples::getCallSiteHash``: LLVM 17+ MD5 and ``(disc << 32) | line``;
    14/16 ``std::hash<std::string>`` and ``(line << 32) | disc``."""
    if md5_names:
        name_hash = md5_hash(callee)
        loc_id = (loc.discriminator << 32) | loc.line_offset
    else:
        name_hash = std_hash_bytes(name_bytes(callee))
        loc_id = (loc.line_offset << 32) | loc.discriminator
    return (name_hash + (loc_id << 5) + loc_id) & U64


@dataclass
class _FrameNode:
    """``ProfileConverter::FrameNode``."""

    name: str = ""
    samples: FunctionSamples | None = None
    call_site: LineLocation = field(default_factory=lambda: LineLocation(0, 0))
    children: dict[int, _FrameNode] = field(default_factory=dict)

    def child(self, call_site: LineLocation, callee: str, md5_names: bool) -> _FrameNode:
        key = call_site_hash(callee, call_site, md5_names)
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = _FrameNode(callee, None, call_site)
        return node


@dataclass(frozen=True)
class NestOptions:
    """How a release folds contexts (``sample_layout`` module docstring)."""

    md5_names: bool = True  # call-site hashes of 17+
    remove_call_targets: bool = True  # 17+: the callee's call target leaves the caller's body
    merged_base_profiles: bool = False  # 14/16: folded contexts also stay as base profiles
    mark_duplicated: bool = True  # 17+: such copies are marked ContextDuplicatedIntoBase


def nest_contexts(profile: SampleProfile, options: NestOptions) -> SampleProfile:
    """``convertCSProfiles``: a CS profile becomes a nested, context-less one."""
    root = _FrameNode()
    table: dict[SampleContext, FunctionSamples] = {}
    for fs in profile_map_order(profile, options.md5_names):
        table[fs.context] = fs
        node = root
        site = LineLocation(0, 0)
        for frame in fs.context.frames:
            node = node.child(site, frame.function, options.md5_names)
            site = frame.location
        node.samples = fs
    _convert(root, table, options)
    out = _rebuild(profile, table)
    out.is_cs = False
    return out


def _convert(
    node: _FrameNode, table: dict[SampleContext, FunctionSamples], options: NestOptions
) -> None:
    parent = node.samples
    for key in sorted(node.children):
        child_node = node.children[key]
        _convert(child_node, table, options)
        child = child_node.samples
        if child is None:
            continue
        original = child.context
        child.context = SampleContext(original.name)
        site = child_node.call_site
        if parent is not None:
            callees = parent.function_samples_at(site)
            if original.name not in callees:
                callees[original.name] = _copy(child)
            parent.add_total_samples(child.total_samples)
            if options.remove_call_targets:
                removed = _remove_target_and_samples(parent, site, original.name)
                parent.total_samples = max(parent.total_samples - removed, 0)
        if parent is None or options.merged_base_profiles:
            base = table.get(child.context)
            if base is None:
                base = table[child.context] = FunctionSamples(SampleContext(""))
            base.merge(child)
            if parent is not None and options.mark_duplicated:
                parent.function_samples_at(site)[child.name].attributes |= 4
        if table.get(original) is child:
            del table[original]


def _copy(fs: FunctionSamples) -> FunctionSamples:
    return copy.deepcopy(fs)


def _remove_target_and_samples(fs: FunctionSamples, loc: LineLocation, callee: str) -> int:
    """``removeCalledTargetAndBodySample``: the samples actually taken from the body."""
    record = fs.body_samples.get(loc)
    if record is None:
        return 0
    count = record.call_targets.pop(callee, 0)
    removed = min(count, record.samples)
    record.samples -= removed
    if not record.samples:
        del fs.body_samples[loc]
    return removed


def _rebuild(profile: SampleProfile, table: dict[SampleContext, FunctionSamples]) -> SampleProfile:
    out = SampleProfile(
        format=profile.format,
        is_cs=profile.is_cs,
        is_probe_based=profile.is_probe_based,
        is_preinlined=profile.is_preinlined,
        is_fs=profile.is_fs,
        is_md5=profile.is_md5,
        symbol_list=profile.symbol_list,
    )
    out.profiles.update(table)
    return out


def flatten_profile(profile: SampleProfile, md5_frames: bool = True) -> SampleProfile:
    """``ProfileConverter::flattenProfile``: no contexts and no inlinees afterwards."""
    ordered = profile_map_order(profile, md5_frames)
    key = flat_key(profile, md5_frames)
    if profile.is_cs:
        flat = flatten_contexts(ordered, key=key)
    else:
        nested: dict[object, FunctionSamples] = {}
        for fs in ordered:
            flatten_nested(nested, fs, profile.is_md5, key)
        flat = list(nested.values())
    out = _rebuild(profile, {fs.context: fs for fs in flat})
    out.is_cs = False
    return out


def flatten_nested(
    table: dict[object, FunctionSamples],
    fs: FunctionSamples,
    md5: bool = False,
    key: Callable[[str], object] | None = None,
) -> None:
    """``flattenNestedProfile``: inlinees become top-level profiles; call sites keep
    the inlinees' entry samples as body samples and call targets.

    Callees go in LLVM's map order (location, then name): the new total is clamped
    at zero after each callee, so the order decides it.  ``table`` is keyed as
    :func:`~profdata.model.sample.flatten_contexts` keys its map (``key``: from 19
    the ``FunctionId`` hash; None: the context), the first profile met naming each.
    """
    at: object = fs.context if key is None else key(fs.name)
    target = table.get(at)
    if target is None:
        target = table[at] = FunctionSamples(
            fs.context, 0, fs.head_samples, function_hash=fs.function_hash,
            attributes=fs.attributes,
        )  # fmt: skip
        for loc, record in fs.body_samples.items():
            target.record_at(loc).merge(record)
        target.type_samples = copy.deepcopy(fs.type_samples)
    else:
        for loc, record in fs.body_samples.items():
            target.record_at(loc).merge(record)
    total = fs.total_samples
    for loc, callee in fs.sorted_callsites(md5):
        entry = callee.head_samples_estimate(False)
        target.add_body_samples(loc, entry)
        target.add_called_target_samples(loc, callee.name, entry)
        total = total - callee.total_samples if total >= callee.total_samples else 0
        total = (total + entry) & U64  # uint64_t arithmetic: the sum wraps
        flatten_nested(table, callee, md5, key)
    target.add_total_samples(total)
    target.head_samples = target.head_samples_estimate(False)


KeyIn = TypeVar("KeyIn", contravariant=True)


class _MapTable(Protocol[KeyIn]):
    def insert(self, key: KeyIn) -> None: ...
    def erase(self, key: KeyIn) -> None: ...


@dataclass
class _ReaderMap(Generic[K]):
    """The reader's map of profiles as the trimmer erases from and inserts into it: its
    table, how it keys a context, and the order of a fresh map of such keys."""

    table: _MapTable[K]
    key_of: Callable[[SampleContext], K]
    fresh: Callable[[Sequence[K]], list[int]]

    def erase(self, context: SampleContext) -> None:
        self.table.erase(self.key_of(context))

    def insert(self, context: SampleContext) -> None:
        self.table.insert(self.key_of(context))

    def fresh_order(self, contexts: Sequence[SampleContext]) -> list[int]:
        return self.fresh([self.key_of(c) for c in contexts])


def trim_cold_contexts(
    profile: SampleProfile,
    threshold: int,
    *,
    trim: bool,
    merge: bool,
    frame_depth: int = 1,
    md5_frames: bool = True,
    string_map: bool = False,
) -> None:
    """``trimAndMergeColdContextProfiles``: contexts below ``threshold`` total samples
    merge into their last ``frame_depth`` frames (``merge``) or go (``trim``).

    LLVM 13 (``string_map``) walks its ``StringMap``s and merges every cold profile
    into its function's base profile, whatever ``frame_depth`` says (14-16 do that too:
    their callers pass 1).  Which map order the remaining profiles end up in follows
    from the erasures and inserts (``SampleProfile.map_table``)."""
    if (not trim and not merge) or threshold == 0:
        return
    table = profile.profiles
    ordered = profile_map_order(profile, md5_frames, string_map=string_map)
    # the map is erased from and then inserted into, which decides its iteration order
    keyed: _ReaderMap[bytes] | _ReaderMap[int]
    if string_map:
        keyed = _ReaderMap(
            string_map_table(profile), string_map_key, partial(stringmap_order, xxh3=False)
        )
    else:
        by_hash = partial(
            context_hash, md5_frames=md5_frames, md5_names=profile.is_md5, cs=profile.is_cs
        )
        keyed = _ReaderMap(hash_map_table(profile, md5_frames), by_hash, unordered_map_order)
    cold = [fs for fs in ordered if fs.total_samples < threshold]
    merged: dict[SampleContext, FunctionSamples] = {}
    for fs in cold:
        if merge:
            frames = fs.context.frames
            if string_map and frames:
                frames = (SampleContextFrame(string_map_name(fs.context)),)
            elif frame_depth < len(frames):
                frames = frames[len(frames) - frame_depth :]
            key = SampleContext.of_frames(frames) if frames else fs.context
            target = merged.get(key)
            if target is None:
                target = merged[key] = FunctionSamples(key)
            target.merge(fs)
        del table[fs.context]
        keyed.erase(fs.context)
    bases = list(merged.values())  # visited in the merged map's own iteration order
    bases = [bases[i] for i in keyed.fresh_order([fs.context for fs in bases])]
    for fs in bases:
        key = fs.context
        if trim and fs.total_samples < threshold and key not in table:
            continue
        into = table.get(key)
        if into is None:
            into = table[key] = FunctionSamples(SampleContext(""))
            keyed.insert(key)
        into.merge(fs)
    profile.map_table = keyed.table


def cold_count_threshold(
    profile: SampleProfile,
    release: Release,
    thresholds: SummaryThresholds,
    contextless: bool | None = None,
) -> int | None:
    """``getColdCountThreshold`` of ``release``'s summary of ``profile`` (None where LLVM
    aborts: the cutoff is past the last entry); ``contextless``: the option."""
    from profdata.model.sample_summary import release_summary

    return thresholds.cold(release_summary(profile, release, contextless))
