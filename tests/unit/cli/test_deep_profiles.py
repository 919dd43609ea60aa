"""Sample profiles nested thousands of levels deep, and Ctrl-C, through the command line.

A sample profile may nest inlined call sites to any depth; llvm-profdata's
recursive readers and printers follow them on its 8 MiB stack.  The console
command runs in a thread with a large stack and recursion limit
(:func:`profdata.cli.run_with_deep_stack`), so it follows them too; where
even that is not enough (or in-process, at Python's default limit) the
command fails with one clean line instead of a traceback.  Ctrl-C reaches
the main thread only and is passed on to the command, which exits 130
having cleaned up.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata import __version__
from profdata.cli import exit_status, run_with_deep_stack
from tests.compat import tools
from tests.conftest import CliResult

DEPTH = 1500


def deep_text_profile(depth: int) -> str:
    """``main`` inlining ``f1`` inlining ``f2`` ... ``f<depth>``, each with a body line."""
    lines = ["main:1000:10", " 1: 10"]
    for level in range(1, depth + 1):
        indent = " " * level
        lines.append(f"{indent}2: f{level}:{1000 - level % 500}")
        lines.append(f"{indent} 1: {level}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def deep(tmp_path: Path) -> Path:
    path = tmp_path / "deep.txt"
    path.write_text(deep_text_profile(DEPTH))
    return path


def test_a_deep_profile_is_followed_in_the_deep_thread(
    deep: Path, tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    out = tmp_path / "deep.extbinary"
    assert run_with_deep_stack(["merge", "--sample", "--extbinary", str(deep), "-o", str(out)]) == 0
    assert run_with_deep_stack(["show", "--sample", "--all-functions", str(out)]) == 0
    shown = capfdbinary.readouterr().out
    assert f"f{DEPTH}:".encode() in shown
    assert sys.getrecursionlimit() < 10_000  # restored afterwards
    llvm = tools.find_llvm_profdata(22)
    if llvm is not None:
        real = subprocess.run(
            [str(llvm), "show", "--sample", "--all-functions", str(out)], capture_output=True
        )
        assert real.returncode == 0
        assert shown == real.stdout


def test_past_the_recursion_limit_a_clean_error(
    deep: Path, run_profdata: Callable[..., CliResult]
) -> None:
    result = run_profdata("show", "--sample", str(deep))  # in-process: the default limit
    assert result.code == 1
    assert result.stderr.startswith(b"error: the profile nests deeper than profdata can follow")
    assert b"Traceback" not in result.stderr


_WAITING_COMMAND = (
    "import sys, threading, time\n"
    "import profdata.cli as cli\n"
    "def waiting(argv=None):\n"
    "    try:\n"
    "        sys.stderr.write('ready\\n'); sys.stderr.flush()\n"
    "        for _ in range(600):\n"
    "            time.sleep(0.05)  # bytecode between sleeps: where the interrupt lands\n"
    "        return 0\n"
    "    except KeyboardInterrupt:\n"
    "        sys.stderr.write('interrupted\\n')\n"
    "        return 130\n"
    "cli.main = waiting\n"
)


@pytest.mark.parametrize(
    "setup",
    [
        "",
        # the main thread held up right after starting the command (as on a busy machine):
        # the Ctrl-C arrives before it waits for the command, and must still reach it
        "size = threading.stack_size\n"
        "def slow_size(value=0):\n"
        "    if value != cli.DEEP_STACK: time.sleep(1.0)\n"
        "    return size(value)\n"
        "threading.stack_size = slow_size\n",
    ],
    ids=["waiting", "before-waiting"],
)
def test_ctrl_c_stops_the_command_with_130(setup: str) -> None:
    """The command (a stand-in that waits) gets the interrupt the main thread received."""
    script = _WAITING_COMMAND + setup + "sys.exit(cli.run_with_deep_stack([]))\n"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with subprocess.Popen(
        [sys.executable, "-c", script], stderr=subprocess.PIPE, env=env, text=True
    ) as proc:
        assert proc.stderr is not None
        assert proc.stderr.readline() == "ready\n"
        proc.send_signal(signal.SIGINT)
        rest = proc.stderr.read()
        assert proc.wait(timeout=30) == 130
    assert rest == "interrupted\n"


@pytest.mark.parametrize(
    ("command", "spelling"),
    [
        ("merge", "--help"),
        ("show", "-help"),
        ("overlap", "--help-hidden"),
        ("order", "--help"),
        ("merge", "-help-list"),
        ("show", "--help-list-hidden"),
    ],
)
def test_command_help_exits_zero_through_the_deep_stack_thread(
    command: str, spelling: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse ends ``--help`` with ``SystemExit(0)``, which a thread swallows: the
    command thread passes the status on, so ``profdata merge --help`` exits 0 as
    ``llvm-profdata merge --help`` does (it exited 1); cl's other help options too."""
    assert run_with_deep_stack([command, spelling]) == 0
    assert capsys.readouterr().out.startswith(f"usage: llvm-profdata {command}")


def test_exit_status_of_a_message_is_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert exit_status(SystemExit("went wrong")) == 1
    assert capsys.readouterr().err == "went wrong\n"
    assert exit_status(SystemExit(None)) == 0
    assert exit_status(SystemExit(2)) == 2


@pytest.mark.parametrize("spelling", ["--version", "-version"])
def test_command_version_is_clis_generic_option(
    spelling: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``llvm-profdata show --version`` prints the version and exits 0 whatever follows."""
    assert run_with_deep_stack(["--llvm-release=14", "show", spelling, "x.profdata"]) == 0
    assert capsys.readouterr().out == f"profdata {__version__} (llvm-profdata 14 compatible)\n"
