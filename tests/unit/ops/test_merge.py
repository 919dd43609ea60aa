"""The merge op: record arithmetic, thread split, temporal reservoir, failure modes.

Expected values come from runs of the real llvm-profdata 14/19/22 on the same
inputs (the command is quoted next to each); the compat tests re-run such
merges against the installed tools, these pin the behaviour without them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest

from profdata.errors import EmptyProfileError, FileError, MergeError, ProfdataError, UsageError
from profdata.formats import text
from profdata.model.instr import InstrProfile, InstrRecord, TemporalTrace, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash
from profdata.ops.merge import (
    KIND_CONFLICT,
    UNSUPPORTED_VERSION,
    ContextWarning,
    Diagnostic,
    InstrProfWriter,
    MergeOptions,
    RecordWarning,
    merge_instr,
)
from profdata.ops.merge_inputs import (
    FailureMode,
    FilterNote,
    InputFailure,
    WeightedFile,
    collect,
    parse_weighted,
    read_input_list,
    read_remapping,
)
from profdata.ops.merge_records import MAX_VALUES_PER_SITE, WarningKind
from profdata.ops.merge_threads import context_count, context_of, merge_schedule
from profdata.ops.merge_traces import MT19937, TraceReservoir, llvm_shuffle, uniform_int
from profdata.releases import release

U64_MAX = (1 << 64) - 1
MEMOP = ValueKind.MEMOP_SIZE


def rec(
    name: str, fhash: int, counts: Sequence[int], **sites: list[list[tuple[int, int]]]
) -> InstrRecord:
    value_sites = {
        ValueKind[kind.upper()]: [[ValueData(v, c) for v, c in site] for site in lst]
        for kind, lst in sites.items()
    }
    return InstrRecord(name, fhash, np.array(counts, dtype=np.uint64), b"", value_sites)


def prof(
    *records: InstrRecord, kind: ProfileKind = ProfileKind.IR, **extra: object
) -> InstrProfile:
    return InstrProfile(kind=kind, records=list(records), **extra)  # type: ignore[arg-type]


def pairs(record: InstrRecord, kind: ValueKind = MEMOP) -> list[list[tuple[int, int]]]:
    return [[(vd.value, vd.count) for vd in site] for site in record.sites(kind)]


def only(writer: InstrProfWriter) -> InstrRecord:
    (record,) = writer.records()
    return record


# `a.proftext`: foo (hash 10) counts 7 3, one memop site 1:10 2:10 3:5
# `b.proftext`: foo (hash 10) counts 1 1, one memop site 3:5 4:7 1:1
A = rec("foo", 10, [7, 3], memop_size=[[(1, 10), (2, 10), (3, 5)]])
B = rec("foo", 10, [1, 1], memop_size=[[(3, 5), (4, 7), (1, 1)]])


# -- record arithmetic ---------------------------------------------------------------
def test_values_only_in_the_incoming_site_are_not_weighted() -> None:
    # llvm-profdata merge --text a.proftext --weighted-input=3,b.proftext (14 and 22)
    writer = InstrProfWriter(release(22))
    writer.add_record(A)
    assert writer.add_record(B, 3) == []
    merged = only(writer)
    assert merged.counts.tolist() == [10, 6]
    assert pairs(merged) == [[(3, 20), (1, 13), (2, 10), (4, 7)]]


def test_a_weighted_first_record_is_scaled_whole() -> None:
    # llvm-profdata merge --text --weighted-input=3,a.proftext b.proftext: b comes first
    writer = InstrProfWriter(release(22))
    writer.add_record(B)
    writer.add_record(A, 3)
    assert pairs(only(writer)) == [[(1, 31), (3, 20), (2, 10), (4, 7)]]
    alone = InstrProfWriter(release(22))
    alone.add_record(A, 3)
    assert pairs(only(alone)) == [[(1, 30), (2, 30), (3, 15)]]


def test_equal_counts_keep_reader_order_until_a_merge_sorts_by_value() -> None:
    writer = InstrProfWriter(release(22))
    writer.add_record(rec("f", 1, [1], memop_size=[[(9, 2), (3, 2), (5, 2)]]))
    assert pairs(only(writer)) == [[(9, 2), (3, 2), (5, 2)]]
    writer.add_record(rec("f", 1, [1], memop_size=[[(7, 2)]]))
    assert pairs(only(writer)) == [[(3, 2), (5, 2), (7, 2), (9, 2)]]


BIG = [U64_MAX - 5, U64_MAX, 5]  # big.proftext


@pytest.mark.parametrize(
    ("number", "expected"),
    [(14, [U64_MAX, U64_MAX, 10]), (16, [U64_MAX - 2] * 2 + [10]), (22, [U64_MAX - 2] * 2 + [10])],
)
def test_counters_saturate_and_clamp_per_release(number: int, expected: list[int]) -> None:
    # llvm-profdata merge --text big.proftext big.proftext / --weighted-input=2,big.proftext
    twice = InstrProfWriter(release(number))
    twice.add_record(rec("foo", 10, BIG))
    assert twice.add_record(rec("foo", 10, BIG)) == [WarningKind.COUNTER_OVERFLOW]
    assert only(twice).counts.tolist() == expected
    weighted = InstrProfWriter(release(number))
    assert weighted.add_record(rec("foo", 10, BIG), 2) == [WarningKind.COUNTER_OVERFLOW]
    assert only(weighted).counts.tolist() == expected


def test_a_first_record_with_weight_one_is_kept_above_the_clamp() -> None:
    writer = InstrProfWriter(release(22))
    assert writer.add_record(rec("foo", 10, BIG)) == []
    assert only(writer).counts.tolist() == BIG


def test_value_counts_saturate_at_u64_max() -> None:
    writer = InstrProfWriter(release(22))
    writer.add_record(rec("f", 1, [1], memop_size=[[(4, U64_MAX - 1)]]))
    problems = writer.add_record(rec("f", 1, [1], memop_size=[[(4, 2)]]))
    assert problems == [WarningKind.COUNTER_OVERFLOW]
    assert pairs(only(writer)) == [[(4, U64_MAX)]]


PSEUDO = [U64_MAX, 5]  # pseudo.proftext (PseudoHot first counter)
PLAIN = [3, 5]  # nonpseudo.proftext


def test_pseudo_counts_merge_only_with_pseudo_counts() -> None:
    # llvm-profdata-16/19/22 merge --text pseudo.proftext nonpseudo.proftext
    writer = InstrProfWriter(release(22))
    writer.add_record(rec("foo", 10, PSEUDO))
    assert writer.add_record(rec("foo", 10, PLAIN)) == [WarningKind.COUNT_MISMATCH]
    assert only(writer).counts.tolist() == PSEUDO
    assert writer.add_record(rec("foo", 10, [U64_MAX - 1, 7])) == []
    assert only(writer).counts.tolist() == PSEUDO


def test_llvm_14_adds_pseudo_counts_like_any_counter() -> None:
    # llvm-profdata-14 merge --text pseudo.proftext nonpseudo.proftext
    writer = InstrProfWriter(release(14))
    writer.add_record(rec("foo", 10, PSEUDO))
    assert writer.add_record(rec("foo", 10, PLAIN)) == [WarningKind.COUNTER_OVERFLOW]
    assert only(writer).counts.tolist() == [U64_MAX, 10]


def test_only_the_first_problem_of_a_record_is_reported() -> None:
    writer = InstrProfWriter(release(22))
    writer.add_record(rec("f", 1, [U64_MAX - 2], memop_size=[[(1, 1)]]))
    problems = writer.add_record(rec("f", 1, [1], memop_size=[[(1, 1)], [(2, 2)]]))
    assert problems == [WarningKind.COUNTER_OVERFLOW, WarningKind.VALUE_SITE_COUNT_MISMATCH]
    assert writer.add_record(rec("f", 1, [1, 2])) == [WarningKind.COUNT_MISMATCH]


def test_bitmaps_are_ored_and_must_have_one_size() -> None:
    writer = InstrProfWriter(release(22))
    first = rec("f", 1, [1])
    first.bitmap = b"\x01\x10"
    writer.add_record(first)
    second = rec("f", 1, [1])
    second.bitmap = b"\x02\x10"
    assert writer.add_record(second) == []
    assert only(writer).bitmap == b"\x03\x10"
    third = rec("f", 1, [1], memop_size=[[(1, 1)]])
    third.bitmap = b"\x04"
    assert writer.add_record(third) == [WarningKind.BITMAP_MISMATCH]
    assert only(writer).bitmap == b"\x03\x10"
    assert only(writer).counts.tolist() == [3]


def test_sites_keep_the_255_largest_values() -> None:
    writer = InstrProfWriter(release(22))
    site = [(v, v) for v in range(300)]
    writer.add_record(rec("f", 1, [1], memop_size=[site]))
    (kept,) = pairs(only(writer))
    assert len(kept) == MAX_VALUES_PER_SITE
    assert kept[0] == (299, 299)
    assert kept[-1] == (45, 45)


def test_densemap_reserved_hashes_are_lost_as_in_llvm() -> None:
    # llvm-profdata merge --text reserved.proftext: foo (tombstone key) silently,
    # bar (empty key) with a counter mismatch; only baz is written
    writer = InstrProfWriter(release(22))
    assert writer.add_record(rec("foo", U64_MAX - 1, [5])) == []
    assert writer.add_record(rec("bar", U64_MAX, [5])) == [WarningKind.COUNT_MISMATCH]
    writer.add_record(rec("baz", 3, [5]))
    assert [r.name for r in writer.records()] == ["baz"]


def test_batched_counters_equal_one_by_one_merges() -> None:
    records = [rec(f"f{i % 5}", i % 3, [i, U64_MAX - i, 7]) for i in range(40)]
    batched = InstrProfWriter(release(22))
    batched_problems = batched.add_records(records, 2)
    single = InstrProfWriter(release(22))
    single_problems = [single.add_record(r, 2) for r in records]
    assert batched_problems == single_problems
    for one, other in zip(batched.records(), single.records(), strict=True):
        assert one == other


# -- flags ------------------------------------------------------------------------------
def test_merge_kind_follows_merge_profile_kind() -> None:
    writer = InstrProfWriter(release(22))
    assert writer.merge_kind(ProfileKind.FRONTEND, False) is None  # still Unknown
    assert writer.merge_kind(ProfileKind.FRONTEND, True) is None  # the first :fe sets it
    assert writer.merge_kind(ProfileKind.FRONTEND, False) == UNSUPPORTED_VERSION
    ir = InstrProfWriter(release(22))
    assert ir.merge_kind(ProfileKind.IR, False) is None
    assert ir.merge_kind(ProfileKind.IR | ProfileKind.CS, False) is None
    assert ir.kind == ProfileKind.IR | ProfileKind.CS
    entry = InstrProfWriter(release(22))
    entry.merge_kind(ProfileKind.IR | ProfileKind.FUNCTION_ENTRY_ONLY, False)
    reason = entry.merge_kind(ProfileKind.IR | ProfileKind.ENTRY_FIRST, False)
    assert reason is not None and "FunctionEntryOnly" in reason


# -- writer contexts ---------------------------------------------------------------------
@pytest.mark.parametrize(("inputs", "contexts"), [(1, 1), (2, 1), (3, 2), (4, 2), (9, 2)])
def test_default_split_is_llvm_formula_for_two_hardware_threads(inputs: int, contexts: int) -> None:
    assert context_count(inputs) == contexts


def test_num_threads_is_taken_as_given() -> None:
    assert context_count(2, 5) == 5
    assert [context_of(i, 3) for i in range(7)] == [0, 1, 2, 0, 1, 2, 0]


@pytest.mark.parametrize(
    ("contexts", "steps"),
    [
        (1, []),
        (2, [(0, 1)]),
        (3, [(0, 1), (0, 2)]),
        (4, [(0, 2), (1, 3), (0, 1)]),
        (5, [(0, 2), (1, 3), (0, 4), (0, 1)]),
        (6, [(0, 3), (1, 4), (2, 5), (0, 1), (0, 2)]),
    ],
)
def test_merge_schedule_replays_the_pairwise_fold(
    contexts: int, steps: list[tuple[int, int]]
) -> None:
    assert merge_schedule(contexts) == steps


@pytest.mark.parametrize("contexts", range(2, 20))
def test_every_context_is_folded_once_and_ends_in_context_zero(contexts: int) -> None:
    steps = merge_schedule(contexts)
    sources = [src for _, src in steps]
    assert sorted(sources) == list(range(1, contexts))
    for position, (_, src) in enumerate(steps):
        assert all(dst != src for dst, _ in steps[position + 1 :])


# -- temporal traces -------------------------------------------------------------------
def test_mt19937_matches_the_standard() -> None:
    rng = MT19937()
    assert [rng() for _ in range(3)] == [3499211612, 581869302, 3890346734]
    rng = MT19937()
    for _ in range(9999):
        rng()
    assert rng() == 4123659995  # [rand.predef]: the 10000th value of default mt19937
    assert MT19937(1)() == 1791095845  # the state is laid out on the first draw, seed kept


def test_uniform_int_stays_in_range_across_the_upscaling_boundary() -> None:
    rng = MT19937()
    for high in (0, 1, 7, (1 << 32) - 2, (1 << 32) - 1, 1 << 32, (1 << 40) + 3, U64_MAX):
        for _ in range(20):
            assert 0 <= uniform_int(rng, 0, high) <= high
    assert uniform_int(rng, 5, 5) == 5


def test_llvm_shuffle_of_one_element_draws_nothing() -> None:
    rng, fresh = MT19937(), MT19937()
    items = [TemporalTrace(1, (1,))]
    llvm_shuffle(items, rng)
    assert rng() == fresh()


def trace(tag: str, weight: int = 1) -> TemporalTrace:
    return TemporalTrace(weight, tuple(md5_hash(c) for c in tag))


T1 = [trace("fb", 5), trace("b", 2), trace("bfbf", 1)]  # t1.proftext, stream size 7


def test_reservoir_of_llvm_19_samples_trace_by_trace() -> None:
    # corpus temporal-phases-l19, reservoir 2: five raw traces keep the 4th and 2nd
    runs = [trace(s) for s in ("p", "q", "r", "s", "t")]
    reservoir = TraceReservoir(reservoir_size=2, fills_first=False)
    for run in runs:
        reservoir.add_traces([run], 1)
    assert reservoir.traces == [runs[3], runs[1]]
    assert reservoir.stream_size == 5


def test_reservoir_of_llvm_22_fills_then_drops_single_traces() -> None:
    # corpus temporal-phases-l22, reservoir 2: the first two raw traces stay
    runs = [trace(s) for s in ("p", "q", "r", "s", "t")]
    reservoir = TraceReservoir(reservoir_size=2, fills_first=True)
    for run in runs:
        reservoir.add_traces([run], 1)
    assert reservoir.traces == runs[:2]
    assert reservoir.stream_size == 5


@pytest.mark.parametrize(
    ("fills_first", "expected"),
    [
        (False, [trace("fb", 5), trace("bfbf", 1), trace("bfbf", 1)]),
        (True, [trace("b", 2), trace("b", 2), trace("bfbf", 1), trace("fb", 5)]),
    ],
)
def test_sampled_sources_as_llvm_19_and_22(
    fills_first: bool, expected: list[TemporalTrace]
) -> None:
    # llvm-profdata-19/22 merge --text -j=1 --temporal-profile-trace-reservoir-size=4 t1 t1
    reservoir = TraceReservoir(reservoir_size=4, fills_first=fills_first)
    reservoir.add_traces(T1, 7)
    reservoir.add_traces(T1, 7)
    assert reservoir.traces == expected
    assert reservoir.stream_size == 14


@pytest.mark.parametrize(("fills_first", "stream"), [(False, 3), (True, 7)])
def test_stream_size_counts_traces_in_19_and_adds_sizes_in_22(
    fills_first: bool, stream: int
) -> None:
    # llvm-profdata-19/22 merge --text t1.proftext --temporal-profile-max-trace-length=2
    reservoir = TraceReservoir(max_length=2, fills_first=fills_first)
    reservoir.add_traces(T1, 7)
    assert reservoir.traces == [trace("fb", 5), trace("b", 2), trace("bf", 1)]
    assert reservoir.stream_size == stream


def test_empty_traces_are_dropped_without_counting() -> None:
    for fills_first in (False, True):
        reservoir = TraceReservoir(max_length=0, fills_first=fills_first)
        reservoir.add_traces(T1, 7)
        assert (reservoir.traces, reservoir.stream_size) == ([], 0)


# -- whole merges with an in-memory loader ----------------------------------------------
def loader(profiles: Mapping[str, InstrProfile | ProfdataError]) -> Callable[[str], InstrProfile]:
    def load(path: str) -> InstrProfile:
        found = profiles[path]
        if isinstance(found, ProfdataError):
            raise found
        return found

    return load


def run_merge(
    profiles: Mapping[str, InstrProfile | ProfdataError],
    number: int = 22,
    weights: dict[str, int] | None = None,
    **options: object,
) -> tuple[InstrProfWriter, list[Diagnostic]]:
    seen: list[Diagnostic] = []
    inputs = [WeightedFile(p, (weights or {}).get(p, 1)) for p in profiles]
    opts = MergeOptions(release=release(number), **options)  # type: ignore[arg-type]
    result = merge_instr(inputs, opts, load=loader(profiles), sink=seen.append)
    assert result.diagnostics == seen
    return result.writer, seen


BAD = MergeError("bad")  # any reader error; its llvm_message is what gets printed
GOOD = prof(rec("main", 1, [4]))


def test_failure_mode_any_fails_on_one_bad_input() -> None:
    with pytest.raises(MergeError, match="no profile can be merged"):
        run_merge({"good": GOOD, "bad": BAD})


def test_failure_mode_all_and_warn_merge_what_they_can() -> None:
    for mode in (FailureMode.ALL, FailureMode.WARN):
        writer, seen = run_merge({"good": GOOD, "bad": BAD}, failure_mode=mode)
        assert seen == [InputFailure("bad", "no profile can be merged", BAD)]
        assert [r.name for r in writer.records()] == ["main"]
    with pytest.raises(MergeError):
        run_merge({"bad": BAD, "bad2": BAD}, failure_mode=FailureMode.ALL)
    writer, _ = run_merge({"bad": BAD, "bad2": BAD}, failure_mode=FailureMode.WARN)
    assert list(writer.records()) == []


def test_empty_inputs_are_skipped_but_still_counted() -> None:
    empty = EmptyProfileError("empty")
    _, seen = run_merge({"e": empty, "good": GOOD})
    assert seen == []
    # one failure out of two inputs is not "all", even though nothing else was usable
    run_merge({"e": empty, "bad": BAD}, failure_mode=FailureMode.ALL)


def test_a_flag_conflict_is_reported_for_the_input_that_caused_it() -> None:
    fe = prof(rec("bar", 5, [4]), kind=ProfileKind.FRONTEND, explicit_frontend=True)
    _, seen = run_merge({"ir": GOOD, "fe": fe}, failure_mode=FailureMode.ALL)
    assert seen == [InputFailure("fe", KIND_CONFLICT)]


def test_record_warnings_come_first_and_hint_once() -> None:
    one = prof(rec("f", 1, [1, 2]), rec("g", 1, [1]))
    two = prof(rec("f", 1, [1]), rec("g", 1, [1, 2]))
    _, seen = run_merge(
        {"one": one, "two": two, "bad": BAD}, num_threads=1, failure_mode=FailureMode.ALL
    )
    mismatch = WarningKind.COUNT_MISMATCH
    assert seen == [
        RecordWarning(mismatch, "two", "f", True),
        RecordWarning(mismatch, "two", "g", False),
        InputFailure("bad", "no profile can be merged", BAD),
    ]


def test_contexts_warn_once_per_problem_kind() -> None:
    a, b = prof(rec("f", 1, [1, 2]), rec("g", 1, [1])), prof(rec("f", 1, [1]), rec("g", 1, [1, 2]))
    _, seen = run_merge({"a": a, "b": b}, num_threads=2)
    assert seen == [ContextWarning(WarningKind.COUNT_MISMATCH)]


def test_split_decides_first_seen_order() -> None:
    # with two contexts, input 2 is merged before input 1: LLVM 14/16 lay names out
    # in this order, and every release orders several hashes of one name by it
    inputs = {str(i): prof(rec(name, 1, [1])) for i, name in enumerate("abc")}
    serial, _ = run_merge(inputs, num_threads=1)
    split, _ = run_merge(inputs)
    assert list(serial.functions) == ["a", "b", "c"]
    assert list(split.functions) == ["a", "c", "b"]


def test_merged_sites_order_equal_counts_by_value_whatever_the_split() -> None:
    inputs = {
        "0": prof(rec("f", 1, [1], memop_size=[[(5, 1)]])),
        "1": prof(rec("f", 1, [1], memop_size=[[(3, 1)]])),
        "2": prof(rec("f", 1, [1], memop_size=[[(9, 2), (8, 1)]])),
    }
    for threads in (1, 2, 3):
        writer, _ = run_merge(inputs, num_threads=threads)
        assert pairs(only(writer)) == [[(9, 2), (3, 1), (5, 1), (8, 1)]]


def test_context_flags_conflict_is_fatal_from_16_and_ignored_by_14() -> None:
    fe = prof(rec("bar", 5, [4]), kind=ProfileKind.FRONTEND, explicit_frontend=True)
    none = prof(rec("baz", 6, [2]), kind=ProfileKind.FRONTEND)
    ir = prof(rec("foo", 10, [7, 3]))
    with pytest.raises(MergeError) as info:
        run_merge({"fe": fe, "ir": ir, "none": none}, number=22, num_threads=2)
    assert info.value.llvm_message == UNSUPPORTED_VERSION
    ctx = {
        "ir0": ir,
        "cs": prof(rec("foo", 10 | 1 << 60, [1]), kind=ProfileKind.IR | ProfileKind.CS),
    }
    old, _ = run_merge(ctx, number=14, num_threads=2)
    new, _ = run_merge(ctx, number=16, num_threads=2)
    assert old.kind == ProfileKind.IR
    assert new.kind == ProfileKind.IR | ProfileKind.CS


def test_raw_traces_take_the_input_weight_and_text_traces_keep_theirs() -> None:
    temporal = ProfileKind.IR | ProfileKind.TEMPORAL
    raw = prof(
        GOOD.records[0], kind=temporal, format="raw", traces=[trace("m")], trace_stream_size=1
    )
    txt = prof(GOOD.records[0], kind=temporal, traces=[trace("t", 5)], trace_stream_size=1)
    writer, _ = run_merge({"raw": raw, "txt": txt}, weights={"raw": 3, "txt": 3})
    assert writer.traces.traces == [trace("m", 3), trace("t", 5)]
    old, _ = run_merge({"raw": raw}, number=16)
    assert old.traces.traces == []


def test_remapping_renames_before_merging() -> None:
    inputs = {"a": prof(rec("old", 1, [1])), "b": prof(rec("new", 1, [2]))}
    writer, _ = run_merge(inputs, remapping={"old": "new"})
    assert [(r.name, r.counts.tolist()) for r in writer.records()] == [("new", [3])]


def test_function_filters_report_what_they_removed() -> None:
    inputs = {"a": prof(rec("main", 1, [1]), rec("foo", 1, [1]), rec("bar", 1, [1]))}
    writer, seen = run_merge(inputs, function="^(main|foo)$", no_function="foo")
    assert [r.name for r in writer.records()] == ["main"]
    assert seen == [FilterNote(2, 3)]
    with pytest.raises(UsageError):
        run_merge(inputs, function="(")


def test_vtable_names_only_with_keep_and_only_from_context_zero() -> None:
    a = prof(GOOD.records[0], vtable_names=["_ZTV1A"])
    b = prof(GOOD.records[0], vtable_names=["_ZTV1B"])
    plain, _ = run_merge({"a": a, "b": b})
    assert plain.to_profile().vtable_names == []
    kept, _ = run_merge({"a": a, "b": b, "c": a}, keep_vtable_symbols=True)
    assert kept.to_profile().vtable_names == ["_ZTV1A"]  # context 1 ("b") is not carried over


def test_sparse_profile_drops_all_zero_names() -> None:
    writer = InstrProfWriter(release(22))
    writer.add_records([rec("z", 1, [0, 0]), rec("nz", 1, [0, 1]), rec("z", 2, [0])])
    assert [r.name for r in writer.to_profile(sparse=True).records] == ["nz"]
    assert len(writer.to_profile().records) == 3


def test_context_merge_visits_names_in_stringmap_order() -> None:
    src = InstrProfWriter(release(14))
    names = [f"fn{i}" for i in range(40)]
    src.add_records([rec(n, 1, [1]) for n in names])
    order = [name for name, _ in src.iteration_order()]
    assert sorted(order) == sorted(names)
    assert order != names  # the StringMap's bucket order, not insertion order
    dst = InstrProfWriter(release(14))
    dst.merge_from(src)
    assert list(dst.functions) == order


# -- inputs --------------------------------------------------------------------------------
def test_inputs_are_positional_then_weighted_then_listed(tmp_path: Path) -> None:
    for name in ("a", "b", "c", "d"):
        (tmp_path / name).write_text("x")
    listing = tmp_path / "list.txt"
    listing.write_text(f"# comment\n\n  4,{tmp_path / 'd'}  \r\n{tmp_path / 'c'}\n")
    got = collect([str(tmp_path / "a")], [f"2,{tmp_path / 'b'}"], str(listing))
    assert got == [
        WeightedFile(str(tmp_path / "a"), 1),
        WeightedFile(str(tmp_path / "b"), 2),
        WeightedFile(str(tmp_path / "d"), 4),
        WeightedFile(str(tmp_path / "c"), 1),
    ]


def test_directories_expand_to_their_files_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for rel in ("z.profraw", "sub/b.profraw", "a.profraw"):
        (tmp_path / rel).write_text("x")
    got = collect([str(tmp_path)], [], None)
    assert [Path(w.path).relative_to(tmp_path).as_posix() for w in got] == [
        "a.profraw",
        "z.profraw",
        "sub/b.profraw",
    ]


def test_special_files_are_skipped_and_stdin_kept(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert collect([str(fifo), "-"], [], None) == [WeightedFile("-", 1)]


def test_the_first_missing_input_stops_everything(tmp_path: Path) -> None:
    with pytest.raises(FileError) as info:
        collect([str(tmp_path / "missing1")], ["x,missing2"], None)
    assert info.value.headline() == f"{tmp_path / 'missing1'}: No such file or directory"
    with pytest.raises(FileError, match="nolist"):
        collect([], [], str(tmp_path / "nolist.txt"))


@pytest.mark.parametrize("spec", ["0,a", "x,a", "a", "-1,a", "+2,a", " 2,a", f"{1 << 64},a"])
def test_weights_must_be_positive_u64(spec: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_weighted(spec)
    assert info.value.headline() == "input weight must be a positive integer"


def test_an_input_list_line_of_blanks_names_the_empty_path(tmp_path: Path) -> None:
    listing = tmp_path / "l.txt"
    listing.write_text("   \n")
    with pytest.raises(FileError) as info:
        read_input_list(str(listing), [])
    assert (info.value.path, info.value.detail) == ("", "No such file or directory")


def test_remapping_file_format(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("# c\nfoo renamed\n\nfoo other\nbar baz\n")
    assert read_remapping(str(good)) == {"foo": "renamed", "bar": "baz"}
    bad = tmp_path / "bad.txt"
    bad.write_text("# c\nfoo renamed\n\nbar  x\n")
    with pytest.raises(UsageError) as info:
        read_remapping(str(bad))
    assert info.value.headline() == (
        f"{bad}:4: unexpected line in remapping file\nnote: expected 'old_symbol new_symbol'"
    )


def test_text_round_trip_of_a_merged_profile_keeps_the_records() -> None:
    writer = InstrProfWriter(release(22))
    writer.add_profile(prof(A))
    writer.add_profile(prof(B), 3)
    data = text.write(writer.to_profile(), release(22))
    again = text.read(memoryview(data))
    assert list(again.records) == list(writer.records())
