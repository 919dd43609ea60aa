"""Which files a merge reads, with what weight, and how names are remapped.

Mirrors ``merge_main``'s ``addWeightedInput`` / ``parseInputFilenamesFile``:
positional files first, then ``--weighted-input=W,FILE`` in order, then the
lines of the ``-f`` list (``W,FILE`` or ``FILE``, ``#`` comments).  Every
entry is checked as it is added, so the first missing file stops the command
before anything is read.  A directory stands for the regular files below it;
LLVM lists them in ``readdir`` order, which differs between file systems, so
we sort them.  An existing path that is neither a file nor a directory (a
device, a FIFO) is skipped silently, as LLVM does; ``-`` is standard input.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from profdata.errors import FileError, ProfdataError, UsageError
from profdata.formats._text import int_of_digits

_WEIGHT = re.compile(r"[0-9]+")
_U64_MAX = (1 << 64) - 1
#: ``StringRef::trim`` characters of an ``-f`` line.
_LIST_BLANKS = " \t\v\f\r"
_NO_SUCH_FILE = "No such file or directory"


@dataclass(frozen=True)
class WeightedFile:
    path: str
    weight: int = 1


def parse_weighted(spec: str) -> WeightedFile:
    """``W,FILE`` as ``--weighted-input`` and ``-f`` lines take it (``parseWeightedFile``)."""
    weight_text, _, path = spec.partition(",")
    weight = int_of_digits(weight_text) if _WEIGHT.fullmatch(weight_text) else 0
    if not 1 <= weight <= _U64_MAX:
        raise UsageError("input weight must be a positive integer")
    return WeightedFile(path, weight)


def _read_text(path: str) -> str:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise FileError(exc.strerror or str(exc), path=path) from exc
    return data.decode("utf-8", "surrogateescape")


def add_weighted_input(out: list[WeightedFile], entry: WeightedFile) -> None:
    """``addWeightedInput``: a file, every regular file below a directory, or ``-``."""
    if entry.path == "-":
        out.append(entry)
        return
    if not os.path.exists(entry.path):
        raise FileError(_NO_SUCH_FILE, path=entry.path)
    if os.path.isfile(entry.path):
        out.append(entry)
        return
    if not os.path.isdir(entry.path):
        return
    found: list[str] = []
    for root, dirs, files in os.walk(entry.path, followlinks=True):
        dirs.sort()
        found.extend(os.path.join(root, name) for name in sorted(files))
    for path in found:
        if os.path.isfile(path):
            out.append(WeightedFile(path, entry.weight))


def read_input_list(path: str, out: list[WeightedFile]) -> None:
    """``parseInputFilenamesFile``: one ``[W,]FILE`` per line, ``#`` starts a comment line."""
    for line in _read_text(path).split("\n"):
        if not line:
            continue
        entry = line.strip(_LIST_BLANKS)
        if entry.startswith("#"):
            continue
        add_weighted_input(out, parse_weighted(entry) if "," in entry else WeightedFile(entry))


def collect(
    positional: Iterable[str], weighted: Iterable[str], input_list: str | None = None
) -> list[WeightedFile]:
    """The inputs of one merge, in llvm-profdata's order, each checked as it is added."""
    result: list[WeightedFile] = []
    for path in positional:
        add_weighted_input(result, WeightedFile(path))
    for spec in weighted:
        add_weighted_input(result, parse_weighted(spec))
    if input_list:
        read_input_list(input_list, result)
    return result


def read_remapping(path: str) -> dict[str, str]:
    """A ``-r`` file: ``old new`` per line; blank and ``#`` lines skipped; first mapping wins.

    Any other line stops the merge with LLVM's message, its line number and note.
    """
    table: dict[str, str] = {}
    for number, raw in enumerate(_read_text(path).split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line or line.startswith("#"):
            continue
        old, _, new = line.partition(" ")
        if not old or not new or " " in new:
            raise UsageError(
                f"{path}:{number}: unexpected line in remapping file\n"
                "note: expected 'old_symbol new_symbol'"
            )
        table.setdefault(old, new)
    return table


# -- shared by the instrumentation and sample merges ------------------------------
class FailureMode(Enum):
    """``--failure-mode``: when unreadable inputs make the whole merge fail."""

    ANY = "any"  # failIfAnyAreInvalid (default)
    ALL = "all"  # failIfAllAreInvalid
    WARN = "warn"  # warnOnly (LLVM 18+)


@dataclass(frozen=True)
class InputFailure:
    """An input that contributed nothing: ``warning: FILE: message`` at the end of loading."""

    path: str
    message: str
    error: ProfdataError | None = None


@dataclass(frozen=True)
class FilterNote:
    """``--function``/``--no-function`` result: ``N of M functions ... are filtered.``."""

    removed: int
    total: int


_MSVC_MANGLED = re.compile(r"[?@$_0-9A-Za-z]+")


def filter_regex(pattern: str) -> re.Pattern[str] | None:
    """LLVM's ``Regex`` for a filter; an MSVC-mangled name (``?...``) is taken literally."""
    if not pattern:
        return None
    if pattern.startswith("?") and _MSVC_MANGLED.fullmatch(pattern):
        pattern = re.escape(pattern)
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise UsageError(f"invalid regular expression {pattern!r}: {exc}") from exc
