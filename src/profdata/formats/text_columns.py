"""Text instrumentation profiles read into columns, as the common case allows.

The line reader (:func:`profdata.formats.text.read`) builds an
:class:`~profdata.model.instr.InstrRecord` per function, parsing each line as
it goes: 1.5 s for the 100k functions of a text profile llvm-profdata writes,
which llvm-profdata itself reads in about 0.1 s.  Here the visible lines are
walked once in Python touching only each record's header lines (name, hash,
counter count, value-block numbers), and everything that comes in bulk --
the counters, the value lines, the names' MD5s -- is converted afterwards in
one pass each, into a :class:`~profdata.model.record_table.RecordTable`
whose records are built only if someone asks for them.

It reads what llvm-profdata writes and declines (None) anything else: header
lines other than the plain flags, temporal traces, bitmap blocks, vtable
values, numbers that are not plain decimals, a value kind out of order or
twice in a record, or any error.  The line reader then
reads the file and reports what is wrong, so both give the same profile or
the same error (``tests/property/test_text_columns.py`` holds the two to
equal profiles).
"""

from __future__ import annotations

import numpy as np

from profdata.errors import ProfdataError
from profdata.formats._text import LineCursor, parse_uint, plain_u64s
from profdata.formats.text import read_header
from profdata.model.instr import InstrProfile, RecordColumns
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hashes, name_str
from profdata.model.record_table import RecordTable, TableProfile, ValueColumns

_EXTERNAL_SYMBOL = b"** External Symbol **"
_CALL = int(ValueKind.INDIRECT_CALL_TARGET)
_MEMOP = int(ValueKind.MEMOP_SIZE)
_KINDS = max(ValueKind) + 1  # value kinds a record may list


class _Decline(Exception):
    """Anything this reader leaves to the line reader."""


def read_columns(data: bytes | memoryview) -> InstrProfile | None:
    """The profile, or None where the line reader must read it (see the module docstring).

    The lines and the header are the line reader's own (:class:`LineCursor`,
    :func:`read_header`), so both readers see the same visible lines.
    """
    cur = LineCursor(data)
    header = InstrProfile(kind=ProfileKind.FRONTEND, records=[], format="text")
    try:
        read_header(cur, header)
    except ProfdataError:
        return None
    if header.kind & ProfileKind.TEMPORAL:
        return None  # traces follow their header line
    try:
        return _read(cur.lines, cur.index, header)
    except _Decline:
        return None


def _read(lines: list[bytes], at: int, header: InstrProfile) -> InstrProfile:
    walk = _Walk(lines, at)
    walk.run()
    names_bytes = [lines[i] for i in walk.name_lines]
    hashes = _numbers(walk.hash_lines)
    counts = _numbers(walk.counter_lines)
    lengths = np.array(walk.lengths, dtype=np.int64)
    names = _decoded(names_bytes)
    values, value_counts, targets = _value_data(walk)
    name_hashes = md5_hashes(names_bytes)
    symbols = _symbols(walk, name_hashes, names, targets)
    table = RecordTable(
        RecordColumns(names, hashes, counts, lengths),
        np.zeros(len(names), dtype=np.int64),
        np.zeros(0, dtype=np.uint8),
        ValueColumns(
            row_record=np.array(walk.row_record, dtype=np.int64),
            row_kind=np.array(walk.row_kind, dtype=np.int64),
            row_sites=np.array(walk.row_sites, dtype=np.int64),
            site_lengths=np.array(walk.site_lengths, dtype=np.int64),
            values=values,
            counts=value_counts,
        ),
        np.array(name_hashes, dtype=np.uint64),
    )
    return TableProfile(
        table=table,
        kind=header.kind,
        format="text",
        symbols=symbols,
        explicit_frontend=header.explicit_frontend,
        without_bitmap_block=frozenset(range(len(names))),
    )


class _Walk:
    """The record blocks' structure: which lines are names, hashes, counters and values."""

    def __init__(self, lines: list[bytes], at: int) -> None:
        self.lines = lines
        self.at = at
        self.name_lines: list[int] = []
        self.hash_lines: list[bytes] = []
        self.counter_lines: list[bytes] = []
        self.lengths: list[int] = []
        self.row_record: list[int] = []
        self.row_kind: list[int] = []
        self.row_sites: list[int] = []
        self.site_lengths: list[int] = []
        self.value_lines: list[bytes] = []
        self.value_kinds: list[int] = []  # per site

    def run(self) -> None:
        lines = self.lines
        end = len(lines)
        at = self.at
        record = 0
        names, hashes, counters, lengths = (
            self.name_lines,
            self.hash_lines,
            self.counter_lines,
            self.lengths,
        )
        while at < end:
            if at + 2 >= end:
                raise _Decline
            names.append(at)
            hashed = lines[at + 1]
            if hashed[:1] == b"0" and len(hashed) > 1:
                raise _Decline  # read with LLVM's radix sensing: octal
            hashes.append(hashed)
            count = _small(lines[at + 2])
            if count == 0 or at + 3 + count > end:
                raise _Decline
            counters.extend(lines[at + 3 : at + 3 + count])
            lengths.append(count)
            at += 3 + count
            if at < end:
                first = lines[at][0]
                if first == 0x24:  # '$'
                    raise _Decline  # a bitmap block
                if 0x30 <= first <= 0x39:  # a value block, or a name that starts so
                    at = self._values(at, record)
            record += 1

    def _values(self, at: int, record: int) -> int:
        """The optional value block of ``record`` starting at line ``at``; the line after."""
        lines = self.lines
        line = lines[at]
        if parse_uint(line, 10, 32) is None:
            return at  # the next record's name
        kinds = _small(line)
        if not 0 < kinds <= _KINDS:
            raise _Decline
        at += 1
        last = -1
        for _ in range(kinds):
            kind = _small(self._line(at))
            sites = _small(self._line(at + 1))
            at += 2
            if kind not in (_CALL, _MEMOP) or kind <= last:
                raise _Decline  # vtable targets, or kinds out of order (appended sites)
            last = kind
            if not sites:
                continue
            self.row_record.append(record)
            self.row_kind.append(kind)
            self.row_sites.append(sites)
            for _ in range(sites):
                size = _small(self._line(at))
                if at + 1 + size > len(lines):
                    raise _Decline
                self.site_lengths.append(size)
                self.value_kinds.append(kind)
                self.value_lines.extend(lines[at + 1 : at + 1 + size])
                at += 1 + size
        return at

    def _line(self, at: int) -> bytes:
        if at >= len(self.lines):
            raise _Decline
        return self.lines[at]


def _decoded(names: list[bytes]) -> list[str]:
    """The names as text, decoded in one call where no name holds the separator."""
    joined = b"\x01".join(names)
    if names and joined.count(b"\x01") == len(names) - 1:
        return name_str(joined).split("\x01")
    return [name_str(name) for name in names]


def _small(line: bytes) -> int:
    """A decimal u32 line (the line reader's numbers of counters, kinds, sites)."""
    value = parse_uint(line, 10, 32)
    if value is None:
        raise _Decline
    return value


def _numbers(lines: list[bytes]) -> np.ndarray:
    """Plain decimal u64 lines as an array (counters, hashes)."""
    values = plain_u64s(lines)
    if values is None:
        raise _Decline
    return np.array(values, dtype=np.uint64)


def _value_data(walk: _Walk) -> tuple[np.ndarray, np.ndarray, list[tuple[int, str] | None]]:
    """Every value line as (value, count): a call target's name hashed (an external
    symbol is 0), a memop size read as it is; and each line's named target, if any."""
    kinds = np.repeat(
        np.array(walk.value_kinds, dtype=np.int64), np.array(walk.site_lengths, dtype=np.int64)
    ).tolist()
    targets: list[bytes] = []
    count_lines: list[bytes] = []
    for line in walk.value_lines:
        target, colon, count = line.rpartition(b":")
        if not colon or not target:
            raise _Decline
        targets.append(target)
        count_lines.append(count)
    counts = _numbers(count_lines)
    values = np.zeros(len(targets), dtype=np.uint64)
    named: list[tuple[int, str] | None] = [None] * len(targets)
    sizes = [i for i, kind in enumerate(kinds) if kind == _MEMOP]
    if sizes:
        values[sizes] = _numbers([targets[i] for i in sizes])
    calls = [i for i, kind in enumerate(kinds) if kind == _CALL]
    calls = [i for i in calls if targets[i] != _EXTERNAL_SYMBOL]
    if calls:
        distinct = list(dict.fromkeys(targets[i] for i in calls))
        hashed = {
            target: (value, name_str(target))
            for target, value in zip(distinct, md5_hashes(distinct), strict=True)
        }
        for i in calls:
            named[i] = hashed[targets[i]]
        values[calls] = [hashed[targets[i]][0] for i in calls]
    return values, counts, named


def _symbols(
    walk: _Walk, name_hashes: list[int], names: list[str], targets: list[tuple[int, str] | None]
) -> dict[int, str]:
    """The names by MD5, in the order the line reader meets them: each record's name, then
    its call targets."""
    symbols: dict[int, str] = {}
    per_site = np.repeat(np.array(walk.row_record, dtype=np.int64), walk.row_sites)
    owners = np.repeat(per_site, np.array(walk.site_lengths, dtype=np.int64)).tolist()
    at = 0
    for record, (value, name) in enumerate(zip(name_hashes, names, strict=True)):
        symbols.setdefault(value, name)
        while at < len(owners) and owners[at] == record:
            target = targets[at]
            if target is not None:
                symbols.setdefault(*target)
            at += 1
    return symbols


__all__ = ["read_columns"]
