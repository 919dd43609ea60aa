"""The profile the raw reader returns, and what it builds only on first use.

The raw reader (:mod:`profdata.formats.raw`) checks a whole file up front, as
``RawInstrProfReader`` fails before ``llvm-profdata`` prints anything, but
``show`` only needs the :class:`~profdata.model.instr.RecordColumns`, which
come straight from the data and counter sections.  Mapping NameRefs to names
(an MD5 per name), decoding value sites and building 100k
:class:`~profdata.model.instr.InstrRecord` objects wait until someone asks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from profdata.errors import ProfdataError
from profdata.formats._names import SEPARATOR
from profdata.model.instr import InstrProfile, InstrRecord, RecordColumns
from profdata.model.names import md5_hashes, name_str
from profdata.model.record_table import RecordTable


class NameTable:
    """One name section (``InstrProfSymtab::create``): checked when read, hashed on first use.

    Mapping NameRefs to names takes an MD5 per name; a summary needs no names.
    The first of several names with one hash wins (LLVM's choice is unspecified).
    """

    def __init__(self, payloads: list[bytes]) -> None:
        self._payloads = payloads
        self._table: dict[int, str] | None = None

    def payloads(self) -> list[bytes]:
        """The decoded chunks as read: names joined by 0x01."""
        return self._payloads

    def table(self) -> dict[int, str]:
        if self._table is None:
            table: dict[int, str] = {}
            seen: set[bytes] = set()
            for names in _pieces(self._payloads):
                # each distinct name is hashed once: a section of one name repeated
                # (a few KiB of zlib for millions of names) costs one MD5, not millions
                fresh = [name for name in dict.fromkeys(names) if name not in seen]
                seen.update(fresh)
                for ref, name in zip(md5_hashes(fresh), fresh, strict=True):
                    if ref not in table:
                        table[ref] = name_str(name)
            self._table = table
        return self._table


#: bytes of names split at once: the name lists stay small however large the section
_PIECE = 1 << 22


def _pieces(payloads: list[bytes]) -> Iterator[list[bytes]]:
    """The names of the chunks (joined by 0x01, as one list), a few MiB at a time."""
    for payload in payloads:
        start = 0
        while True:
            cut = payload.find(SEPARATOR, start + _PIECE) if start + _PIECE < len(payload) else -1
            if cut < 0:
                yield payload[start:].split(SEPARATOR)
                break
            yield payload[start:cut].split(SEPARATOR)
            start = cut + 1


class RawProfile(InstrProfile):
    """A raw profile whose :class:`InstrRecord` objects are built on first use.

    The reader checks everything up front (LLVM fails before printing
    anything), but ``show`` only needs the :class:`RecordColumns`, which come
    straight from the data and counter sections; decoding value sites and
    building 100k records is left to whoever iterates ``records``.
    """

    def __init__(
        self,
        *,
        columns: RecordColumns,
        build_records: Callable[[], list[InstrRecord]],
        name_tables: list[NameTable],
        build_table: Callable[[], RecordTable] | None = None,
        **fields: Any,
    ) -> None:
        self._records: Sequence[InstrRecord] = []
        self._symbols: dict[int, str] | None = None
        super().__init__(records=[], **fields)
        self._columns = columns
        self._build_records: Callable[[], list[InstrRecord]] | None = build_records
        self._name_tables = name_tables
        self._build_table = build_table
        self._table: RecordTable | None = None

    @property
    def symbols(self) -> dict[int, str]:
        """Every function and vtable name of every concatenated profile (first one wins)."""
        if self._symbols is None:
            symbols: dict[int, str] = {}
            for names in self._name_tables:
                table = names.table()
                if symbols:
                    table = {ref: name for ref, name in table.items() if ref not in symbols}
                symbols.update(table)
            self._symbols = symbols
        return self._symbols

    @symbols.setter
    def symbols(self, value: dict[int, str]) -> None:
        self._symbols = value or None

    @property
    def records(self) -> Sequence[InstrRecord]:
        if self._build_records is not None:
            self._records = self._build_records()
            self._build_records = None
        return self._records

    @records.setter
    def records(self, value: Sequence[InstrRecord]) -> None:
        self._records = value
        self._build_records = None
        self._build_table = self._table = None  # the table would be of the old records

    def read_so_far(self) -> tuple[InstrProfile, ProfdataError | None]:
        """Whole: the reader checked every record before returning the profile (a failure
        carries what came before it as the error's ``partial``), so none is built here."""
        return self, None

    def cheap_table(self) -> RecordTable | None:
        """The records as a table, from the sections (one profile in the file only)."""
        if self._table is None and self._build_table is not None:
            self._table = self._build_table()
        return self._table

    def columns(self) -> RecordColumns:
        return self._columns
