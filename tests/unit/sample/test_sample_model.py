"""The sample model: LLVM's saturating counters, merge rules, orderings and summary."""

from __future__ import annotations

from profdata.model.names import name_str
from profdata.model.sample import (
    U64,
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleContextFrame,
    SampleError,
    SampleProfile,
    SampleRecord,
    context_key,
    flatten_contexts,
    saturating_multiply_add,
)
from profdata.model.sample_summary import summarize_profile, summarize_samples


def ctx(*frames: tuple[str, int, int]) -> SampleContext:
    return SampleContext.of_frames(SampleContextFrame(n, LineLocation(o, d)) for n, o, d in frames)


def test_saturating_multiply_add_clamps_and_reports() -> None:
    assert saturating_multiply_add(3, 2, 4) == (10, False)
    assert saturating_multiply_add(U64, 1, 1) == (U64, True)
    assert saturating_multiply_add(1 << 63, 2, 0) == (U64, True)
    assert saturating_multiply_add(U64, 1, 0) == (U64, False)


def test_record_merge_weights_targets_and_keeps_first_error() -> None:
    mine = SampleRecord(5, {"a": 1})
    result = mine.merge(SampleRecord(U64, {"a": 2, "b": 3}), 2)
    assert result is SampleError.COUNTER_OVERFLOW
    assert mine == SampleRecord(U64, {"a": 5, "b": 6})


def test_sorted_call_targets_count_desc_then_bytes() -> None:
    rec = SampleRecord(0, {"b": 2, "a": 2, "\u00e9": 5, name_str(b"\x80"): 5})
    # bytewise: 0x80 < 0xC3 0xA9, although U+DC80 > U+00E9 as code points
    assert rec.sorted_call_targets() == [
        (name_str(b"\x80"), 5),
        ("\u00e9", 5),
        ("a", 2),
        ("b", 2),
    ]


def test_merge_into_fresh_profile_takes_context_attributes_and_hash() -> None:
    other = FunctionSamples(SampleContext("f"), 10, 2, function_hash=7, attributes=3)
    other.add_body_samples(LineLocation(1, 0), 4)
    other.callee_at(LineLocation(2, 1), "g").add_total_samples(6)
    fresh = FunctionSamples(SampleContext(""))
    assert fresh.merge(other, 3) is SampleError.SUCCESS
    assert (fresh.name, fresh.attributes, fresh.function_hash) == ("f", 3, 7)
    assert (fresh.total_samples, fresh.head_samples) == (30, 6)
    assert fresh.body_samples[LineLocation(1, 0)].samples == 12
    assert fresh.callsite_samples[LineLocation(2, 1)]["g"].total_samples == 18


def test_merge_keeps_existing_attributes_and_refuses_other_checksum() -> None:
    mine = FunctionSamples(SampleContext("f"), 1, attributes=0, function_hash=5)
    other = FunctionSamples(SampleContext("f"), 9, attributes=1, function_hash=6)
    assert mine.merge(other) is SampleError.HASH_MISMATCH
    assert mine.total_samples == 1
    other.function_hash = 5
    assert mine.merge(other) is SampleError.SUCCESS
    assert (mine.total_samples, mine.attributes) == (10, 0)


def test_context_order_plain_first_then_frames_prefix_first() -> None:
    keys = [
        ctx(("main", 1, 0), ("foo", 0, 0)),
        SampleContext("zzz"),
        ctx(("main", 0, 0)),
        ctx(("main", 1, 0)),
        ctx(("main", 1, 0), ("foo", 0, 0), ("bar", 0, 0)),
        ctx(("a", 9, 0)),
    ]
    ordered = sorted(keys, key=context_key)
    assert [str(k) for k in ordered] == [
        "zzz",
        "a",
        "main",
        "main",
        "main:1 @ foo",
        "main:1 @ foo:0 @ bar",
    ]
    assert ordered[2].frames[0].location == LineLocation(0, 0)


def test_context_string_omits_leaf_location_and_zero_discriminator() -> None:
    assert str(ctx(("main", 3, 1), ("f", 4, 0), ("leaf", 7, 2))) == "main:3.1 @ f:4 @ leaf"


def test_head_samples_estimate_follows_llvm() -> None:
    fs = FunctionSamples(SampleContext("f"), total_samples=9, head_samples=4)
    assert fs.head_samples_estimate(False) == 1  # no samples at all, total > 0
    assert fs.head_samples_estimate(True) == 4  # CS: head samples win
    fs.add_body_samples(LineLocation(2, 0), 0)
    fs.callee_at(LineLocation(1, 0), "g").add_body_samples(LineLocation(0, 0), 6)
    fs.callee_at(LineLocation(1, 0), "h").add_body_samples(LineLocation(0, 0), 2)
    assert fs.head_samples_estimate(False) == 8  # callsites at 1 precede the body at 2
    fs.add_body_samples(LineLocation(0, 5), 3)
    assert fs.head_samples_estimate(False) == 3


def test_flatten_contexts_merges_by_leaf_and_skips_checksum_mismatch() -> None:
    a = FunctionSamples(ctx(("main", 1, 0), ("f", 0, 0)), 10, 1, function_hash=5)
    a.add_body_samples(LineLocation(1, 0), 4)
    b = FunctionSamples(ctx(("g", 2, 0), ("f", 0, 0)), 20, 2, function_hash=5)
    b.add_body_samples(LineLocation(1, 0), 6)
    c = FunctionSamples(ctx(("h", 3, 0), ("f", 0, 0)), 40, 4, function_hash=9)
    [flat] = flatten_contexts([a, b, c])
    assert flat.name == "f"
    assert (flat.total_samples, flat.head_samples) == (30, 3)
    assert flat.body_samples[LineLocation(1, 0)].samples == 10


def test_summary_counts_inlinees_but_not_duplicated_ones() -> None:
    top = FunctionSamples(SampleContext("main"), 100, 7)
    top.add_body_samples(LineLocation(1, 0), 50)
    inl = top.callee_at(LineLocation(2, 0), "inl")
    inl.add_body_samples(LineLocation(1, 0), 30)
    dup = top.callee_at(LineLocation(3, 0), "dup")
    dup.add_body_samples(LineLocation(1, 0), 99)
    dup.attributes = 4
    summary = summarize_samples([top])
    assert (summary.num_functions, summary.num_counts, summary.total_count) == (1, 2, 80)
    assert (summary.max_count, summary.max_function_count, summary.max_internal_count) == (50, 7, 0)
    legacy = summarize_samples([top], skip_duplicated=False)
    assert (legacy.num_counts, legacy.total_count, legacy.max_count) == (3, 179, 99)
    assert [e.cutoff for e in summary.detailed][:2] == [10000, 100000]


def test_cs_summary_is_context_less() -> None:
    profile = SampleProfile(is_cs=True)
    for frames, head, count in (
        ((("main", 1, 0), ("f", 0, 0)), 5, 10),
        ((("g", 1, 0), ("f", 0, 0)), 6, 10),
        ((("main", 0, 0),), 1, 1),
    ):
        fs = FunctionSamples(ctx(*frames), 0, head)
        fs.add_body_samples(LineLocation(1, 0), count)
        profile.profiles[fs.context] = fs
    summary = summarize_profile(profile)
    # f's two contexts become one function with one block of 20 and head 11
    assert (summary.num_functions, summary.num_counts, summary.max_count) == (2, 2, 20)
    assert summary.max_function_count == 11


def test_sorted_profiles_total_desc_then_context() -> None:
    profile = SampleProfile()
    for name, total in (("b", 5), ("a", 5), ("c", 9), ("ab", 5)):
        profile.profiles[SampleContext(name)] = FunctionSamples(SampleContext(name), total)
    assert [fs.name for fs in profile.sorted_profiles()] == ["c", "a", "ab", "b"]
