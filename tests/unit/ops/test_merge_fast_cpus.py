"""How many processes the fast merge loads inputs in: the CPUs idle right now."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.ops import merge_fast
from profdata.ops.merge_fast import _idle_cpus, _runnable_others


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
    assert _runnable_others(loadavg(tmp_path, text)) == others


@pytest.mark.parametrize("text", ["", "1.0 1.0 1.0\n", "1.0 1.0 1.0 x/10 1\n"])
def test_an_unreadable_count_falls_back(tmp_path: Path, text: str) -> None:
    assert _runnable_others(loadavg(tmp_path, text)) is None
    assert _runnable_others(str(tmp_path / "missing")) is None


def cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@pytest.mark.parametrize("others", [0, 1, 2, 50])
def test_idle_cpus_leaves_out_the_busy_ones(monkeypatch: pytest.MonkeyPatch, others: int) -> None:
    monkeypatch.setattr(merge_fast, "_runnable_others", lambda: others)
    assert _idle_cpus() == max(1, cpus() - others)


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
    monkeypatch.setattr(merge_fast, "_runnable_others", lambda: None)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert _idle_cpus() == idle(cpus())
