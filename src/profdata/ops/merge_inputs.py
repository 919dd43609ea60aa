"""Which files a merge reads, and with what weight (llvm-profdata's input list).

Positional files and directories (walked recursively), ``--weighted-input=W,FILE``
and ``-f FILE`` lists (``W,FILE`` or ``FILE`` per line, ``#`` comments) all
become :class:`WeightedFile` entries in llvm-profdata's order: the
positional ones first, then weighted ones, then those from input lists.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from profdata.errors import FileError, UsageError


@dataclass(frozen=True)
class WeightedFile:
    path: str
    weight: int = 1


def parse_weighted(spec: str) -> WeightedFile:
    """``W,FILE`` as ``--weighted-input`` takes it."""
    weight_text, comma, path = spec.partition(",")
    if not comma:
        raise UsageError(f"Weight must be a positive integer: {spec}")
    try:
        weight = int(weight_text)
    except ValueError:
        weight = 0
    if weight < 1:
        raise UsageError(f"Input weight must be a positive integer: {weight_text}")
    return WeightedFile(path, weight)


def read_input_list(path: str) -> list[WeightedFile]:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise FileError(exc.strerror or str(exc), path=path) from exc
    out: list[WeightedFile] = []
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "," in line:
            out.append(parse_weighted(line))
        else:
            out.append(WeightedFile(line))
    return out


def expand(entry: WeightedFile) -> list[WeightedFile]:
    """A directory stands for every regular file below it (sorted, for determinism)."""
    if entry.path != "-" and not os.path.exists(entry.path):
        raise FileError("No such file or directory", path=entry.path)
    if not os.path.isdir(entry.path):
        return [entry]
    found: list[WeightedFile] = []
    for root, dirs, files in os.walk(entry.path):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(root, name)
            if os.path.isfile(full):
                found.append(WeightedFile(full, entry.weight))
    return found


def collect(
    positional: Iterable[str], weighted: Iterable[str], lists: Iterable[str]
) -> list[WeightedFile]:
    entries = [WeightedFile(p) for p in positional]
    entries += [parse_weighted(w) for w in weighted]
    for lst in lists:
        entries += read_input_list(lst)
    result: list[WeightedFile] = []
    for entry in entries:
        result.extend(expand(entry))
    return result
