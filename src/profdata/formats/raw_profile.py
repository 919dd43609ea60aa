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
from itertools import islice, repeat
from typing import Any

import numpy as np
import numpy.typing as npt

from profdata.errors import ProfdataError
from profdata.formats._names import SEPARATOR
from profdata.model import names as model_names
from profdata.model.instr import InstrProfile, InstrRecord, RecordColumns
from profdata.model.kinds import ProfileKind
from profdata.model.names import md5_array, name_str
from profdata.model.record_table import RecordTable
from profdata.offload import Pending


class NameTable:
    """One name section (``InstrProfSymtab::create``): checked when read, hashed on first use.

    Mapping NameRefs to names takes an MD5 per name; a summary needs no names.
    The first of several names with one hash wins (LLVM's choice is unspecified).
    """

    def __init__(self, payloads: list[bytes]) -> None:
        self._payloads = payloads
        self._table: dict[int, str] | None = None
        self._distinct_names: tuple[npt.NDArray[np.uint64], list[str]] | None = None
        self._hashing: Pending[tuple[npt.NDArray[np.uint64], bool]] = Pending()

    def hash_meanwhile(self) -> bool:
        """Have a forked child hash the names while this process goes on, when a CPU is
        idle and the names are many: the MD5s are most of what :meth:`_distinct` costs
        (35 of 60 ms for 100k names), and a merge has other work to do before it needs
        them (the first input's group, and the inputs after it).  Whether a child runs."""
        if (
            self._distinct_names is None
            and sum(map(len, self._payloads)) >= model_names.HASH_MEANWHILE_BYTES
        ):
            self._hashing.start(self._hashes)
        return self._hashing.started

    def payloads(self) -> list[bytes]:
        """The decoded chunks as read: names joined by 0x01."""
        return self._payloads

    def table(self) -> dict[int, str]:
        if self._table is None:
            refs, texts = self._distinct()
            table = dict(zip(refs.tolist(), texts, strict=True))
            if len(table) < len(texts):  # a hash twice: the first name keeps it
                table = {}
                for ref, text in zip(refs.tolist(), texts, strict=True):
                    table.setdefault(ref, text)
            self._table = table
        return self._table

    def names_of(self, refs: npt.NDArray[np.uint64]) -> list[str]:
        """The name of each NameRef ("" where the section has none), as ``table().get``.

        A dict lookup of 100k scattered keys costs more than hashing the
        names; compilers write the names in the order of the data records, so
        usually the hashes are ``refs`` itself, and otherwise a sort finds them.
        """
        if self._table is not None:
            return list(map(self._table.get, refs.tolist(), repeat("")))
        hashes, texts = self._distinct()
        if np.array_equal(hashes, refs):
            return list(texts)
        if not len(hashes):
            return [""] * len(refs)
        order = np.argsort(hashes, kind="stable")  # of equal hashes, the first name first
        ordered = hashes[order]
        at = np.minimum(np.searchsorted(ordered, refs), len(ordered) - 1)
        known = ordered[at] == refs
        index = order[at].tolist()
        return [texts[i] if k else "" for i, k in zip(index, known.tolist(), strict=True)]

    def _distinct(self) -> tuple[npt.NDArray[np.uint64], list[str]]:
        """Every distinct name in section order, with its hash (computed once)."""
        if self._distinct_names is None:
            self._distinct_names = self._hashed() if self._hashing.started else self._here()
        return self._distinct_names

    def _here(self) -> tuple[npt.NDArray[np.uint64], list[str]]:
        hashes, texts, _ = self._walk(decode=True)
        return hashes, texts

    def _hashed(self) -> tuple[npt.NDArray[np.uint64], list[str]]:
        """The child's hashes, and the names decoded meanwhile: the section's names as they
        are, the distinct ones unless a name comes twice (a section that may repeat one
        name millions of times is left to the pieces)."""
        small = sum(map(len, self._payloads)) <= _DECODE_AHEAD
        texts = _decoded(self._payloads) if small else None
        hashes, every_name_once = self._hashing.take(self._hashes)
        if texts is None or not every_name_once:
            texts = [text for fresh, _ in self._fresh() for text in _decoded(fresh)]
        return hashes, texts

    def _hashes(self) -> tuple[npt.NDArray[np.uint64], bool]:
        """The MD5 of every distinct name, in :meth:`_fresh` order, and whether no name
        comes twice (then the caller takes the section's names as they are, instead of
        finding the distinct ones again: 20 of its 33 ms for 100k names)."""
        hashes, _, every_name_once = self._walk(decode=False)
        return hashes, every_name_once

    def _walk(self, decode: bool) -> tuple[npt.NDArray[np.uint64], list[str], bool]:
        """One pass over the distinct names: their MD5s, their texts (if ``decode``), and
        whether no name comes twice."""
        refs: list[npt.NDArray[np.uint64]] = []
        texts: list[str] = []
        names = 0
        for fresh, count in self._fresh():
            refs.append(md5_array(fresh))
            if decode:
                texts.extend(_decoded(fresh))
            names += count
        hashes = np.concatenate(refs) if refs else np.zeros(0, dtype=np.uint64)
        return hashes, texts, names == len(hashes)

    def _fresh(self) -> Iterator[tuple[list[bytes], int]]:
        """The names not seen before, a piece of the section at a time, in section order,
        each with how many names that piece holds.

        Each distinct name is hashed once: a section of one name repeated (a few KiB of
        zlib for millions of names) costs one MD5, not millions.
        """
        seen: dict[bytes, None] = {}  # every name so far, in first-seen order
        for names in _pieces(self._payloads):
            before = len(seen)
            if before:
                seen.update(dict.fromkeys(names))
                yield list(islice(seen, before, None)), len(names)
            else:
                seen = dict.fromkeys(names)
                yield list(seen), len(names)


def _decoded(chunks: list[bytes]) -> list[str]:
    """The names of ``chunks`` (names, or several joined by 0x01) decoded at once: 0x01 is
    a whole character in UTF-8 and the error handler works byte by byte, so the split of
    the joined text is each name decoded."""
    return name_str(SEPARATOR.join(chunks)).split("\x01") if chunks else []


#: bytes of names decoded as they are while a child hashes them (2.5 MB for 100k names)
_DECODE_AHEAD = 16 << 20
#: bytes of names split at once: the name lists stay small however large the section
_PIECE = 1 << 22


def _pieces(payloads: list[bytes]) -> Iterator[list[bytes]]:
    """The names of the chunks (each chunk's names joined by 0x01) a few MiB at a time:
    small chunks (a compiled file's names each) are taken together, a large one in cuts."""
    group: list[bytes] = []
    size = 0
    for payload in payloads:
        if len(payload) <= _PIECE:
            group.append(payload)
            size += len(payload)
            if size >= _PIECE:
                yield SEPARATOR.join(group).split(SEPARATOR)
                group, size = [], 0
            continue
        if group:
            yield SEPARATOR.join(group).split(SEPARATOR)
            group, size = [], 0
        start = 0
        while True:
            cut = payload.find(SEPARATOR, start + _PIECE) if start + _PIECE < len(payload) else -1
            if cut < 0:
                yield payload[start:].split(SEPARATOR)
                break
            yield payload[start:cut].split(SEPARATOR)
            start = cut + 1
    if group:
        yield SEPARATOR.join(group).split(SEPARATOR)


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
        binary_id_parts: Sequence[Callable[[], list[bytes]]] = (),
        part_kinds: Sequence[tuple[int, ProfileKind]] = (),
        **fields: Any,
    ) -> None:
        self._records: Sequence[InstrRecord] = []
        self._symbols: dict[int, str] | None = None
        self._binary_ids: list[bytes] = []
        self._last_raw_binary_ids: list[bytes] | None = None
        super().__init__(records=[], **fields)
        #: each concatenated profile's record count and header flags
        self._part_kinds = list(part_kinds)
        #: each header's binary ids, parsed when first asked for (see :attr:`binary_ids`)
        self._binary_id_parts: Sequence[Callable[[], list[bytes]]] | None = binary_id_parts or None
        self._columns = columns
        self._build_records: Callable[[], list[InstrRecord]] | None = build_records
        self._name_tables = name_tables
        self._build_table = build_table
        self._table: RecordTable | None = None

    def hash_names_meanwhile(self) -> bool:
        """Start hashing the names of the first profile's data records in a forked
        child (:meth:`NameTable.hash_meanwhile`); whether one started."""
        return bool(self._name_tables) and self._name_tables[0].hash_meanwhile()

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
    def kind_at_end(self) -> ProfileKind:
        """The last header's flags: ``RawInstrProfReader`` reads each header as it comes to
        it, and ``show`` asks for the level after the last record."""
        return self._part_kinds[-1][1] if self._part_kinds else self.kind

    def ir_records(self) -> npt.NDArray[np.bool_] | None:
        """Which records came under an IR-level header, if the headers disagree on it."""
        levels = {kind.is_ir for _, kind in self._part_kinds}
        if len(levels) < 2:
            return None
        return np.repeat([kind.is_ir for _, kind in self._part_kinds],
                         [count for count, _ in self._part_kinds])  # fmt: skip

    @property
    def binary_ids(self) -> list[bytes]:
        """Every header's binary ids.  A release that parses them only when asked (14 and
        16: ``readBinaryIds``) has a bad entry fail here, after the records were read, and
        again at every later look."""
        if self._binary_id_parts is not None:
            # a part's ids are parsed when asked only under a release that reads the last
            # header's alone (``readBinaryIds`` takes the current header's section), so
            # an earlier header's bad section fails nothing there
            *earlier, last = self._binary_id_parts
            parsed = [_or_none(read) for read in earlier] + [last()]
            self._binary_ids = [bid for ids in parsed for bid in ids]
            self._last_raw_binary_ids = parsed[-1] if len(parsed) > 1 else None
            self._binary_id_parts = None
        return self._binary_ids

    @binary_ids.setter
    def binary_ids(self, value: list[bytes]) -> None:
        self._binary_ids = value
        self._binary_id_parts = None

    @property
    def last_raw_binary_ids(self) -> list[bytes] | None:
        """The last concatenated profile's ids (None: one profile), parsed as
        :attr:`binary_ids` are."""
        _ = self.binary_ids
        return self._last_raw_binary_ids

    @last_raw_binary_ids.setter
    def last_raw_binary_ids(self, value: list[bytes] | None) -> None:
        self._last_raw_binary_ids = value

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


def _or_none(read: Callable[[], list[bytes]]) -> list[bytes]:
    """An earlier header's ids, or none where its section does not parse."""
    try:
        return read()
    except ProfdataError:
        return []
