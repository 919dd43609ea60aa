"""Format-neutral sample (AutoFDO / CSSPGO) profiles: LLVM's ``FunctionSamples``.

One :class:`FunctionSamples` holds what ``SampleProf.h`` holds: total and head
samples, body samples keyed by :class:`LineLocation` (each a
:class:`SampleRecord` with its call targets), inlined callees keyed by
location then callee name, the pseudo-probe checksum, the context attributes
and (LLVM 22) vtable type samples.  A :class:`SampleProfile` is the reader's
``SampleProfileMap`` plus the profile-wide properties every reader and writer
of ``shared/spec/sample-text.md`` and ``sample-binary.md`` agrees on.

Every counter update goes through LLVM's ``SaturatingMultiplyAdd`` and reports
overflow the way LLVM does (:class:`SampleError`), because text readers,
``merge`` and the CS flattening all depend on those exact results.  Names are
``str`` holding the bytes with ``surrogateescape``; every ordering compares the
bytes, as ``StringRef`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum, IntFlag
from operator import itemgetter
from typing import NamedTuple, TypeVar

from profdata.model.names import name_bytes
from profdata.model.summary import ProfileSummary
from profdata.releases import Release

U64 = (1 << 64) - 1
_T = TypeVar("_T")


class SampleError(Enum):
    """``sampleprof_error`` values an update can produce, with LLVM's message."""

    SUCCESS = "Success"
    COUNTER_OVERFLOW = "Counter overflow"
    HASH_MISMATCH = "Function hash mismatch"

    def then(self, other: SampleError) -> SampleError:
        """``MergeResult``/``mergeSampleProfErrors``: the first error is kept."""
        return other if self is SampleError.SUCCESS else self


_SUCCESS = SampleError.SUCCESS
_OVERFLOW = SampleError.COUNTER_OVERFLOW
_HASH_MISMATCH = SampleError.HASH_MISMATCH


def saturating_multiply_add(x: int, weight: int, acc: int) -> tuple[int, bool]:
    """``llvm::SaturatingMultiplyAdd(X, Y, A)`` on u64: ``X*Y + A``, clamped, and overflow."""
    product = x * weight
    if product > U64:
        return U64, True
    total = product + acc
    if total > U64:
        return U64, True
    return total, False


def _add(acc: int, num: int, weight: int) -> tuple[int, SampleError]:
    value, overflowed = saturating_multiply_add(num, weight, acc)
    return value, SampleError.COUNTER_OVERFLOW if overflowed else SampleError.SUCCESS


class ContextAttribute(IntFlag):
    """``ContextAttributeMask``: bits of ``!Attributes``."""

    NONE = 0
    WAS_INLINED = 1  # ContextWasInlined
    SHOULD_BE_INLINED = 2  # ContextShouldBeInlined
    DUPLICATED_INTO_BASE = 4  # ContextDuplicatedIntoBase


class LineLocation(NamedTuple):
    """``LineLocation``: line offset from the function start (or probe id), discriminator."""

    line_offset: int
    discriminator: int = 0

    def __str__(self) -> str:
        if self.discriminator:
            return f"{self.line_offset}.{self.discriminator}"
        return str(self.line_offset)


class SampleContextFrame(NamedTuple):
    """``SampleContextFrame``: a function of a calling context and its call site."""

    function: str
    location: LineLocation = LineLocation(0, 0)

    def to_string(self, with_location: bool) -> str:
        if not with_location:
            return self.function
        return f"{self.function}:{self.location}"


@dataclass(frozen=True, slots=True)
class SampleContext:
    """``SampleContext``: a plain function name, or a CS calling context ending in it.

    A context keeps the leaf frame's location although LLVM never prints it, so
    ``[a:1 @ b]`` and ``[a:1 @ b:2]`` stay two profiles as they do in LLVM.
    """

    name: str
    frames: tuple[SampleContextFrame, ...] = ()

    @classmethod
    def of_frames(cls, frames: Iterable[SampleContextFrame]) -> SampleContext:
        chain = tuple(frames)
        return cls(chain[-1].function if chain else "", chain)

    @property
    def has_context(self) -> bool:
        return bool(self.frames)

    def __str__(self) -> str:
        """``SampleContext::toString``: the name, or frames joined by `` @ `` (leaf bare)."""
        if not self.frames:
            return self.name
        last = len(self.frames) - 1
        return " @ ".join(f.to_string(i != last) for i, f in enumerate(self.frames))


def md5_name_value(name: str) -> int | None:
    """The hash a name of an MD5 profile stands for (held as its decimal string); "" is
    the ``FunctionId()`` of an inlinee only metadata made, hash 0; None for a name that
    holds no hash (a string name a merge brought in)."""
    if not name:
        return 0
    return int(name) if name.isdigit() else None


def name_key(name: str, md5: bool = False) -> tuple[int, bytes | int]:
    """How ``FunctionId`` orders names: bytewise, or by hash value for MD5 profiles;
    an MD5 value sorts before any string (merges may mix the two)."""
    value = md5_name_value(name) if md5 else None
    if value is not None:
        return (0, value)
    return (1, name_bytes(name))


def sorted_by_name(named: Mapping[str, _T], md5: bool = False) -> list[tuple[str, _T]]:
    """Items in ``FunctionId`` order of their names (see :func:`name_key`); ASCII names
    compare as ``str`` since their code points are their bytes."""
    if len(named) < 2:
        return list(named.items())
    if not md5 and all(map(str.isascii, named)):
        return sorted(named.items(), key=itemgetter(0))
    return sorted(named.items(), key=lambda item: name_key(item[0], md5))


def empty_cs_context(context: SampleContext, cs: bool) -> bool:
    """Whether ``context`` of a CS profile (``cs``) is a CS name table entry of no frames,
    which only a damaged file holds.  LLVM keeps such a context a context
    (``hasContext``); a plain profile beside the CS ones (a mixed merge) has a name."""
    return cs and not context.frames and not context.name


def context_key(context: SampleContext, md5: bool = False) -> tuple[object, ...]:
    """``SampleContext::operator<``: plain names before contexts; frames by name then location.

    Tuple comparison gives LLVM's "shorter prefix first" for contexts of which
    one is a prefix of the other.
    """
    if not context.frames:
        return (0, name_key(context.name, md5))
    return (1, tuple((name_key(f.function, md5), f.location) for f in context.frames))


@dataclass(eq=True, slots=True)
class SampleRecord:
    """``SampleRecord``: samples at one location and the call targets seen there."""

    samples: int = 0
    call_targets: dict[str, int] = field(default_factory=dict)

    def add_samples(self, num: int, weight: int = 1) -> SampleError:
        self.samples, result = _add(self.samples, num, weight)
        return result

    def add_called_target(self, name: str, num: int, weight: int = 1) -> SampleError:
        count, result = _add(self.call_targets.get(name, 0), num, weight)
        self.call_targets[name] = count
        return result

    def merge(self, other: SampleRecord, weight: int = 1) -> SampleError:
        overflow = False
        value = self.samples + other.samples * weight
        if value > U64:
            value = U64
            overflow = True
        self.samples = value
        if other.call_targets:
            mine = self.call_targets
            for name, count in other.call_targets.items():
                value = mine.get(name, 0) + count * weight
                if value > U64:
                    value = U64
                    overflow = True
                mine[name] = value
        return SampleError.COUNTER_OVERFLOW if overflow else SampleError.SUCCESS

    def sorted_call_targets(self, md5: bool = False) -> list[tuple[str, int]]:
        """``SortCallTargets``: count descending, then name ascending."""
        if len(self.call_targets) < 2:
            return list(self.call_targets.items())
        return sorted(sorted_by_name(self.call_targets, md5), key=itemgetter(1), reverse=True)


def _merge_body(
    body: dict[LineLocation, SampleRecord], other: dict[LineLocation, SampleRecord], weight: int
) -> bool:
    """``SampleRecord::merge`` of each of ``other``'s records into ``body``, inlined: it runs
    for every body line of every input.  Sums saturate as ``_add``'s; True if one did."""
    limit = U64
    overflow = False
    get = body.get
    for loc, record in other.items():
        into = get(loc)
        targets = record.call_targets
        if into is None:
            samples = record.samples * weight
            if samples > limit:
                samples = limit
                overflow = True
            if not targets:
                body[loc] = SampleRecord(samples, {})
                continue
            if weight == 1:
                targets = dict(targets)
            else:
                targets = {name: count * weight for name, count in targets.items()}
                if max(targets.values()) > limit:
                    targets = {name: min(count, limit) for name, count in targets.items()}
                    overflow = True
            body[loc] = SampleRecord(samples, targets)
            continue
        samples = into.samples + record.samples * weight
        if samples > limit:
            samples = limit
            overflow = True
        into.samples = samples
        if targets:
            mine = into.call_targets
            for name, count in targets.items():
                value = mine.get(name, 0) + count * weight
                if value > limit:
                    value = limit
                    overflow = True
                mine[name] = value
    return overflow


#: callee name -> inlined instance, at one call site (``FunctionSamplesMap``)
FunctionSamplesMap = dict[str, "FunctionSamples"]


@dataclass(eq=True, slots=True)
class FunctionSamples:
    """``FunctionSamples``: one function profile or one inlined instance of a callee."""

    context: SampleContext
    total_samples: int = 0
    head_samples: int = 0
    body_samples: dict[LineLocation, SampleRecord] = field(default_factory=dict)
    callsite_samples: dict[LineLocation, FunctionSamplesMap] = field(default_factory=dict)
    #: pseudo-probe CFG checksum (``FunctionHash``), 0 when not probe-based
    function_hash: int = 0
    #: ``ContextAttributeMask`` bits (held by ``SampleContext`` in LLVM)
    attributes: int = 0
    #: LLVM 22 vtable type samples per call site (``VirtualCallsiteTypeCounts``)
    type_samples: dict[LineLocation, dict[str, int]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """``getFunction()``: the (leaf) function name."""
        return self.context.name

    # -- updates (each returns LLVM's sampleprof_error) -----------------------
    def add_total_samples(self, num: int, weight: int = 1) -> SampleError:
        self.total_samples, result = _add(self.total_samples, num, weight)
        return result

    def add_head_samples(self, num: int, weight: int = 1) -> SampleError:
        self.head_samples, result = _add(self.head_samples, num, weight)
        return result

    def record_at(self, loc: LineLocation) -> SampleRecord:
        record = self.body_samples.get(loc)
        if record is None:
            record = self.body_samples[loc] = SampleRecord()
        return record

    def add_body_samples(self, loc: LineLocation, num: int, weight: int = 1) -> SampleError:
        return self.record_at(loc).add_samples(num, weight)

    def add_called_target_samples(
        self, loc: LineLocation, name: str, num: int, weight: int = 1
    ) -> SampleError:
        return self.record_at(loc).add_called_target(name, num, weight)

    def function_samples_at(self, loc: LineLocation) -> FunctionSamplesMap:
        """``functionSamplesAt``: the callee map at ``loc``, created empty if absent."""
        callees = self.callsite_samples.get(loc)
        if callees is None:
            callees = self.callsite_samples[loc] = {}
        return callees

    def callee_at(self, loc: LineLocation, name: str, *, named: bool = True) -> FunctionSamples:
        """``functionSamplesAt(Loc)[Name]`` with ``setFunction(Name)``; without ``named``
        (``readFuncMetadata``, which never sets it) an inlinee made here has no name."""
        callees = self.function_samples_at(loc)
        callee = callees.get(name)
        if callee is None:
            callee = callees[name] = FunctionSamples(SampleContext(name if named else ""))
        return callee

    def type_samples_at(self, loc: LineLocation) -> dict[str, int]:
        types = self.type_samples.get(loc)
        if types is None:
            types = self.type_samples[loc] = {}
        return types

    def add_type_samples(
        self, loc: LineLocation, types: dict[str, int], weight: int = 1
    ) -> SampleError:
        """``addCallsiteVTableTypeProfAt``: the map at ``loc`` is created even when empty."""
        target = self.type_samples_at(loc)
        result = SampleError.SUCCESS
        for name, count in types.items():
            target[name], step = _add(target.get(name, 0), count, weight)
            result = result.then(step)
        return result

    def merge(self, other: FunctionSamples, weight: int = 1) -> SampleError:
        """``FunctionSamples::merge``: a fresh profile takes the other's context and
        attributes; a checksum mismatch refuses the whole merge."""
        context = self.context
        if not context.name and not context.frames:
            self.context = other.context
            self.attributes = other.attributes
        if not self.function_hash:
            self.function_hash = other.function_hash
        elif self.function_hash != other.function_hash:
            return _HASH_MISMATCH
        total = self.total_samples + other.total_samples * weight
        head = self.head_samples + other.head_samples * weight
        overflow = total > U64 or head > U64
        if overflow:
            total = min(total, U64)
            head = min(head, U64)
        self.total_samples = total
        self.head_samples = head
        if other.body_samples and _merge_body(self.body_samples, other.body_samples, weight):
            overflow = True
        result = _OVERFLOW if overflow else _SUCCESS
        if other.callsite_samples:
            sites = self.callsite_samples
            for loc, callees in other.callsite_samples.items():
                mine_callees = sites.get(loc)
                if mine_callees is None:
                    mine_callees = sites[loc] = {}
                for callee_name, callee in callees.items():
                    target = mine_callees.get(callee_name)
                    if target is None:
                        target = mine_callees[callee_name] = FunctionSamples(SampleContext(""))
                    step = target.merge(callee, weight)
                    if result is _SUCCESS:
                        result = step
        if other.type_samples:
            for loc, types in other.type_samples.items():
                result = result.then(self.add_type_samples(loc, types, weight))
        return result

    # -- queries ---------------------------------------------------------------
    def sorted_callsites(self, md5: bool = False) -> list[tuple[LineLocation, FunctionSamples]]:
        """Callees by location, then callee name (``std::map<std::string, ...>``)."""
        return [
            (loc, callee)
            for loc, callees in sorted(self.callsite_samples.items())
            for _, callee in sorted_by_name(callees, md5)
        ]

    def num_callsites(self) -> int:
        return sum(len(callees) for callees in self.callsite_samples.values())

    def head_samples_estimate(self, profile_is_cs: bool) -> int:
        """``getHeadSamplesEstimate`` (14: ``getEntrySamples``), the hot list's entry column."""
        if profile_is_cs and self.head_samples:
            return self.head_samples
        count = 0
        first_body = min(self.body_samples) if self.body_samples else None
        first_site = min(self.callsite_samples) if self.callsite_samples else None
        if first_body is not None and (first_site is None or first_body < first_site):
            count = self.body_samples[first_body].samples
        elif first_site is not None:
            for callee in self.callsite_samples[first_site].values():
                count += callee.head_samples_estimate(profile_is_cs)
            count &= U64
        return count if count else int(self.total_samples > 0)

    def walk(self, skip: int = 0) -> Iterator[FunctionSamples]:
        """This profile and every inlined instance below it, depth first (callees in map
        order); an inlinee with any of the ``skip`` attribute bits is left out with all
        below it (the summary's ``ContextDuplicatedIntoBase`` rule)."""
        pending = [self]
        while pending:
            fs = pending.pop()
            yield fs
            if fs.callsite_samples:
                below = [
                    callee
                    for callees in fs.callsite_samples.values()
                    for callee in callees.values()
                    if not callee.attributes & skip
                ]
                below.reverse()
                pending += below

    def max_body_sample(self) -> int:
        """The largest body sample of this function and its inlinees (0 if none)."""
        return max((r.samples for fs in self.walk() for r in fs.body_samples.values()), default=0)


@dataclass(eq=False)
class SampleProfile:
    """A reader's ``SampleProfileMap`` and profile-wide properties.

    ``profiles`` keeps reader order (file order for text and binary), which
    is also the order merges visit inputs in.  ``summary`` is what the reader
    reports: stored in binary files, computed after reading text.
    """

    profiles: dict[SampleContext, FunctionSamples] = field(default_factory=dict)
    format: str = "text"
    is_cs: bool = False  # ProfileIsCS
    is_probe_based: bool = False  # ProfileIsProbeBased
    is_preinlined: bool = False  # ProfileIsPreInlined
    is_fs: bool = False  # ProfileIsFS
    is_md5: bool = False  # names are MD5 values printed in decimal
    is_partial: bool = False  # ext-binary SecFlagPartial
    #: an ext-binary profile with a (non-empty) function metadata section, whose reader
    #: sets ``FunctionSamples::ProfileIsProbeBased`` to ``is_probe_based``, false included
    #: (without one the static flag keeps what an earlier input left)
    probe_flag_read: bool = field(default=False, compare=False)
    #: an ext-binary summary section with flag 16 (PreInlined; 14: IsCSNested), which
    #: LLVM 14's reader answers by clearing ``FunctionSamples::ProfileIsCSNested``
    nested_flag_read: bool = field(default=False, compare=False)
    summary: ProfileSummary | None = None
    #: ``ProfileSymbolList`` names (ext-binary); None when the format has no list
    symbol_list: tuple[str, ...] | None = None
    #: the reader's map (13: ``StringMap``, 14+: ``unordered_map``) once keys were erased
    #: from it and others inserted (the cold-context trimmer); its iteration order holds
    #: while it holds exactly these profiles' keys (``sample_map_order``)
    map_table: object = field(default=None, compare=False, repr=False)

    def sorted_profiles(self) -> list[FunctionSamples]:
        """``sortFuncProfiles`` of the whole map, contexts ordered as this profile's names."""
        return sort_func_profiles(self.profiles.values(), self.is_md5)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SampleProfile):
            return NotImplemented
        return (
            self.profiles == other.profiles
            and self.is_cs == other.is_cs
            and self.is_probe_based == other.is_probe_based
            and self.is_preinlined == other.is_preinlined
        )

    __hash__ = None  # type: ignore[assignment]


def md5_function_ids(profile: SampleProfile, release: Release) -> bool:
    """Whether ``profile``'s names are MD5 values that ``release`` treats as ``FunctionId``
    hashes (18+: sorted as numbers, hashed as themselves); before 18 they were decimal
    strings, sorted, hashed and ``--use-md5`` hashed again like any name."""
    return profile.is_md5 and release.sample_md5_function_ids


def as_release_names(profile: SampleProfile, release: Release) -> SampleProfile:
    """``profile`` with ``is_md5`` cleared where ``release`` takes its MD5 names as strings,
    so that every sort and hash downstream follows :func:`md5_function_ids`."""
    if profile.is_md5 and not md5_function_ids(profile, release):
        return replace(profile, is_md5=False)
    return profile


def sort_func_profiles(
    profiles: Iterable[FunctionSamples], md5: bool, string_map: bool = False
) -> list[FunctionSamples]:
    """``sortFuncProfiles``: TotalSamples descending, ties in context order (``md5``: names
    that are MD5 values order as numbers); 13's order with ``string_map``
    (:func:`sort_by_string_map_key`)."""
    if string_map:
        return sort_by_string_map_key(profiles)
    return sorted(profiles, key=lambda fs: (-fs.total_samples, context_key(fs.context, md5)))


def string_map_name(context: SampleContext) -> str:
    """LLVM 13's ``getName`` of a context: its leaf as the text spelled it, a location
    included (``[a:1 @ b:2]`` is a profile of ``b:2``)."""
    if not context.frames:
        return context.name
    leaf = context.frames[-1]
    return leaf.to_string(leaf.location != (0, 0))


def string_map_key(context: SampleContext) -> bytes:
    """LLVM 13's ``getNameWithContext``, the key of its ``StringMap`` of profiles: the name,
    or the context as its text spelled it (callers with their locations, then
    :func:`string_map_name`)."""
    callers = [f.to_string(True) for f in context.frames[:-1]]
    return name_bytes(" @ ".join([*callers, string_map_name(context)]))


def spelled(context: SampleContext, string_map: bool) -> str:
    """How a release prints a profile's context: ``SampleContext::toString`` (the leaf's
    location left out), or 13's key as the text spelled it (``string_map``)."""
    if string_map and context.frames:
        return string_map_key(context).decode("utf-8", "surrogateescape")
    return str(context)


def sort_by_string_map_key(profiles: Iterable[FunctionSamples]) -> list[FunctionSamples]:
    """LLVM 13's ``writeFuncProfiles``: TotalSamples descending, ties by
    :func:`string_map_key` descending (14 turned the ties around, see
    :func:`sort_func_profiles`)."""
    return sorted(
        profiles, key=lambda fs: (fs.total_samples, string_map_key(fs.context)), reverse=True
    )


def flatten_contexts(
    profiles: Iterable[FunctionSamples],
    string_map: bool = False,
    key: Callable[[str], object] | None = None,
) -> list[FunctionSamples]:
    """``ProfileConverter::flattenProfile`` for CS profiles: merge contexts by leaf name
    (13: :func:`string_map_name`), each flat profile named as the first context met.

    ``key`` is what the flat map tells names apart by: from 19 a ``SampleProfileMap``
    holds a name under its ``FunctionId`` hash alone (the caller's
    :func:`~profdata.model.sample_map_order.function_id_hash`), so the leaf of an MD5
    context and the string name it is the MD5 of are one function; before, the name.
    A merge refused for a checksum mismatch leaves that context out, as in LLVM.
    """
    flat: dict[object, FunctionSamples] = {}
    for fs in profiles:
        name = string_map_name(fs.context) if string_map else fs.name
        at = name if key is None else key(name)
        target = flat.get(at)
        if target is None:
            target = flat[at] = FunctionSamples(SampleContext(name))
        target.merge(fs)
    return list(flat.values())
