"""Releases 13 and 15, as their real llvm-profdata behave.

Every expected text and digest here was printed or written by llvm-profdata 13.0.1 or
15.0.6 (Debian bookworm ``llvm-13``/``llvm-15``) on the same input:

* 15 shows a counter of 2**64-1 as a plain count (no ``<PseudoHot>``) and counts its
  record in the indexed summary, as 14 does (16 treats it as a pseudo count);
* 15 keeps writer context 0's profile kind when folding ``-j 2`` contexts, as 14 does;
* 15 nests CS sample profiles (``--gen-cs-nested-profile``) the way 16 does;
* options that came later are unknown: 13 ``--covered``, ``--memory``,
  ``--gen-cs-nested-profile``; 15 ``--show-format``, ``--json``, ``--profile-version``;
  ``--profiled-binary`` before 15;
* a 32-bit raw profile of clang 13 (version 7) holds an unpadded 28-byte binary id;
* 13 takes :entry_first from the last input, takes a text profile without a header as
  front-end, accepts ``!CFGChecksum`` only in top-level sample profiles, words errors
  without a reason and suggests only ``--sample`` for an unrecognized input;
* an empty value-profile target in a text profile is a "function name" before 19.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult

#: two IR records, one whose only counter is 2**64-1
PSEUDO_TEXT = ":ir\nmain\n2\n1\n18446744073709551615\n\nfoo\n1\n2\n4092\n198276\n\n"

SHOW_PSEUDO_15 = """\
Counters:
  main:
    Hash: 0x0000000000000002
    Counters: 1
    Block counts: [18446744073709551615]
  foo:
    Hash: 0x0000000000000001
    Counters: 2
    Block counts: [4092, 198276]
Instrumentation level: IR  entry_first = 0
Functions shown: 2
Total functions: 2
Maximum function count: 4092
Maximum internal block count: 198276
"""

#: sha256 of ``llvm-profdata merge`` 15's indexed output (its summary counts 2 functions)
MERGE_PSEUDO_15 = "6a6272d02e4815228ce6edaff69ba2a04b3ba4b799b81c2cbd500c966d5b458b"

#: sha256 of ``llvm-profdata merge -j 2 a b`` 15, a plain IR and an :entry_first IR profile
MERGE_KINDS_15 = "63a0b8194d6b73ec35ed1cfba022f77c2245cc6cad34e2fb3297db9dcb4bb2bc"


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_15_shows_an_all_ones_counter_as_a_count(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    text = _write(tmp_path, "pseudo.proftext", PSEUDO_TEXT)
    result = run_profdata("--llvm-release=15", "show", "--all-functions", "--counts", text)
    assert result.code == 0
    assert result.text == SHOW_PSEUDO_15


def test_15_summary_counts_the_all_ones_record(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    text = _write(tmp_path, "pseudo.proftext", PSEUDO_TEXT)
    out = tmp_path / "out.profdata"
    assert run_profdata("--llvm-release=15", "merge", text, "-o", str(out)).code == 0
    data = out.read_bytes()
    assert int.from_bytes(data[0x40:0x48], "little") == 2  # the summary's NumFunctions
    assert hashlib.sha256(data).hexdigest() == MERGE_PSEUDO_15


def test_15_keeps_the_first_contexts_kind(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    a = _write(tmp_path, "a.proftext", ":ir\nfoo\n1\n1\n5\n\n")
    b = _write(tmp_path, "b.proftext", ":ir\n:entry_first\nbar\n2\n1\n7\n\n")
    out = tmp_path / "out.profdata"
    assert run_profdata("--llvm-release=15", "merge", "-j", "2", a, b, "-o", str(out)).code == 0
    assert hashlib.sha256(out.read_bytes()).hexdigest() == MERGE_KINDS_15
    shown = run_profdata("--llvm-release=15", "show", str(out))
    assert shown.text.splitlines()[0] == "Instrumentation level: IR  entry_first = 0"


CS_SAMPLE = """\
[a:2 @ fn_30]:7:0
 4: 63
 7: 528 helper.llvm.42:5 zz:5 main:5
 !Attributes: 1
[a]:5:1
 9: 39139554
 2: 0 fn_30:5 fn_24:5
"""

#: ``llvm-profdata merge --sample --text --gen-cs-nested-profile`` 15 (16 writes the same;
#: 14 keeps the call targets of line 2 and ``fn_30`` as a top-level profile)
NESTED_15 = """\
a:12:1
 9: 39139554
 2: fn_30:7
  4: 63
  7: 528 helper.llvm.42:5 main:5 zz:5
  !Attributes: 1
"""


def test_15_nests_cs_profiles_like_16(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    text = _write(tmp_path, "cs.prof", CS_SAMPLE)
    out = tmp_path / "out.prof"
    args = ["merge", "--sample", "--text", "--gen-cs-nested-profile", text, "-o", str(out)]
    assert run_profdata("--llvm-release=15", *args).code == 0
    assert out.read_text() == NESTED_15


@pytest.mark.parametrize(
    ("release", "args"),
    [
        (13, ["show", "--covered"]),
        (13, ["show", "--memory"]),
        (13, ["merge", "--sample", "--gen-cs-nested-profile", "-o", "OUT"]),
        (13, ["merge", "--profiled-binary=x", "-o", "OUT"]),
        (14, ["merge", "--profiled-binary=x", "-o", "OUT"]),
        (14, ["show", "--profiled-binary=x"]),
        (15, ["show", "--show-format=json"]),
        (15, ["show", "--json"]),
        (15, ["show", "--profile-version"]),
    ],
)
def test_options_a_release_did_not_have(
    tmp_path: Path, run_profdata: Callable[..., CliResult], release: int, args: list[str]
) -> None:
    text = _write(tmp_path, "a.proftext", ":ir\nfoo\n1\n1\n5\n\n")
    argv = [str(tmp_path / "o") if a == "OUT" else a for a in args]
    result = run_profdata(f"--llvm-release={release}", *argv, text)
    option = next(a for a in args if a.startswith("--"))
    if option == "--sample":
        option = args[2]
    command = args[0]
    assert result.code == 1
    assert (
        result.stderr.splitlines()[0]
        == (
            f"llvm-profdata {command}: Unknown command line argument '{option}'.  "
            f"Try: 'llvm-profdata {command} --help'"
        ).encode()
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("release", [15])
def test_15_accepts_profiled_binary(
    tmp_path: Path, run_profdata: Callable[..., CliResult], release: int
) -> None:
    text = _write(tmp_path, "a.proftext", ":ir\nfoo\n1\n1\n5\n\n")
    out = tmp_path / "o"
    args = ["merge", "--profiled-binary=x", text, "-o", str(out)]
    assert run_profdata(f"--llvm-release={release}", *args).code == 0


#: ``clang-13 -m32 -O2 -fprofile-generate`` of fixtures/src/branches.c, run with 200: raw
#: version 7, BinaryIdsSize 28 (an 8-byte length and a 20-byte build id, no padding)
RAW_V7_M32 = bytes.fromhex(
    "8152666f72706cff07000000000000011c000000000000000500000000000000000000000000000016000000"
    "0000000000000000000000003300000000000000d01005080000000090fa0408000000000100000000000000"
    "1400000000000000d162d0605e9d424aaf685489baa515b771273f0b955eb1a053812b49488539bd680a140d"
    "d0100508f093040800000000030000000000000000000000de6a20aa7f2e36fb16cfaf66f2ab150be8100508"
    "80940408000000000600000000000000000000005c2debca34404878676897ac435ae10a18110508f0940408"
    "000000000200000000000000000000009dbee735db507ccc4885391d3eaa0902281105085095040800000000"
    "020000000000000000000000fad58de7366495db7f36dadf7c19150638110508c09504080000000009000000"
    "0000000000000000e220000000000000c8000000000000001b160000000000000200000000000000c8000000"
    "000000007700000000000000140000000000000014000000000000001300000000000000d101000000000000"
    "e80000000000000000000000000000000000000000000000fa00000000000000c800000000000000c8000000"
    "00000000ca00000000000000bf00000000000000010000000000000001000000000000000000000000000000"
    "5100000000000000293178da4bcecfc9492ca98a2f2e492d28664c2f4a4c49654ccb4c62cc4b2d4b2d8a4f4e"
    "ccc9494d61cc4dcccc030048700f490000000000"
)

SHOW_RAW_V7_M32_13 = (
    """\
Counters:
  collatz_steps:
    Hash: 0x0d140a68bd398548
    Counters: 3
    Block counts: [8418, 200, 5659]
  grade:
    Hash: 0x0b15abf266afcf16
    Counters: 6
    Block counts: [2, 200, 119, 20, 20, 19]
  fib:
    Hash: 0x0ae15a43ac976867
    Counters: 2
    Block counts: [465, 232]
  never_called:
    Hash: 0x0209aa3e1d398548
    Counters: 2
    Block counts: [0, 0]
  main:
    Hash: 0x0615197cdfda367f
    Counters: 9
    Block counts: [250, 200, 200, 202, 191, 1, 1, 0, 81]
Instrumentation level: IR  entry_first = 0
Functions shown: 5
Total functions: 5
Maximum function count: 8418
Maximum internal block count: 5659
"""
    + "Binary IDs: \nd162d0605e9d424aaf685489baa515b771273f0b\n"
)


def test_13_reads_an_unpadded_binary_id(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    raw = tmp_path / "m32.profraw"
    raw.write_bytes(RAW_V7_M32)
    args = ["show", "--all-functions", "--counts", "--binary-ids", str(raw)]
    result = run_profdata("--llvm-release=13", *args)
    assert result.code == 0, result.stderr
    assert result.text == SHOW_RAW_V7_M32_13


MERGED_13 = """\
# IR level Instrumentation Flag
:ir
{entry_first}bar
# Func Hash:
2
# Num Counters:
1
# Counter Values:
7

foo
# Func Hash:
1
# Num Counters:
1
# Counter Values:
5

"""
ENTRY_FIRST_LINES = "# Always instrument the function entry block\n:entry_first\n"


@pytest.mark.parametrize(("order", "entry_first"), [("ab", False), ("ba", True)])
def test_13_takes_entry_first_from_the_last_input(
    tmp_path: Path, run_profdata: Callable[..., CliResult], order: str, entry_first: bool
) -> None:
    """13 sets the entry-block flag from each input in turn (14 keeps it once seen)."""
    inputs = {
        "a": _write(tmp_path, "ef.proftext", ":ir\n:entry_first\nbar\n2\n1\n7\n\n"),
        "b": _write(tmp_path, "plain.proftext", ":ir\nfoo\n1\n1\n5\n\n"),
    }
    out = tmp_path / "out.proftext"
    args = ["merge", "--text", *(inputs[k] for k in order), "-o", str(out)]
    assert run_profdata("--llvm-release=13", *args).code == 0
    assert out.read_text() == MERGED_13.format(entry_first=ENTRY_FIRST_LINES * entry_first)
    assert run_profdata("--llvm-release=14", *args).code == 0
    assert out.read_text() == MERGED_13.format(entry_first=ENTRY_FIRST_LINES)


#: an indirect-call site whose target name is empty
EMPTY_TARGET = ":ir\nfoo\n1\n1\n5\n1\n0\n1\n1\n:3\n"


@pytest.mark.parametrize(
    ("release", "text", "message"),
    [
        (13, ":ir\nfoo\nxx\n1\n5\n", "malformed instrumentation profile data"),
        (14, ":ir\nfoo\nxx\n1\n5\n", "malformed instrumentation profile data: function hash "
                                     "is not a valid integer"),
        (13, EMPTY_TARGET, "malformed instrumentation profile data"),
        (15, EMPTY_TARGET, "malformed instrumentation profile data: function name is empty"),
        (16, EMPTY_TARGET, "malformed instrumentation profile data: function name is empty"),
        (19, EMPTY_TARGET, "malformed instrumentation profile data: symbol name is empty"),
    ],
)  # fmt: skip
def test_malformed_text_wording(
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
    release: int,
    text: str,
    message: str,
) -> None:
    """13's errors carry no reason; an empty target is a "function" name before 19."""
    path = _write(tmp_path, "bad.proftext", text)
    result = run_profdata(f"--llvm-release={release}", "show", path)
    assert result.code == 1
    assert result.stderr.splitlines()[0] == f"error: {path}: {message}".encode()


def test_13_format_hint_has_no_memory_option(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(200, 256)) * 2)
    good = _write(tmp_path, "a.proftext", ":ir\nfoo\n1\n1\n5\n\n")
    result = run_profdata("--llvm-release=13", "overlap", str(garbage), good)
    assert result.code == 1
    assert result.stderr.splitlines()[:2] == [
        b"error: error in getting profile count sums: unrecognized instrumentation profile "
        b"encoding format",
        b"note: Perhaps you forgot to use the --sample option?",
    ]


def test_13_takes_a_headerless_text_profile_as_front_end(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    ir = _write(tmp_path, "a.proftext", ":ir\nfoo\n1\n1\n5\n\n")
    plain = _write(tmp_path, "nohdr.proftext", "foo\n1\n1\n5\n\n")
    out = tmp_path / "o.profdata"
    result = run_profdata("--llvm-release=13", "merge", ir, plain, "-o", str(out))
    assert result.code == 1
    assert result.stderr.splitlines()[:2] == [
        f"warning: {plain}: Merge IR generated profile with Clang generated profile.".encode(),
        b"error: no profile can be merged",
    ]
    assert run_profdata("--llvm-release=14", "merge", ir, plain, "-o", str(out)).code == 0


def test_13_reads_checksums_of_top_level_profiles_only(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    text = "main:10:1\n 1: 5\n 2: foo:4\n  1: 4\n  !CFGChecksum: 7\n !CFGChecksum: 9\n"
    path = _write(tmp_path, "nested.prof", text)
    result = run_profdata("--llvm-release=13", "show", "--sample", path)
    assert result.code == 1
    assert (
        result.stderr.splitlines()[0]
        == (
            f"error: {path}:5: Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*', "
            "found   !CFGChecksum: 7"
        ).encode()
    )
    shown = run_profdata("--llvm-release=14", "show", "--sample", path)
    assert shown.code == 0
    assert shown.text.startswith("Function: main: CFG checksum 9\n")


def test_correlation_counters_size_is_lowercase_hex(monkeypatch: pytest.MonkeyPatch) -> None:
    """llvm-profdata 14 to 22 print ``Counters section size: 0xb0 bytes`` (clang 15's
    ``-mllvm -debug-info-correlate`` build of fixtures/src/branches.c)."""
    from profdata.ops import show_correlation

    class Found:
        counters_section_size = 0xB0
        symbol_names = ()

        def __len__(self) -> int:
            return 5

        def name_table(self) -> None:
            pass

    monkeypatch.setattr(show_correlation, "load_correlation", lambda *a, **k: Found())
    text = show_correlation.show_debug_info("prog", detailed_summary=True)
    assert text == "Counters section size: 0xb0 bytes\nFound 5 functions\n"
