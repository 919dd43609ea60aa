"""``overlap`` by tables against the record-by-record overlap it stands in for.

:mod:`profdata.ops.overlap_tables` must print what the reference path
(``overlap_instr(..., tables=False)``) prints, bit for bit in every double,
or decline.  Pairs are drawn with shared names so records match, mismatch
(another hash, another counter or site count) or are only in the test, with
CS hashes, counts near 2**64 (wrapping sums), pseudo counts, sums below 1,
all value kinds and every ``overlap`` option; and with what must make the
table path decline (a base (name, hash) twice, a FuncHash of 2**64-1, a
value twice in a site).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.counters import U64_MAX
from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind
from profdata.model.record_table import RecordTable
from profdata.ops.overlap import (
    DENSEMAP_EMPTY_KEY,
    OverlapOptions,
    OverlapResult,
    OverlapStats,
    overlap_instr,
    render_text,
)
from profdata.ops.overlap_tables import overlap_tables
from profdata.releases import release

pytestmark = pytest.mark.property

NAMES = ["a", "b", "c", "main", "f;g"]
HASHES = [0, 1, 7, CS_HASH_BIT | 5, 2**63]
COUNTS = st.one_of(st.integers(0, 3), st.integers(0, 1 << 40), st.integers(U64_MAX - 5, U64_MAX))


@st.composite
def _site(draw: st.DrawFn, distinct: bool) -> list[ValueData]:
    values = st.sampled_from([0, 1, 8, 16, 2**63, 99])
    pairs = draw(
        st.lists(
            st.tuples(values, COUNTS), max_size=4, unique_by=(lambda p: p[0]) if distinct else None
        )
    )
    return [ValueData(v, c) for v, c in pairs]


@st.composite
def _record(draw: st.DrawFn, name: str, fhash: int, distinct: bool) -> InstrRecord:
    width = draw(st.integers(0, 4))
    counts = np.array(draw(st.lists(COUNTS, min_size=width, max_size=width)), dtype=np.uint64)
    sites = {}
    for kind in ValueKind:
        n = draw(st.integers(0, 2))
        if n:
            sites[kind] = [draw(_site(distinct)) for _ in range(n)]
    return InstrRecord(name, fhash, counts, b"", sites)


@st.composite
def _profile(draw: st.DrawFn, kind: ProfileKind, awkward: bool) -> InstrProfile:
    keys = draw(
        st.lists(
            st.tuples(st.sampled_from(NAMES), st.sampled_from([*HASHES, DENSEMAP_EMPTY_KEY])),
            max_size=8,
            unique=not awkward,
        )
    )
    if not awkward:
        keys = [(n, h) for n, h in keys if h != DENSEMAP_EMPTY_KEY]
    records = [draw(_record(n, h, distinct=not awkward)) for n, h in keys]
    return InstrProfile(kind=kind, records=records, symbols={})


@st.composite
def pairs(draw: st.DrawFn) -> tuple[InstrProfile, InstrProfile, OverlapOptions]:
    kind = draw(st.sampled_from([ProfileKind.IR, ProfileKind.FRONTEND]))
    awkward = draw(st.booleans())
    base = draw(_profile(kind, awkward))
    test = draw(_profile(kind, draw(st.booleans())))
    recount: bool = draw(st.booleans())
    if base.records and recount:  # records that match: the base's, recounted
        copies = [draw(_record(r.name, r.hash, True)) for r in base.records[:3]]
        same = [dataclasses.replace(r, counts=r.counts[::-1].copy()) for r in base.records[:2]]
        test = dataclasses.replace(test, records=[*test.records, *copies, *same])
    options = OverlapOptions(
        release=release(draw(st.sampled_from([14, 16, 19, 22]))),
        value_cutoff=draw(st.sampled_from([0, 1, 100, U64_MAX])),
        function=draw(st.sampled_from(["", "a", "main"])),
        cs=draw(st.booleans()),
    )
    return base, test, options


def _stats(stats: OverlapStats) -> tuple[object, ...]:
    """Every number of the stats, doubles as their bits."""

    def bits(x: float) -> str:
        return float(x).hex()

    parts: list[object] = [stats.level, stats.func_name, stats.func_hash]
    for part in (stats.base, stats.test, stats.overlap, stats.mismatch, stats.unique):
        parts.append((part.num_entries, bits(part.count_sum), [bits(v) for v in part.value_counts]))
    return tuple(parts)


def _same(a: OverlapResult, b: OverlapResult) -> None:
    assert a.zero_sum_profile == b.zero_sum_profile
    assert _stats(a.program) == _stats(b.program)
    assert [_stats(f) for f in a.functions] == [_stats(f) for f in b.functions]
    assert [w.function for w in a.warnings] == [w.function for w in b.warnings]
    assert render_text(a) == render_text(b)


@settings(max_examples=400, deadline=None)
@given(pairs())
def test_overlap_by_tables_is_the_record_by_record_overlap(
    case: tuple[InstrProfile, InstrProfile, OverlapOptions],
) -> None:
    base, test, options = case
    _same(overlap_instr(base, test, options), overlap_instr(base, test, options, tables=False))


@settings(max_examples=200, deadline=None)
@given(pairs())
def test_the_table_path_declines_only_what_the_reference_must_decide(
    case: tuple[InstrProfile, InstrProfile, OverlapOptions],
) -> None:
    base, test, options = case
    reference = overlap_instr(base, test, options, tables=False)
    result = OverlapResult(
        "base",
        "test",
        options.release,
        OverlapStats.new(reference.program.level, options.release.max_value_kind + 1),
    )
    taken = overlap_tables(
        RecordTable.of(base.records), RecordTable.of(test.records), base.kind.is_ir,
        test.kind.is_ir, options, result,
    )  # fmt: skip
    keys = [(r.name, r.hash) for r in base.records]
    twice = len(set(keys)) < len(keys)
    empty_key = any(r.hash == DENSEMAP_EMPTY_KEY for r in base.records)
    repeated_value = any(  # in a site of a kind the release knows (it skips the others)
        len({v.value for v in site}) < len(site)
        for r in [*base.records, *test.records]
        for kind, sites in r.value_sites.items()
        if kind <= options.release.max_value_kind
        for site in sites
    )
    assert taken == (not (twice or empty_key or repeated_value))
