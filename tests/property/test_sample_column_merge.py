"""``merge --sample`` of ext-binary inputs: the column sums equal the record-by-record merge.

``ops/merge_sample_columns.py`` claims the merged profile is the one
``merge_samples`` builds record by record -- the same numbers and every dict
in the same order (writers and the emulated hash maps read the order).  The
record-by-record merge runs when the inputs are handed in already read, so
both are run on the same files and compared with the order kept, then
written.  Counts are mostly small so the column path takes most examples;
some reach 2**64 - 1, where it must decline and the result is still the
record-by-record one (with its overflow warnings).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from profdata.formats import sample_binary, sample_text
from profdata.formats._binary import ByteReader
from profdata.formats.sample_extbinary_write import ExtBinaryWriteOptions
from profdata.formats.sample_extbinary_write import write as write_extbinary
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
from profdata.ops.merge_sample_columns import merge_columns
from profdata.releases import release

pytestmark = pytest.mark.property

#: few names, so that inputs share functions, callees and call targets
NAMES = st.sampled_from(["main", "foo", "bar", "_Z3bazi", "ns::f(int)", "\u00e9t\u00e9", "q.1"])
COUNTS = st.one_of(st.integers(0, 1000), st.integers(0, 1 << 40))
HUGE = st.one_of(COUNTS, st.just((1 << 64) - 1), st.integers(1 << 62, (1 << 64) - 1))
LOCATIONS = st.builds(
    LineLocation,
    st.one_of(st.integers(0, 6), st.integers(0, 0xFFFF)),
    st.one_of(st.just(0), st.integers(1, 3), st.integers(0, (1 << 32) - 1)),
)


@st.composite
def function_samples(
    draw: st.DrawFn, name: str, levels: int, counts: st.SearchStrategy[int], top: bool = True
) -> FunctionSamples:
    fs = FunctionSamples(SampleContext(name), draw(counts), draw(counts) if top else 0)
    for loc in draw(st.lists(LOCATIONS, max_size=5, unique=True)):
        record = fs.record_at(loc)
        record.samples = draw(counts)
        record.call_targets = draw(st.dictionaries(NAMES, counts, max_size=3))
    if levels:
        for loc in draw(st.lists(LOCATIONS, max_size=2, unique=True)):
            for callee in draw(st.lists(NAMES, min_size=1, max_size=2, unique=True)):
                inlined = draw(function_samples(callee, levels - 1, counts, top=False))
                fs.function_samples_at(loc)[callee] = inlined
    return fs


@st.composite
def profiles(draw: st.DrawFn, counts: st.SearchStrategy[int]) -> SampleProfile:
    profile = SampleProfile()
    for name in draw(st.lists(NAMES, max_size=6, unique=True)):
        profile.profiles[SampleContext(name)] = draw(function_samples(name, 2, counts))
    return profile


FRAMES = st.sampled_from(["main", "foo", "bar", "_Z3bazi"])
FRAME_SITES = st.builds(LineLocation, st.integers(0, 9), st.sampled_from([0, 1, 7]))


@st.composite
def cs_profiles(draw: st.DrawFn, counts: st.SearchStrategy[int], probe: bool) -> SampleProfile:
    """A CS profile (contexts from few frames, so inputs share them); with ``probe``,
    checksums (from a small set, 0 included, so that merges meet equal ones) and
    attributes."""
    profile = SampleProfile(is_cs=True, is_probe_based=probe)
    callers = st.lists(st.tuples(FRAMES, FRAME_SITES), max_size=2)
    for chain in draw(st.lists(st.tuples(callers, FRAMES), max_size=6)):
        frames = [SampleContextFrame(n, loc) for n, loc in chain[0]]
        context = SampleContext.of_frames([*frames, SampleContextFrame(chain[1])])
        if context in profile.profiles:
            continue
        fs = draw(function_samples(context.name, draw(st.integers(0, 1)), counts))
        fs.context = context
        if probe:
            fs.function_hash = draw(st.sampled_from([0, 1, 2]))
            fs.attributes = draw(st.sampled_from([0, 1, 2, 4]))
        profile.profiles[context] = fs
    return profile


def ordered(fs: FunctionSamples) -> tuple[object, ...]:
    """Everything of a profile, every dict as its items in order."""
    return (
        fs.context,
        fs.total_samples,
        fs.head_samples,
        fs.function_hash,
        fs.attributes,
        [(loc, r.samples, list(r.call_targets.items())) for loc, r in fs.body_samples.items()],
        [
            (loc, [(name, ordered(callee)) for name, callee in callees.items()])
            for loc, callees in fs.callsite_samples.items()
        ],
    )


FORMATS = ("extbinary", "md5", "compressed", "binary")


def encode(profile: SampleProfile, kind: str) -> bytes:
    if kind == "binary":
        return sample_binary.write(profile)
    options = ExtBinaryWriteOptions(
        use_md5=kind == "md5", compress_all_sections=kind == "compressed"
    )
    return write_extbinary(profile, options)


def merged_both_ways(
    paths: list[Path], weights: list[int], number: int
) -> tuple[SampleProfile, SampleProfile, bool]:
    rel = release(number)
    inputs = [WeightedFile(str(p), w) for p, w in zip(paths, weights, strict=True)]
    options = SampleMergeOptions(rel)
    columns = merge_samples(inputs, options)
    given_profiles = [read_sample_bytes(p.read_bytes(), str(p), rel) for p in paths]
    records = merge_samples(inputs, options, given_profiles)
    assert [str(d) for d in columns.diagnostics] == [str(d) for d in records.diagnostics]
    took = merge_columns(inputs, rel) is not None
    return columns.profile, records.profile, took


def assert_same(a: SampleProfile, b: SampleProfile) -> None:
    assert [(c, ordered(fs)) for c, fs in a.profiles.items()] == [
        (c, ordered(fs)) for c, fs in b.profiles.items()
    ]
    assert (a.is_md5, a.is_fs, a.is_preinlined, a.is_cs, a.is_probe_based) == (
        b.is_md5, b.is_fs, b.is_preinlined, b.is_cs, b.is_probe_based,
    )  # fmt: skip
    assert sorted(a.symbol_list or ()) == sorted(b.symbol_list or ())
    assert write_extbinary(a) == write_extbinary(b)
    assert sample_text.write(a) == sample_text.write(b)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    inputs=st.lists(
        st.tuples(profiles(COUNTS), st.integers(1, 5), st.sampled_from(FORMATS)),
        min_size=1,
        max_size=4,
    ),
    number=st.sampled_from([14, 16, 19, 22]),
)
def test_column_merge_is_the_record_merge(
    tmp_path: Path, inputs: list[tuple[SampleProfile, int, str]], number: int
) -> None:
    paths = []
    for index, (profile, _, kind) in enumerate(inputs):
        path = tmp_path / f"in{index}.{kind}"
        path.write_bytes(encode(profile, kind))
        paths.append(path)
    columns, records, took = merged_both_ways(paths, [w for _, w, _ in inputs], number)
    assert took  # small counts, plain profiles: the column path merged them
    assert_same(columns, records)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(inputs=st.lists(st.tuples(profiles(HUGE), st.integers(1, 3)), min_size=1, max_size=3))
def test_counts_near_the_limit_give_the_record_merge(
    tmp_path: Path, inputs: list[tuple[SampleProfile, int]]
) -> None:
    paths = []
    for index, (profile, _) in enumerate(inputs):
        path = tmp_path / f"in{index}.extbinary"
        path.write_bytes(write_extbinary(profile))
        paths.append(path)
    columns, records, _ = merged_both_ways(paths, [w for _, w in inputs], 22)
    assert_same(columns, records)


def test_a_saturating_merge_declines_and_warns(tmp_path: Path) -> None:
    fs = FunctionSamples(SampleContext("main"), (1 << 63), 1)
    fs.record_at(LineLocation(1, 0)).samples = 1 << 63
    path = tmp_path / "big.extbinary"
    path.write_bytes(write_extbinary(SampleProfile(profiles={fs.context: fs})))
    inputs = [WeightedFile(str(path), 1), WeightedFile(str(path), 1)]
    assert merge_columns(inputs, release(22)) is None
    result = merge_samples(inputs, SampleMergeOptions(release(22)))
    main = result.profile.profiles[SampleContext("main")]
    assert main.total_samples == (1 << 64) - 1
    assert main.body_samples[LineLocation(1, 0)].samples == (1 << 64) - 1
    assert [d.message for d in result.diagnostics] == ["Counter overflow"]


def test_other_inputs_decline(tmp_path: Path) -> None:
    fs = FunctionSamples(SampleContext("main"), 5, 1)
    profile = SampleProfile(profiles={fs.context: fs})
    ext = tmp_path / "a.extbinary"
    ext.write_bytes(write_extbinary(profile))
    text = tmp_path / "b.txt"
    text.write_bytes(sample_text.write(profile))
    rel = release(22)
    assert merge_columns([WeightedFile(str(ext), 2)], rel) is not None
    assert merge_columns([WeightedFile(str(ext), 1), WeightedFile(str(text), 1)], rel) is not None
    probed_text = tmp_path / "c.txt"
    probed_text.write_bytes(b"main:5:1\n 1: 5\n !CFGChecksum: 7\n")
    assert merge_columns([WeightedFile(str(probed_text), 1)], rel) is None
    assert merge_columns([WeightedFile("-", 1)], rel) is None
    probe = FunctionSamples(SampleContext("main"), 5, 1, function_hash=7)
    probed = tmp_path / "c.extbinary"
    probed.write_bytes(
        write_extbinary(SampleProfile(profiles={probe.context: probe}, is_probe_based=True))
    )
    assert merge_columns([WeightedFile(str(probed), 1)], rel) is None


def bumped(fs: FunctionSamples) -> FunctionSamples:
    """The same profile (same names, so the same name table) with other counts."""
    out = FunctionSamples(fs.context, fs.total_samples + 3, fs.head_samples + 1)
    for loc, record in fs.body_samples.items():
        new = out.record_at(loc)
        new.samples = record.samples * 2 + 1
        new.call_targets = {name: count + 5 for name, count in record.call_targets.items()}
    for loc, callees in fs.callsite_samples.items():
        out.callsite_samples[loc] = {name: bumped(c) for name, c in callees.items()}
    return out


def bumped_profile(profile: SampleProfile) -> SampleProfile:
    return SampleProfile(profiles={c: bumped(fs) for c, fs in profile.profiles.items()})


def twice_in_one_binary(profile: SampleProfile) -> bytes:
    """An SPF_Binary file holding every function of ``profile`` twice (the reader sums
    them): the same functions again with other counts, after the first ones, under
    one name table (the same names give the same table)."""
    first = sample_binary.write(profile)
    second = sample_binary.write(bumped_profile(profile))
    cur = ByteReader(memoryview(second))
    sample_binary.read_magic(cur, sample_binary.SPF_BINARY)
    sample_binary.read_summary(cur)
    names = sample_binary.read_name_table(cur)
    assert names == sample_binary.collect_names(profile.profiles.values())
    return first + second[cur.pos :]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(profile=profiles(COUNTS), weight=st.integers(1, 3))
def test_repeated_profiles_in_one_binary_file(
    tmp_path: Path, profile: SampleProfile, weight: int
) -> None:
    """SPF_Binary files may hold a function twice (the reader merges them): the same
    functions again with other counts, after the first ones, under one name table."""
    path = tmp_path / "twice.binary"
    path.write_bytes(twice_in_one_binary(profile))
    other = tmp_path / "other.binary"
    other.write_bytes(sample_binary.write(bumped_profile(profile)))
    columns, records, took = merged_both_ways([path, other], [weight, 1], 22)
    assert took
    assert_same(columns, records)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    probe=st.booleans(),
    data=st.data(),
    number=st.sampled_from([14, 16, 19, 22]),
    md5=st.booleans(),
)
def test_cs_column_merge_is_the_record_merge(
    tmp_path: Path, probe: bool, data: st.DataObject, number: int, md5: bool
) -> None:
    """CS profiles, probe-based or not: contexts, checksums and attributes as the record
    merge keeps them; a checksum mismatch declines (and the record merge warns)."""
    inputs = data.draw(st.lists(cs_profiles(COUNTS, probe), min_size=1, max_size=4))
    weights = data.draw(st.lists(st.integers(1, 4), min_size=len(inputs), max_size=len(inputs)))
    paths = []
    for index, profile in enumerate(inputs):
        path = tmp_path / f"cs{index}.extbinary"
        path.write_bytes(write_extbinary(profile, ExtBinaryWriteOptions(use_md5=md5)))
        paths.append(path)
    rel = release(number)
    read = [read_sample_bytes(p.read_bytes(), str(p), rel) for p in paths]
    kinds = {(p.is_cs, p.is_probe_based) for p in read}
    if len(kinds) > 1:  # a profile without functions is written without the probe flag
        event("inputs of different kinds")
        entries = [WeightedFile(str(p), w) for p, w in zip(paths, weights, strict=True)]
        assert merge_columns(entries, rel) is None
        return
    columns, records, took = merged_both_ways(paths, weights, number)
    mismatch = any("mismatch" in str(d) for d in merge_samples(
        [WeightedFile(str(p), w) for p, w in zip(paths, weights, strict=True)],
        SampleMergeOptions(rel),
        read,
    ).diagnostics)  # fmt: skip
    event("checksum mismatch: declined" if mismatch else "merged as columns")
    assert took != mismatch
    assert_same(columns, records)
