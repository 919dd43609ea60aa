"""The on-disk chained hash table reader: lookups, payload walks and bad offsets.

Small tables are assembled here field by field (instr-indexed.md §5) so every
offset is known; the 300-name table written by llvm-profdata 22
(``tests/golden/indexed/v13-many.profdata``) checks the same reader on LLVM's bytes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats._onhash import ItemRef, OnDiskHashTable
from profdata.model.names import md5_hash_bytes

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "indexed"
PREFIX = 24  # bytes before the payload, as a file header would be


@dataclass
class Built:
    data: bytes
    payload_offset: int
    table_offset: int
    bucket_at: dict[int, int]  # bucket index -> file offset of its item count

    def table(self) -> OnDiskHashTable:
        return OnDiskHashTable(
            memoryview(self.data), table_offset=self.table_offset, payload_offset=PREFIX
        )


def build(
    entries: list[tuple[int, bytes, bytes]], num_buckets: int, *, table_first: bool = False
) -> Built:
    """A table with ``(hash, key, data)`` items, each bucket in the order given."""
    buckets: dict[int, list[tuple[int, bytes, bytes]]] = {}
    for entry in entries:
        buckets.setdefault(entry[0] & (num_buckets - 1), []).append(entry)
    table_size = 16 + 8 * num_buckets
    base = PREFIX + (table_size if table_first else 0)
    payload = bytearray()
    bucket_at: dict[int, int] = {}
    for index in sorted(buckets):
        bucket_at[index] = base + len(payload)
        payload += struct.pack("<H", len(buckets[index]))
        for key_hash, key, data in buckets[index]:
            payload += struct.pack("<QQQ", key_hash, len(key), len(data)) + key + data
    payload += bytes(-len(payload) % 8)
    offsets = [bucket_at.get(i, 0) for i in range(num_buckets)]
    table = struct.pack(f"<QQ{num_buckets}Q", num_buckets, len(entries), *offsets)
    head = bytes(PREFIX)
    if table_first:
        return Built(head + table + payload, base, PREFIX, bucket_at)
    return Built(head + payload + table, PREFIX, PREFIX + len(payload), bucket_at)


def entry(key: bytes, data: bytes = b"", key_hash: int | None = None) -> tuple[int, bytes, bytes]:
    return (md5_hash_bytes(key) if key_hash is None else key_hash, key, data)


SAMPLE = [entry(b"alpha", b"A" * 8), entry(b"beta", b"B" * 16), entry(b"gamma"), entry(b"delta")]


def test_items_walk_buckets_in_index_order() -> None:
    built = build(SAMPLE, 4)
    table = built.table()
    items = list(table.items())
    by_bucket = sorted(SAMPLE, key=lambda e: e[0] & 3)  # stable: in-bucket order kept
    assert [table.key(i) for i in items] == [key for _, key, _ in by_bucket]
    assert [i.key_hash for i in items] == [h for h, _, _ in by_bucket]
    for item, (_, key, data) in zip(items, by_bucket, strict=True):
        assert built.data[item.data_offset : item.data_offset + item.data_length] == data
        assert item.key_length == len(key)


def test_find_reads_the_key_bucket() -> None:
    table = build(SAMPLE, 4).table()
    for key_hash, key, data in SAMPLE:
        item = table.find(key_hash, key)
        assert item is not None
        assert table.key(item) == key
        assert item.data_length == len(data)
    assert table.find(md5_hash_bytes(b"epsilon"), b"epsilon") is None


def test_find_compares_hash_then_key() -> None:
    same = 0x1234
    entries = [entry(b"one", b"1" * 8, same), entry(b"two", b"2" * 8, same)]
    table = build(entries, 1).table()
    two = table.find(same, b"two")
    assert two is not None and table.key(two) == b"two"
    assert table.find(same, b"three") is None
    assert table.find(same + 1, b"one") is None  # same bucket (1 bucket), other hash


def test_bucket_index_is_a_mask_of_the_hash() -> None:
    table = build(SAMPLE, 8).table()
    assert table.num_buckets == 8
    assert table.num_entries == 4
    assert table.bucket_index(0xFFFF_FFFF_FFFF_FFF5) == 5
    for item in table.items():
        assert item in list(table.bucket(table.bucket_index(item.key_hash)))


def test_empty_bucket_yields_nothing() -> None:
    built = build(SAMPLE, 64)
    table = built.table()
    empty = next(i for i in range(64) if i not in built.bucket_at)
    assert table.bucket_offset(empty) == 0
    assert list(table.bucket(empty)) == []


def test_table_before_payload_bounds_items_by_the_file_end() -> None:
    built = build(SAMPLE, 4, table_first=True)
    table = OnDiskHashTable(
        memoryview(built.data), table_offset=built.table_offset, payload_offset=built.payload_offset
    )
    assert table.payload_end == len(built.data)
    assert len(list(table.items())) == 4
    assert table.find(*SAMPLE[1][:2]) is not None


def test_empty_table() -> None:
    table = build([], 1).table()
    assert list(table.items()) == []
    assert table.find(0, b"") is None


# -- bad tables -------------------------------------------------------------------------
def _error(data: bytes, table_offset: int, payload_offset: int = PREFIX) -> MalformedError:
    with pytest.raises(MalformedError) as info:
        OnDiskHashTable(memoryview(data), table_offset=table_offset, payload_offset=payload_offset)
    return info.value


def test_table_offset_past_the_end() -> None:
    built = build(SAMPLE, 4)
    err = _error(built.data, len(built.data) - 8)
    assert err.location.field == "hash_table.offset"
    assert err.location.found == str(len(built.data) - 8)
    with pytest.raises(MalformedError) as info:
        OnDiskHashTable(
            memoryview(built.data), table_offset=1 << 40, payload_offset=0, offset_at=32
        )
    assert info.value.location.offset == 32


def test_impossible_entry_count() -> None:
    """LLVM never compares NumEntries with the payload: the walk reads the real items,
    then the table behind them as items, until one leaves the file."""
    built = build(SAMPLE, 4)
    pristine = list(built.table().items())
    data = bytearray(built.data)
    struct.pack_into("<Q", data, built.table_offset + 8, 1 << 40)
    table = OnDiskHashTable(
        memoryview(bytes(data)),
        table_offset=built.table_offset,
        payload_offset=built.payload_offset,
    )
    walked: list[ItemRef] = []
    with pytest.raises(MalformedError) as info:
        walked.extend(table.items())
    assert walked[:4] == pristine
    assert "past the end of the file" in str(info.value)


@pytest.mark.parametrize("value", [0, 1 << 40])
def test_impossible_bucket_count_fails_lookups_only(value: int) -> None:
    """llvm-profdata walks the payload and never reads the bucket offsets: the walk
    reads every item, and a lookup (which needs them) meets the located error."""
    built = build(SAMPLE, 4)
    data = bytearray(built.data)
    struct.pack_into("<Q", data, built.table_offset, value)
    table = OnDiskHashTable(
        memoryview(bytes(data)), table_offset=built.table_offset, payload_offset=PREFIX
    )
    assert len(list(table.items())) == len(SAMPLE)
    assert table.item_arrays() is None  # the bucket-wise read needs the offsets
    key_hash, key, _ = SAMPLE[0]
    for look in (lambda: table.find(key_hash, key), lambda: list(table.bucket(0))):
        with pytest.raises(MalformedError) as info:
            look()
        assert info.value.location.field == "hash_table.num_buckets"
        assert info.value.location.offset == built.table_offset
        assert info.value.location.found == str(value)


def test_payload_offset_past_the_end() -> None:
    built = build(SAMPLE, 4)
    assert _error(built.data, built.table_offset, len(built.data) + 1).location.field == (
        "hash_table.payload"
    )


def _corrupt(built: Built, at: int, fmt: str, value: int) -> OnDiskHashTable:
    data = bytearray(built.data)
    struct.pack_into(fmt, data, at, value)
    return OnDiskHashTable(
        memoryview(bytes(data)), table_offset=built.table_offset, payload_offset=PREFIX
    )


def test_bucket_offset_outside_the_payload() -> None:
    built = build(SAMPLE, 4)
    index = min(built.bucket_at)
    table = _corrupt(built, built.table_offset + 16 + 8 * index, "<Q", built.table_offset)
    with pytest.raises(MalformedError) as info:
        list(table.bucket(index))
    assert info.value.location.field == f"hash_table.bucket_offset[{index}]"
    assert info.value.location.offset == built.table_offset + 16 + 8 * index
    assert len(list(table.items())) == 4  # the walk does not use bucket offsets


def test_bucket_with_no_items() -> None:
    """LLVM's walk counts a count of 0 down past 0 (its ``offset_type`` wraps) and reads
    no count again: the first bucket's items are read, then the next bucket's count as
    the start of an item header, whose garbage key length ends the walk here.  ``find``
    sees an empty bucket."""
    built = build(SAMPLE, 4)
    first = min(built.bucket_at)
    pristine = list(built.table().items())
    table = _corrupt(built, built.bucket_at[first], "<H", 0)
    walked: list[ItemRef] = []
    with pytest.raises(MalformedError) as info:
        walked.extend(table.items())
    assert walked == pristine[: len(walked)] and len(walked) == 2  # the first bucket's
    second = min(offset for offset in built.bucket_at.values() if offset > built.bucket_at[first])
    assert info.value.location.field == "hash_table.key_length"
    assert info.value.location.offset == second + 8  # the count is the hash's first bytes
    assert list(table.bucket(first)) == []


@pytest.mark.parametrize(
    ("delta", "field"), [(10, "hash_table.key_length"), (18, "hash_table.data_length")]
)
def test_item_lengths_past_the_payload(delta: int, field: str) -> None:
    built = build(SAMPLE, 4)
    first = min(built.bucket_at)
    table = _corrupt(built, built.bucket_at[first] + delta, "<Q", 1 << 20)
    for walk in (table.items(), table.bucket(first)):
        with pytest.raises(MalformedError) as info:
            list(walk)
        assert info.value.location.field == field
        assert info.value.location.offset == built.bucket_at[first] + delta


def test_more_items_than_the_payload_holds() -> None:
    """The walk goes on into the table behind the payload, as LLVM's does, and stops at
    the first item that leaves the file."""
    built = build(SAMPLE, 4)
    table = _corrupt(built, built.table_offset + 8, "<Q", 5)
    with pytest.raises(MalformedError) as info:
        list(table.items())
    assert (info.value.location.field or "").startswith("hash_table.")
    assert "past the end of the file" in str(info.value)


# -- LLVM's own table ---------------------------------------------------------------------
def test_llvm_written_table_is_consistent() -> None:
    data = (GOLDEN / "v13-many.profdata").read_bytes()
    (hash_offset,) = struct.unpack_from("<Q", data, 32)
    payload = 72 + 448  # v13 header + one summary (6 fields, 16 entries)
    table = OnDiskHashTable(memoryview(data), table_offset=hash_offset, payload_offset=payload)
    assert (table.num_buckets, table.num_entries) == (512, 300)
    items = list(table.items())
    assert len(items) == 300
    starts: list[ItemRef] = []
    for index in range(table.num_buckets):
        bucket = list(table.bucket(index))
        starts += bucket
        for item in bucket:
            assert table.bucket_index(item.key_hash) == index
    assert starts == items  # walking buckets in index order is the payload order
    for item in items:
        key = table.key(item)
        assert item.key_hash == md5_hash_bytes(key)
        assert table.find(item.key_hash, key) == item
