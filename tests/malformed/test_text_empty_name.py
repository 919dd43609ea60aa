"""``merge --text`` of a profile holding a record with an empty name.

``InstrProfWriter::writeText`` writes the flag lines, then adds every written
record's name to a symbol table before it writes any record; an empty name fails
that, and ``llvm-profdata`` warns ("... function name is empty", "symbol name"
from 19) and keeps the file as it got it: the flag lines alone, exit status 0.
A damaged raw profile gives such a record (a NameRef no name hashes to); found
by ``tools/fuzz_llvm.py``.  With ``--sparse`` a record of zero counts is not
written, so its name does not count.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata.formats.indexed_write import write_indexed
from profdata.model.instr import InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind
from profdata.releases import release
from tests.conftest import CliResult

HEADER = b"# IR level Instrumentation Flag\n:ir\n"
WORDING = {14: "function", 16: "function", 19: "symbol", 22: "symbol"}


def _profile(empty_counts: list[int]) -> InstrProfile:
    records = [
        InstrRecord("main", 10, np.array([5, 2], dtype=np.uint64)),
        InstrRecord("", 11, np.array(empty_counts, dtype=np.uint64)),
    ]
    return InstrProfile(records=records, kind=ProfileKind.IR)


def _write(tmp_path: Path, rel: int, empty_counts: list[int]) -> Path:
    path = tmp_path / f"empty-{rel}.profdata"
    path.write_bytes(write_indexed(_profile(empty_counts), release=release(rel)))
    return path


@pytest.mark.parametrize("rel", [14, 22])
def test_the_text_stops_after_the_flag_lines(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path = _write(tmp_path, rel, [3])
    got = run_profdata(f"--llvm-release={rel}", "merge", "--text", str(path), "-o", "-")
    assert got.code == 0
    assert got.stdout == HEADER
    warning = f"warning: malformed instrumentation profile data: {WORDING[rel]} name is empty\n"
    assert got.stderr.decode() == warning


def test_a_record_sparse_leaves_out_does_not_count(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path = _write(tmp_path, 22, [0])
    got = run_profdata("merge", "--text", "--sparse", str(path), "-o", "-")
    assert (got.code, got.stderr) == (0, b"")
    assert got.stdout.startswith(HEADER + b"main\n")
    assert b"\n\n# Func Hash:\n11\n" not in got.stdout  # the empty-named record is not there


@pytest.mark.compat
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("empty_counts", [[3], [0]])
def test_as_llvm_profdata(
    rel: int,
    sparse: bool,
    empty_counts: list[int],
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    path = _write(tmp_path, rel, empty_counts)
    args = ["merge", "--text", *(["--sparse"] if sparse else []), str(path)]
    real_out, our_out = tmp_path / "real.txt", tmp_path / "our.txt"
    real = subprocess.run([str(tool), *args, "-o", str(real_out)], capture_output=True)
    ours = run_profdata(f"--llvm-release={rel}", *args, "-o", str(our_out))
    assert (ours.code, ours.stderr) == (real.returncode, real.stderr)
    assert our_out.read_bytes() == real_out.read_bytes()
