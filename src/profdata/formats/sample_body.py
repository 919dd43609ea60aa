"""Function profiles of the binary sample formats over pre-decoded ULEB128 runs.

``SampleProfileReaderBinary::readProfile`` and ``SampleProfileWriterBinary::
writeBody`` (``sample-binary.md`` §3) are a ULEB128 number per field, about
one byte each, so calling the bounds-checked cursor per field dominated
``show`` and ``merge`` of binary and ext-binary profiles.  Here a reader
decodes the whole run of profiles with :func:`decode_run` and walks the list
of ints, and a writer collects ints and encodes them in one pass.

The walk mirrors :func:`profdata.formats.sample_binary.read_body` field for
field, including LLVM 14-19's return in the middle of a record after an
illegal line offset (the numbers stay aligned, so the walk goes on from the
next one).  It does not report faults: when a count is too wide, an index is
outside its table, a number is cut off or too wide, or bytes are left over,
:func:`read_profiles` answers ``False`` and the caller reads the input again
through the checked cursor, which raises the located error LLVM's reader
would report.  Each of those cases is an error there, so a profile is never
half read by one path and finished by the other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set

from profdata.formats._uleb import UlebRun, encode_run
from profdata.model.sample import (
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleRecord,
    name_key,
)
from profdata.releases import Release

U32 = 0xFFFFFFFF
U64 = (1 << 64) - 1
_new_tuple = tuple.__new__


class _Walk:
    """The state one run's walk shares between nesting levels."""

    __slots__ = (
        "illegal_offset_error", "locations", "name_contexts", "names", "values", "vtables",
    )  # fmt: skip

    def __init__(self, run: UlebRun, names: list[str], release: Release, vtables: bool) -> None:
        self.values = run.values
        self.names = names
        self.name_contexts: list[SampleContext | None] = [None] * len(names)
        self.illegal_offset_error = release.sample_binary_illegal_offset_error
        self.vtables = vtables
        #: one LineLocation per (offset, discriminator), shared by every record
        self.locations: dict[int, LineLocation] = {}

    def context(self, index: int) -> SampleContext:
        """The plain context of name ``index`` (IndexError outside the table)."""
        contexts = self.name_contexts
        context = contexts[index]
        if context is None:
            context = contexts[index] = SampleContext(self.names[index])
        return context

    def body(self, i: int, fs: FunctionSamples) -> int:
        """``readProfile`` from number ``i``; the number after it, or -1 to re-read checked."""
        values = self.values
        names = self.names
        locations = self.locations
        total = fs.total_samples + values[i]
        fs.total_samples = total if total <= U64 else U64
        num_records = values[i + 1]
        i += 2
        if num_records > U32:
            return -1
        body = fs.body_samples
        for _ in range(num_records):
            offset = values[i]
            if offset > 0xFFFF:
                if self.illegal_offset_error:
                    return -1
                return i + 1
            disc = values[i + 1] & U32
            samples = values[i + 2]
            num_calls = values[i + 3]
            i += 4
            targets: dict[str, int] = {}
            if num_calls:
                if num_calls > U32:
                    return -1
                for _ in range(num_calls):
                    target = names[values[i]]
                    count = values[i + 1]
                    i += 2
                    if target in targets:
                        count = min(U64, targets[target] + count)
                    targets[target] = count
            key = disc << 16 | offset
            loc = locations.get(key)
            if loc is None:
                loc = locations[key] = _new_tuple(LineLocation, (offset, disc))
            record = body.get(loc)
            if record is None:
                body[loc] = SampleRecord(samples, targets)
            else:
                record.merge(SampleRecord(samples, targets))
        num_callsites = values[i]
        i += 1
        if num_callsites > U32:
            return -1
        if num_callsites:
            sites = fs.callsite_samples
            for _ in range(num_callsites):
                loc = LineLocation(values[i] & U32, values[i + 1] & U32)
                context = self.context(values[i + 2])
                i += 3
                callees = sites.get(loc)
                if callees is None:
                    callees = sites[loc] = {}
                callee = callees.get(context.name)
                if callee is None:
                    callee = callees[context.name] = FunctionSamples(context)
                i = self.body(i, callee)
                if i < 0:
                    return -1
        if self.vtables:
            return self.vtable_profile(i, fs)
        return i

    def vtable_profile(self, i: int, fs: FunctionSamples) -> int:
        """``readCallsiteVTableProf`` (LLVM 22) after each level's callees."""
        values = self.values
        names = self.names
        num_sites = values[i]
        i += 1
        if num_sites > U32:
            return -1
        for _ in range(num_sites):
            offset = values[i]
            if offset > 0xFFFF:
                return -1
            types = fs.type_samples_at(LineLocation(offset, values[i + 1] & U32))
            num_types = values[i + 2]
            i += 3
            if num_types > U32:
                return -1
            for _ in range(num_types):
                types[names[values[i]]] = values[i + 1]
                i += 2
        return i


def read_profiles(
    run: UlebRun,
    end: int,
    names: list[str],
    release: Release,
    profiles: dict[SampleContext, FunctionSamples],
    *,
    contexts: Sequence[SampleContext] | None = None,
    merge_duplicates: bool = True,
    vtables: bool = False,
) -> bool:
    """``readFuncProfile`` until ``end``: head samples, context, body; ``False`` when the
    checked cursor must read the run again (it will fail there).

    ``contexts`` is the CS name table when function contexts index it; otherwise
    they index ``names``.  ``merge_duplicates=False`` lets a repeated context
    replace the profile read before (``Release.sample_binary_duplicates_merge``).
    """
    walk = _Walk(run, names, release, vtables)
    values = run.values
    count = len(values)
    i = 0
    try:
        while i < count:
            head = values[i]
            index = values[i + 1]
            context = contexts[index] if contexts is not None else walk.context(index)
            i += 2
            fs = profiles.get(context)
            if fs is None or not merge_duplicates:
                fs = profiles[context] = FunctionSamples(context)
            head += fs.head_samples
            fs.head_samples = head if head <= U64 else U64
            i = walk.body(i, fs)
            if i < 0:
                return False
    except IndexError:  # a number or a table entry the checked cursor will find missing
        return False
    return run.end == end


class _SpanCheck:
    """:func:`function_spans`' check of one function's body, its inlinees' and (with
    ``vtables``) its vtable profile; the number after them, or ``-1`` on a fault.

    A class, not recursive closures: a closure that calls itself is a
    reference cycle, which keeps what it captured until the cycle collector
    runs (a sample merge pauses it).
    """

    def __init__(self, values: list[int], num_names: int, vtables: bool) -> None:
        self.values = values
        self.num_names = num_names
        self.vtables = vtables

    def body(self, i: int) -> int:
        values, count, num_names = self.values, len(self.values), self.num_names
        num_records = values[i + 1]
        i += 2
        if num_records > U32:
            return -1
        for _ in range(num_records):
            if values[i] > 0xFFFF:
                return -1
            num_calls = values[i + 3]
            i += 4
            if num_calls:
                stop = i + 2 * num_calls
                if num_calls > U32 or stop > count or max(values[i:stop:2]) >= num_names:
                    return -1
                i = stop
        num_callsites = values[i]
        i += 1
        if num_callsites:
            if num_callsites > U32:
                return -1
            for _ in range(num_callsites):
                if values[i + 2] >= num_names:
                    return -1
                i = self.body(i + 3)
                if i < 0:
                    return -1
        return self.vtable_profile(i) if self.vtables else i

    def vtable_profile(self, i: int) -> int:
        values, count, num_names = self.values, len(self.values), self.num_names
        num_sites = values[i]
        i += 1
        if num_sites > U32:
            return -1
        for _ in range(num_sites):
            num_types = values[i + 2]
            if values[i] > 0xFFFF or num_types > U32:
                return -1
            i += 3
            if num_types:
                stop = i + 2 * num_types
                if stop > count or max(values[i:stop:2]) >= num_names:
                    return -1
                i = stop
        return i


def function_spans(
    run: UlebRun,
    end: int,
    num_names: int,
    num_contexts: int,
    wanted: Set[int],
    vtables: bool = False,
) -> list[tuple[int, int]] | None:
    """Where the functions whose context index is in ``wanted`` lie in ``run`` (number
    ranges, in file order), after checking every function as :func:`read_profiles`
    would read it but without building any; ``None`` when that read could fault or
    take an unusual turn (a line offset past 16 bits, which LLVM 14-19 read on from).

    ``num_contexts`` is the size of the table function contexts index (the CS
    name table or the name table).
    """
    values = run.values
    count = len(values)
    checker = _SpanCheck(values, num_names, vtables)

    spans: list[tuple[int, int]] = []
    i = 0
    try:
        while i < count:
            start = i
            context = values[i + 1]
            if context >= num_contexts:
                return None
            i = checker.body(i + 2)
            if i < 0:
                return None
            if context in wanted:
                spans.append((start, i))
    except (IndexError, RecursionError):  # the full read finds what is missing
        return None
    return spans if run.end == end else None


# -- writing -------------------------------------------------------------------
def name_ranks(index: dict[str, int], md5: bool) -> dict[str, int]:
    """A number per name ordered as :func:`name_key` orders them, equal for equal keys.

    ``index`` lists the names sorted by that key (``stablizeNameTable``); with
    MD5 names two spellings of one value ("01", "1") share a key.
    """
    if not md5:
        return index
    ranks: dict[str, int] = {}
    previous: tuple[int, bytes | int] | None = None
    rank = 0
    for i, name in enumerate(index):
        key = name_key(name, md5)
        if key != previous:
            rank = i
            previous = key
        ranks[name] = rank
    return ranks


class BodyEncoder:
    """``writeBody`` into a list of ints, for one :func:`encode_run` at the end.

    ``head`` gives the number that names a profile (its name index, or for
    ext-binary its context index) at every nesting level.
    """

    __slots__ = ("head", "index", "md5", "ranks", "values", "vtables")

    def __init__(
        self,
        index: dict[str, int],
        md5: bool,
        head: Callable[[FunctionSamples], int],
        vtables: bool = False,
    ) -> None:
        self.index = index
        self.md5 = md5
        self.ranks = name_ranks(index, md5)
        self.head = head
        self.values: list[int] = []
        #: ``WriteVTableProf`` (LLVM 22's ext-binary writer with
        #: ``--extbinary-write-vtable-type-prof``): each level ends in its type samples
        self.vtables = vtables

    def profiles(self, profiles: Sequence[FunctionSamples]) -> tuple[bytes, list[int]]:
        """``writeFuncProfiles``'s loop: head samples and body of each profile in turn;
        the bytes and where each profile starts in them."""
        values = self.values
        firsts: list[int] = []
        for fs in profiles:
            firsts.append(len(values))
            values.append(fs.head_samples)
            self.body(fs)
        data, starts = encode_run(values)
        self.values = []
        offsets: list[int] = starts[firsts].tolist()
        return data, offsets

    def body(self, fs: FunctionSamples) -> None:
        """Name, samples, body records (``SortCallTargets`` order), callees (recursively)."""
        values = self.values
        append = values.append
        extend = values.extend
        index = self.index
        ranks = self.ranks
        body = fs.body_samples
        extend((self.head(fs), fs.total_samples, len(body)))
        for loc in sorted(body):
            record = body[loc]
            targets = record.call_targets
            extend(loc)
            extend((record.samples, len(targets)))
            if not targets:
                continue
            if len(targets) == 1:
                for target, count in targets.items():
                    extend((index[target], count))
                continue
            ordered = sorted(targets.items(), key=lambda t: (-t[1], ranks[t[0]]))
            for target, count in ordered:
                extend((index[target], count))
        sites = fs.callsite_samples
        append(sum(len(callees) for callees in sites.values()))
        for loc in sorted(sites):
            callees = sites[loc]
            if len(callees) == 1:
                for callee in callees.values():
                    extend(loc)
                    self.body(callee)
                continue
            for name in sorted(callees, key=lambda n: name_key(n, self.md5)):
                extend(loc)
                self.body(callees[name])
        if self.vtables:
            self.type_samples(fs)

    def type_samples(self, fs: FunctionSamples) -> None:
        """``writeCallsiteVTableProf``: the sites in location order, each site's types in
        ``FunctionId`` order (both ``std::map``s in LLVM)."""
        sites = fs.type_samples
        values = self.values
        values.append(len(sites))
        for loc in sorted(sites):
            types = sites[loc]
            values.extend(loc)
            values.append(len(types))
            for name in sorted(types, key=lambda n: name_key(n, self.md5)):
                values.extend((self.index[name], types[name]))
