"""``profdata.ops.overlap`` on hand-built profiles.

The two profiles of :func:`_ir_pair` are built field by field to equal
``tests/golden/overlap/inputs/ir_base.proftext`` / ``ir_test.proftext``; the
expected text is what llvm-profdata 14, 16, 19 and 22 printed for those files
(``tests/golden/overlap/expected``), so the operation is checked without any
reader.  The other tests pin LLVM's rules one at a time: how records are
classified, the wrapping sums, the left-to-right addition of doubles, the CS
filter, the early exit, the DenseMap empty key, the base merge and the 255-value
cut, and the JSON extra against the text of the same result.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from profdata.model.instr import InstrProfile, InstrRecord, ValueData, ValueSite
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind
from profdata.model.names import md5_hash
from profdata.ops.merge_records import WarningKind
from profdata.ops.overlap import (
    DENSEMAP_EMPTY_KEY,
    OverlapOptions,
    OverlapResult,
    edge_maxima,
    edge_sums,
    overlap_instr,
    render_text,
    value_kinds,
)
from profdata.ops.overlap_json import SCHEMA, render_json, to_document
from profdata.releases import release

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "overlap" / "expected"
RELEASES = (14, 16, 19, 22)
IC = ValueKind.INDIRECT_CALL_TARGET
MEMOP = ValueKind.MEMOP_SIZE
U64_MAX = (1 << 64) - 1


def rec(
    name: str,
    func_hash: int,
    counts: list[int],
    sites: dict[ValueKind, list[ValueSite]] | None = None,
) -> InstrRecord:
    return InstrRecord(name, func_hash, np.array(counts, dtype=np.uint64), b"", sites or {})


def ic_site(*pairs: tuple[str, int]) -> ValueSite:
    return [ValueData(md5_hash(name), count) for name, count in pairs]


def prof(*records: InstrRecord, kind: ProfileKind = ProfileKind.IR) -> InstrProfile:
    return InstrProfile(kind=kind, records=list(records))


def run(
    base: InstrProfile,
    test: InstrProfile,
    number: int = 22,
    *,
    value_cutoff: int = U64_MAX,
    function: str = "",
    cs: bool = False,
) -> OverlapResult:
    opts = OverlapOptions(release(number), value_cutoff, function, cs)
    return overlap_instr(base, test, opts, base_name="b", test_name="t")


def _ir_pair() -> tuple[InstrProfile, InstrProfile]:
    base = prof(
        rec("foo", 10, [100, 0, 50], {IC: [ic_site(("t1", 30), ("t2", 70))]}),
        rec("bar", 20, [5, 5]),
        rec("baz", 30, [0, 0]),
        rec("dup", 40, [1, 2]),
        rec("dup", 40, [1, 2, 3]),
        rec("big", 50, [1, 2]),
    )
    test = prof(
        rec("foo", 10, [80, 20, 0], {IC: [ic_site(("t2", 10), ("t1", 20), ("t3", 5))]}),
        rec("bar", 21, [5, 5]),
        rec("qux", 60, [7]),
        rec("baz", 30, [0, 0]),
        rec("bar", 21, [1, 1]),
        rec("big", 50, [U64_MAX, 2]),
        rec("dup", 40, [3, 3]),
    )
    return base, test


@pytest.mark.parametrize("number", RELEASES)
@pytest.mark.parametrize(
    ("case", "cutoff", "function"),
    [("ir", U64_MAX, ""), ("ir-cutoff-0", 0, ""), ("ir-cutoff-100", 100, ""),
     ("ir-function", U64_MAX, "oo"), ("ir-function-cutoff", 5, "du")],
)  # fmt: skip
def test_hand_built_pair_prints_what_llvm_printed(
    case: str, cutoff: int, function: str, number: int
) -> None:
    base, test = _ir_pair()
    opts = OverlapOptions(release(number), value_cutoff=cutoff, function=function)
    result = overlap_instr(
        base,
        test,
        opts,
        base_name="inputs/ir_base.proftext",
        test_name="inputs/ir_test.proftext",
    )
    assert render_text(result) == (GOLDEN / f"{case}.r{number}.stdout").read_text()


def test_records_are_classified_as_llvm_does() -> None:
    base = prof(
        rec("same", 1, [4, 4]),
        rec("other_hash", 2, [4]),
        rec("other_size", 3, [4, 4]),
        rec("other_sites", 4, [4], {IC: [ic_site(("x", 1))]}),
        rec("zero_in_test", 5, [4]),
    )
    test = prof(
        rec("same", 1, [2, 6]),
        rec("other_hash", 99, [4]),
        rec("other_size", 3, [4]),
        rec("other_sites", 4, [4], {IC: [ic_site(("x", 1)), ic_site(("y", 1))]}),
        rec("zero_in_test", 77, [0]),  # a known name with a zero sum: overlap, hash unchecked
        rec("unknown", 6, [4]),
    )
    program = run(base, test).program
    assert program.overlap.num_entries == 2
    assert program.mismatch.num_entries == 3
    assert program.unique.num_entries == 1
    assert program.mismatch.count_sum == 4 / 24 + 4 / 24 + 4 / 24
    assert program.unique.count_sum == 4 / 24


def test_function_sums_wrap_like_uint64() -> None:
    assert edge_sums([rec("f", 1, [U64_MAX, 2]), rec("g", 2, [])]).tolist() == [1, 0]
    assert edge_maxima([rec("f", 1, [3, U64_MAX, 2]), rec("g", 2, [])]).tolist() == [U64_MAX, 0]
    result = run(prof(rec("f", 1, [U64_MAX, 2])), prof(rec("f", 1, [1, 1])), value_cutoff=0)
    assert result.program.base.count_sum == 1.0
    assert "Edge profile base count sum: 1\n" in render_text(result)


def test_scores_are_added_left_to_right() -> None:
    counts = [
        885441,
        403959,
        794773,
        933489,
        441002,
        42451,
        271494,
        536111,
        509533,
        424605,
        962839,
        821873,
        870164,
        318047,
        499749,
        375442,
    ]
    other = [611721, 934974, 952226, 229054, 529203, 146040, 295529, 146535,
             792519, 99438, 648407, 838235, 262675, 953939, 558434, 739427]  # fmt: skip
    result = run(prof(rec("f", 1, counts), rec("g", 2, other)), prof(rec("f", 1, other)))
    total = float(sum(counts) + sum(other))
    sequential = 0.0
    for a, b in zip(counts, other, strict=True):
        sequential += min(a / total, b / sum(other))
    assert result.program.overlap.count_sum == sequential
    scores = np.minimum(np.array(counts) / total, np.array(other) / sum(other))
    assert float(np.sum(scores)) != sequential  # numpy's pairwise sum would print other digits


def test_cs_flag_selects_which_ir_records_are_summed() -> None:
    ir = prof(rec("f", 1, [10]), rec("f", 1 | CS_HASH_BIT, [30]))
    plain = run(ir, ir)
    cs = run(ir, ir, cs=True)
    assert (plain.program.base.count_sum, cs.program.base.count_sum) == (10.0, 30.0)
    # every test record is overlapped whatever --cs says, so the shares exceed 100%
    assert plain.program.overlap.num_entries == cs.program.overlap.num_entries == 2
    assert plain.program.overlap.count_sum == pytest.approx(4.0)
    fe = prof(rec("f", 1, [10]), rec("f", 1 | CS_HASH_BIT, [30]), kind=ProfileKind.FRONTEND)
    assert run(fe, fe, cs=True).program.base.count_sum == 40.0


def test_a_zero_sum_stops_before_anything_else() -> None:
    zero = prof(rec("f", 1, [0, 0]))
    some = prof(rec("f", 1, [1]))
    assert run(zero, zero).zero_sum_profile == "b"
    assert run(some, zero).zero_sum_profile == "t"
    stopped = run(zero, some)
    assert stopped.functions == [] and stopped.warnings == []
    assert render_text(stopped) == "Sum of edge counts for profile b is 0.\n"


def test_densemap_empty_key_is_lost_but_its_name_is_known() -> None:
    base = prof(rec("f", DENSEMAP_EMPTY_KEY, [5, 5]), rec("g", 1, [3]))
    test = prof(rec("f", DENSEMAP_EMPTY_KEY, [5, 1]), rec("f", 7, [1]), rec("g", 1, [3]))
    result = run(base, test)
    assert [w.kind for w in result.warnings] == [WarningKind.COUNT_MISMATCH]
    assert result.program.unique.num_entries == 0
    assert result.program.mismatch.num_entries == 2
    assert result.program.overlap.num_entries == 1


def test_repeated_base_records_are_merged_and_warned_once_with_hint() -> None:
    base = prof(
        rec("f", 1, [1, 2]),
        rec("f", 1, [1, 2, 3]),
        rec("g", 2, [5]),
        rec("f", 1, [4, 4]),
        rec("f", 1, [9]),
    )
    result = run(base, prof(rec("f", 1, [1, 1])), value_cutoff=0)
    assert [(w.function, w.first_time) for w in result.warnings] == [("f", True), ("f", False)]
    assert result.functions[0].base.count_sum == 11.0  # [1, 2] + [4, 4]
    assert result.program.base.count_sum == 31.0  # every record as read


def test_base_sites_are_cut_to_255_values_after_the_merge() -> None:
    many = [ValueData(size, 1000 - size) for size in range(300)]
    base = prof(rec("f", 1, [10], {MEMOP: [many]}))
    test = prof(rec("f", 1, [10], {MEMOP: [[ValueData(299, 5), ValueData(0, 5)]]}))
    result = run(base, test, value_cutoff=0)
    kept = sum(1000 - size for size in range(255))
    assert result.program.base.value_counts[MEMOP] == float(sum(vd.count for vd in many))
    assert result.functions[0].base.value_counts[MEMOP] == float(kept)
    assert result.functions[0].overlap.value_counts[MEMOP] == min(1000 / kept, 5 / 10)


def test_cutoff_and_function_filter_choose_the_blocks() -> None:
    base = prof(rec("alpha", 1, [10, 10]), rec("beta", 2, [10, 10]), rec("gamma", 3, [1, 1]))
    test = prof(rec("alpha", 1, [50, 1]), rec("beta", 2, [5, 5]), rec("gamma", 3, [1, 1]))

    def names(value_cutoff: int = U64_MAX, function: str = "") -> list[str]:
        found = run(base, test, value_cutoff=value_cutoff, function=function).functions
        return [f.func_name for f in found]

    assert names() == []
    assert names(value_cutoff=0) == ["alpha", "beta", "gamma"]
    assert names(value_cutoff=6) == ["alpha"]
    assert names(value_cutoff=6, function="amm") == ["alpha", "gamma"]
    assert names(function="et") == ["beta"]


def test_value_kinds_follow_the_release() -> None:
    assert value_kinds(release(14)) == [IC, MEMOP]
    assert value_kinds(release(22)) == [IC, MEMOP, ValueKind.VTABLE_TARGET]
    vt = ValueKind.VTABLE_TARGET
    profile = prof(rec("f", 1, [3], {vt: [[ValueData(7, 2)]]}))
    assert "VTable profile overlap: 100.000%" in render_text(run(profile, profile, 22))
    assert "VTable" not in render_text(run(profile, profile, 16))


@pytest.mark.parametrize(
    ("number", "word"), [(14, "infomation"), (19, "infomation"), (22, "information")]
)
def test_header_typo_follows_the_release(number: int, word: str) -> None:
    base, test = _ir_pair()
    assert render_text(run(base, test, number)).count(f"Profile overlap {word} for") == 1


def test_json_holds_what_the_text_prints() -> None:
    base, test = _ir_pair()
    result = run(base, test, value_cutoff=0)
    document = json.loads(render_json(result))
    assert document == to_document(result)
    assert document["schema"] == SCHEMA and document["llvm_release"] == 22
    assert document["base_profile"] == "b" and document["zero_sum_profile"] is None
    text = render_text(result)
    program = document["program"]
    assert f"# of functions mismatch: {program['functions']['mismatch']}\n" in text
    edge = program["edge"]
    assert f"Edge profile overlap: {100 * edge['overlap']:.3f}%\n" in text
    assert f"Mismatched count percentage (Edge): {100 * edge['mismatch']:.3f}%\n" in text
    assert f"Edge profile test count sum: {edge['test_sum']}\n" in text
    call = program["values"]["indirect_call_target"]
    assert f"IndirectCall profile overlap: {100 * call['overlap']:.3f}%\n" in text
    blocks = [(f["name"], f["hash"], f["counters"]) for f in document["functions"]]
    assert blocks == [("foo", 10, 3), ("big", 50, 2), ("dup", 40, 2)]
    assert [w["kind"] for w in document["warnings"]] == ["count_mismatch"]


def test_json_of_an_early_exit() -> None:
    zero = prof(rec("f", 1, [0]))
    document = to_document(run(zero, zero))
    assert document["zero_sum_profile"] == "b"
    assert document["program"] is None and document["functions"] == []
