"""The "Did you mean" line under an unknown option, picked as ``cl`` picks it.

``cl::ParseCommandLineOptions`` answers an unknown ``--name`` with the option
nearest to it (``LookupNearestOption``): it walks the chosen subcommand's
option map and, for each option, every name the option answers to (an enum's
value names, then its own name), keeping the first at the smallest edit
distance.  An option that takes a value is compared with the part before any
``=`` and suggested with that value appended.  Which of two equally near
names wins is the map's iteration order, so the map is replayed here: its
keys inserted in the order llvm-profdata.cpp declares its options (the
table below), then the options ``cl`` registers for every subcommand when it
parses (``CommandLineCommonOptions``), then ``-h``, a ``cl::DefaultOption``
added last.  17-21 keep them in a ``StringMap`` (xxh3), 22 in a
``DenseMap<StringRef, Option *>`` (``hash_value``), which iterate in other
orders.

Verified against the real 19 and 22 for all four subcommands, with random
misspellings and with arguments that tie many names at once
(``tests/compat/test_option_suggestion_compat.py``).  Up to 16 every
subcommand parses with the top-level map, which holds each of the ~2,000
options libLLVM registers in static-initialisation order; that order is not
known here, so no line is printed for those releases.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from profdata.model.llvm_containers import densemap_order, stringmap_order
from profdata.releases import Release

_M32 = 0xFFFFFFFF


class Declared(NamedTuple):
    """One ``cl`` option of llvm-profdata.cpp: its names, the subcommands it belongs to,
    and whether those names are an enum's values (``-text``, ``-instr``: no own name)."""

    names: tuple[str, ...]
    commands: frozenset[str]
    values: bool = False


def _declared(names: str, commands: str, values: bool = False) -> Declared:
    return Declared(tuple(names.split()), frozenset(commands.split()), values)


def _each(names: str, commands: str) -> tuple[Declared, ...]:
    """One option of one name for each of ``names``."""
    return tuple(_declared(name, commands) for name in names.split())


_ALL = "merge show overlap order"
#: llvm-profdata.cpp's options in declaration order (LLVM 22; 19 declares the same but
#: for debuginfod, split-layout and the two memprof-random-hotness ones).  An option
#: the selected release does not accept (its parser says) is left out; so are the
#: options declared for no subcommand (write-prev-version, correlate, ...), which live in
#: the top-level map that is not searched.
DECLARED = (
    _declared("output", _ALL),
    _declared("o", _ALL),  # an alias belongs where its option does
    _declared("instr sample", "merge overlap", values=True),
    _declared("max-debug-info-correlation-warnings", "merge show"),
    _declared("profiled-binary", "show merge"),
    _declared("debug-info", "show merge"),
    _declared("binary-file", "merge"),
    _declared("debuginfod", "merge"),
    _declared("function", "show overlap merge"),
    _declared("weighted-input", "merge"),
    _declared("binary extbinary text gcc", "merge", values=True),
    *_each(
        "input-files f dump-input-file-list remapping-file r use-md5 compress-all-sections "
        "sample-merge-cold-context sample-trim-cold-context sample-frame-depth-for-cold-context "
        "output-size-limit gen-partial-profile split-layout supplement-instr-with-sample "
        "zero-counter-threshold suppl-min-size-threshold instr-prof-cold-threshold "
        "temporal-profile-trace-reservoir-size temporal-profile-max-trace-length no-function "
        "failure-mode sparse num-threads j prof-sym-list convert-sample-profile-layout "
        "drop-profile-symbol-list keep-vtable-symbols memprof-version memprof-full-schema "
        "memprof-random-hotness memprof-random-hotness-seed",
        "merge",
    ),
    *_each("similarity-cutoff cs value-cutoff", "overlap"),
    *_each(
        "counts show-format text json ic-targets show-vtables memop-sizes detailed-summary "
        "detailed-summary-cutoffs hot-func-list all-functions showcs",
        "show",
    ),
    _declared("instr sample memory", "show", values=True),
    *_each(
        "topn value-cutoff list-below-cutoff show-prof-sym-list show-sec-info-only binary-ids "
        "temporal-profile-traces covered profile-version",
        "show",
    ),
    _declared("num-test-traces", "order"),
    # CommandLineCommonOptions, registered for every subcommand when cl parses
    *_each("help-list help-list-hidden help help-hidden print-options print-all-options", _ALL),
    _declared("h", _ALL),  # cl::DefaultOption: added after every other option
)

#: the names that take no ``=value`` (``cl::ValueDisallowed``) besides enum value names
_NO_VALUE = frozenset({"help", "help-hidden", "help-list", "help-list-hidden", "h"})


class Distances:
    """``StringRef::edit_distance`` (with replacements: an insertion, a deletion or a
    replacement of one byte costs one) from one string to many.

    Computed bit-parallel (Myers, as Hyyro states it for the whole-string distance):
    the string's byte positions are the bits of Python integers, made once, and each
    other string is walked a byte at a time, so an unknown argument of megabytes costs
    a pass over each option name rather than a table of its length times the name's.
    (LLVM stops early past the best distance so far, which only changes losing ones.)
    """

    def __init__(self, text: bytes) -> None:
        self.width = len(text)
        self.where: dict[int, int] = {}  # each byte: the bits of its positions in ``text``
        for bit, byte in enumerate(text):
            self.where[byte] = self.where.get(byte, 0) | 1 << bit

    def to(self, other: bytes) -> int:
        width = self.width
        if not width:
            return len(other)
        mask = (1 << width) - 1
        top = 1 << (width - 1)
        plus, minus, score = mask, 0, width  # the column's +1 / -1 steps, its last cell
        for byte in other:
            equal = self.where.get(byte, 0)
            vertical = equal | minus
            horizontal = (((equal & plus) + plus) ^ plus) | equal
            up = minus | ~(horizontal | plus)
            down = plus & horizontal
            score += (1 if up & top else 0) - (1 if down & top else 0)
            up = (up << 1) | 1  # the first row counts up: D[0][j] = j
            down <<= 1
            plus = (down | ~(vertical | up)) & mask
            minus = up & vertical & mask
        return score


def edit_distance(a: bytes, b: bytes) -> int:
    """:class:`Distances` from ``a`` to ``b``."""
    return Distances(a).to(b)


def map_order(keys: Sequence[str], release: Release) -> list[int]:
    """The iteration order of the subcommand's option map filled with ``keys`` in this
    order, as indexes into ``keys``."""
    raw = [key.encode() for key in keys]
    if release.cl_options_densemap:
        from profdata.model.sample_map_order import string_hash  # hash_value(StringRef)

        return densemap_order([string_hash(key) & _M32 for key in raw])
    return stringmap_order(raw, xxh3=release.stringmap_xxh3_hash)


def candidates(command: str, accepted: Iterable[str], release: Release) -> list[Declared]:
    """The subcommand's options in the order the option map hands them to
    ``LookupNearestOption``: each option once, where its first key comes."""
    known = set(accepted)
    options: list[Declared] = []
    for option in DECLARED:
        names = tuple(name for name in option.names if name in known)
        if command in option.commands and names:
            options.append(option._replace(names=names))
    keys = [(index, name) for index, option in enumerate(options) for name in option.names]
    walked: list[Declared] = []
    seen: set[int] = set()
    for key in map_order([name for _, name in keys], release):
        index = keys[key][0]
        if index not in seen:
            seen.add(index)
            walked.append(options[index])
    return walked


def nearest(arg: str, options: Sequence[Declared]) -> str | None:
    """``LookupNearestOption`` of ``arg`` (the argument without its leading dashes):
    the name to suggest, with ``=value`` when the option takes one; None if there is
    no option at all."""
    whole = os.fsencode(arg)
    before, _, value = whole.partition(b"=")
    from_whole, from_before = Distances(whole), Distances(before)
    best: bytes | None = None
    best_distance = 0
    for option in options:
        for name in option.names:
            takes_value = not option.values and name not in _NO_VALUE
            distance = (from_before if takes_value else from_whole).to(name.encode())
            if best is None or distance < best_distance:
                best_distance = distance
                best = name.encode() + (b"=" + value if takes_value and value else b"")
    return None if best is None else os.fsdecode(best)


def suggestion_line(
    tool: str, body: str, command: str, accepted: Iterable[str], release: Release | None
) -> str | None:
    """``"{tool}: Did you mean '--name'?"`` for an unknown option (``body``: as typed
    without its one or two leading dashes), or None where LLVM's choice is not known
    here (releases up to 16)."""
    if release is None or release.cl_errors_name_subcommand:
        return None
    found = nearest(body, candidates(command, accepted, release))
    if found is None:
        return None
    # cl's PrintArg: one dash before a one-character string, two before longer ones
    return f"{tool}: Did you mean '{'-' if len(found) == 1 else '--'}{found}'?"
