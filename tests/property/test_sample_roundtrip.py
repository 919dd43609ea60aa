"""Round trips of the sample text and binary formats, and merge laws, on generated profiles.

Generated profiles stay inside what each format expresses (``sample-text.md``):
names are non-empty, have no spaces, newlines, ``#`` or ``[`` at the start and
no ``:`` followed by a digit (the text reader anchors call targets on
``:<count>``); a location without discriminator fits 16 bits; CS contexts
have their leaf at location 0 (the leaf location is never written) and no
``:`` in frame names (a frame is split at its first ``:``) nor frame line
offsets of 2**31 or more (read as a signed int); the
binary format holds no checksums, attributes or contexts.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import sample_binary, sample_text
from profdata.formats.sample_registry import read_sample_bytes
from profdata.model.sample import (
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleContextFrame,
    SampleProfile,
)
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import SampleMergeOptions, merge_samples
from profdata.releases import release

pytestmark = pytest.mark.property

R22 = release(22)
U64 = st.integers(min_value=0, max_value=(1 << 64) - 1)
SMALL = st.integers(min_value=0, max_value=1 << 40)
NAMES = st.one_of(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_.$]{0,8}", fullmatch=True),
    st.sampled_from(["ns::f(int)", "_M_construct<char *>", "\u00e9t\u00e9", "a.__uniq.1"]),
)
LOCATIONS = st.one_of(
    st.builds(LineLocation, st.integers(0, 0xFFFF), st.just(0)),
    st.builds(LineLocation, st.integers(0, (1 << 32) - 1), st.integers(1, (1 << 32) - 1)),
)
#: the binary reader checks every body line offset against 16 bits
BINARY_LOCATIONS = st.builds(LineLocation, st.integers(0, 0xFFFF), st.integers(0, (1 << 32) - 1))


@st.composite
def function_samples(
    draw: st.DrawFn,
    context: SampleContext,
    levels: int,
    probe: bool,
    attrs: bool,
    locations: st.SearchStrategy[LineLocation] = LOCATIONS,
    top: bool = True,
) -> FunctionSamples:
    """A profile with ``levels`` more levels of inlinees below it."""
    fs = FunctionSamples(context, draw(U64), draw(U64) if top else 0)
    for loc in draw(st.lists(locations, max_size=4, unique=True)):
        record = fs.record_at(loc)
        record.samples = draw(U64)
        record.call_targets = draw(st.dictionaries(NAMES, U64, max_size=3))
    if levels:
        for loc in draw(st.lists(locations, max_size=2, unique=True)):
            for name in draw(st.lists(NAMES, min_size=1, max_size=2, unique=True)):
                callee = draw(
                    function_samples(
                        SampleContext(name), levels - 1, probe, attrs, locations, top=False
                    )
                )
                fs.function_samples_at(loc)[name] = callee
    if probe:
        fs.function_hash = draw(st.integers(1, (1 << 64) - 1) if top else U64)
    if attrs:
        fs.attributes = draw(st.integers(0, 7))
    return fs


#: a context frame is split at its first ':', so frame names cannot hold one
FRAME_NAMES = NAMES.filter(lambda n: ":" not in n)
#: a frame's line offset is read as a signed int: 2**31 and above read back as 0
FRAME_LOCATIONS = st.builds(
    LineLocation, st.integers(0, (1 << 31) - 1), st.integers(0, (1 << 32) - 1)
)


@st.composite
def contexts(draw: st.DrawFn) -> SampleContext:
    callers = draw(st.lists(st.tuples(FRAME_NAMES, FRAME_LOCATIONS), max_size=3))
    frames = [SampleContextFrame(n, loc) for n, loc in callers]
    frames.append(SampleContextFrame(draw(FRAME_NAMES)))
    return SampleContext.of_frames(frames)


@st.composite
def profiles(
    draw: st.DrawFn, *, cs: bool = False, probe: bool = False, binary: bool = False
) -> SampleProfile:
    profile = SampleProfile(is_cs=cs, is_probe_based=probe)
    keys = draw(st.lists(contexts() if cs else NAMES.map(SampleContext), max_size=5, unique=True))
    locations = BINARY_LOCATIONS if binary else LOCATIONS
    for key in keys:
        levels = 0 if cs else 2
        fs = draw(function_samples(key, levels, probe, probe or cs, locations))
        profile.profiles[key] = fs
    profile.is_preinlined = any(
        fs.attributes & 2 for p in profile.profiles.values() for fs in p.walk()
    )
    return profile


def reread_text(profile: SampleProfile) -> tuple[bytes, SampleProfile]:
    data = sample_text.write(profile)
    return data, read_sample_bytes(data, "p.txt", R22)


@settings(max_examples=60, deadline=None)
@given(profiles())
def test_text_roundtrip_flat_and_nested(profile: SampleProfile) -> None:
    if not profile.profiles:
        assert sample_text.write(profile) == b""
        return
    data, back = reread_text(profile)
    assert back.profiles == profile.profiles
    assert sample_text.write(back) == data


@settings(max_examples=40, deadline=None)
@given(st.one_of(profiles(cs=True), profiles(cs=True, probe=True), profiles(probe=True)))
def test_text_roundtrip_cs_and_probe(profile: SampleProfile) -> None:
    if not profile.profiles:
        return
    data, back = reread_text(profile)
    assert back.profiles == profile.profiles
    assert (back.is_cs, back.is_probe_based) == (profile.is_cs, profile.is_probe_based)
    assert back.is_preinlined == profile.is_preinlined
    assert sample_text.write(back) == data


@settings(max_examples=60, deadline=None)
@given(profiles(binary=True))
def test_binary_roundtrip(profile: SampleProfile) -> None:
    data = sample_binary.write(profile)
    back = read_sample_bytes(data, "p.afdo", R22)
    assert back.profiles == profile.profiles
    assert sample_binary.write(back) == data
    assert sample_text.write(back) == sample_text.write(profile)


@settings(max_examples=30, deadline=None)
@given(profiles(), st.integers(1, 1000))
def test_merge_with_weight_equals_repeated_merge(profile: SampleProfile, weight: int) -> None:
    """Merging one input with weight w is merging it w times (saturation included)."""
    once = merge_samples(
        [WeightedFile("w", weight)], SampleMergeOptions(R22), profiles=[profile]
    ).profile
    repeated = merge_samples(
        [WeightedFile("1")] * min(weight, 3), SampleMergeOptions(R22), profiles=[profile] * 3
    ).profile
    if weight <= 3:
        assert once.profiles == repeated.profiles


@settings(max_examples=30, deadline=None)
@given(profiles(), profiles())
def test_merge_totals_commute(a: SampleProfile, b: SampleProfile) -> None:
    ab = merge_samples([WeightedFile("a"), WeightedFile("b")], SampleMergeOptions(R22), [a, b])
    ba = merge_samples([WeightedFile("b"), WeightedFile("a")], SampleMergeOptions(R22), [b, a])
    assert sample_text.write(ab.profile) == sample_text.write(ba.profile)
