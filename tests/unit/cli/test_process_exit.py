"""How the ``profdata`` process ends: its status, the last bytes of its streams, and
standard output that refuses them (``/dev/full``), which llvm-profdata reports as
``IO failure on output stream`` with status 1."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.compat.tools import find_llvm_profdata

SHOW = Path(__file__).resolve().parents[2] / "golden" / "show"
IR = str(SHOW / "inputs" / "ir.proftext")
SAMPLE = str(SHOW.parent / "sample_formats" / "inputs" / "inline.txt")
FULL = Path("/dev/full")
#: buffered standard streams, as on a terminal or a pipe without PYTHONUNBUFFERED
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _run(*argv: str, stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, *argv], stdout=stdout, stderr=subprocess.PIPE, env=BUFFERED, check=False
    )


def test_leave_flushes_both_streams_and_keeps_the_status() -> None:
    """The process ends without the interpreter's tear-down: what sits in the buffers of
    stdout and stderr still arrives, and the status is the command's."""
    code = (
        "import sys; from profdata.cli import leave; "
        "sys.stdout.write('out' * 1000); sys.stderr.write('err'); leave(3)"
    )
    done = _run("-c", code)
    assert (done.returncode, done.stdout, done.stderr) == (3, b"out" * 1000, b"err")


def test_show_output_is_complete_and_status_zero() -> None:
    done = _run("-m", "profdata", "show", "--all-functions", "--counts", IR)
    expected = (SHOW / "expected" / "ir" / "all-counts.r22.stdout").read_bytes()
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, b"")


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "argv",
    [
        ["show", "--all-functions", "--counts", IR],  # the command's output, written at once
        ["show", "--sample", SAMPLE],  # a stream of pieces, written in batches
        ["--version"],  # a print() of the command line layer
        ["merge", "--dump-input-file-list", IR, "-o", "unused"],
    ],
    ids=["show", "show-sample", "version", "dump-input-file-list"],
)
def test_a_full_standard_output_is_a_one_line_error(argv: list[str]) -> None:
    with FULL.open("wb") as full:
        done = _run("-m", "profdata", *argv, stdout=full.fileno())
    assert done.returncode == 1
    assert done.stderr == b"error: IO failure on output stream: No space left on device\n"


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
def test_leave_reports_a_buffered_write_that_fails() -> None:
    """Text still in stdout's buffer when the command returns meets the full disk at the
    last flush: reported, and a successful status becomes 1."""
    code = "import sys; from profdata.cli import leave; sys.stdout.write('x'); leave(0)"
    with FULL.open("wb") as full:
        done = _run("-c", code, stdout=full.fileno())
    assert done.returncode == 1
    assert done.stderr == b"error: IO failure on output stream: No space left on device\n"


def _reader_leaves(argv: list[str]) -> tuple[int, bytes]:
    """Run ``argv`` with a standard output whose reader has left before anything is
    written to it (``show | head -c0``); its status and standard error."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=BUFFERED)
    assert proc.stdout is not None and proc.stderr is not None
    with proc:
        proc.stdout.close()
        err = proc.stderr.read()
    return proc.returncode, err


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this system")
def test_a_reader_that_leaves_ends_the_process_by_sigpipe() -> None:
    """``show | head``: the process dies of SIGPIPE without a word, as llvm-profdata does
    (a shell reports 141), not with a traceback or status 1."""
    argv = ["show", "--all-functions", "--counts", IR]
    status, err = _reader_leaves([sys.executable, "-m", "profdata", *argv])
    assert (status, err) == (-signal.SIGPIPE, b"")
    llvm = find_llvm_profdata(22)
    if llvm is not None:  # the behaviour mirrored, where the real tool is at hand
        assert _reader_leaves([str(llvm), *argv]) == (-signal.SIGPIPE, b"")


def test_main_in_process_returns_the_shell_status_of_sigpipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Called as a function, ``main`` does not kill its caller: it returns the status a
    shell shows for llvm-profdata there."""
    from profdata.cli import READER_LEFT, main

    class Left(io.StringIO):
        def write(self, _text: str) -> int:
            raise BrokenPipeError

        def fileno(self) -> int:
            return -1

    monkeypatch.setattr(sys, "stdout", Left())
    monkeypatch.setattr(os, "dup2", lambda *_args: None)  # no real stream to silence
    assert main(["--version"]) == READER_LEFT == 141


def test_a_sample_dump_does_not_import_numpy_ma() -> None:
    """``np.unique`` and ``np.setdiff1d`` import ``numpy.ma`` (10 ms of a 0.25 s
    ``show``); the sample dump does without them."""
    code = (
        "import sys, numpy; ma = 'numpy.ma' in sys.modules; from profdata.cli import main; "
        f"main(['show', '--sample', {SAMPLE!r}]); "
        "sys.stderr.write('skip' if ma else str('numpy.ma' in sys.modules))"
    )
    done = _run("-c", code)
    if done.stderr == b"skip":
        pytest.skip("this numpy imports numpy.ma itself")
    assert (done.returncode, done.stderr) == (0, b"False")
