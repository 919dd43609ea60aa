"""Sample text reader and writer: LLVM's line grammar, its quirks, and located errors."""

from __future__ import annotations

import pytest

from profdata.errors import MalformedError, SampleDiagnosticError, SampleTextSyntaxError
from profdata.formats import sample_text
from profdata.formats.sample_text import parse_head, parse_line
from profdata.model.sample import LineLocation, SampleContext, SampleProfile
from profdata.releases import release

R22 = release(22)
R14 = release(14)


def read(text: bytes, number: int = 22) -> SampleProfile:
    return sample_text.read(text, "p.txt", release(number))


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        (b"main:184019:0", (b"main", 184019, 0)),
        (b"ns::f(int):3:1", (b"ns::f(int)", 3, 1)),
        (b"123", (b"123", 123, 123)),  # no colon: the whole line is name, total and head
        (b":5", (b"", 5, 5)),  # the colon at 0 is found twice
        (b"12:5", (b"12:5", 12, 5)),  # one colon: total is what precedes it
        (b"main::2", None),  # the search for the first colon stops short of n2 - 1
        (b"main:5", None),
        (b":", None),
        (b"main:1:-1", None),
        (b" main:1:1", None),
        (b"main:18446744073709551616:0", None),
    ],
)
def test_parse_head_is_llvm_parsehead(line: bytes, parsed: tuple[bytes, int, int] | None) -> None:
    assert parse_head(line) == parsed


def test_parse_line_forms() -> None:
    body, ok = parse_line(b" 9: 2064 _Z3bari:1471 _M_construct<char *>:631", R22)
    assert ok and body.kind == "body" and body.num == 2064
    assert body.targets == {b"_Z3bari": 1471, b"_M_construct<char *>": 631}
    site, ok = parse_line(b"  3.2: ns::f:int:7", R22)
    assert ok and (site.kind, site.callee, site.num, site.depth) == ("callsite", b"ns::f:int", 7, 2)
    assert site.loc == LineLocation(3, 2)
    bare, ok = parse_line(b" 5", R22)  # LLVM skips two characters past a missing colon
    assert ok and (bare.kind, bare.loc, bare.num) == ("body", LineLocation(5, 0), 5)
    meta, ok = parse_line(b" !CFGChecksum:  99 ", R22)
    assert ok and meta.function_hash == 99
    flat, ok = parse_line(b" !Flat", R22)
    assert ok and flat.is_flat
    _, ok = parse_line(b" !Flat", R14)
    assert not ok


@pytest.mark.parametrize(
    "line",
    [b" 1: 5 ", b" 70000: 5", b" 1.: 5", b" 1: 5 foo:x", b" 1:5", b" x: 1", b" 1: 5 :3"],
)
def test_parse_line_rejects(line: bytes) -> None:
    _, ok = parse_line(line, R22)
    assert not ok


def test_reader_builds_nested_profile() -> None:
    profile = read(b"main:100:1\n 1: 10 a:4\n 2: inl:20\n  1: 20\n  !CFGChecksum: 3\nz:1:0\n")
    main = profile.profiles[SampleContext("main")]
    inl = main.callsite_samples[LineLocation(2, 0)]["inl"]
    assert (inl.total_samples, inl.function_hash) == (20, 3)
    assert not profile.is_probe_based  # only top-level checksums make a probe profile
    assert profile.summary is not None and profile.summary.num_functions == 2


def test_duplicate_headers_merge_from_19_and_replace_before() -> None:
    text = b"main:10:1\n 1: 5\nmain:20:2\n 2: 7\n"
    merged = read(text).profiles[SampleContext("main")]
    assert (merged.total_samples, len(merged.body_samples)) == (30, 2)
    last = read(text, 14).profiles[SampleContext("main")]
    assert (last.total_samples, len(last.body_samples)) == (20, 1)


def test_any_metadata_line_resets_attributes() -> None:
    text = b"main:10:1\n 1: 5\n !Attributes: 1\n !CFGChecksum: 5\n"
    fs = read(text).profiles[SampleContext("main")]
    assert (fs.attributes, fs.function_hash) == (0, 5)


def test_syntax_error_names_line_offset_and_field() -> None:
    with pytest.raises(SampleTextSyntaxError) as caught:
        read(b"# c\nmain:100:1\n 1: 10\n 2 20\n")
    err = caught.value
    assert err.headline() == ("p.txt:4: Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*', found  2 20")
    assert (err.location.line, err.location.offset, err.location.field) == (4, 22, "line_offset")
    assert isinstance(err, SampleDiagnosticError)


@pytest.mark.parametrize(
    ("text", "number", "headline"),
    [
        (b"main:1:0\n !CFGChecksum: x\n", 22, "p.txt:2: Cannot parse metadata:  !CFGChecksum: x"),
        (
            b"main:1:0\n !CFGChecksum: x\n",
            19,
            "p.txt:2: Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*', found  !CFGChecksum: x",
        ),
        (b"main:1:0\n\t1: 5\n", 22, "p.txt:2: Expected 'mangled_name:NUM:NUM', found \t1: 5"),
        (
            b"main:1:0\n !Attributes: 1\n 1: 5\n",
            22,
            "p.txt:3: Found non-metadata after metadata:  1: 5",
        ),
        (
            b"main:1:0\n 1: vtables a:1 a:2\n",
            22,
            "p.txt:2: Expected 'vtables [mangled_vtable:NUM]+', found  1: vtables a:1 a:2",
        ),
        (
            b"main:1:0\n 1: 5\n   \n",
            16,
            "p.txt:3: Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*', found    ",
        ),
    ],
)
def test_error_messages_per_release(text: bytes, number: int, headline: str) -> None:
    with pytest.raises(SampleTextSyntaxError) as caught:
        read(text, number)
    assert caught.value.headline() == headline


def test_counter_overflow_is_located_and_reported_after_reading() -> None:
    with pytest.raises(MalformedError) as caught:
        read(b"main:10:0\n 1: 18446744073709551615\n 1: 1\n")
    err = caught.value
    assert err.headline() == "p.txt: Counter overflow"
    assert (err.location.line, err.location.field) == (3, "samples")
    assert not isinstance(err, SampleDiagnosticError)


@pytest.mark.parametrize(
    ("data", "recognized"),
    [
        (b"main:1:1\n", True),
        (b"#c\n\r\n\nmain:1:1", True),
        (b"  # indented comment first\nmain:1:1\n", False),
        (b"", False),
        (b"\0main:1:1\n", False),
        (b"x" * 5000 + b":1:1\n", True),
        (b"main:1:1\r\n", True),
        (b"main:1:1\r", False),  # a lone CR stays part of the line
    ],
)
def test_sniff(data: bytes, recognized: bool) -> None:
    assert sample_text.sniff(data) is recognized


def test_writer_vtables_and_flat_marker() -> None:
    text = b"main:10:0\n 1: 5\n 1: vtables b:4 a:3\n 2: inl:3\n  1: 3\n 2: vtables c:1\nf:1:0\n"
    profile = read(text)
    assert sample_text.write(profile) == (
        b"main:10:0\n 1: 5\n 1: vtables a:3 b:4 \n 2: inl:3\n  1: 3\n 2: vtables c:1 \nf:1:0\n"
    )
    flat = sample_text.write(profile, sample_text.TextWriteOptions(mark_flat=True))
    assert flat.endswith(b"f:1:0\n !Flat\n") and b"  1: 3\n 2: vtables c:1 \nf" in flat


def test_writer_cs_and_probe() -> None:
    text = b"[main:3.1 @ f:2 @ leaf]:9:1\n 1: 9\n !CFGChecksum: 4\n !Attributes: 2\n"
    profile = read(text)
    assert profile.is_cs and profile.is_probe_based and profile.is_preinlined
    assert sample_text.write(profile) == text
