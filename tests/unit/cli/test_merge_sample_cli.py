"""``profdata merge --sample`` through the CLI: options, defaults, warnings, refusals.

Expected bytes come from the goldens the real llvm-profdata recorded
(``tests/golden/sample/expected``); the compat tests run the real tool on
the same command line and compare exit status, written bytes and the
warning/error lines.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import CliResult

SAMPLE = Path(__file__).resolve().parents[2] / "golden" / "sample"
FLAT = str(SAMPLE / "inputs" / "corpus-flat.txt")
INLINE = str(SAMPLE / "inputs" / "corpus-inline.txt")
CS = str(SAMPLE / "inputs" / "corpus-cs.txt")
SYMLIST = str(SAMPLE / "inputs" / "symlist.list")


@cache
def golden(number: int, name: str, case: str) -> dict[str, object]:
    results: dict[str, dict[str, dict[str, object]]] = json.loads(
        (SAMPLE / "expected" / f"l{number}.json").read_text()
    )
    return results[name][case]


def golden_bytes(number: int, name: str, case: str) -> bytes:
    return bytes.fromhex(str(golden(number, name, case)["stdout"]))


@pytest.mark.parametrize(
    ("number", "case"),
    [(14, "binary"), (16, "binary"), (19, "extbin-default"), (22, "extbin-default")],
)
def test_default_output_format(
    number: int, case: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    out = tmp_path / "out.prof"
    got = run_profdata(f"--llvm-release={number}", "merge", "--sample", FLAT, "-o", str(out))
    assert (got.code, got.stderr) == (0, b"")
    assert out.read_bytes() == golden_bytes(number, "corpus-flat", case)


@pytest.mark.parametrize(
    ("options", "case"),
    [
        (["--use-md5"], "extbin-md5"),
        (["--compress-all-sections"], "extbin-compress"),
        (["--gen-partial-profile"], "extbin-partial"),
        ([f"--prof-sym-list={SYMLIST}"], "extbin-symlist"),
        (["-use-md5", "-split-layout", "-compress-all-sections"], "extbin-split-all"),
    ],
)
def test_extbinary_options(
    options: list[str], case: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    out = tmp_path / "out.extbin"
    got = run_profdata("merge", "--sample", "--extbinary", *options, INLINE, "-o", str(out))
    assert got.code == 0
    assert out.read_bytes() == golden_bytes(22, "corpus-inline", case)


def test_extbinary_to_stdout(run_profdata: Callable[..., CliResult]) -> None:
    got = run_profdata("merge", "--sample", "--extbinary", "--use-md5", CS, "-o", "-")
    assert got.code == 0
    assert got.stdout == golden_bytes(22, "corpus-cs", "extbin-md5")


def unwritable_message() -> str:
    """LLVM's words for a profile the format cannot hold (recorded with a scratch path)."""
    return str(golden(22, "corpus-cs", "binary")["stderr"]).splitlines()[0].rsplit(": ", 1)[1]


@pytest.mark.parametrize(("fmt", "source"), [("--binary", CS), ("--gcc", FLAT)])
def test_unwritable_output_is_refused(
    fmt: str, source: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    out = tmp_path / "out.prof"
    got = run_profdata("merge", "--sample", fmt, source, "-o", str(out))
    assert got.code == 1
    assert got.stderr.decode().splitlines()[0] == f"error: {out}: {unwritable_message()}"
    assert not out.exists()


@pytest.mark.parametrize(
    ("number", "option"),
    [
        (14, "--drop-profile-symbol-list"),
        (16, "--output-size-limit=100"),
        (19, "--split-layout"),
        (16, "--convert-sample-profile-layout=flat"),
        (19, "--gen-cs-nested-profile"),
        (19, "--compbinary"),
    ],
)
def test_options_a_release_did_not_have(
    number: int, option: str, run_profdata: Callable[..., CliResult]
) -> None:
    got = run_profdata(f"--llvm-release={number}", "merge", "--sample", option, FLAT, "-o", "-")
    assert got.code == 1
    assert f"Unknown command line argument '{option}'" in got.stderr.decode()
    assert not got.stderr.startswith(b"error: ")


#: command lines run by both tools; OUT is the output file
COMPAT_RUNS: list[tuple[int, list[str]]] = [
    (22, ["--binary", "--split-layout", "--use-md5", "--compress-all-sections",
          f"--prof-sym-list={SYMLIST}", "--gen-partial-profile", FLAT]),
    (14, ["--text", "--use-md5", f"--prof-sym-list={SYMLIST}", FLAT]),
    (22, ["--text", "--split-layout", INLINE]),
    (22, ["--extbinary", "--output-size-limit=190", INLINE]),
    (22, ["--text", "--output-size-limit=120", INLINE, FLAT]),
    (19, ["--binary", "--output-size-limit=150", FLAT]),
    (22, ["--extbinary", "--output-size-limit=100", FLAT]),
    (22, ["--extbinary", "--function=main", "--no-function=foo", FLAT, INLINE]),
    (22, ["--extbinary", CS, FLAT]),
    (16, ["--extbinary", "--weighted-input=3," + FLAT, INLINE]),
    (22, ["--extbinary", "--drop-profile-symbol-list", FLAT]),
    (14, ["--gcc", FLAT]),
    (22, ["--extbinary", "--output-size-limit=644", INLINE, FLAT]),
    (22, ["--text", "--output-size-limit=371", INLINE, FLAT]),
    (19, ["--binary", "--output-size-limit=248", FLAT]),
    (22, ["--extbinary", "--output-size-limit=441", CS]),
    (19, ["--extbinary", "--output-size-limit=551", CS]),
]  # fmt: skip


@pytest.mark.compat
@pytest.mark.parametrize(("number", "args"), COMPAT_RUNS)
def test_same_as_llvm_profdata(
    number: int,
    args: list[str],
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(number)
    theirs, ours = tmp_path / "theirs", tmp_path / "ours"
    proc = subprocess.run(
        [str(tool), "merge", "--sample", *args, "-o", str(theirs)], capture_output=True, timeout=60
    )
    got = run_profdata(f"--llvm-release={number}", "merge", "--sample", *args, "-o", str(ours))
    assert got.code == proc.returncode
    their_lines = proc.stderr.decode().replace(str(theirs), "OUT").splitlines()
    our_lines = [
        line
        for line in got.stderr.decode().replace(str(ours), "OUT").splitlines()
        if not line.startswith("  detail: ")
    ]
    assert our_lines == their_lines
    if proc.returncode == 0:
        assert ours.read_bytes() == theirs.read_bytes()
    else:
        assert not ours.exists()  # LLVM leaves an empty file; ours are atomic


@pytest.mark.compat
def test_reads_vtable_type_profiles(
    tmp_path: Path, llvm_profdata: Callable[[int], Path], run_profdata: Callable[..., CliResult]
) -> None:
    """LLVM 22 writes vtable type profiles after each level when its hidden option asks."""
    tool = str(llvm_profdata(22))
    source = str(SAMPLE / "inputs" / "edge-vtables.txt")
    extbin = tmp_path / "vt.extbin"
    subprocess.run(
        [tool, "merge", "--sample", "--extbinary", "-extbinary-write-vtable-type-prof",
         source, "-o", str(extbin)],
        check=True, timeout=60,
    )  # fmt: skip
    theirs = subprocess.run(
        [tool, "merge", "--sample", "--text", str(extbin), "-o", "-"],
        check=True, capture_output=True, timeout=60,
    ).stdout  # fmt: skip
    got = run_profdata("merge", "--sample", "--text", str(extbin), "-o", "-")
    assert got.code == 0
    assert b"vtables" in theirs
    assert got.stdout == theirs


@pytest.mark.compat
@pytest.mark.parametrize("number", [14, 16, 19, 22])
@pytest.mark.parametrize("source", [FLAT, CS, INLINE])
@pytest.mark.parametrize(
    "output", [["--extbinary"], ["--extbinary", "--use-md5"], ["--text"], ["--binary"]]
)
def test_md5_profiles_as_llvm_profdata(
    number: int,
    source: str,
    output: list[str],
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """MD5 names: hash values from 18 on, decimal strings before (sorted, hashed, and
    hashed again by --use-md5 like any name); alone and merged with a string profile."""
    tool = str(llvm_profdata(number))
    md5 = tmp_path / "md5.extbin"
    subprocess.run(
        [tool, "merge", "--sample", "--extbinary", "--use-md5", source, "-o", str(md5)],
        check=True, timeout=60,
    )  # fmt: skip
    for inputs in ([str(md5)], [str(md5), FLAT]):
        theirs, ours = tmp_path / "theirs", tmp_path / "ours"
        args = ["merge", "--sample", *output, *inputs]
        proc = subprocess.run([tool, *args, "-o", str(theirs)], capture_output=True, timeout=60)
        got = run_profdata(f"--llvm-release={number}", *args, "-o", str(ours))
        assert got.code == proc.returncode
        if proc.returncode == 0:
            assert ours.read_bytes() == theirs.read_bytes(), inputs
