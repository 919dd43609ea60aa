"""Algebraic properties of the merge: identity, commutativity, associativity, weights.

Profiles are drawn over a small shared pool of (name, hash) keys with a fixed
number of counters, value sites and bitmap bytes per key, so that merges
really combine records instead of reporting mismatches.  Counter values span
the whole u64 range except pseudo counts in the first counter (their merge
rule keeps whichever record came first, which is not commutative by design).
Value lists are compared as sets: only the order of equal counts may depend on
merge order.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.ops.merge import InstrProfWriter, MergeOptions, merge_instr
from profdata.ops.merge_inputs import WeightedFile
from profdata.releases import release
from profdata.testing.strategies import u64s

pytestmark = pytest.mark.property

U64_MAX = (1 << 64) - 1
INSTR_MAX = U64_MAX - 2
#: (name, hash, counters, memop sites, bitmap bytes) of every key a profile may hold.
KEYS = [("main", 1, 3, 1, 0), ("main", 2, 1, 0, 2), ("foo", 7, 2, 2, 0), ("bar", 9, 4, 0, 1)]
REL = release(22)


@st.composite
def records_for(draw: st.DrawFn, key: tuple[str, int, int, int, int]) -> InstrRecord:
    name, fhash, ncounts, nsites, nbitmap = key
    counts = [draw(u64s(INSTR_MAX))] + [draw(u64s()) for _ in range(ncounts - 1)]
    sites = [
        [
            ValueData(v, draw(u64s()))
            for v in draw(st.lists(st.integers(0, 9), unique=True, max_size=4))
        ]
        for _ in range(nsites)
    ]
    bitmap = draw(st.binary(min_size=nbitmap, max_size=nbitmap))
    value_sites = {ValueKind.MEMOP_SIZE: sites} if sites else {}
    return InstrRecord(name, fhash, np.array(counts, dtype=np.uint64), bitmap, value_sites)


@st.composite
def profiles(draw: st.DrawFn) -> InstrProfile:
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True))
    return InstrProfile(kind=ProfileKind.IR, records=[draw(records_for(k)) for k in keys])


def merged(*inputs: InstrProfile, weights: Sequence[int] = ()) -> InstrProfWriter:
    writer = InstrProfWriter(REL)
    for index, profile in enumerate(inputs):
        weight = weights[index] if index < len(weights) else 1
        assert writer.add_profile(profile, weight) is None
    return writer


def content(writer: InstrProfWriter) -> dict[tuple[str, int], tuple[object, ...]]:
    """What must not depend on merge order: counters, bitmap, value sets per key."""
    return {
        (r.name, r.hash): (
            r.counts.tolist(),
            r.bitmap,
            [sorted(site) for site in r.sites(ValueKind.MEMOP_SIZE)],
        )
        for r in writer.records()
    }


EMPTY = InstrProfile(kind=ProfileKind.IR, records=[])


@given(profiles())
def test_merging_an_empty_profile_changes_nothing(p: InstrProfile) -> None:
    alone = merged(p)
    assert list(merged(p, EMPTY).records()) == list(alone.records())
    assert list(merged(EMPTY, p).records()) == list(alone.records())


@given(profiles(), profiles())
def test_merge_is_commutative(p: InstrProfile, q: InstrProfile) -> None:
    assert content(merged(p, q)) == content(merged(q, p))


@given(profiles(), profiles(), profiles())
def test_merge_is_associative(p: InstrProfile, q: InstrProfile, r: InstrProfile) -> None:
    left = merged(merged(p, q).to_profile(), r)
    right = merged(p, merged(q, r).to_profile())
    assert content(left) == content(right)


@given(profiles(), st.integers(2, 1 << 40))
def test_integer_weights_scale_with_saturation(p: InstrProfile, weight: int) -> None:
    writer = merged(p, weights=[weight])
    scaled_by_key = {(r.name, r.hash): r for r in writer.records()}
    for original in p.records:
        scaled = scaled_by_key[(original.name, original.hash)]
        assert scaled.counts.tolist() == [min(int(c) * weight, INSTR_MAX) for c in original.counts]
        for site, got in zip(
            original.sites(ValueKind.MEMOP_SIZE), scaled.sites(ValueKind.MEMOP_SIZE), strict=True
        ):
            assert sorted(got) == sorted(
                ValueData(v.value, min(v.count * weight, U64_MAX)) for v in site
            )


@given(profiles(), st.integers(2, 6))
def test_a_weight_equals_repeating_the_input(p: InstrProfile, times: int) -> None:
    small = [r for r in p.records if int(r.counts.max(initial=0)) < 1 << 50]
    p = InstrProfile(kind=p.kind, records=small)
    repeated = merged(*[p] * times)
    weighted = merged(p, weights=[times])
    assert {k: v[0] for k, v in content(repeated).items()} == {
        k: v[0] for k, v in content(weighted).items()
    }


@settings(max_examples=30)
@given(st.lists(profiles(), min_size=1, max_size=5), st.integers(0, 4))
def test_input_order_and_split_change_no_counter(inputs: list[InstrProfile], threads: int) -> None:
    def run(order: Sequence[int], num_threads: int) -> InstrProfWriter:
        files = [WeightedFile(str(i)) for i in order]
        options = MergeOptions(release=REL, num_threads=num_threads)
        return merge_instr(files, options, load=lambda path: inputs[int(path)]).writer

    expected = content(run(range(len(inputs)), 1))
    for order in list(permutations(range(len(inputs))))[:6]:
        assert content(run(order, threads)) == expected
