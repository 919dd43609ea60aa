"""No helper is forked beside a thread that could hold a lock (:mod:`profdata.fork_policy`).

Each way the library forks (a part offloaded, a buffer filled in two, the
merge's worker processes, the sample reader's read-ahead) is asked to fork
with idle CPUs while another thread runs Python, and must do the work in
this process instead; ``PROFDATA_FORK`` and the command line's waiting main
thread are the exceptions.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from profdata import offload as offload_module
from profdata.fork_policy import FORK_SETTING, can_fork, waiting_here
from profdata.formats.indexed_write import write_indexed
from profdata.offload import in_two, offload
from profdata.ops import merge_sample_readers
from profdata.ops.merge import MergeOptions, merge_instr
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.shared_fill import Bytes, fill_in_two
from profdata.reaping import is_reaper, join_reapers, reap_later
from profdata.releases import release
from tests.conftest import REPO, SHARED

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")

CORPUS = SHARED / "corpus"


@pytest.fixture(autouse=True)
def auto(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default: no override, and CPUs idle for every helper."""
    monkeypatch.delenv(FORK_SETTING, raising=False)
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)


@pytest.fixture
def other_thread() -> Iterator[threading.Thread]:
    """A thread of the caller's, alive for the test (it holds a lock, as one may)."""
    held, release_it = threading.Lock(), threading.Event()

    def hold() -> None:
        with held:
            release_it.wait()

    thread = threading.Thread(target=hold, name="caller's", daemon=True)
    thread.start()
    yield thread
    release_it.set()
    thread.join()


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS forks only when told")
def test_alone_this_process_may_fork() -> None:
    assert can_fork()


def test_beside_another_thread_nothing_is_forked(
    other_thread: threading.Thread, forks: list[int]
) -> None:
    assert not can_fork()
    assert offload(lambda: 1) is None
    assert in_two(lambda: 1, lambda: 2) is None
    dest = fill_in_two.zeros(8)

    def fill(start: int) -> Callable[[Bytes], None]:
        def put(buf: Bytes) -> None:
            buf[start : start + 4] = start + 1

        return put

    fill_in_two(dest, 4, fill(0), fill(4))
    assert dest.tolist() == [1] * 4 + [5] * 4
    assert forks == []


@pytest.mark.parametrize(("setting", "alone", "beside"), [("1", True, True), ("0", False, False)])
def test_the_setting_overrides_the_look_at_threads(
    monkeypatch: pytest.MonkeyPatch, setting: str, alone: bool, beside: bool
) -> None:
    monkeypatch.setenv(FORK_SETTING, f" {setting}\n")
    assert can_fork() is alone
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert can_fork() is beside
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize(("setting", "allowed"), [("", False), ("1", True)])
def test_macos_forks_only_when_told(
    monkeypatch: pytest.MonkeyPatch, setting: str, allowed: bool
) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setenv(FORK_SETTING, setting)
    assert can_fork() is allowed
    assert (offload(lambda: 1) is not None) is allowed


def test_any_other_setting_is_the_default(
    monkeypatch: pytest.MonkeyPatch, other_thread: threading.Thread
) -> None:
    monkeypatch.setenv(FORK_SETTING, "yes")
    assert not can_fork()


def test_a_thread_that_only_waits_is_no_obstacle() -> None:
    """As the command line's main thread waits for the command's thread."""
    answers: list[bool] = []

    def command() -> None:
        answers.append(can_fork())

    with waiting_here():
        thread = threading.Thread(target=command)
        thread.start()
        thread.join()
    thread = threading.Thread(target=command)
    thread.start()
    thread.join()
    assert answers == [True, False]


def test_a_reaper_is_no_obstacle() -> None:
    """The library's own reapers wait in ``waitpid`` (and a fork joins them first)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child waits for the parent's word
        os.close(write_end)
        os.read(read_end, 1)
        os._exit(0)
    os.close(read_end)
    reap_later(pid)
    try:
        assert any(is_reaper(thread) for thread in threading.enumerate())
        assert can_fork()
    finally:
        os.close(write_end)  # the child reads the end and leaves
        join_reapers()


def _merged(files: list[Path], processes: int) -> bytes:
    inputs = [WeightedFile(str(path), 1) for path in files]
    result = merge_instr(inputs, MergeOptions(release=release(22), processes=processes))
    return write_indexed(result.writer.to_profile(), release=release(22))


def test_merge_workers_stay_in_this_process_beside_another_thread(
    forks: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``-j2`` forks workers alone; beside a thread the same merge loads everything here."""
    if not CORPUS.is_dir():
        pytest.skip("no corpus")
    files = sorted((CORPUS / "irpgo-vpcalls-o2-l22").glob("*.profraw")) * 6
    monkeypatch.setenv(FORK_SETTING, "0")
    alone = _merged(files, 1)
    monkeypatch.delenv(FORK_SETTING)
    assert forks == []
    assert _merged(files, 2) == alone
    assert forks  # the workers (and any helper)
    forks.clear()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert _merged(files, 2) == alone
    finally:
        stop.set()
        thread.join()
    assert forks == []


def test_sample_read_ahead_stays_here_beside_another_thread(
    forks: list[int], other_thread: threading.Thread, tmp_path: Path
) -> None:
    entries = []
    for index in range(4):
        path = tmp_path / f"{index}.txt"
        path.write_bytes(b"f:%d:1\n 1: %d\n" % (index + 1, index + 1))
        entries.append(WeightedFile(str(path), 1))
    read = list(merge_sample_readers.read_in_order(entries, lambda e: Path(e.path).name, 2))
    assert read == ["0.txt", "1.txt", "2.txt", "3.txt"]
    assert forks == []


def test_the_command_line_forks_beside_its_waiting_main_thread(tmp_path: Path) -> None:
    """Through the real entry point: its main thread waits, and a part is offloaded."""
    script = tmp_path / "run.py"
    script.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(REPO / 'src')!r})\n"
        "from profdata import offload, cli\n"
        "offload.idle_cpus = lambda: 2\n"
        "answers = []\n"
        "real = offload.offload\n"
        "def counted(work):\n"
        "    started = real(work)\n"
        "    answers.append(started is not None)\n"
        "    return started\n"
        "offload.offload = counted\n"
        "from profdata.ops import show_text\n"
        "show_text._SPLIT_CHUNKS = 2\n"
        "show_text._CHUNK = 1\n"
        f"code = cli.run_with_deep_stack(['show', '--all-functions', {str(_vp())!r}])\n"
        "print(code, answers, file=sys.stderr)\n"
    )
    env = {key: value for key, value in os.environ.items() if key != FORK_SETTING}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().strip() == "0 [True]"
    assert b"Functions shown:" in done.stdout


def _vp() -> Path:
    return REPO / "src" / "profdata" / "examples" / "vp.profdata"
