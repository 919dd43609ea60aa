"""The worker processes of the fast merge: how many to start, and their diagnostics.

:meth:`profdata.ops.merge_fast.FastMerge.split` loads the writer contexts of
a merge in forked processes when CPUs are idle; each worker's warnings and
failures are kept with the input they came from and emitted here, in input
order, once all are back -- the order a single process prints them in.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from profdata.ops.merge import Diagnostic, RecordWarning, Reporter
from profdata.ops.merge_records import WarningKind

#: loads input ``i`` into its context, reporting to the given reporter (``merge_instr``'s step)
LoadStep = Callable[[int, Reporter], None]

__all__ = ["LoadStep", "TaggedReporter", "idle_cpus", "runnable_others"]


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


def runnable_others(loadavg: str = "/proc/loadavg", samples: int = 3) -> int | None:
    """Tasks other than this one that are runnable now (the fewest of a few looks a
    millisecond apart, so a task that merely woke up does not count); None without
    ``/proc``."""
    seen = []
    for look in range(samples):
        if look:
            time.sleep(0.001)
        try:
            with open(loadavg, "rb") as fh:
                running = int(fh.read().split()[3].split(b"/")[0])
        except (OSError, ValueError, IndexError):
            return None
        seen.append(running - 1)
    return max(0, min(seen))


class TaggedReporter(Reporter):
    """Diagnostics kept with the input they came from, to be emitted in input order."""

    def __init__(self) -> None:
        super().__init__(None)
        self.index = 0
        self.items: list[tuple[int, Diagnostic]] = []

    def emit(self, diagnostic: Diagnostic) -> None:
        self.items.append((self.index, diagnostic))

    def first_time(self, kind: WarningKind) -> bool:
        return False  # decided when replayed

    def load(self, todo: list[int], load_one: LoadStep) -> None:
        for index in todo:
            self.index = index
            load_one(index, self)

    def replay(self, reporter: Reporter) -> None:
        for _, diagnostic in sorted(self.items, key=lambda item: item[0]):
            if isinstance(diagnostic, RecordWarning):
                first = reporter.first_time(diagnostic.kind)
                diagnostic = RecordWarning(
                    diagnostic.kind, diagnostic.source, diagnostic.function, first
                )
            reporter.emit(diagnostic)
