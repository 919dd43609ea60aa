"""The worker processes of the fast merge: how many to start, and their diagnostics.

:meth:`profdata.ops.merge_fast.FastMerge.split` loads the writer contexts of
a merge in forked processes when CPUs are idle; each worker's warnings and
failures are kept with the input they came from and emitted here, in input
order, once all are back -- the order a single process prints them in.
"""

from __future__ import annotations

from collections.abc import Callable

from profdata.ops.merge import Diagnostic, RecordWarning, Reporter
from profdata.ops.merge_records import WarningKind

#: loads input ``i`` into its context, reporting to the given reporter (``merge_instr``'s step)
LoadStep = Callable[[int, Reporter], None]

__all__ = ["LoadStep", "TaggedReporter"]


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
