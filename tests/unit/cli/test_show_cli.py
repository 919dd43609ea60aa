"""``profdata show`` command line: LLVM spellings, release gates, refusals, -o, JSON.

Expected texts are llvm-profdata's (goldens of ``tests/golden/show``) or the
wording llvm-profdata prints on stderr for the same arguments.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult

SHOW = Path(__file__).resolve().parents[2] / "golden" / "show"
IR = str(SHOW / "inputs" / "ir.proftext")
TIES = str(SHOW / "inputs" / "ties.proftext")

Run = Callable[..., CliResult]


def golden(name: str, slug: str, number: int = 22) -> bytes:
    return (SHOW / "expected" / name / f"{slug}.r{number}.stdout").read_bytes()


@pytest.mark.parametrize(
    "argv",
    [
        ["--all-functions", "--counts"],
        ["-all-functions", "-counts"],
        ["--all-functions=true", "--counts=1", "--ic-targets=false"],
        ["-all-functions=TRUE", "--counts", "--instr"],
    ],
)
def test_llvm_spellings_of_flags(run: Run, argv: list[str]) -> None:
    result = run("show", *argv, IR)
    assert (result.code, result.stdout) == (0, golden("ir", "all-counts"))


@pytest.mark.parametrize("argv", [["--topn=3"], ["-topn=3"], ["--topn", "3"], ["-topn", "3"]])
def test_llvm_spellings_of_values(run: Run, argv: list[str]) -> None:
    result = run("show", *argv, IR)
    assert (result.code, result.stdout) == (0, golden("ir", "topn"))


def test_response_file(run: Run, tmp_path: Path) -> None:
    rsp = tmp_path / "args.rsp"
    rsp.write_text(f"--value-cutoff=51 --all-functions\n--counts {IR}\n")
    result = run("show", f"@{rsp}")
    assert result.stdout == golden("ir", "value-cutoff")


def test_output_file(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "show.txt"
    result = run("show", "--detailed-summary", "-o", str(out), IR)
    assert (result.code, result.stdout) == (0, b"")
    assert out.read_bytes() == golden("ir", "detailed")
    result = run("show", f"--output={out}", "--covered", IR)
    assert out.read_bytes() == golden("ir", "covered")


def test_function_with_all_functions_warns(run: Run) -> None:
    result = run("show", "--function=a", "--all-functions", IR)
    assert result.stdout == golden("ir", "function-and-all")
    assert result.stderr == b"warning: -function argument ignored: showing all functions\n"


@pytest.mark.parametrize(
    ("number", "arg"),
    [
        (14, "--show-vtables"),
        (14, "--temporal-profile-traces"),
        (14, "--profile-version"),
        (14, "--show-format=text"),
        (14, "--json"),
        (14, "--profiled-binary=a.out"),
        (16, "--show-vtables"),
        (16, "--temporal-profile-traces"),
        (16, "--max-debug-info-correlation-warnings=3"),
    ],
)
def test_options_a_release_did_not_have(run: Run, number: int, arg: str) -> None:
    result = run(f"--llvm-release={number}", "show", arg, IR)
    assert (result.code, result.stdout) == (1, b"")
    message = f"llvm-profdata show: Unknown command line argument '{arg}'."
    assert message in result.stderr.decode()


@pytest.mark.parametrize(
    ("number", "arg", "slug"),
    [(16, "--profile-version", "version"), (19, "--show-vtables", "all-vtables")],
)
def test_options_a_release_had(run: Run, number: int, arg: str, slug: str) -> None:
    argv = ["--all-functions", "--ic-targets"] if slug == "all-vtables" else []
    result = run(f"--llvm-release={number}", "show", *argv, arg, IR)
    assert (result.code, result.stdout) == (0, golden("ir", slug, number))


def test_sample_only_options_are_accepted_and_ignored(run: Run) -> None:
    """llvm-profdata 22 prints the plain summary for these on an instr profile."""
    result = run("show", "--show-prof-sym-list", "--show-sec-info-only", IR)
    assert (result.code, result.stdout) == (0, golden("ir", "default"))


@pytest.mark.parametrize(
    ("arg", "words"),
    [
        ("--sample", "Unrecognized sample profile encoding format"),
        ("--memory", "ir.proftext: invalid instrumentation profile data (bad magic)"),
        ("--debug-info=a.out", "error: a.out: No such file or directory"),
        ("--show-format=yaml", "YAML output is not supported for instr profiles"),
    ],
)
def test_refusals(run: Run, arg: str, words: str) -> None:
    result = run("show", arg, IR)
    assert (result.code, result.stdout) == (1, b"")
    assert words in result.stderr.decode()


def test_positional_argument_errors(run: Run, tmp_path: Path) -> None:
    none = run("show", "--all-functions")
    assert none.code == 1
    assert "the positional argument '<profdata-file>' is required" in none.stderr.decode()
    two = run("show", IR, TIES)
    assert two.code == 1
    assert "Too many positional arguments specified!" in two.stderr.decode()
    missing = run("show", str(tmp_path / "nope.proftext"))
    assert missing.code == 1
    assert "nope.proftext: No such file or directory" in missing.stderr.decode()


@pytest.mark.parametrize(
    "arg",
    ["--topn=-1", "--value-cutoff=abc", "--detailed-summary-cutoffs=abc", "--topn=4294967296"],
)
def test_bad_unsigned_values(run: Run, arg: str) -> None:
    result = run("show", arg, IR)
    assert (result.code, result.stdout) == (1, b"")
    assert "value invalid for uint argument!" in result.stderr.decode()


def test_hot_list_without_a_99_percent_cutoff(run: Run) -> None:
    result = run("show", "--hot-func-list", "--detailed-summary-cutoffs=500000", TIES)
    assert (result.code, result.stdout) == (1, b"")
    assert "Desired percentile exceeds the maximum cutoff" in result.stderr.decode()


@pytest.mark.parametrize("spelling", [["--show-format=json"], ["--json"], ["-show-format", "json"]])
def test_json_output(run: Run, spelling: list[str]) -> None:
    result = run("show", *spelling, "--all-functions", "--topn=2", IR)
    assert result.code == 0
    doc = json.loads(result.stdout)
    assert doc["schema"] == "profdata.show.instr/1"
    assert [f["name"] for f in doc["functions"]] == ["main", "foo", "bar", "zero", "alpha", "tie1"]
    assert doc["top_functions"] == [
        {"name": "main", "max_count": 100},
        {"name": "foo", "max_count": 60},
    ]


def test_json_and_text_dump_do_not_mix(run: Run) -> None:
    result = run("show", "--show-format=json", "--text", IR)
    assert (result.code, result.stdout) == (1, b"")


def test_json_is_refused_where_the_release_has_no_show_format(run: Run) -> None:
    result = run("--llvm-release=14", "show", "--show-format=json", IR)
    assert result.code == 1


@pytest.fixture
def run(run_profdata: Run) -> Run:
    return run_profdata


@pytest.mark.parametrize(
    ("command", "number", "note"),
    [
        (["show"], 22, "--sample or --memory option"),
        (["show"], 13, "--sample option"),
        (["order"], 19, "--sample or --memory option"),
        (["show", "--sample"], 22, None),
    ],
)
def test_unrecognized_input_note(
    run: Run, tmp_path: Path, command: list[str], number: int, note: str | None
) -> None:
    """``exitWithError``'s hint after an instrumentation input no reader recognizes (the
    lines llvm-profdata 13/19/22 print; a sample reader's refusal has no hint)."""
    bad = tmp_path / "bad.bin"
    bad.write_bytes(bytes(range(200, 256)) * 2)
    result = run(f"--llvm-release={number}", *command, str(bad))
    lines = result.stderr.decode().splitlines()
    assert result.code == 1 and result.stdout == b""
    if note is None:
        assert lines[0] == f"error: {bad}: Unrecognized sample profile encoding format"
        assert not any(line.startswith("note: ") for line in lines)
        return
    assert lines[:2] == [
        f"error: {bad}: unrecognized instrumentation profile encoding format",
        f"note: Perhaps you forgot to use the {note}?",
    ]
    assert lines[2].startswith(f"  detail: {bad}: ")


def test_bytes_of_a_quoted_line_come_back_as_they_were(tmp_path: Path) -> None:
    """A bad line quoted in an error keeps its bytes (llvm-profdata prints them raw), also
    when they are not UTF-8; run as a process, where stderr is a real stream."""
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"main:100:10\n 1: 5\xe8x0\n")
    result = subprocess.run(
        [sys.executable, "-m", "profdata", "show", "--sample", str(bad)],
        capture_output=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        f"error: {bad}:2: Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*', found  1: 5".encode()
        + b"\xe8x0"
    )


SAME = b"llvm-profdata %s: Input file name cannot be the same as the output file name!\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "-o", "@P", "@P"],  # llvm-profdata's own check: the names as typed
        ["show", "--sample", "--output=@P", "@P"],
        ["show", "-o", "./@P", "@P"],  # LLVM truncates the profile here; refused too
        ["overlap", "-o", "@P", "@P", IR],  # LLVM truncates the base profile
        ["overlap", "--sample", "-o", "@P", IR, "./@P"],
        ["order", "-o", "@P", "@P"],
    ],
)
def test_output_over_an_input_is_refused_and_the_input_kept(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    profile = Path(IR).read_bytes()
    (tmp_path / "in.proftext").write_bytes(profile)
    result = run(*[word.replace("@P", "in.proftext") for word in argv])
    assert (result.code, result.stderr) == (1, SAME % argv[0].encode())
    assert (tmp_path / "in.proftext").read_bytes() == profile
    assert list(tmp_path.iterdir()) == [tmp_path / "in.proftext"]


def test_show_of_standard_input_to_standard_output_is_refused(run: Run) -> None:
    """``show -`` with no ``-o``: input and output are both named ``-``."""
    assert (run("show", "-").code, run("show", "-").stderr) == (1, SAME % b"show")


SAMPLE_TEXT = b"main:100:10\n 1: 50\n 2: 30 foo:20\n 3: foo:5\n  1: 5\n"
#: llvm-profdata 22's ``show --sample -o FILE -`` of SAMPLE_TEXT on standard input
SAMPLE_SHOWN = (
    b"Function: main: 100, 10, 2 sampled lines\n"
    b"Samples collected in the function's body {\n  1: 50\n  2: 30, calls: foo:20\n}\n"
    b"Samples collected in inlined callsites {\n"
    b"  3: inlined callee: foo: 5, 0, 1 sampled lines\n"
    b"    Samples collected in the function's body {\n      1: 5\n    }\n"
    b"    No inlined callsites in this function\n}\n"
)


@pytest.mark.parametrize(
    ("argv", "stdin", "expected"),
    [
        (["show", "--all-functions", "--counts"], Path(IR).read_bytes(), None),
        (["show", "--sample"], SAMPLE_TEXT, SAMPLE_SHOWN),
        (["merge", "--sample", "--text"], SAMPLE_TEXT, SAMPLE_TEXT),
    ],
)
def test_an_input_named_dash_is_standard_input(
    tmp_path: Path, argv: list[str], stdin: bytes, expected: bytes | None
) -> None:
    """``show -o FILE -`` and ``merge --sample -o FILE -`` read the profile from standard
    input, as LLVM 22 does."""
    out = tmp_path / "out.txt"
    done = subprocess.run(
        [sys.executable, "-m", "profdata", *argv, "-o", str(out), "-"],
        input=stdin, capture_output=True, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, b"")
    assert out.read_bytes() == (golden("ir", "all-counts") if expected is None else expected)
