"""``merge --sample`` written from columns is the object writers' output, byte for byte.

``ops/merge_sample.encode_merged_columns`` merges plain profiles as columns
(one input as its own columns) and writes text, binary or ext-binary with
``formats/sample_column_write``; the claim is that it writes the bytes
``encode_sample`` writes for the profile ``merge_samples`` builds (every
ext-binary writer option included),
with the same symbol list for the writer's warning, and that it declines
(``None``) what it cannot write that way.  The record-by-record merge runs
when the inputs are handed in already read, so both run on the same files.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from profdata.formats import sample_binary, sample_text
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
from profdata.ops.merge_sample import (
    SampleMergeOptions,
    SampleOutputOptions,
    encode_merged_columns,
    encode_sample,
    merge_samples,
)
from profdata.pieces import joined
from profdata.releases import release
from tests.property.test_sample_column_merge import (
    COUNTS,
    HUGE,
    encode,
    profiles,
    twice_in_one_binary,
)

pytestmark = pytest.mark.property

SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def written_both_ways(
    paths: list[Path],
    weights: list[int],
    number: int,
    out: SampleOutputOptions,
    output_format: str = "text",
) -> tuple[bytes, tuple[str, ...], bytes | None, tuple[str, ...]]:
    """The object path's output and symbol list, and the column path's (None: declined)."""
    rel = release(number)
    inputs = [WeightedFile(str(p), w) for p, w in zip(paths, weights, strict=True)]
    options = SampleMergeOptions(rel)
    by_columns = encode_merged_columns(inputs, options, output_format, out)
    given_profiles = [read_sample_bytes(p.read_bytes(), str(p), rel) for p in paths]
    merged = merge_samples(inputs, options, given_profiles).profile
    text = encode_sample(merged, output_format, out, release=rel)
    symbols = tuple(sorted(merged.symbol_list or ()))
    if by_columns is None:
        return text, symbols, None, ()
    return text, symbols, joined([by_columns[0]]), tuple(sorted(by_columns[1].symbol_list or ()))


OUTPUTS = st.one_of(
    st.tuples(st.just("text"), st.builds(SampleOutputOptions, split_layout=st.booleans())),
    st.tuples(st.just("binary"), st.just(SampleOutputOptions())),
    st.tuples(
        st.just("extbinary"),
        st.builds(
            SampleOutputOptions,
            compress_all_sections=st.booleans(),
            use_md5=st.booleans(),
            gen_partial_profile=st.booleans(),
            split_layout=st.booleans(),
        ),
    ),
)


@SETTINGS
@given(
    inputs=st.lists(
        st.tuples(
            profiles(COUNTS), st.integers(1, 5), st.sampled_from(["extbinary", "binary", "text"])
        ),
        min_size=1,
        max_size=4,
    ),
    number=st.sampled_from([14, 16, 19, 22]),
    output=OUTPUTS,
    symbols=st.booleans(),
)
def test_columns_write_what_the_object_writers_write(
    tmp_path: Path,
    inputs: list[tuple[SampleProfile, int, str]],
    number: int,
    output: tuple[str, SampleOutputOptions],
    symbols: bool,
) -> None:
    assume(all(profile.profiles or kind != "text" for profile, _, kind in inputs))  # unreadable
    paths = []
    for index, (profile, _, kind) in enumerate(inputs):
        path = tmp_path / f"in{index}.{kind}"
        if kind == "text":
            path.write_bytes(sample_text.write(profile))
        elif kind == "extbinary" and symbols:
            with_symbols = replace(profile, symbol_list=("cold", f"sym{index}"))
            path.write_bytes(write_extbinary(with_symbols))
        else:
            path.write_bytes(encode(profile, kind))
        paths.append(path)
    output_format, out = output
    weights = [w for _, w, _ in inputs]
    data, listed, columns_data, columns_listed = written_both_ways(
        paths, weights, number, out, output_format
    )
    event("one input" if len(inputs) == 1 else "merged")
    # small counts, plain profiles: always taken (a text the column reader declines aside)
    assert columns_data is not None or any(kind == "text" for _, _, kind in inputs)
    if columns_data is not None:
        assert columns_data == data
        assert columns_listed == listed


@SETTINGS
@given(inputs=st.lists(st.tuples(profiles(HUGE), st.integers(1, 3)), min_size=1, max_size=3))
def test_counts_near_the_limit(tmp_path: Path, inputs: list[tuple[SampleProfile, int]]) -> None:
    """Sums that may saturate decline (the record merge warns); the rest is the same."""
    paths = []
    for index, (profile, _) in enumerate(inputs):
        path = tmp_path / f"in{index}.extbinary"
        path.write_bytes(write_extbinary(profile))
        paths.append(path)
    text, _, columns_text, _ = written_both_ways(
        paths, [w for _, w in inputs], 22, SampleOutputOptions()
    )
    event("declined" if columns_text is None else "written from columns")
    assert columns_text is None or columns_text == text


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(profile=profiles(COUNTS), weight=st.integers(1, 3))
def test_one_input_holding_a_function_twice(
    tmp_path: Path, profile: SampleProfile, weight: int
) -> None:
    """A binary file with every function twice: its own columns repeat keys, so the
    merge of the one input sums them."""
    path = tmp_path / "twice.binary"
    path.write_bytes(twice_in_one_binary(profile))
    text, _, columns_text, _ = written_both_ways([path], [weight], 22, SampleOutputOptions())
    assert columns_text == text


def test_symbol_lists_reach_the_warning(tmp_path: Path) -> None:
    fs = FunctionSamples(SampleContext("main"), 5, 1)
    fs.record_at(LineLocation(1, 0)).samples = 5
    profile = SampleProfile(profiles={fs.context: fs}, symbol_list=("main", "cold", "other"))
    paths = []
    for index in range(2):
        path = tmp_path / f"in{index}.extbinary"
        path.write_bytes(write_extbinary(profile, ExtBinaryWriteOptions()))
        paths.append(path)
    for count in (1, 2):
        text, symbols, columns_text, columns_symbols = written_both_ways(
            paths[:count], [1] * count, 22, SampleOutputOptions()
        )
        assert columns_text == text == f"main:{5 * count}:{count}\n 1: {5 * count}\n".encode()
        assert columns_symbols == symbols == ("cold", "main", "other")


@pytest.mark.parametrize("number", [14, 22])
def test_what_needs_objects_declines(tmp_path: Path, number: int) -> None:
    leaf = SampleContext.of_frames(
        [SampleContextFrame("main", LineLocation(1, 0)), SampleContextFrame("f")]
    )
    profile = SampleProfile(profiles={leaf: FunctionSamples(leaf, 3, 1)}, is_cs=True)
    path = tmp_path / "cs.extbinary"
    path.write_bytes(write_extbinary(profile))
    md5 = tmp_path / "md5.extbinary"
    fs = FunctionSamples(SampleContext("main"), 5, 1)
    md5.write_bytes(
        write_extbinary(
            SampleProfile(profiles={fs.context: fs}), ExtBinaryWriteOptions(use_md5=True)
        )
    )
    plain = tmp_path / "plain.binary"
    plain.write_bytes(sample_binary.write(SampleProfile(profiles={fs.context: fs})))
    rel = release(number)
    out = SampleOutputOptions()
    taken = encode_merged_columns(
        [WeightedFile(str(plain), 1)], SampleMergeOptions(rel), "text", out
    )
    assert taken is not None and joined([taken[0]]) == b"main:5:1\n"
    for paths in ([path], [md5], [md5, plain], [path, path]):
        inputs = [WeightedFile(str(p), 1) for p in paths]
        assert encode_merged_columns(inputs, SampleMergeOptions(rel), "text", out) is None
    inputs = [WeightedFile(str(plain), 1)]
    for options, output, fmt in (
        (SampleMergeOptions(rel, remapping={"main": "x"}), out, "text"),
        (SampleMergeOptions(rel, profile_layout="flat"), out, "text"),
        (SampleMergeOptions(rel, trim_cold_context=True), out, "text"),
        (SampleMergeOptions(release(13)), out, "text"),
        (SampleMergeOptions(rel), SampleOutputOptions(size_limit=100), "text"),
        (SampleMergeOptions(rel), out, "compbinary"),
    ):
        assert encode_merged_columns(inputs, options, fmt, output) is None


@pytest.mark.parametrize("number", [14, 16, 19, 22])
@pytest.mark.parametrize("use_md5", [False, True])
def test_release_rules_of_the_extbinary_writer(tmp_path: Path, number: int, use_md5: bool) -> None:
    """A ``.__uniq.`` name flags the name table from its strings, also under ``--use-md5``
    in 14/16 (their MD5 names are strings): the release's writer settings, not defaults
    (the random differential run found the column writer using 22's for 14)."""
    fs = FunctionSamples(SampleContext("f.__uniq.1234"), 9, 2)
    fs.record_at(LineLocation(1, 0)).call_targets = {"g.__uniq.77": 3}
    path = tmp_path / "uniq.extbinary"
    path.write_bytes(write_extbinary(SampleProfile(profiles={fs.context: fs})))
    out = SampleOutputOptions(use_md5=use_md5)
    data, _, columns_data, _ = written_both_ways([path], [1], number, out, "extbinary")
    assert columns_data == data
