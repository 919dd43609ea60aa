"""The fast paths of sample text reading, show, JSON and merge agree with the general code.

The text reader takes the common line shapes from one regular expression over the
whole text and every other line through the full ``ParseLine``/``ParseHead``
transcription; forcing every line through the latter must give the same profile,
or the same error at the same place, on any input.  ``dump_json`` writes text
directly and must keep ``json.dumps(indent=2)``'s layout; the merge takes over
(rather than copies) profiles it read itself, which must not show.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.errors import ProfdataError
from profdata.formats import sample_text
from profdata.formats.sample_text import _visible_text
from profdata.model.names import name_str
from profdata.model.sample import (
    U64,
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleError,
    SampleProfile,
    SampleRecord,
    sorted_by_name,
)
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import SampleMergeOptions, merge_samples
from profdata.ops.show_sample import SampleShowOptions, dump_json, show_sample
from profdata.releases import release

R22 = release(22)
#: the same ten groups as ``sample_text._LINE``, none of them ever set: every line is "other"
_ALL_GENERAL = re.compile(r"^()()()()()()()()()().*$", re.MULTILINE)

Outcome = tuple[object, ...]


def outcome(data: bytes, number: int) -> Outcome:
    """What reading ``data`` gives: the profile's observable state, or the error."""
    try:
        p = sample_text.read(data, "p.txt", release(number))
    except ProfdataError as exc:
        return (
            "error",
            type(exc).__name__,
            str(exc),
            exc.headline(),
            getattr(exc, "location", None),
        )
    return (
        "ok",
        list(p.profiles.items()),
        (p.is_cs, p.is_probe_based, p.is_preinlined),
        p.summary,
    )


def general_outcome(data: bytes, number: int, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    with monkeypatch.context() as patch:
        patch.setattr(sample_text, "_LINE", _ALL_GENERAL)
        return outcome(data, number)


NUMS = st.one_of(
    st.integers(0, 1000).map(str),
    st.sampled_from(
        ["0", "65535", "65536", "4294967295", "4294967296", str(U64), str(U64 + 1), "007", "x", ""]
    ),
)
LOCS = st.one_of(NUMS, st.tuples(NUMS, NUMS).map(".".join), NUMS.map(lambda n: n + "."))
NAMES = st.one_of(
    st.sampled_from(["f", "g", "_Z3foov", "ns::f(int)"]),
    st.sampled_from(["a b", "12", "1x", "[a:1 @ b]", "[a:1.2 @ b:3 @ c]", "vtables", "!x"]),
    st.sampled_from(["", ":", "x:1", "#c", "\u00e9", name_str(b"\xff"), "a\r"]),
)
DEPTHS = st.integers(0, 4).map(lambda n: " " * n)
TARGETS = st.lists(st.tuples(NAMES, NUMS), max_size=3).map(
    lambda pairs: "".join(f" {n}:{c}" for n, c in pairs)
)
LINES = st.one_of(
    st.builds("{}:{}:{}".format, NAMES, NUMS, NUMS),
    st.builds("{}{}: {}{}".format, DEPTHS, LOCS, NUMS, TARGETS),
    st.builds("{}{}: {}:{}".format, DEPTHS, LOCS, NAMES, NUMS),
    st.builds("{}!CFGChecksum:{}".format, DEPTHS, st.sampled_from([" ", "  ", ""]).map(str)),
    st.builds("{}!CFGChecksum: {}".format, DEPTHS, NUMS),
    st.builds("{}!Attributes: {}".format, DEPTHS, st.sampled_from(["0", "2", "4", "x"])),
    st.builds("{}{}: vtables {}".format, DEPTHS, LOCS, TARGETS),
    st.sampled_from(["", " ", "#c", "  #c", " !Flat", " 5", " 5:5", " 5: 3 ", " 5: 3  a:1"]),
    st.sampled_from([" 5: 3 a:1:2", " 5: 3 a::2", " 5: x:1", " 5: 3 1:2", "f:1", "123"]),
)


@st.composite
def documents(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(LINES, min_size=1, max_size=25))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    ending = draw(st.sampled_from(["", "\n", "\r\n", "\n\n", "\0junk"]))
    return (newline.join(lines) + ending).encode("utf-8", "surrogateescape")


@pytest.mark.property
@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=documents(), number=st.sampled_from([14, 16, 19, 22]))
def test_fast_shapes_read_as_the_full_parser_reads_them(
    data: bytes, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert outcome(data, number) == general_outcome(data, number, monkeypatch)


@pytest.mark.parametrize(
    "data",
    [
        b"f:10:1\n 1: 5\n 2.3: 6 g:1 h:2\n 4: g:3\n  1: 3\n !CFGChecksum: 9\n",
        b"\nf:10:1\n\n# c\n 1: 5\r\n 2: 6\r\n",  # blank and comment lines, CRLF
        b"f:10:1\n 1: 5\n 1: 7 g:1\n 1: 8 g:2\n",  # a repeated location adds up
        b"f:10:1\n 1: 5\n !CFGChecksum: 9\n 2: 6\n",  # body after metadata
        b"f:10:1\n 70000: 5\n",
        b"f:10:1\n 1: 5 g:18446744073709551616\n",
        b"f:10:1\n 1: 18446744073709551615\n 1: 1\n",  # saturates: read on, then fail
        b"f:10:1\n 1: 5\0 2: 6\n",
        b" 1: 5\n",  # no header yet
        b"",
    ],
)
def test_fast_and_full_parser_agree_on_edges(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    for number in (14, 19, 22):
        assert outcome(data, number) == general_outcome(data, number, monkeypatch)


def test_no_header_yet_is_a_located_error() -> None:
    result = outcome(b" 1: 5\n", 22)
    assert result[0] == "error"
    assert result[3] == "p.txt:1: Expected 'mangled_name:NUM:NUM', found  1: 5"


def test_a_count_too_big_for_u64_joins_the_target_name() -> None:
    """llvm-profdata 22 shows this line as ``24: 792, calls: baz:99999999999999999999999
    baz:636 _Z1:1``: the call-target loop moves on to the next colon."""
    p = sample_text.read(
        b"foo:10:1\n 24: 792 baz:99999999999999999999999 baz:636 _Z1:1\n", None, R22
    )
    record = p.profiles[SampleContext("foo")].body_samples[LineLocation(24, 0)]
    assert record == SampleRecord(792, {"baz:99999999999999999999999 baz": 636, "_Z1": 1})


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("a\nb\n", ["a", "b"]),
        ("a\nb", ["a", "b"]),
        ("\na\n\n#x\nb\n", ["a", "b"]),
        ("#x\na", ["a"]),
        ("a\r\nb\r", ["a", "b\r"]),  # a lone CR at the very end stays
        ("a\0b\n", ["a"]),
        ("", []),
    ],
)
def test_visible_lines_are_the_line_cursors(text: str, lines: list[str]) -> None:
    joined, split = _visible_text(text.encode())
    visible = split if split is not None else joined.split("\n") if joined else []
    assert visible == lines
    assert joined == "\n".join(lines)


def test_sorted_by_name_is_bytewise_beyond_ascii() -> None:
    high, raw = "\ue000", name_str(b"\xff")  # U+E000 is EE 80 80, below the raw byte FF
    assert [n for n, _ in sorted_by_name({raw: 1, high: 2, "b": 3, "a": 4})] == [
        "a",
        "b",
        high,
        raw,
    ]
    assert [n for n, _ in sorted_by_name({"10": 1, "9": 2, "x": 3}, md5=True)] == ["9", "10", "x"]


# -- JSON ---------------------------------------------------------------------------
def _as_json_value(fs: FunctionSamples, top: bool) -> dict[str, object]:
    """``dumpFunctionProfileJson``'s object, built independently as Python data."""
    obj: dict[str, object] = {"name": fs.name, "total": fs.total_samples}
    if top:
        obj["head"] = fs.head_samples
    body = []
    for loc, record in sorted(fs.body_samples.items()):
        line: dict[str, object] = {"line": loc.line_offset}
        if loc.discriminator:
            line["discriminator"] = loc.discriminator
        line["samples"] = record.samples
        calls = [{"function": n, "samples": c} for n, c in record.sorted_call_targets()]
        if calls:
            line["calls"] = calls
        body.append(line)
    if body:
        obj["body"] = body
    sites = []
    for loc, callee in fs.sorted_callsites():
        site: dict[str, object] = {"line": loc.line_offset}
        if loc.discriminator:
            site["discriminator"] = loc.discriminator
        site["samples"] = [_as_json_value(callee, False)]
        sites.append(site)
    if sites:
        obj["callsites"] = sites
    return obj


NESTED = (
    b"main:300:5\n 1: 10\n 2.1: 20 foo:7 bar:7 baz:9\n 3: foo:50\n  1: 5\n  2: bar:9\n   1: 9\n"
    b" 3: abc:4\n 4: 1\nfoo:90:3\n 7: 90\nbar:4:0\n"
)


def test_json_keeps_json_dumps_layout() -> None:
    profile = sample_text.read(NESTED, None, R22)
    expected = [_as_json_value(fs, True) for fs in profile.sorted_profiles()]
    assert dump_json(profile) == json.dumps(expected, indent=2) + "\n"
    assert dump_json(SampleProfile()) == "[]\n"


def test_json_quotes_names_that_need_it() -> None:
    profile = sample_text.read(b'a"b:3:1\n 1: 3 c\\d:1 \x01e:2 caf\xc3\xa9:3\n', None, R22)
    expected = [_as_json_value(fs, True) for fs in profile.sorted_profiles()]
    assert dump_json(profile) == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"


# -- merge --------------------------------------------------------------------------
def _write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_merge_takes_over_what_it_read_without_changing_the_result(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.txt", NESTED)
    b = _write(tmp_path, "b.txt", NESTED.replace(b" 1: 10", b" 1: 11 foo:3"))
    inputs = [WeightedFile(a, 1), WeightedFile(b, 2), WeightedFile(a, 1)]
    options = SampleMergeOptions(R22)
    read_here = merge_samples(inputs, options).profile
    given = [sample_text.read(Path(w.path).read_bytes(), w.path, R22) for w in inputs]
    copied = merge_samples(inputs, options, given).profile
    assert list(read_here.profiles.items()) == list(copied.profiles.items())
    assert given[0] == sample_text.read(NESTED, a, R22)  # inputs handed in stay untouched
    main = read_here.profiles[SampleContext("main")]
    assert main.body_samples[LineLocation(1, 0)] == SampleRecord(10 + 22 + 10, {"foo": 6})


def test_merge_saturates_new_records_and_targets_at_a_weight() -> None:
    other = FunctionSamples(SampleContext("f"), 1)
    other.body_samples[LineLocation(1, 0)] = SampleRecord(1 << 63, {"g": 1 << 63, "h": 1})
    other.body_samples[LineLocation(2, 0)] = SampleRecord(3, {})
    fresh = FunctionSamples(SampleContext(""))
    assert fresh.merge(other, 2) is SampleError.COUNTER_OVERFLOW
    assert fresh.body_samples == {
        LineLocation(1, 0): SampleRecord(U64, {"g": U64, "h": 2}),
        LineLocation(2, 0): SampleRecord(6, {}),
    }
    assert other.body_samples[LineLocation(1, 0)].call_targets == {"g": 1 << 63, "h": 1}


def test_merge_reports_overflow_before_a_callee_checksum_mismatch() -> None:
    mine = FunctionSamples(SampleContext("f"), U64)
    mine.callee_at(LineLocation(1, 0), "g").function_hash = 1
    other = FunctionSamples(SampleContext("f"), 1)
    other.callee_at(LineLocation(1, 0), "g").function_hash = 2
    assert mine.merge(other) is SampleError.COUNTER_OVERFLOW
    mine.total_samples = 0
    assert mine.merge(other) is SampleError.HASH_MISMATCH


# -- show against the real tool ------------------------------------------------------------
LLVM22 = Path("/usr/lib/llvm-22/bin/llvm-profdata")


@pytest.mark.compat
@pytest.mark.skipif(not LLVM22.exists() and not shutil.which("llvm-profdata-22"), reason="no 22")
@pytest.mark.parametrize(
    "data",
    [
        NESTED,
        b"foo:10:1\n 24: 792 baz:99999999999999999999999 baz:636 _Z1:1\n",
        b"\n# c\nf:10:1\r\n 1: 5 g:1\r\n 1: 7 g:2\r\n 2: h i:3\r\n  1: 1\r\n",
    ],
)
def test_show_matches_llvm_profdata_22(tmp_path: Path, data: bytes) -> None:
    path = _write(tmp_path, "p.txt", data)
    tool = str(LLVM22) if LLVM22.exists() else str(shutil.which("llvm-profdata-22"))
    for extra in ([], ["--show-format=json"]):
        real = subprocess.run(
            [tool, "show", "--sample", *extra, path], capture_output=True, check=True
        ).stdout.decode("utf-8", "surrogateescape")
        options = SampleShowOptions(show_format="json" if extra else "text")
        ours = show_sample(sample_text.read(data, path, R22), options, R22).text
        assert ours == real
