"""Byte layout of indexed instrumentation profiles (``.profdata``) per version 1..13.

Each indexed version adds a header word or a record field
(``shared/spec/instr-indexed.md`` §1, §3, §6.1).  The reader and the writer
ask a cached :class:`IndexedLayout` named questions (``has_bitmap``,
``has_binary_ids``) instead of comparing version numbers, so the version
history lives in this one table.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache

MAGIC = 0x8169666F72706CFF  # IndexedInstrProf::Magic ("\xfflprofi\x81")
HASH_TYPE_MD5 = 0  # IndexedInstrProf::HashT::MD5, the only one
FIRST_VERSION = 1
LAST_VERSION = 13  # IndexedInstrProf::ProfVersion::CurrentVersion in LLVM 22
_MAGIC_WORD = struct.Struct("<Q")


def sniff(prefix: bytes | memoryview) -> bool:
    """``IndexedInstrProfReader::hasFormat``: the first 8 bytes are the magic."""
    return len(prefix) >= 8 and _MAGIC_WORD.unpack_from(prefix)[0] == MAGIC


#: Header words in file order; each later version appends to its predecessor.
_HEADER_WORDS: tuple[tuple[str, int], ...] = (
    ("magic", 1),
    ("version", 1),
    ("unused", 1),  # MaxFunctionCount before v4
    ("hash_type", 1),
    ("hash_offset", 1),
    ("memprof_offset", 8),
    ("binary_id_offset", 9),
    ("temporal_prof_traces_offset", 10),
    ("vtable_names_offset", 12),
)

#: ``ProfileSummaryBuilder`` fields in on-disk index order (``Summary::SummaryFieldKind``).
SUMMARY_FIELDS: tuple[str, ...] = (
    "num_functions",  # TotalNumFunctions
    "num_counts",  # TotalNumBlocks
    "max_function_count",  # MaxFunctionCount
    "max_count",  # MaxBlockCount
    "max_internal_count",  # MaxInternalBlockCount
    "total_count",  # TotalBlockCount
)


@dataclass(frozen=True)
class IndexedLayout:
    """What one indexed version stores, and where."""

    version: int
    header_fields: tuple[str, ...]
    header: struct.Struct

    @property
    def header_size(self) -> int:
        return self.header.size

    @property
    def max_function_count_in_header(self) -> bool:
        """Header word 2 holds MaxFunctionCount (v1-v3); later it is unused and 0."""
        return self.version < 4

    @property
    def has_num_counts(self) -> bool:
        """Records state their counter count; v1 implies it from the data length."""
        return self.version >= 2

    @property
    def multiple_records_per_name(self) -> bool:
        return self.version >= 2

    @property
    def has_value_data(self) -> bool:
        return self.version >= 3

    @property
    def has_summary(self) -> bool:
        return self.version >= 4

    @property
    def has_memprof(self) -> bool:
        return self.version >= 8

    @property
    def has_binary_ids(self) -> bool:
        return self.version >= 9

    @property
    def has_temporal_traces(self) -> bool:
        return self.version >= 10

    @property
    def has_bitmap(self) -> bool:
        """Records carry MC/DC bitmap bytes (each stored as a u64)."""
        return self.version >= 11

    @property
    def has_vtable_names(self) -> bool:
        return self.version >= 12

    def field_offset(self, name: str) -> int:
        """Byte offset of a header word (ValueError if this version lacks it)."""
        return 8 * self.header_fields.index(name)


@cache
def layout(version: int) -> IndexedLayout:
    """The layout of an indexed version (the low 32 bits of the version word)."""
    if not FIRST_VERSION <= version <= LAST_VERSION:
        raise ValueError(
            f"indexed profile version {version} is not in {FIRST_VERSION}..{LAST_VERSION}"
        )
    fields = tuple(name for name, since in _HEADER_WORDS if version >= since)
    return IndexedLayout(version, fields, struct.Struct(f"<{len(fields)}Q"))
