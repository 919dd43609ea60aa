"""How many CPUs a merge may use right now: a second process pays off only on a CPU
nobody else is using (the instrumentation merge's workers, the sample read-ahead)."""

from __future__ import annotations

import os
import time

__all__ = ["idle_cpus", "runnable_others"]


def idle_cpus() -> int:
    """This process's CPU plus the ones no other task is using right now.

    Workers only pay off on a CPU nobody else uses: on a busy machine they
    wait for each other and the split costs more than it saves (measured).
    The kernel's count of runnable tasks says what is busy now; the load
    average, which trails the last minute, is only the fallback without
    ``/proc`` (with it, a merge started right after another busy command ran
    in one process although both CPUs were idle again).
    """
    affinity = getattr(os, "sched_getaffinity", None)
    cpus = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    others = runnable_others()
    if others is not None:
        return max(1, min(cpus, cpus - others))
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1
    return max(1, min(cpus, 1 + int(cpus - load + 0.75)))  # a CPU at least 3/4 idle counts


def runnable_others(
    loadavg: str = "/proc/loadavg", samples: int = 3, tasks: str = "/proc/self/task"
) -> int | None:
    """Tasks of other processes that are runnable now (the fewest of a few looks a
    millisecond apart, so a task that merely woke up does not count); None without
    ``/proc``.  This process's own running threads are not others: a program that
    imported numpy before setting ``OPENBLAS_NUM_THREADS`` has BLAS threads spinning
    for a while, which would otherwise keep every helper from starting."""
    seen = []
    for look in range(samples):
        if look:
            time.sleep(0.001)
        try:
            with open(loadavg, "rb") as fh:
                running = int(fh.read().split()[3].split(b"/")[0])
        except (OSError, ValueError, IndexError):
            return None
        seen.append(running - _running_threads(tasks))
    return max(0, min(seen))


def _running_threads(tasks: str) -> int:
    """This process's threads in state R (1, the caller, where that cannot be read)."""
    count = 0
    try:
        names = os.listdir(tasks)
    except OSError:
        return 1
    for name in names:
        try:
            with open(os.path.join(tasks, name, "stat"), "rb") as fh:
                state = fh.read().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        count += state == b"R"
    return max(count, 1)
