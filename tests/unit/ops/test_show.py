"""``profdata.ops.show`` on hand-built profiles, checked against the real llvm-profdata.

Each profile below is built field by field to equal one ``.proftext`` of
``tests/golden/show/inputs``; the expected text is what llvm-profdata 14, 16,
19 and 22 printed for that file (``tests/golden/show/expected``, made by
``make_goldens.py``), so these tests exercise the operation without any reader.
The JSON extra has no real-tool counterpart: its tests check it against the
text output of the same report instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from profdata.errors import UsageError
from profdata.model.instr import InstrProfile, InstrRecord, TemporalTrace, ValueData
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind
from profdata.model.names import md5_hash
from profdata.model.summary import DEFAULT_THRESHOLDS
from profdata.ops.cxx_heap import PriorityQueue
from profdata.ops.show import (
    ItemKind,
    ShowOptions,
    collect,
    hot_count_threshold,
    profile_version,
    summary_cutoffs,
)
from profdata.ops.show_json import SCHEMA, render_json, to_document
from profdata.ops.show_text import render_text, show_instr
from profdata.releases import release

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "show" / "expected"
RELEASES = (14, 16, 19, 22)
IC = ValueKind.INDIRECT_CALL_TARGET
MEMOP = ValueKind.MEMOP_SIZE
VTABLE = ValueKind.VTABLE_TARGET
EXTERNAL = "** External Symbol **"

Sites = list[list[tuple[str | int, int]]]


def _rec(
    name: str,
    hash_: int,
    counts: list[int],
    sites: dict[ValueKind, Sites] | None = None,
    bitmap: bytes = b"",
) -> InstrRecord:
    """A record as the text reader makes it: target names become their MD5 hash."""
    value_sites = {
        kind: [
            [
                ValueData(
                    0 if v == EXTERNAL else md5_hash(v) if isinstance(v, str) else v,
                    c,
                )
                for v, c in site
            ]
            for site in kind_sites
        ]
        for kind, kind_sites in (sites or {}).items()
    }
    return InstrRecord(name, hash_, np.array(counts, dtype=np.uint64), bitmap, value_sites)


def _text_profile(
    kind: ProfileKind, records: list[InstrRecord], targets: tuple[str, ...] = (), **extra: Any
) -> InstrProfile:
    """The text reader's symbol table: record names and the value-target names of the file."""
    names = {r.name for r in records} | set(targets)
    return InstrProfile(
        kind=kind,
        records=records,
        format="text",
        symbols={md5_hash(n): n for n in names},
        **extra,
    )


def ir_profile() -> InstrProfile:
    """``inputs/ir.proftext``."""
    main_sites: dict[ValueKind, Sites] = {
        IC: [[("foo", 60), ("bar", 30), (EXTERNAL, 10)], [("alpha", 5)]],
        MEMOP: [[(8, 40), (16, 20)]],
    }
    records = [
        _rec("main", 0x1234, [100, 50, 50, 0], main_sites),
        _rec("foo", 10, [60, 60]),
        _rec("bar", 11, [30, 0, 30]),
        _rec("zero", 12, [0, 0]),
        _rec("alpha", 13, [50]),
        _rec("tie1", 14, [50, 7]),
    ]
    return _text_profile(ProfileKind.IR, records)


def fe_profile() -> InstrProfile:
    """``inputs/fe.proftext``: pseudo counts, a CS-looking hash, counts past 2**63."""
    records = [
        _rec(
            "main",
            0x10,
            [100, 40, 60],
            {IC: [[("helper", 70), ("ext", 30)]], MEMOP: [[(64, 100)]]},
        ),
        _rec("helper", 0x20, [70, 0]),
        _rec("pseudo_w", 0x30, [18446744073709551614, 5]),
        _rec("pseudo_h", 0x31, [18446744073709551615, 5, 5]),
        _rec("cs_looking", 1152921504606846993, [3, 4]),
        _rec(
            "big",
            0x40,
            [18446744073709551000, 9223372036854775809],
            {
                IC: [[("helper", 9223372036854775809)]],
                MEMOP: [[(7, 18446744073709551000)]],
            },
        ),
    ]
    return _text_profile(ProfileKind.FRONTEND, records, targets=("ext",))


def ties_profile() -> InstrProfile:
    """``inputs/ties.proftext``."""
    rows = [
        ("zeta", 1, [5, 100, 2]),
        ("beta", 2, [100, 1]),
        ("alpha", 3, [100]),
        ("gamma", 4, [1, 100]),
        ("cold", 5, [1]),
        ("delta", 6, [100]),
        ("a", 7, [5]),
        ("b", 8, [5]),
        ("c", 9, [10]),
        ("d", 10, [5]),
        ("e", 11, [7]),
    ]
    return _text_profile(ProfileKind.IR, [_rec(n, h, c) for n, h, c in rows])


def cs_profile() -> InstrProfile:
    """``inputs/cs.proftext``."""
    records = [
        _rec("main", 0x1234, [10, 5, 0]),
        _rec("main", CS_HASH_BIT | 0x1234, [8, 4, 1]),
        _rec("foo", 0x99, [7, 7]),
        _rec("foo", CS_HASH_BIT | 0x99, [3, 0]),
        _rec("bar", CS_HASH_BIT | 0x9A, [0]),
    ]
    return _text_profile(ProfileKind.IR | ProfileKind.CS, records)


def vt_profile() -> InstrProfile:
    """``inputs/vt.proftext``: vtables and temporal traces (LLVM 19+)."""
    records = [
        _rec(
            "main",
            1,
            [5, 3],
            {
                IC: [[("foo", 4)]],
                VTABLE: [[("_ZTV1A", 3), ("_ZTV1B", 2)], []],
                MEMOP: [[(16, 2)]],
            },
        ),
        _rec("foo", 2, [4]),
    ]
    traces = [
        TemporalTrace(1, (md5_hash("main"), md5_hash("foo"), md5_hash("unknown_fn"))),
        TemporalTrace(7, (md5_hash("foo"),)),
    ]
    return _text_profile(
        ProfileKind.IR | ProfileKind.TEMPORAL,
        records,
        targets=("_ZTV1A", "_ZTV1B"),
        traces=traces,
        trace_stream_size=5,
    )


def zeros_profile() -> InstrProfile:
    """``inputs/zeros.proftext``: all counters and value counts zero."""
    records = [_rec("main", 1, [0, 0], {IC: [[("main", 0)]], MEMOP: [[(8, 0), (16, 0)]]})]
    return _text_profile(ProfileKind.FRONTEND, records)


def empty_profile() -> InstrProfile:
    return _text_profile(ProfileKind.IR, [])


PROFILES = {
    "ir": ir_profile,
    "fe": fe_profile,
    "ties": ties_profile,
    "cs": cs_profile,
    "vt": vt_profile,
    "zeros": zeros_profile,
    "empty": empty_profile,
}

ALL_VALUES = ShowOptions(all_functions=True, counts=True, ic_targets=True, memop_sizes=True)
GOLDEN_CUTOFFS = (1, 5, 10000, 123456, 990000, 999999, 1000175, 1234567)
KITCHEN_SINK = ShowOptions(
    all_functions=True,
    counts=True,
    ic_targets=True,
    memop_sizes=True,
    topn=2,
    value_cutoff=1,
    detailed_summary=True,
    hot_func_list=True,
    binary_ids=True,
)

#: (input, option set of make_goldens.py, the same options as ShowOptions)
CASES: list[tuple[str, str, ShowOptions]] = [
    ("ir", "default", ShowOptions()),
    ("ir", "all-counts", ShowOptions(all_functions=True, counts=True)),
    ("ir", "all-values", ALL_VALUES),
    ("ir", "function", ShowOptions(function="a", counts=True)),
    ("ir", "function-and-all", ShowOptions(function="a", all_functions=True)),
    ("ir", "topn", ShowOptions(topn=3)),
    ("ir", "detailed", ShowOptions(detailed_summary=True)),
    ("ir", "detailed-cutoffs", ShowOptions(detailed_summary=True, cutoffs=GOLDEN_CUTOFFS)),
    ("ir", "cutoffs-only", ShowOptions(cutoffs=GOLDEN_CUTOFFS)),
    ("ir", "value-cutoff", ShowOptions(value_cutoff=51, all_functions=True, counts=True)),
    ("ir", "below-cutoff", ShowOptions(value_cutoff=51, list_below_cutoff=True)),
    ("ir", "below-cutoff-zero", ShowOptions(list_below_cutoff=True, all_functions=True)),
    ("ir", "covered", ShowOptions(covered=True)),
    ("ir", "showcs", ShowOptions(showcs=True, all_functions=True, counts=True)),
    ("ir", "text-all", ShowOptions(text=True, all_functions=True)),
    ("ir", "text-only", ShowOptions(text=True)),
    (
        "ir",
        "text-below-cutoff",
        ShowOptions(text=True, function="a", value_cutoff=51, list_below_cutoff=True),
    ),
    ("ir", "covered-text", ShowOptions(covered=True, text=True, function="a")),
    ("ir", "hot", ShowOptions(hot_func_list=True)),
    ("ir", "hot-cutoffs", ShowOptions(hot_func_list=True, cutoffs=(999999,))),
    ("ir", "binary-ids", ShowOptions(binary_ids=True)),
    ("ir", "kitchen-sink", KITCHEN_SINK),
    ("fe", "default", ShowOptions()),
    ("fe", "all-values", ALL_VALUES),
    ("fe", "function", ShowOptions(function="pseudo", counts=True)),
    ("fe", "covered", ShowOptions(covered=True)),
    ("fe", "below-cutoff", ShowOptions(value_cutoff=80, list_below_cutoff=True)),
    ("fe", "detailed", ShowOptions(detailed_summary=True)),
    ("fe", "text-all", ShowOptions(text=True, all_functions=True)),
    ("fe", "kitchen-sink", KITCHEN_SINK),
    *[("ties", f"topn-{n}", ShowOptions(topn=n)) for n in (1, 2, 3, 4, 5, 7, 20)],
    ("ties", "hot", ShowOptions(hot_func_list=True)),
    ("ties", "hot-cutoff", ShowOptions(hot_func_list=True, value_cutoff=6)),
    (
        "ties",
        "hot-below",
        ShowOptions(hot_func_list=True, topn=2, value_cutoff=50, list_below_cutoff=True),
    ),
    ("cs", "default", ShowOptions()),
    ("cs", "showcs", ShowOptions(showcs=True, all_functions=True, counts=True)),
    ("cs", "showcs-summary", ShowOptions(showcs=True, detailed_summary=True, topn=2)),
    ("cs", "covered-cs", ShowOptions(covered=True, showcs=True)),
    ("cs", "text-cs", ShowOptions(text=True, all_functions=True, showcs=True)),
    ("vt", "all-values", ShowOptions(**{**ALL_VALUES.__dict__, "vtables": True})),
    ("vt", "traces", ShowOptions(temporal_traces=True)),
    ("vt", "text-all", ShowOptions(text=True, all_functions=True)),
    ("zeros", "all-values", ALL_VALUES),
    ("zeros", "detailed", ShowOptions(detailed_summary=True)),
    ("zeros", "hot", ShowOptions(hot_func_list=True)),
    (
        "empty",
        "everything",
        ShowOptions(all_functions=True, topn=2, ic_targets=True, value_cutoff=3),
    ),
    ("empty", "detailed", ShowOptions(detailed_summary=True)),
    ("empty", "covered", ShowOptions(covered=True)),
]


def _golden_params() -> list[Any]:
    params = []
    for name, slug, options in CASES:
        for number in RELEASES:
            path = GOLDEN / name / f"{slug}.r{number}.stdout"
            if path.exists() and path.stat().st_size:
                params.append(
                    pytest.param(name, options, number, path, id=f"{name}/{slug}/r{number}")
                )
    return params


@pytest.mark.parametrize(("name", "options", "number", "golden"), _golden_params())
def test_text_matches_llvm_profdata(
    name: str, options: ShowOptions, number: int, golden: Path
) -> None:
    out = show_instr(PROFILES[name](), options, release(number))
    assert out.encode("utf-8", "surrogateescape") == golden.read_bytes()


def test_cases_cover_every_release() -> None:
    ids = {p.id for p in _golden_params()}
    for number in RELEASES:
        assert sum(i.endswith(f"/r{number}") for i in ids) >= 25


# -- pieces with real values ----------------------------------------------------------------


def test_libstdcxx_heap_order_of_llvm_19() -> None:
    """llvm-profdata 19 printed c, e, b for ``--topn=3`` of a=5, b=5, c=10, d=5, e=7."""
    counts = [("a", 5), ("b", 5), ("c", 10), ("d", 5), ("e", 7)]
    profile = _text_profile(ProfileKind.IR, [_rec(n, i, [c]) for i, (n, c) in enumerate(counts)])
    top = collect(profile, ShowOptions(topn=3), release(19)).top
    assert top == [("c", 10), ("e", 7), ("b", 5)]
    assert collect(profile, ShowOptions(topn=3), release(22)).top == [
        ("c", 10),
        ("e", 7),
        ("a", 5),
    ]


def test_priority_queue_pops_in_less_order() -> None:
    rng = np.random.default_rng(7)
    values = rng.integers(0, 20, 200).tolist()
    queue: PriorityQueue[int] = PriorityQueue(lambda a, b: a < b)
    for v in values:
        queue.push(v)
    assert queue.drain() == sorted(values, reverse=True)


def test_hot_threshold_needs_a_cutoff_of_99_percent() -> None:
    """llvm-profdata 22 aborts ("Desired percentile exceeds the maximum cutoff"); we refuse."""
    with pytest.raises(UsageError, match="990000"):
        collect(ir_profile(), ShowOptions(hot_func_list=True, cutoffs=(500000,)), release(22))
    summary = collect(ir_profile(), ShowOptions(detailed_summary=True), release(22)).summary
    assert summary is not None
    # "# Hot count threshold: 7" from llvm-profdata 22
    assert hot_count_threshold(summary, DEFAULT_THRESHOLDS) == 7


def test_default_cutoffs_per_release() -> None:
    assert summary_cutoffs(ShowOptions(detailed_summary=True), release(14))[-1] == 999990
    assert len(summary_cutoffs(ShowOptions(detailed_summary=True), release(16))) == 16
    assert summary_cutoffs(ShowOptions(hot_func_list=True), release(19)) == ()
    assert len(summary_cutoffs(ShowOptions(hot_func_list=True), release(22))) == 16


def test_profile_version_per_reader() -> None:
    """Values printed by llvm-profdata 22: raw v8 IR, indexed v13, any text file."""
    raw = InstrProfile(kind=ProfileKind.IR, records=[], format="raw", version=8)
    indexed = InstrProfile(kind=ProfileKind.IR, records=[], format="indexed", version=13)
    assert profile_version(raw) == 72057594037927944
    assert profile_version(indexed) == 13
    assert profile_version(ir_profile()) == 0


@pytest.mark.parametrize(
    ("fmt", "ids", "number", "expected"),
    [
        ("raw", [], 22, ""),
        ("raw", [bytes.fromhex("88988ec3c78b66ce8379736900c2d5b3d9f74dde")], 14, "ids"),
        ("indexed", [], 16, ""),
        ("indexed", [], 19, "Binary IDs: \n"),
        ("indexed", [], 22, "Binary IDs: \n"),
        ("text", [b"\x01"], 22, ""),
    ],
)
def test_binary_ids_header_per_reader_and_release(
    fmt: str, ids: list[bytes], number: int, expected: str
) -> None:
    """What the corpus recorded for raw/indexed files with and without binary ids."""
    profile = InstrProfile(kind=ProfileKind.IR, records=[], format=fmt, binary_ids=ids)
    out = show_instr(profile, ShowOptions(binary_ids=True), release(number))
    tail = out.split("Maximum internal block count: 0\n", 1)[1]
    if number >= 22:
        tail = tail.split("Total count: 0\n", 1)[1]
    if expected == "ids":
        expected = "Binary IDs: \n" + "".join(f"{i.hex()}\n" for i in ids)
    assert tail == expected


def test_text_reader_bitmap_carries_over_only_in_text_dumps() -> None:
    """llvm-profdata 19/22 ``show --text`` gave ``plain`` the bitmap of ``check`` before it."""
    records = [
        _rec("check", 0x1234, [10, 2, 8], bitmap=b"\x13\x00"),
        _rec("plain", 0x99, [4]),
    ]
    profile = _text_profile(ProfileKind.FRONTEND, records, without_bitmap_block=frozenset({1}))
    text = show_instr(profile, ShowOptions(text=True, all_functions=True), release(22))
    assert text.count("# Bitmap Byte Values:\n0x13\n0x0\n") == 2
    built = _text_profile(ProfileKind.FRONTEND, records)  # not read from a text file
    text = show_instr(built, ShowOptions(text=True, all_functions=True), release(22))
    assert text.count("# Bitmap Byte Values:") == 1
    doc = to_document(collect(profile, ShowOptions(all_functions=True), release(22)))
    assert [f["bitmap"] for f in doc["functions"]] == [[0x13, 0], []]
    raw = InstrProfile(kind=ProfileKind.FRONTEND, records=records, format="raw", version=10)
    text = show_instr(raw, ShowOptions(text=True, all_functions=True), release(22))
    assert text.count("# Bitmap Byte Values:") == 1


def test_items_follow_reader_order_and_llvm_continue_chain() -> None:
    report = collect(fe_profile(), ShowOptions(all_functions=True, value_cutoff=80), release(22))
    kinds = [(kind, report.records[i].name) for kind, i in report.items()]
    assert kinds == [
        (ItemKind.FUNCTION, "main"),
        (ItemKind.PSEUDO, "pseudo_w"),
        (ItemKind.PSEUDO, "pseudo_h"),
        (ItemKind.FUNCTION, "big"),
    ]
    assert report.num_below_cutoff == 2  # helper (70) and cs_looking (4)
    assert report.num_shown == 4


# -- the JSON extra ---------------------------------------------------------------------------


def _text_lines(out: str, prefix: str) -> list[str]:
    return [line[len(prefix) :] for line in out.splitlines() if line.startswith(prefix)]


@pytest.mark.parametrize("number", RELEASES)
def test_json_agrees_with_text(number: int) -> None:
    options = ShowOptions(
        all_functions=True, counts=True, ic_targets=True, memop_sizes=True, topn=3, value_cutoff=1
    )
    report = collect(ir_profile(), options, release(number))
    text = render_text(report)
    doc = json.loads(render_json(report))
    assert doc["schema"] == SCHEMA
    assert doc["llvm_release"] == number
    names = re.findall(r"^  (\S+):\n    Hash: 0x([0-9a-f]{16})", text, re.M)
    assert [(f["name"], f"{f['hash']:016x}") for f in doc["functions"]] == names
    blocks = _text_lines(text, "    Block counts: ")
    assert [str(f["counts"]) for f in doc["functions"]] == blocks
    summary = doc["summary"]
    assert f"Total functions: {summary['num_functions']}" in text
    assert f"Maximum function count: {summary['max_function_count']}" in text
    assert doc["top_functions"] == [
        {"name": n, "max_count": int(c)}
        for n, c in (
            line.split(", max count = ")
            for line in _text_lines(text, "  ")
            if ", max count = " in line
        )
    ]
    assert doc["value_cutoff"] == {"cutoff": 1, "below": 1, "at_or_above": 5}
    stats = doc["value_site_stats"]["indirect_call_target"]
    assert f"  Total number of profiled values: {stats['num_values']}" in text
    assert stats["histogram"] == {"1": 1, "3": 1}


def test_json_value_sites_resolve_targets() -> None:
    doc = to_document(collect(ir_profile(), ShowOptions(all_functions=True), release(22)))
    main = doc["functions"][0]
    ic = main["value_sites"]["indirect_call_target"]
    assert [[(v["target"], v["count"]) for v in site] for site in ic] == [
        [("foo", 60), ("bar", 30), (None, 10)],
        [("alpha", 5)],
    ]
    assert ic[0][2]["value"] == 0
    assert main["value_sites"]["memop_size"] == [
        [{"value": 8, "count": 40}, {"value": 16, "count": 20}]
    ]
    assert doc["functions"][1]["value_sites"] == {}


def test_json_document_keys_are_stable() -> None:
    doc = to_document(collect(empty_profile(), ShowOptions(), release(22)))
    assert list(doc) == [
        "schema",
        "llvm_release",
        "profile",
        "functions",
        "below_cutoff",
        "covered",
        "summary",
        "value_cutoff",
        "top_functions",
        "hot_functions",
        "value_site_stats",
        "temporal_traces",
    ]
    assert doc["profile"] == {
        "format": "text",
        "version": None,
        "reader_version": 0,
        "level": "IR",
        "flags": ["ir"],
        "binary_ids": [],
    }
    assert doc["functions"] == []
    assert doc["summary"]["num_functions"] == 0


def test_json_modes_follow_the_same_filters() -> None:
    covered = to_document(collect(fe_profile(), ShowOptions(covered=True), release(22)))
    assert covered["covered"] == ["main", "helper", "pseudo_w", "pseudo_h", "cs_looking", "big"]
    assert covered["summary"] is None
    below = to_document(
        collect(ir_profile(), ShowOptions(value_cutoff=51, list_below_cutoff=True), release(22))
    )
    assert [(b["name"], b["max_count"], b["sum"]) for b in below["below_cutoff"]] == [
        ("bar", 30, 60),
        ("zero", 0, 0),
        ("alpha", 50, 50),
        ("tie1", 50, 57),
    ]  # llvm-profdata: "bar: (Max = 30 Sum = 60)" ...
    hot = to_document(collect(ties_profile(), ShowOptions(hot_func_list=True), release(22)))
    assert hot["hot_functions"]["threshold"] == 5
    pseudo = to_document(collect(fe_profile(), ShowOptions(function="pseudo"), release(22)))
    assert [f["pseudo"] for f in pseudo["functions"]] == ["warm", "hot"]


def test_json_traces_and_undecodable_names() -> None:
    traces = to_document(collect(vt_profile(), ShowOptions(temporal_traces=True), release(22)))
    assert traces["temporal_traces"]["stream_size"] == 5
    first = traces["temporal_traces"]["traces"][0]
    assert [f["name"] for f in first["functions"]] == ["main", "foo", None]
    name = b"bad\xffname".decode("utf-8", "surrogateescape")
    profile = _text_profile(ProfileKind.IR, [_rec(name, 3, [6])])
    out = render_json(collect(profile, ShowOptions(all_functions=True), release(22)))
    assert out.isascii()
    assert json.loads(out)["functions"][0]["name"] == name
