"""How many processes the fast merge loads inputs in: the CPUs idle right now."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata import cpus as cpus_module
from profdata import offload as offload_module
from profdata.cpus import idle_cpus, runnable_others
from profdata.model import names as model_names
from profdata.ops import merge_fast
from tests.unit.ops.test_merge_fast import _one_function, _write, merge


def loadavg(tmp_path: Path, text: str) -> str:
    path = tmp_path / "loadavg"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "others"),
    [
        ("1.90 1.80 1.70 1/120 4242\n", 0),  # only this process runs: a high load average is past
        ("0.01 0.02 0.00 3/120 4242\n", 2),  # two others run now, whatever the average says
        ("0.00 0.00 0.00 0/120 4242\n", 0),
    ],
)
def test_runnable_others_reads_the_kernels_count(tmp_path: Path, text: str, others: int) -> None:
    assert runnable_others(loadavg(tmp_path, text), tasks=threads(tmp_path, "R")) == others


def threads(tmp_path: Path, *states: str) -> str:
    """A ``/proc/self/task`` of threads in these states (a name may hold ``)``)."""
    folder = tmp_path / "task"
    for index, state in enumerate(states):
        (folder / str(100 + index)).mkdir(parents=True)
        (folder / str(100 + index) / "stat").write_text(f"{100 + index} (py) x) {state} 1 2 3\n")
    return str(folder)


def test_this_processs_own_running_threads_are_not_others(tmp_path: Path) -> None:
    """BLAS threads spinning after numpy's import are this process's, not another's."""
    four_running = loadavg(tmp_path, "0.5 0.5 0.5 4/120 4242\n")
    assert runnable_others(four_running, tasks=threads(tmp_path, "R", "R", "S", "R")) == 1
    assert runnable_others(four_running, tasks=str(tmp_path / "no-tasks")) == 3  # 1: this one


@pytest.mark.parametrize("text", ["", "1.0 1.0 1.0\n", "1.0 1.0 1.0 x/10 1\n"])
def test_an_unreadable_count_falls_back(tmp_path: Path, text: str) -> None:
    assert runnable_others(loadavg(tmp_path, text)) is None
    assert runnable_others(str(tmp_path / "missing")) is None


def cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@pytest.mark.parametrize("others", [0, 1, 2, 50])
def test_idle_cpus_leaves_out_the_busy_ones(monkeypatch: pytest.MonkeyPatch, others: int) -> None:
    monkeypatch.setattr(cpus_module, "runnable_others", lambda: others)
    assert idle_cpus() == max(1, cpus() - others)


@pytest.mark.parametrize(
    ("load", "idle"),
    [
        (0.1, lambda n: n),  # every CPU idle
        (40.0, lambda n: 1),  # all busy: this process's own CPU only
        (1.2, lambda n: n),  # one CPU busy and another at 20%: that one still counts...
        (1.8, lambda n: max(1, n - 1)),  # ...at 80% it does not
    ],
)
def test_without_proc_the_load_average_decides(
    monkeypatch: pytest.MonkeyPatch, load: float, idle: Callable[[int], int]
) -> None:
    """A CPU counts as idle when at least 3/4 of it is free."""
    monkeypatch.setattr(cpus_module, "runnable_others", lambda: None)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert idle_cpus() == idle(cpus())


def _count_looks(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    idle: int,
    threads: int,
    names_child: bool = False,
) -> int:
    """How often a merge of 30 runs of one binary looked at the idle CPUs."""
    looks = []

    def counted() -> int:
        looks.append(1)
        return idle

    monkeypatch.setattr(merge_fast, "idle_cpus", counted)
    if names_child:  # the first input's names are hashed in a child of the merge
        monkeypatch.setattr(model_names, "HASH_MEANWHILE_BYTES", 1)
        monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)
    else:
        monkeypatch.setattr(model_names, "HASH_MEANWHILE_BYTES", 1 << 60)
    profiles = [_one_function([[(v, 1) for v in range(i % 5 + 1)]]) for i in range(30)]
    outcome = merge(_write(tmp_path, profiles, [1] * 30), fast=True, threads=threads, processes=0)
    assert not isinstance(outcome, str) and outcome.fast
    return len(looks)


def test_one_context_never_looks_at_the_cpus(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert _count_looks(monkeypatch, tmp_path, idle=2, threads=1) == 0


def test_a_busy_machine_is_looked_at_every_few_inputs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """30 inputs; a split needs 8 left: looks with 29, 21 and 13 left (inputs 1, 9, 17)."""
    assert _count_looks(monkeypatch, tmp_path, idle=1, threads=2) == 3
    assert _count_looks(monkeypatch, tmp_path, idle=2, threads=2) == 1  # and then it splits


def test_the_merges_own_names_child_leaves_its_cpu_to_the_workers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The child hashing the first input's names is this merge's and ends about when the
    workers start: the split counts its CPU as idle (once: a later look sees it gone)."""
    assert _count_looks(monkeypatch, tmp_path, idle=1, threads=2, names_child=True) == 1
    assert _count_looks(monkeypatch, tmp_path, idle=1, threads=2, names_child=False) == 3
