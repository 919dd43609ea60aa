"""Hypothesis strategies for instrumentation records and profiles.

The defaults stay inside what every instrumentation format can hold (names
without line breaks or the raw name separator, unique (name, hash) pairs,
distinct values per value site, targets that name a generated function or
vtable, or 0); keyword arguments widen or narrow them for one format's round
trips.  Counts span the whole u64 range, because saturation and byte order
bugs live at the edges.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from profdata.model.instr import InstrProfile, InstrRecord, TemporalTrace, ValueData
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind
from profdata.model.names import md5_hash

U64_MAX = (1 << 64) - 1

#: Characters of generated names: identifiers, C++ mangling and PGO-name punctuation, non-ASCII.
NAME_CHARS = st.characters(
    categories=("Lu", "Ll", "Nd"), include_characters="_.:;$/<>()[]~-+é名", max_codepoint=0x5FFF
)
#: What a raw names section can hold: any text but the separator 0x01, and bytes that are
#: never UTF-8 (as surrogateescape code points, so that decoding gives the same string back).
RAW_NAME_CHARS = st.characters(codec="utf-8", exclude_characters="\x01") | st.sampled_from(
    [chr(0xDC00 + b) for b in (0xC0, 0xC1, *range(0xF5, 0x100))]
)

#: Flag sets real compilers produce (instr-raw.md §3), before the optional extras.
BASE_KINDS = (
    ProfileKind.FRONTEND,
    ProfileKind.IR,
    ProfileKind.IR | ProfileKind.CS,
    ProfileKind.IR | ProfileKind.ENTRY_FIRST,
    ProfileKind.IR | ProfileKind.LOOP_ENTRIES,
)


def names(chars: st.SearchStrategy[str] = NAME_CHARS, max_size: int = 24) -> st.SearchStrategy[str]:
    return st.text(chars, min_size=1, max_size=max_size)


def u64s(max_value: int = U64_MAX) -> st.SearchStrategy[int]:
    """u64 values biased towards both ends of the range."""
    return st.one_of(
        st.integers(0, min(max_value, 1000)),
        st.integers(0, max_value),
        st.integers(max(0, max_value - 1000), max_value),
    )


def counts(
    *, min_size: int = 1, max_size: int = 8, coverage: bool = False
) -> st.SearchStrategy[np.ndarray]:
    """Counter arrays (uint64); ``coverage`` gives 0/1 single-byte-coverage values."""
    values = st.integers(0, 1) if coverage else u64s()
    return st.lists(values, min_size=min_size, max_size=max_size).map(
        lambda xs: np.array(xs, dtype=np.uint64)
    )


def _site(targets: st.SearchStrategy[int], distinct: bool) -> st.SearchStrategy[list[ValueData]]:
    pairs = st.lists(
        st.tuples(targets, u64s()),
        max_size=5,
        unique_by=(lambda p: p[0]) if distinct else None,
    )
    return pairs.map(lambda ps: [ValueData(v, c) for v, c in ps])


@st.composite
def instr_profiles(
    draw: st.DrawFn,
    *,
    max_records: int = 6,
    name_chars: st.SearchStrategy[str] = NAME_CHARS,
    kinds: Sequence[ProfileKind] = BASE_KINDS,
    single_byte_coverage: bool | None = False,
    temporal: bool | None = False,
    value_kinds: Sequence[ValueKind] = tuple(ValueKind),
    bitmaps: bool = True,
    binary_ids: bool = True,
    vtables: bool = True,
    duplicate_records: bool = False,
    distinct_values: bool = True,
    resolvable_targets: bool = True,
) -> InstrProfile:
    """A whole profile.  ``None`` for a flag means "either"; ``duplicate_records`` allows
    several records with one name and hash (raw files have them; merged formats do not);
    without ``resolvable_targets`` call/vtable targets are arbitrary u64s."""
    kind = draw(st.sampled_from(list(kinds)))
    coverage = draw(st.booleans()) if single_byte_coverage is None else single_byte_coverage
    is_temporal = draw(st.booleans()) if temporal is None else temporal
    if coverage:
        kind |= ProfileKind.SINGLE_BYTE_COVERAGE
    if is_temporal:
        kind |= ProfileKind.TEMPORAL
    function_names = draw(
        st.lists(names(name_chars), min_size=1, max_size=max_records, unique=True)
    )
    vtable_names: list[str] = []
    if vtables and ValueKind.VTABLE_TARGET in value_kinds:
        vtable_names = draw(
            st.lists(names(name_chars), max_size=3, unique=True).map(
                lambda vs: [v for v in vs if v not in function_names]
            )
        )
    function_hashes = [md5_hash(n) for n in function_names]
    vtable_hashes = [md5_hash(n) for n in vtable_names]
    any_u64 = u64s()
    targets = {
        ValueKind.INDIRECT_CALL_TARGET: st.sampled_from([0, *function_hashes])
        if resolvable_targets
        else any_u64,
        ValueKind.MEMOP_SIZE: any_u64,
        ValueKind.VTABLE_TARGET: st.sampled_from([0, *vtable_hashes])
        if resolvable_targets
        else any_u64,
    }
    records: list[InstrRecord] = []
    seen: set[tuple[str, int]] = set()
    for name in function_names:
        copies = draw(st.integers(1, 2)) if duplicate_records else 1
        for _ in range(copies):
            fhash = draw(any_u64)
            if kind & ProfileKind.CS and draw(st.booleans()):
                fhash |= CS_HASH_BIT
            if not duplicate_records and (name, fhash) in seen:
                continue
            seen.add((name, fhash))
            sites: dict[ValueKind, list[list[ValueData]]] = {}
            for vk in value_kinds:
                kind_sites = draw(st.lists(_site(targets[vk], distinct_values), max_size=3))
                if kind_sites:
                    sites[vk] = kind_sites
            bitmap = draw(st.binary(max_size=4)) if bitmaps else b""
            min_counts = 0 if is_temporal else 1
            records.append(
                InstrRecord(
                    name,
                    fhash,
                    draw(counts(min_size=min_counts, coverage=coverage)),
                    bitmap,
                    sites,
                )
            )
    traces: list[TemporalTrace] = []
    if is_temporal:
        order = draw(st.permutations([md5_hash(r.name) for r in records]))
        called = tuple(order[: draw(st.integers(0, len(order)))])
        if called:  # a run that called nothing leaves no trace
            traces.append(TemporalTrace(1, called))
    ids = draw(st.lists(st.binary(min_size=1, max_size=24), max_size=3)) if binary_ids else []
    return InstrProfile(
        kind=kind,
        records=records,
        binary_ids=ids,
        traces=traces,
        trace_stream_size=1 if traces else 0,
        vtable_names=vtable_names,
        symbols={md5_hash(n): n for n in [*function_names, *vtable_names]},
    )
