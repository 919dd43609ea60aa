"""Fixtures shared by every test folder.

Paths are resolved from this file, not the working directory, so the suite
runs from anywhere.  Data that lives outside the repository (the shared
corpus, LLVM's test inputs, the real tools) is optional: fixtures skip the
test when it is missing instead of failing on an unrelated machine.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from profdata import fork_policy, offload
from tests.compat import tools

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
GOLDEN = TESTS / "golden"
SHARED = Path(os.environ.get("PROFDATA_SHARED", REPO.parent / "shared"))


@dataclass(frozen=True)
class CliResult:
    """What one in-process ``profdata`` run returned and printed."""

    code: int
    stdout: bytes
    stderr: bytes

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", "surrogateescape")


def _existing_dir(path: Path, what: str) -> Path:
    if not path.is_dir():
        pytest.skip(f"{what} not found at {path}")
    return path


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    return GOLDEN


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return _existing_dir(SHARED, "shared reference folder")


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return _existing_dir(SHARED / "corpus", "shared corpus")


@pytest.fixture(scope="session")
def llvm_test_inputs() -> Path:
    return _existing_dir(SHARED / "llvm-test-inputs", "LLVM test inputs")


@pytest.fixture
def run_profdata(capsysbinary: pytest.CaptureFixture[bytes]) -> Callable[..., CliResult]:
    """Run ``profdata`` in-process (``profdata.cli.main``) and capture its output as bytes."""
    from profdata.cli import main

    def run(*argv: str) -> CliResult:
        capsysbinary.readouterr()
        code = main(list(argv))
        out, err = capsysbinary.readouterr()
        return CliResult(code, out, err)

    return run


@pytest.fixture(autouse=True)
def threads_left_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads that earlier tests left behind count as waiting ones for each test: Dask
    keeps an idle thread pool for good once a client ran, and a test that forks would
    otherwise pass or fail by which tests its process ran first.  The threads a test
    starts itself are judged by the real rule (``fork_policy.can_fork``)."""
    me = threading.get_ident()
    left = {thread.ident for thread in threading.enumerate() if thread.ident != me}
    monkeypatch.setattr(fork_policy, "_waiting", {ident for ident in left if ident is not None})


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the processes forked during the test (``os.fork`` recorded)."""
    started: list[int] = []
    fork = os.fork

    def recording() -> int:
        pid = fork()
        if pid:
            started.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recording)
    return started


@pytest.fixture
def child_must_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail where the part a forked child was to send is made here instead (the child
    sent nothing): a test of the forked way then cannot pass by the fall-back."""
    result = offload.Offloaded.result

    def answered(self: offload.Offloaded[Any], here: Callable[[], Any]) -> Any:
        return result(self, lambda: pytest.fail("the forked child sent nothing"))

    monkeypatch.setattr(offload.Offloaded, "result", answered)


@pytest.fixture(scope="session")
def llvm_profdata() -> Callable[[int], Path]:
    """``llvm_profdata(22)`` is the real tool of that release, or the test is skipped."""

    def find(release: int) -> Path:
        path = tools.find_llvm_profdata(release)
        if path is None:
            pytest.skip(f"llvm-profdata {release} is not installed in {tools.llvm_bin(release)}")
        return path

    return find


@pytest.fixture(scope="session")
def clang() -> Callable[..., Path]:
    """``clang(22)`` / ``clang(22, cxx=True)`` is the real compiler, or the test is skipped."""

    def find(release: int, cxx: bool = False) -> Path:
        path = tools.find_clang(release, cxx)
        if path is None:
            pytest.skip(f"clang {release} is not installed in {tools.llvm_bin(release)}")
        return path

    return find
