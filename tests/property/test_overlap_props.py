"""Properties of ``overlap`` that follow from LLVM's definition of the scores.

Generated profiles keep LLVM's quirks out of the way where a property would
not hold in LLVM either: one record per name (a base merge would change the
base), no CS bit in the hash (the sums would skip those records but the
scores would not), no FuncHash 2**64-1 (the writer's DenseMap loses it),
distinct values per site, counts small enough that no function's sum wraps
at 2**64, and at least one counted edge per record (LLVM counts a test record
without edge counts as overlapping but never scores its value sites).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.instr import InstrProfile, InstrRecord, ValueData, ValueSite
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.ops.overlap import OverlapOptions, OverlapResult, overlap_instr, render_text
from profdata.releases import release

pytestmark = pytest.mark.property

COUNTS = st.integers(0, 1 << 40)
KINDS = (ProfileKind.FRONTEND, ProfileKind.IR)
OPTIONS = OverlapOptions(release=release(22), value_cutoff=0)


def _site(draw: st.DrawFn, kind: ValueKind) -> ValueSite:
    values = st.integers(0, 40) if kind is ValueKind.MEMOP_SIZE else st.integers(0, (1 << 64) - 1)
    pairs = draw(st.lists(st.tuples(values, COUNTS), max_size=4, unique_by=lambda p: p[0]))
    return [ValueData(v, c) for v, c in pairs]


@st.composite
def shapes(draw: st.DrawFn) -> list[tuple[str, int, int, dict[ValueKind, int]]]:
    """Records as (name, hash, counter count, sites per kind)."""
    names = draw(
        st.lists(st.text("abcdefgh", min_size=1, max_size=4), min_size=1, max_size=8, unique=True)
    )
    return [
        (
            name,
            draw(st.integers(0, (1 << 60) - 1)),
            draw(st.integers(1, 6)),
            {k: draw(st.integers(0, 2)) for k in ValueKind},
        )
        for name in names
    ]


def _fill(
    draw: st.DrawFn, layout: list[tuple[str, int, int, dict[ValueKind, int]]], kind: ProfileKind
) -> InstrProfile:
    records = []
    for name, fhash, width, sites in layout:
        counts = np.array(draw(st.lists(COUNTS, min_size=width, max_size=width)), dtype=np.uint64)
        if not counts.any():
            counts[0] = 1  # a test record without edge counts is skipped before its value sites
        value_sites = {k: [_site(draw, k) for _ in range(n)] for k, n in sites.items() if n}
        records.append(InstrRecord(name, fhash, counts, b"", value_sites))
    return InstrProfile(kind=kind, records=records)


@st.composite
def same_shape_pairs(draw: st.DrawFn) -> tuple[InstrProfile, InstrProfile]:
    """Two profiles with the same records (names, hashes, sizes), counts drawn apart."""
    layout = draw(shapes())
    kind = draw(st.sampled_from(KINDS))
    return _fill(draw, layout, kind), _fill(draw, layout, kind)


@st.composite
def any_pairs(draw: st.DrawFn) -> tuple[InstrProfile, InstrProfile]:
    kind = draw(st.sampled_from(KINDS))
    return _fill(draw, draw(shapes()), kind), _fill(draw, draw(shapes()), kind)


def _overlap(base: InstrProfile, test: InstrProfile) -> OverlapResult:
    return overlap_instr(base, test, OPTIONS)


@settings(max_examples=100, deadline=None)
@given(same_shape_pairs())
def test_a_profile_overlaps_itself_fully(pair: tuple[InstrProfile, InstrProfile]) -> None:
    profile = pair[0]
    result = _overlap(profile, profile)
    assert result.zero_sum_profile is None
    program = result.program
    assert program.mismatch.num_entries == program.unique.num_entries == 0
    assert program.overlap.num_entries == len(profile.records)
    assert math.isclose(program.overlap.count_sum, 1.0, rel_tol=1e-12)
    text = render_text(result)
    percentages = re.findall(r"profile overlap: ([0-9.]+)%", text)
    assert percentages and set(percentages) == {"100.000"}
    assert "mismatch" not in text and "only in test_profile" not in text
    assert [f.func_name for f in result.functions] == [r.name for r in profile.records]


@settings(max_examples=100, deadline=None)
@given(same_shape_pairs())
def test_swapping_base_and_test_swaps_the_sums_and_keeps_the_scores(
    pair: tuple[InstrProfile, InstrProfile],
) -> None:
    p, q = pair
    forward, backward = _overlap(p, q), _overlap(q, p)
    f, b = forward.program, backward.program
    assert (f.base.count_sum, f.test.count_sum) == (b.test.count_sum, b.base.count_sum)
    assert (f.base.value_counts, f.test.value_counts) == (b.test.value_counts, b.base.value_counts)
    assert f.overlap.num_entries == b.overlap.num_entries == len(p.records)
    assert math.isclose(f.overlap.count_sum, b.overlap.count_sum, rel_tol=1e-9, abs_tol=1e-15)
    for mine, theirs in zip(f.overlap.value_counts, b.overlap.value_counts, strict=True):
        assert math.isclose(mine, theirs, rel_tol=1e-9, abs_tol=1e-15)
    ahead = {fn.func_name: fn for fn in forward.functions}
    behind = {fn.func_name: fn for fn in backward.functions}
    assert ahead.keys() == behind.keys() == {rec.name for rec in p.records}
    for name, fn in ahead.items():
        other = behind[name]
        assert (fn.base.count_sum, fn.test.count_sum) == (
            other.test.count_sum,
            other.base.count_sum,
        )
        assert math.isclose(fn.overlap.count_sum, other.overlap.count_sum, rel_tol=1e-9)


@settings(max_examples=100, deadline=None)
@given(any_pairs())
def test_every_test_record_lands_once_and_shares_stay_within_the_whole(
    pair: tuple[InstrProfile, InstrProfile],
) -> None:
    base, test = pair
    result = _overlap(base, test)
    program = result.program
    landed = program.overlap.num_entries + program.mismatch.num_entries
    assert landed + program.unique.num_entries == len(test.records)
    shares = program.overlap.count_sum + program.mismatch.count_sum + program.unique.count_sum
    assert program.overlap.count_sum >= 0.0 and shares <= 1.0 + 1e-12
    for kind in range(3):
        if program.test.value_counts[kind] >= 1.0:
            parts = (program.overlap, program.mismatch, program.unique)
            assert sum(part.value_counts[kind] for part in parts) <= 1.0 + 1e-12
    for func in result.functions:
        assert 0.0 <= func.overlap.count_sum <= 1.0 + 1e-12


@settings(max_examples=100, deadline=None)
@given(same_shape_pairs(), st.integers(2, 1000))
def test_scaling_the_test_profile_keeps_the_edge_overlap(
    pair: tuple[InstrProfile, InstrProfile], factor: int
) -> None:
    base, test = pair
    scaled = InstrProfile(
        kind=test.kind,
        records=[
            InstrRecord(r.name, r.hash, r.counts * np.uint64(factor), b"", r.value_sites)
            for r in test.records
        ],
    )
    plain, bigger = _overlap(base, test).program, _overlap(base, scaled).program
    assert math.isclose(bigger.test.count_sum, plain.test.count_sum * factor, rel_tol=1e-15)
    assert math.isclose(plain.overlap.count_sum, bigger.overlap.count_sum, rel_tol=1e-9)
