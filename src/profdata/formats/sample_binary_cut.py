"""Where an ``SPF_Binary`` profiles section may be cut in two for two processes.

An ext-binary profile says where each function starts (its function offset
table), and :func:`profdata.formats.sample_columns.read_profiles` cuts a large
profiles section at the function nearest its middle, a forked child walking
the second part.  An ``SPF_Binary`` profile has no such table: its functions
follow one another to the end of the file, and where one starts is known only
by walking every function before it -- the very walk to be halved.

So the cut is guessed.  From the middle of the section on, each number is
tried as the start of a top-level function: the guess stands if a few whole
functions read from there, each name index inside the name table, each line
offset, discriminator and count of the kinds a real profile holds, and their
totals in the order LLVM writes functions (largest first).  A misaligned
start soon meets a count where an index belongs, or reads a large number as
a record count and runs out of the window.  One that reads on has fallen in
step with the real functions within a function or two, so the cut is the
fourth function read, not the first.

A guess is never trusted: the first part's walk must end exactly at the cut
(:func:`~profdata.formats.sample_columns.walk_profiles` declines otherwise),
and that walk is the one read LLVM does.  A wrong guess costs the time of a
part read for nothing, after which the section is read whole.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from profdata.formats._uleb import decode_run

Buffer = bytes | bytearray | memoryview

#: bytes after the middle looked at, how many of their numbers are tried as starts, and
#: how many records and call sites all the tries may read (0.1 s at most)
_WINDOW = 1 << 16
_TRIES = 4096
_BUDGET = 200_000
#: whole top-level functions a guess must read, and how many of them are passed over
#: before the cut: a read from inside a function (an inlined callee's call site reads
#: like a function from its discriminator on) soon falls in step with the real one
_FUNCTIONS = 8
_SKIPPED = 3
#: the most records, call targets per record and call sites per function a guess may
#: meet (a real profile with more still reads, in one process)
_MAX_RECORDS = 1 << 16
_MAX_TARGETS = 1 << 10
_MAX_SITES = 1 << 12
_MAX_DEPTH = 64
_MAX_OFFSET = 0xFFFF  # a larger line offset ends a record early in some releases
_U32 = 0xFFFFFFFF


def guessed_cut(data: Buffer, start: int, end: int, names: int) -> int | None:
    """A byte offset (from ``start``) near the middle of ``data[start:end]`` where a
    top-level function seems to start; ``names``: the name table's size."""
    if end - start < 2:
        return None
    middle = start + (end - start) // 2
    # from the byte before the middle: a number begins after each last byte
    window = np.frombuffer(data, np.uint8, count=min(_WINDOW, end - middle + 1), offset=middle - 1)
    last_bytes = np.flatnonzero(window < 0x80)
    if len(last_bytes) < 2:
        return None
    starts = (middle + last_bytes[:-1]).tolist()  # each whole number's first byte
    probe = _Probe(decode_run(data, starts[0], middle + int(last_bytes[-1])).values, names)
    try:
        for j in range(min(len(probe.values), len(starts), _TRIES)):
            chain = probe.functions(j)
            if chain is not None:
                cut: int = starts[chain[_SKIPPED]] - start
                return cut
    except _Spent:
        pass
    return None


class _Spent(Exception):
    """The guesses have read :data:`_BUDGET` records and call sites: no cut."""


class _Probe:
    """Reads of the window's numbers as functions, every record and call site counted
    against one budget: tries from inside one huge function could each read on for
    thousands of records before they fail."""

    def __init__(self, values: Sequence[int], names: int) -> None:
        self.values = values
        self.names = names
        self.budget = _BUDGET

    def functions(self, j: int) -> list[int] | None:
        """Where each of :data:`_FUNCTIONS` top-level profiles (head samples, name index,
        total, body) read from number ``j`` starts, if they read, in the writer's
        order: by total samples, the largest first (``sortFuncProfiles``)."""
        values = self.values
        chain = []
        above = 1 << 64
        try:
            for _ in range(_FUNCTIONS):
                total = values[j + 2]
                if values[j + 1] >= self.names or total > above:
                    return None
                chain.append(j)
                above = total
                j = self.body(j + 2, 0)
                if j < 0:
                    return None
        except IndexError:  # ran out of the window
            return None
        return chain

    def body(self, i: int, depth: int) -> int:
        """``readProfile`` from number ``i`` (the total samples): the number after it, or
        -1 where something is out of range."""
        values, names = self.values, self.names
        records = values[i + 1]
        if records > _MAX_RECORDS or depth > _MAX_DEPTH:
            return -1
        i += 2
        read = 0  # records and call sites read, spent however the read ends
        try:
            for _ in range(records):
                targets = values[i + 3]
                if values[i] > _MAX_OFFSET or values[i + 1] > _U32 or targets > _MAX_TARGETS:
                    return -1
                i += 4
                for _ in range(targets):
                    if values[i] >= names:
                        return -1
                    i += 2
                read += 1
            sites = values[i]
            if sites > _MAX_SITES:
                return -1
            i += 1
            for _ in range(sites):
                if values[i] > _MAX_OFFSET or values[i + 1] > _U32 or values[i + 2] >= names:
                    return -1
                read += 1
                i = self.body(i + 3, depth + 1)
                if i < 0:
                    return -1
        finally:
            self.spend(read)
        return i

    def spend(self, steps: int) -> None:
        self.budget -= steps
        if self.budget < 0:
            raise _Spent


__all__ = ["guessed_cut"]
