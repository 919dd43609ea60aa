"""Laws of ``overlap --sample`` and the compact binary round trip on generated profiles.

* a profile overlapped with itself is identical everywhere: similarity 1,
  every sample overlapping, nothing unique, every hot function and block shared;
* swapping base and test swaps every base/test tally and keeps the shared ones
  (the program similarity up to the order of the floating-point sums);
* a profile written as compact binary reads back as itself with every name
  replaced by the decimal MD5 of the name (all a compact file keeps).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import sample_compact
from profdata.formats.sample_registry import read_sample_bytes
from profdata.model.names import md5_hash
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from profdata.model.sample_summary import summarize_profile
from profdata.ops.overlap_sample import (
    SampleOverlapOptions,
    SampleOverlapResult,
    overlap_sample,
)
from profdata.releases import release

pytestmark = pytest.mark.property

R14, R22 = release(14), release(22)
NAMES = st.sampled_from(["main", "foo", "bar", "baz", "ns::f(int)", "\u00e9t\u00e9", "q"])
LOCS = st.builds(LineLocation, st.integers(0, 6), st.sampled_from([0, 0, 1, 3]))
COUNTS = st.integers(0, 5000)


@st.composite
def function_samples(draw: st.DrawFn, name: str, levels: int, top: bool) -> FunctionSamples:
    fs = FunctionSamples(SampleContext(name), head_samples=draw(COUNTS) if top else 0)
    for loc in draw(st.lists(LOCS, max_size=5, unique=True)):
        record = fs.record_at(loc)
        record.samples = draw(COUNTS)
        record.call_targets = draw(st.dictionaries(NAMES, COUNTS, max_size=2))
    if levels:
        for loc in draw(st.lists(LOCS, max_size=2, unique=True)):
            for callee in draw(st.lists(NAMES, min_size=1, max_size=2, unique=True)):
                inner = draw(function_samples(callee, levels - 1, False))
                fs.function_samples_at(loc)[callee] = inner
    fs.total_samples = sum(r.samples for f in fs.walk() for r in f.body_samples.values())
    return fs


@st.composite
def profiles(draw: st.DrawFn) -> SampleProfile:
    profile = SampleProfile()
    for name in draw(st.lists(NAMES, min_size=1, max_size=5, unique=True)):
        profile.profiles[SampleContext(name)] = draw(function_samples(name, 2, True))
    profile.summary = summarize_profile(profile)
    return profile


def _overlap(base: SampleProfile, test: SampleProfile) -> SampleOverlapResult:
    options = SampleOverlapOptions(release=R22, value_cutoff=0)
    return overlap_sample(base, test, options, base_name="b", test_name="t")


def _has_samples(profile: SampleProfile) -> bool:
    return any(r.samples for fs in profile.profiles.values() for f in fs.walk()
               for r in f.body_samples.values())  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(profiles())
def test_self_overlap_is_full(profile: SampleProfile) -> None:
    result = _overlap(profile, profile)
    if not _has_samples(profile):
        assert result.zero_sum_profiles == ["b", "t"]
        return
    p = result.program
    assert p.similarity == 1.0
    assert p.overlap_sample == p.union_sample == p.base_sample == p.test_sample
    assert p.base_unique_sample == p.test_unique_sample == 0
    assert p.overlap_count == p.union_count == len(profile.profiles)
    assert p.base_unique_count == p.test_unique_count == 0
    for stats in (result.hot_functions, result.hot_blocks):
        assert stats.base_count == stats.test_count == stats.overlap_count == stats.union_count
    assert len(result.functions) == len(profile.profiles)
    assert all(abs(f.similarity - 1.0) < 1e-9 for f in result.functions if f.base_sample)


@settings(max_examples=80, deadline=None)
@given(profiles(), profiles())
def test_swapping_base_and_test_swaps_the_tallies(base: SampleProfile, test: SampleProfile) -> None:
    ab, ba = _overlap(base, test), _overlap(test, base)
    if ab.zero_sum_profiles:
        assert sorted(ab.zero_sum_profiles) == sorted(
            {"b": "t", "t": "b"}[n] for n in ba.zero_sum_profiles
        )
        return
    x, y = ab.program, ba.program
    assert (x.base_sample, x.test_sample) == (y.test_sample, y.base_sample)
    assert (x.base_unique_sample, x.test_unique_sample) == (
        y.test_unique_sample, y.base_unique_sample,
    )  # fmt: skip
    assert (x.base_unique_count, x.test_unique_count) == (y.test_unique_count, y.base_unique_count)
    assert (x.overlap_sample, x.union_sample) == (y.overlap_sample, y.union_sample)
    assert (x.overlap_count, x.union_count) == (y.overlap_count, y.union_count)
    assert abs(x.similarity - y.similarity) < 1e-9
    for s, t in ((ab.hot_functions, ba.hot_functions), (ab.hot_blocks, ba.hot_blocks)):
        assert (s.base_count, s.test_count) == (t.test_count, t.base_count)
        assert (s.overlap_count, s.union_count) == (t.overlap_count, t.union_count)


def _hashed(profile: SampleProfile) -> SampleProfile:
    """``profile`` with every name replaced by its decimal MD5, as a compact file holds it."""

    def rename(fs: FunctionSamples) -> FunctionSamples:
        out = FunctionSamples(
            SampleContext(str(md5_hash(fs.name))), fs.total_samples, fs.head_samples
        )
        for loc, record in fs.body_samples.items():
            target = out.record_at(loc)
            target.samples = record.samples
            target.call_targets = {str(md5_hash(n)): c for n, c in record.call_targets.items()}
        for loc, callees in fs.callsite_samples.items():
            out.callsite_samples[loc] = {str(md5_hash(n)): rename(c) for n, c in callees.items()}
        return out

    renamed = SampleProfile()
    for fs in profile.profiles.values():
        copy = rename(fs)
        renamed.profiles[copy.context] = copy
    return renamed


@settings(max_examples=60, deadline=None)
@given(profiles(), st.sampled_from([14, 16]))
def test_compact_round_trip(profile: SampleProfile, number: int) -> None:
    rel = release(number)
    data = sample_compact.write(profile, rel)
    back = read_sample_bytes(data, "p.compbin", rel)
    assert back.format == "compbinary"
    assert back == _hashed(profile)
    assert back.summary == summarize_profile(
        profile, skip_duplicated=rel.sample_summary_skips_duplicated_into_base
    )
