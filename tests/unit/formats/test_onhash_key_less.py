"""Key-less on-disk hash tables (MemProf V2 call stacks, ``CallStackWriterTrait``).

Items are ``u64 KeyHash, u64 DataLength, u64 key, data``: no KeyLength field.
Tables are assembled here field by field so every offset is known.
"""

from __future__ import annotations

import struct

import pytest

from profdata.errors import MalformedError, TruncatedError
from profdata.formats._onhash import OnDiskHashTable

PREFIX = 24  # bytes before the payload, as a file header would be


def build(entries: list[tuple[int, bytes]], num_buckets: int) -> tuple[bytes, int]:
    """A key-less table of ``(key, data)`` items (the key is its own hash); the
    bytes and the table offset."""
    buckets: dict[int, list[tuple[int, bytes]]] = {}
    for entry in entries:
        buckets.setdefault(entry[0] & (num_buckets - 1), []).append(entry)
    payload = bytearray()
    offsets = [0] * num_buckets
    for index in sorted(buckets):
        offsets[index] = PREFIX + len(payload)
        payload += struct.pack("<H", len(buckets[index]))
        for key, data in buckets[index]:
            payload += struct.pack("<QQQ", key, len(data), key) + data
    table = struct.pack(f"<QQ{num_buckets}Q", num_buckets, len(entries), *offsets)
    return bytes(PREFIX) + bytes(payload) + table, PREFIX + len(payload)


def table_of(data: bytes, table_offset: int) -> OnDiskHashTable:
    return OnDiskHashTable(
        memoryview(data),
        table_offset=table_offset,
        payload_offset=PREFIX,
        field="cs",
        key_less=True,
    )


ENTRIES = [(1, struct.pack("<2Q", 7, 8)), (5, b""), (2, struct.pack("<Q", 9))]


def test_items_read_the_key_after_the_data_length() -> None:
    data, at = build(ENTRIES, 4)
    table = table_of(data, at)
    items = list(table.items())
    assert [(i.key_hash, table.key(i)) for i in items] == [
        (1, struct.pack("<Q", 1)),
        (5, struct.pack("<Q", 5)),
        (2, struct.pack("<Q", 2)),
    ]
    assert [i.key_length for i in items] == [8, 8, 8]
    assert [bytes(data[i.data_offset : i.data_offset + i.data_length]) for i in items] == [
        ENTRIES[0][1],
        b"",
        ENTRIES[2][1],
    ]


def test_find_reads_key_less_buckets() -> None:
    data, at = build(ENTRIES, 4)
    table = table_of(data, at)
    found = table.find(5, struct.pack("<Q", 5))
    assert found is not None and found.data_length == 0
    two = table.find(2, struct.pack("<Q", 2))
    assert two is not None and data[two.data_offset : two.data_offset + 8] == ENTRIES[2][1]
    assert table.find(9, struct.pack("<Q", 9)) is None


def test_key_less_tables_have_no_array_walk() -> None:
    data, at = build(ENTRIES, 4)
    assert table_of(data, at).item_arrays() is None


def test_a_data_length_past_the_end_is_a_truncation_at_the_item() -> None:
    data, at = build([(1, struct.pack("<Q", 7))], 2)
    bad = bytearray(data)
    struct.pack_into("<Q", bad, PREFIX + 2 + 8, 1 << 40)  # DataLength
    with pytest.raises(TruncatedError) as info:
        list(table_of(bytes(bad), at).items())
    assert info.value.location.field == "cs.item"


def test_a_lookup_of_a_data_length_past_the_payload_is_located() -> None:
    data, at = build([(1, struct.pack("<Q", 7))], 2)
    bad = bytearray(data)
    struct.pack_into("<Q", bad, PREFIX + 2 + 8, 1 << 40)
    with pytest.raises(MalformedError) as info:
        table_of(bytes(bad), at).find(1, struct.pack("<Q", 1))
    assert info.value.location.field == "cs.data_length"
    assert info.value.location.offset == PREFIX + 2 + 8
