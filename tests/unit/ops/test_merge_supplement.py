"""The pieces of ``merge --supplement-instr-with-sample`` (ops/merge_supplement.py).

Whole runs are compared with the real tool in tests/golden/supplement; here
the rules are pinned one at a time: thresholds and decisions on LLVM's own
test inputs (the values its test file states), the static-name map, the
scaling arithmetic at the 64-bit edge, and the hash-table order replays.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from profdata.errors import UnrecognizedFormatError
from profdata.formats.sample_registry import open_sample
from profdata.model.counters import INSTR_MAX_COUNT, U64_MAX
from profdata.model.instr import InstrRecord, ValueData
from profdata.model.kinds import ValueKind
from profdata.model.llvm_containers import densemap_order
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_supplement import (
    DUPLICATE_NAME,
    CounterOverflow,
    SupplementOptions,
    add_static_name,
    load_instr_input,
    scale_record,
    supplement,
    unique_linkage_postfix,
)
from profdata.releases import release

INPUTS = Path(__file__).resolve().parents[2] / "golden" / "supplement" / "inputs"
MIX_INSTR = INPUTS / "mix_instr.proftext"
MIX_SAMPLE = INPUTS / "mix_sample.proftext"


def _counts(writer_functions: dict[str, dict[int, InstrRecord]], name: str) -> list[int]:
    (record,) = writer_functions[name].values()
    return [int(c) for c in record.counts]


def test_thresholds_and_decisions_of_llvms_mix_test() -> None:
    """suppl-instr-with-sample.test MIX3: goo PseudoHot, foo scaled to [1384, 1500, 0, 0, 0]."""
    rel = release(22)
    writer = load_instr_input(WeightedFile(str(MIX_INSTR), 1), rel)
    samples = open_sample(MIX_SAMPLE, rel)
    options = SupplementOptions(rel, min_size_threshold=0, instr_cold_threshold=30)
    result = supplement(writer, samples, options)
    assert result.thresholds.hot_instr == 500  # 1500 == 3 * 500
    assert result.thresholds.cold_instr == 30
    assert sorted(result.adjusted) == ["foo", "goo"]
    assert _counts(writer.functions, "foo") == [1384, 1500, 0, 0, 0]
    assert _counts(writer.functions, "goo") == [U64_MAX, 0, 0]
    assert _counts(writer.functions, "moo") == [3000, 1000, 2000, 500]
    assert result.warnings == []


def test_llvm_14_drops_with_every_counter_and_scales_by_the_hot_threshold() -> None:
    rel = release(14)
    writer = load_instr_input(WeightedFile(str(MIX_INSTR), 1), rel)
    samples = open_sample(MIX_SAMPLE, rel)
    options = SupplementOptions(
        rel, min_size_threshold=0, zero_counter_threshold=0.5, instr_cold_threshold=30
    )
    supplement(writer, samples, options)
    assert _counts(writer.functions, "foo") == [U64_MAX] * 5
    assert _counts(writer.functions, "goo") == [U64_MAX] * 3


def test_the_input_records_are_not_written_into() -> None:
    rel = release(22)
    writer = load_instr_input(WeightedFile(str(MIX_INSTR), 1), rel)
    before = {name: _counts(writer.functions, name) for name in writer.functions}
    (goo,) = writer.functions["goo"].values()
    original = goo.counts
    supplement(writer, open_sample(MIX_SAMPLE, rel), SupplementOptions(rel, min_size_threshold=0))
    assert [int(c) for c in original] == before["goo"]
    assert _counts(writer.functions, "goo") != before["goo"]


def test_an_unreadable_instr_input_raises_with_its_path() -> None:
    bad = INPUTS / "not_a_profile.bin"
    with pytest.raises(UnrecognizedFormatError) as info:
        load_instr_input(WeightedFile(str(bad), 1), release(22))
    assert info.value.headline() == (f"{bad}: unrecognized instrumentation profile encoding format")


# -- static names -------------------------------------------------------------------------
def test_unique_postfix_is_the_md5_of_the_file_in_decimal() -> None:
    """The suffix clang gave ``foo`` of test.c in LLVM's FUnique test input."""
    name = (INPUTS / "semicolon-FUnique.proftext").read_text().split("\n")
    local = next(line for line in name if line.startswith("test.c;"))
    assert local.endswith(unique_linkage_postfix("test.c"))


@pytest.mark.parametrize(
    ("name", "delimiter", "expected"),
    [
        ("a.c;foo", ";", {"foo": "a.c;foo"}),
        ("a.c:foo", ";", {}),
        ("a.c:foo", ":", {"foo": "a.c:foo"}),
        ("DIR/A.CPP;bar", ";", {"bar": "DIR/A.CPP;bar"}),
        ("x.cc;baz", ";", {"baz": "x.cc;baz"}),
        ("xcc;baz", ";", {"baz": "xcc;baz"}),  # "cc" has no dot in LLVM's list
        ("a.c;", ";", {}),
        ("main", ";", {}),
        # .cpp is tried before .c, wherever each occurs
        ("a.c;b.cpp;f", ";", {"f": "a.c;b.cpp;f"}),
        ("a.c;f.__uniq.12", ";", {"f": "a.c;f.__uniq.12"}),  # trimmed: samples have none
    ],
)
def test_static_names(name: str, delimiter: str, expected: dict[str, str]) -> None:
    static: dict[str, str] = {}
    add_static_name(static, name, False, delimiter)
    assert static == expected


def test_static_names_shared_by_two_files_are_duplicates() -> None:
    static: dict[str, str] = {}
    for name in ("a.c;foo", "b.c;foo", "c.c;foo"):
        add_static_name(static, name, False, ";")
    assert static == {"foo": DUPLICATE_NAME}


def test_sample_side_unique_names_map_the_plain_instr_name() -> None:
    static: dict[str, str] = {}
    add_static_name(static, "test.c;_ZL3foom", True, ";")
    assert static == {"_ZL3foom" + unique_linkage_postfix("test.c"): "test.c;_ZL3foom"}
    add_static_name(static, "test.c;_ZL3foom.__uniq.5", True, ";")  # both unique: kept as is
    assert static["_ZL3foom.__uniq.5"] == "test.c;_ZL3foom.__uniq.5"


# -- scaling ------------------------------------------------------------------------------
def _scale_reference(count: int, numerator: int, denominator: int, clamp: bool) -> int:
    value = min(count * numerator, U64_MAX) // denominator
    return min(value, INSTR_MAX_COUNT) if clamp else value


def test_scale_saturates_then_divides_then_clamps() -> None:
    record = InstrRecord("f", 1, np.array([2**62, 10, 0, U64_MAX], dtype=np.uint64))
    numerator = 3 * 2**62
    scaled, overflows = scale_record(record, numerator, 1, clamp=True)
    assert [int(c) for c in scaled.counts] == [INSTR_MAX_COUNT, INSTR_MAX_COUNT, 0, INSTR_MAX_COUNT]
    assert overflows == 3
    scaled, overflows = scale_record(record, numerator, 1, clamp=False)
    assert [int(c) for c in scaled.counts] == [U64_MAX, U64_MAX, 0, U64_MAX]
    assert overflows == 3


def test_scale_also_scales_value_counts() -> None:
    sites = {ValueKind.INDIRECT_CALL_TARGET: [[ValueData(1, 7), ValueData(2, 2**63)]]}
    record = InstrRecord("f", 1, np.array([4, 0], dtype=np.uint64), value_sites=sites)
    scaled, overflows = scale_record(record, 15, 4, clamp=True)
    site = scaled.value_sites[ValueKind.INDIRECT_CALL_TARGET][0]
    assert site == [ValueData(1, 26), ValueData(2, U64_MAX // 4)]
    assert [int(c) for c in scaled.counts] == [15, 0]
    assert overflows == 1
    assert record.value_sites[ValueKind.INDIRECT_CALL_TARGET][0][0] == ValueData(1, 7)


@pytest.mark.property
@given(
    counts=st.lists(st.integers(0, U64_MAX), min_size=1, max_size=20),
    numerator=st.integers(0, U64_MAX),
    denominator=st.integers(1, U64_MAX),
    clamp=st.booleans(),
)
def test_scale_matches_the_integer_arithmetic(
    counts: list[int], numerator: int, denominator: int, clamp: bool
) -> None:
    record = InstrRecord("f", 1, np.array(counts, dtype=np.uint64))
    scaled, overflows = scale_record(record, numerator, denominator, clamp)
    expected = [_scale_reference(c, numerator, denominator, clamp) for c in counts]
    assert [int(c) for c in scaled.counts] == expected
    saturated = sum(
        c * numerator > U64_MAX
        or (clamp and min(c * numerator, U64_MAX) // denominator > INSTR_MAX_COUNT)
        for c in counts
    )
    assert overflows == saturated


def test_overflow_warnings_name_the_function() -> None:
    assert CounterOverflow("f").text() == "counter overflow"


# -- hash-table order ---------------------------------------------------------------------
def test_densemap_order_is_bucket_order_without_collisions() -> None:
    hashes = [63, 5, 17, 0, 40]
    assert [hashes[i] for i in densemap_order(hashes)] == [0, 5, 17, 40, 63]


def test_densemap_collisions_probe_in_insertion_order() -> None:
    # 65 and 1 share bucket 1: the second probes on to 2, and 2 then to 3
    hashes = [65, 1, 2]
    assert densemap_order(hashes) == [0, 1, 2]
    assert densemap_order([2, 1, 65]) == [1, 0, 2]


@pytest.mark.property
@given(st.lists(st.integers(0, 2**32 - 1), unique=True, max_size=200))
def test_densemap_order_is_a_permutation(hashes: list[int]) -> None:
    assert sorted(densemap_order(hashes)) == list(range(len(hashes)))
