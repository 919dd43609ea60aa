"""Numbers of thousands of digits, in text profiles and on the command line.

Python's ``int()`` refuses decimal strings of more than 4300 digits with a
``ValueError`` (and is quadratic below that), so a profile line of 5000 nines
once crashed ``show`` with a traceback.  LLVM's ``getAsInteger`` reads any
length: too large is a parse error, and leading zeros count for nothing (5000
zeros and a 5 is 5).  Each case states our exit status and the error's first
words; when llvm-profdata 22 is installed, stdout and the first stderr line
must also be its own.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

NINES = "9" * 5000
ZEROS = "0" * 5000


def _instr_text(hash_text: str, counts: list[str]) -> str:
    return f"foo\n# Func Hash:\n{hash_text}\n# Num Counters:\n{len(counts)}\n" + "".join(
        f"{c}\n" for c in counts
    )


def _sample_text(body: str) -> str:
    return f"main:100:10\n{body}\n"


#: (id, file name, file text, argv with FILE for the file, exit status, stderr start)
CASES = [
    ("instr-hash", "p.proftext", _instr_text(NINES, ["1"]), ["show", "FILE"], 1,
     "error: FILE: malformed instrumentation profile data: function hash is not a valid"),
    ("instr-count", "p.proftext", _instr_text("1", [NINES, "2"]), ["show", "FILE"], 1,
     "error: FILE: malformed instrumentation profile data: count is invalid"),
    ("instr-leading-zeros", "p.proftext", _instr_text(ZEROS + "7", [ZEROS + "5", "3"]),
     ["show", "--all-functions", "--counts", "FILE"], 0, ""),
    ("sample-body-count", "p.txt", _sample_text(f" 1: {NINES}"), ["show", "--sample", "FILE"],
     1, "error: FILE:2: Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*'"),
    ("sample-offset", "p.txt", _sample_text(f" {NINES}: 5"), ["show", "--sample", "FILE"],
     1, "error: FILE:2: Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*'"),
    ("sample-target", "p.txt", _sample_text(f" 1: 5 foo:{NINES}"), ["show", "--sample", "FILE"],
     1, "error: FILE:2: Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*'"),
    ("sample-leading-zeros", "p.txt", _sample_text(f" {ZEROS}1.{ZEROS}2: {ZEROS}5 f:{ZEROS}3"),
     ["show", "--sample", "--all-functions", "FILE"], 0, ""),
    ("option-value-cutoff", "p.proftext", _instr_text("1", ["1"]),
     ["show", f"--value-cutoff={NINES}", "FILE"], 1,
     "llvm-profdata: for the --value-cutoff option: '"),
    ("option-weight", "p.proftext", _instr_text("1", ["1"]),
     ["merge", f"--weighted-input={NINES},FILE", "-o", "OUT"], 1,
     "error: input weight must be a positive integer"),
    ("option-weight-leading-zeros", "p.proftext", _instr_text("1", ["1"]),
     ["merge", "--text", f"--weighted-input={ZEROS}3,FILE", "-o", "-"], 0, ""),
    ("option-overlap-cutoff", "p.proftext", _instr_text("1", ["1"]),
     ["overlap", f"--value-cutoff={NINES}", "FILE", "FILE"], 1,
     "llvm-profdata: for the --value-cutoff option: '"),
]  # fmt: skip


def _argv(argv: list[str], path: Path, out: Path) -> list[str]:
    return [a.replace("FILE", str(path)).replace("OUT", str(out)) for a in argv]


@pytest.mark.parametrize(("name", "file", "text", "argv", "code", "stderr"), CASES,
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_long_numbers(
    name: str,
    file: str,
    text: str,
    argv: list[str],
    code: int,
    stderr: str,
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
) -> None:
    path = tmp_path / file
    path.write_text(text)
    out = tmp_path / "out.profdata"
    result = run_profdata("--llvm-release=22", *_argv(argv, path, out))
    assert result.code == code, result.stderr
    first = result.stderr.decode("utf-8", "replace").splitlines()[:1]
    assert (first[0] if first else "").startswith(stderr.replace("FILE", str(path)))
    if code == 0:
        assert b"Traceback" not in result.stderr
        if "--all-functions" in argv:
            assert b"\n" in result.stdout and NINES[:30].encode() not in result.stdout
    llvm = tools.find_llvm_profdata(22)
    if llvm is None:
        return  # the real tool decides the rest where it is installed (CI)
    real = subprocess.run(
        [str(llvm), *_argv(argv, path, tmp_path / "llvm.profdata")], capture_output=True
    )
    assert real.returncode == code
    assert result.stdout == real.stdout
    assert result.stderr.splitlines()[:1] == real.stderr.splitlines()[:1]
