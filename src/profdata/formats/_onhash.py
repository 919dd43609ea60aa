"""LLVM's on-disk chained hash table (``OnDiskIterableChainedHashTable``), reader side.

Indexed instrumentation profiles (and the MemProf tables inside them) keep
their records in this structure, written by ``OnDiskChainedHashTableGenerator``
with 64-bit hashes and 64-bit offsets (``instr-indexed.md`` §5):

* a *payload* of buckets, each ``u16 ItemCount`` followed by that many items
  ``u64 KeyHash, u64 KeyLength, u64 DataLength, key bytes, data bytes``;
* the *table* at a known offset: ``NumBuckets, NumEntries`` and one absolute
  file offset per bucket (0 = empty bucket).

The reader mirrors LLVM's two access paths: :meth:`OnDiskHashTable.find` reads
exactly one bucket (what the compiler does for ``-fprofile-use``), and
:meth:`OnDiskHashTable.items` walks the payload from its start for NumEntries
items (what ``llvm-profdata show``/``merge`` do), so the iteration order is
bucket order, then in-bucket order.  A *key-less* table (``key_less=True``,
MemProf V2's call stacks: ``CallStackWriterTrait`` writes no KeyLength) has
items ``u64 KeyHash, u64 DataLength, u64 key, data bytes``.  Only the table
header is read eagerly;
items are located on demand, which keeps a lookup in a 100k-function profile
down to a few hundred bytes of I/O on a memory-mapped file.

LLVM does no bounds checking here; every read below is checked and a bad
offset or length becomes a located :class:`~profdata.errors.MalformedError`.
The bounds are the file's, as LLVM's reads are defined inside it: an item
that runs past the payload into the table behind it (a damaged length) is read
as LLVM reads it, and a bucket count of 0 is taken as LLVM takes it.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from profdata.errors import MalformedError
from profdata.formats._binary import ByteReader

_U16 = struct.Struct("<H")
_ITEM_HEADER = struct.Struct("<QQQ")  # KeyHash, KeyLength, DataLength
_KEY_LESS_HEADER = struct.Struct("<QQ")  # KeyHash, DataLength (the key is one u64)
_KEY_LESS_KEY_LENGTH = 8
_BUCKET_COUNT_SIZE = _U16.size
_ITEM_HEADER_SIZE = _ITEM_HEADER.size
_TABLE_HEADER_SIZE = 16  # NumBuckets, NumEntries
_NO_INDEX = np.zeros(0, dtype=np.int64)


Ints = npt.NDArray[np.int64]


class ItemRef(NamedTuple):
    """Where one item's key and data live in the file (nothing decoded yet)."""

    key_hash: int
    key_offset: int
    key_length: int
    data_offset: int
    data_length: int


class ItemArrays(NamedTuple):
    """Every item of the payload, in payload order, as parallel arrays (see ``item_arrays``)."""

    key_hash: npt.NDArray[np.uint64]
    key_offset: Ints
    key_length: Ints
    data_offset: Ints
    data_length: Ints


class FileWords:
    """Little-endian u64 reads at any byte offsets of a buffer, many at once.

    Items follow a 2-byte bucket count and keys of any length, so their fields
    are rarely 8-aligned.  ``at`` is a view of the buffer whose element i is
    the u64 starting at byte i (stride 1, unaligned), so one fancy index reads
    a field of every item.
    """

    __slots__ = ("_runs", "at", "bytes", "size")

    def __init__(self, data: memoryview) -> None:
        self.bytes = np.frombuffer(data, dtype=np.uint8)
        self.size = len(data)
        self.at: npt.NDArray[np.uint64] = np.ndarray(
            (max(self.size - 7, 0),), dtype="<u8", buffer=data, strides=(1,)
        )
        self._runs: dict[int, npt.NDArray[np.void]] = {}

    def u64(self, positions: Ints, count: int = 1) -> npt.NDArray[np.uint64]:
        """``count`` consecutive u64 at each position: shape (len(positions), count)."""
        if count == 1:
            one: npt.NDArray[np.uint64] = self.at[positions[:, None]]
            return one
        return self.runs(positions, 8 * count).view("<u8")

    def runs(self, positions: Ints, width: int) -> npt.NDArray[np.uint8]:
        """The ``width`` bytes at each position: shape (len(positions), width).

        Element i of a ``width``-byte void view is the run starting at byte i: one
        index per position copies the whole run, several times faster than byte by byte.
        """
        runs = self._runs.get(width)
        if runs is None:
            runs = self._runs[width] = np.ndarray(
                (max(self.size - width + 1, 0),), dtype=f"V{width}", buffer=self.bytes,
                strides=(1,),
            )  # fmt: skip
        found: npt.NDArray[np.uint8] = runs[positions].view(np.uint8).reshape(len(positions), width)
        return found


_NO_ITEMS = ItemArrays(np.zeros(0, dtype=np.uint64), _NO_INDEX, _NO_INDEX, _NO_INDEX, _NO_INDEX)


class OnDiskHashTable:
    """A lazily read table over a whole file's bytes.

    ``payload_offset`` is where the first bucket starts (the reader knows it
    from the surrounding format; the table does not record it) and
    ``table_offset`` is the offset of ``NumBuckets``; ``offset_at`` is where
    the caller read ``table_offset`` from, to locate an error about it; ``key_less``
    reads items without a KeyLength field.  Every LLVM writer puts the items
    between the payload start and the table; a damaged one may run on into the
    table or anywhere else in the file, as LLVM reads it.
    """

    __slots__ = (
        "_bucket_fault",
        "_bucket_offsets",
        "_cur",
        "_data",
        "field",
        "item_fault",
        "key_less",
        "num_buckets",
        "num_entries",
        "payload_end",
        "payload_offset",
        "table_offset",
        "unread_data",
    )

    def __init__(
        self,
        data: memoryview,
        *,
        table_offset: int,
        payload_offset: int,
        path: str | None = None,
        field: str = "hash_table",
        offset_at: int | None = None,
        key_less: bool = False,
        unread_data: Callable[[int], bool] | None = None,
        item_fault: str | None = None,
    ) -> None:
        self._data = data
        #: the data lengths for which the format's reader reads neither an item's key nor
        #: its data: such an item is handed on wherever they lie, and its reader fails it
        self.unread_data = unread_data
        #: LLVM's first line for an item that runs past the end of the file, where its
        #: reader goes on into memory and either fails the item so or crashes (None: ours)
        self.item_fault = item_fault
        self._cur = ByteReader(data, path=path)
        self.field = field
        self.key_less = key_less
        self.table_offset = table_offset
        self.payload_offset = payload_offset
        size = len(data)
        if table_offset > size or size - table_offset < _TABLE_HEADER_SIZE:
            self._cur.fail(
                MalformedError,
                "the hash table offset points past the end of the file",
                field=f"{field}.offset",
                expected=f"<= {max(size - _TABLE_HEADER_SIZE, 0)}",
                found=str(table_offset),
                at=min(table_offset, size) if offset_at is None else offset_at,
            )
        num_buckets, num_entries = struct.unpack_from("<QQ", data, table_offset)
        self.num_buckets: int = num_buckets
        self.num_entries: int = num_entries
        buckets_at = table_offset + _TABLE_HEADER_SIZE
        # llvm-profdata walks the payload and never reads the bucket offsets (only a
        # lookup does): a bucket array that cannot be is a fault of lookups alone
        self._bucket_fault: tuple[str, str, str] | None = None
        if self.num_buckets == 0:
            self._bucket_fault = ("the hash table has no buckets", ">= 1", "0")
        elif self.num_buckets > (size - buckets_at) // 8:
            self._bucket_fault = (
                "the bucket offsets run past the end of the file",
                f"<= {(size - buckets_at) // 8}",
                str(self.num_buckets),
            )
        self._bucket_offsets: npt.NDArray[np.uint64] = np.frombuffer(
            data,
            dtype="<u8",
            count=0 if self._bucket_fault else self.num_buckets,
            offset=min(buckets_at, size),
        )
        if payload_offset > size:
            self._cur.fail(
                MalformedError,
                "the hash table payload starts past the end of the file",
                field=f"{field}.payload",
                expected=f"<= {size}",
                found=str(payload_offset),
                at=size,
            )
        self.payload_end = table_offset if table_offset >= payload_offset else size

    # -- lookup -------------------------------------------------------------
    def bucket_index(self, key_hash: int) -> int:
        """LLVM's ``KeyHash & (NumBuckets - 1)`` (used even if NumBuckets is no power of 2)."""
        self._check_buckets()
        return key_hash & (self.num_buckets - 1)

    @property
    def buckets_readable(self) -> bool:
        """Whether the bucket offsets are there to be read (lookups need them)."""
        return self._bucket_fault is None

    def _check_buckets(self) -> None:
        if self._bucket_fault is not None:
            what, expected, found = self._bucket_fault
            self._cur.fail(
                MalformedError, what, field=f"{self.field}.num_buckets",
                expected=expected, found=found, at=self.table_offset,
            )  # fmt: skip

    def bucket_offset(self, index: int) -> int:
        self._check_buckets()
        return int(self._bucket_offsets[index])

    def bucket(self, index: int) -> Iterator[ItemRef]:
        """The items of one bucket, read from its offset (nothing else is touched)."""
        offset = self.bucket_offset(index)
        if offset == 0:
            return
        at = self.table_offset + _TABLE_HEADER_SIZE + 8 * index
        if offset < self.payload_offset or offset >= self.payload_end:
            self._cur.fail(
                MalformedError,
                f"bucket {index} points outside the hash table payload",
                field=f"{self.field}.bucket_offset[{index}]",
                expected=f"{self.payload_offset} <= offset < {self.payload_end}",
                found=str(offset),
                at=at,
            )
        count, pos = self._bucket_count(offset)
        for _ in range(count):
            item = self._item(pos)
            yield item
            pos = item.data_offset + item.data_length

    def find(self, key_hash: int, key: bytes) -> ItemRef | None:
        """The first item of the key's bucket with this hash and key (LLVM's ``find``)."""
        data = self._data
        for item in self.bucket(self.bucket_index(key_hash)):
            if (
                item.key_hash == key_hash
                and item.key_length == len(key)
                and data[item.key_offset : item.key_offset + item.key_length] == key
            ):
                return item
        return None

    # -- iteration ----------------------------------------------------------
    def items(self) -> Iterator[ItemRef]:
        """NumEntries items read sequentially from the payload start (LLVM's ``data_begin``)."""
        return self._key_less_items() if self.key_less else self._keyed_items()

    def key_items(self) -> Iterator[ItemRef]:
        """:meth:`items` as LLVM's ``key_iterator`` walks them (``keys()``, which
        ``InstrProfSymtab::create`` takes): each key is read, each data block only
        stepped over.  An item whose data runs past the end of the file is therefore
        read whole when it is the last one; after another, the next item lies past
        the end (where LLVM reads other memory), and that is the located error."""
        if self.key_less:
            return self._key_less_items()
        return self._keyed_items(data_read=False)

    def _keyed_items(self, data_read: bool = True) -> Iterator[ItemRef]:
        data = self._data
        end = len(data)
        pos = self.payload_offset
        left_in_bucket = 0
        unpack_item = _ITEM_HEADER.unpack_from
        for _ in range(self.num_entries):
            if left_in_bucket == 0:
                left_in_bucket, pos = self._bucket_count(pos)
            if end - pos < _ITEM_HEADER_SIZE:
                self._item(pos)  # raises the located error
            key_hash, key_length, data_length = unpack_item(data, pos)
            key_offset = pos + _ITEM_HEADER_SIZE
            past = data_read and data_length > end - key_offset - key_length
            if key_length > end - key_offset or past:
                self._item(pos)  # raises the located error, or hands on an item never read
            data_offset = key_offset + key_length
            yield ItemRef(key_hash, key_offset, key_length, data_offset, data_length)
            pos = data_offset + data_length
            left_in_bucket -= 1  # below 0 after a count of 0: no count is read again

    def _key_less_items(self) -> Iterator[ItemRef]:
        """:meth:`items` of a key-less table: the walk of :meth:`_keyed_items` (bounded
        by the file, a bucket count of 0 counting down past 0) over items without a
        KeyLength, read through a cursor so that its errors name the fields the MemProf
        V2 reader always named."""
        cur = ByteReader(self._data, path=self._cur.path)
        field = self.field
        pos = self.payload_offset
        left = 0
        for _ in range(self.num_entries):
            cur.seek(pos, f"{field}.item")
            if left == 0:
                left = cur.u16(f"{field}.bucket_count")
            key_hash = cur.u64(f"{field}.key_hash")
            length = cur.u64(f"{field}.data_length")
            key_offset = cur.pos
            cur.require(_KEY_LESS_KEY_LENGTH + length, f"{field}.item")
            data_offset = key_offset + _KEY_LESS_KEY_LENGTH
            yield ItemRef(key_hash, key_offset, _KEY_LESS_KEY_LENGTH, data_offset, length)
            pos = data_offset + length
            left -= 1

    def item_arrays(self, words: FileWords | None = None) -> ItemArrays | None:
        """What :meth:`items` yields, read bucket by bucket with numpy instead of item by item.

        The bucket offsets give every bucket's start, so the k-th items of all
        buckets are read at once.  That finds the same items as LLVM's walk
        from the payload start only if the buckets tile the payload, in offset
        order, with NumEntries items in all; anything else (or an item that
        runs past the payload) gives None, and :meth:`items` walks and fails
        where LLVM's walk would.  A key-less table always gives None.
        """
        if self.key_less:
            return None
        words = words or FileWords(self._data)
        count = self.num_entries
        starts = self._bucket_offsets[self._bucket_offsets != 0]
        if not bool(np.all(starts[1:] > starts[:-1])):  # LLVM writes them in bucket order
            starts = np.sort(starts)
        if not len(starts):
            return _NO_ITEMS if count == 0 else None
        end = self.payload_end
        if (
            int(starts[0]) != self.payload_offset
            or int(starts[-1]) > end - _BUCKET_COUNT_SIZE
            or bool(np.any(starts[1:] == starts[:-1]))
        ):
            return None
        bucket_at = starts.astype(np.int64)
        if int(bucket_at[-1]) + _BUCKET_COUNT_SIZE + _ITEM_HEADER_SIZE > end:
            return None  # the last bucket holds no whole item
        # each bucket's item count and its first item's header, read together: one visit to
        # each bucket's place in the file, which is most of what the walk costs
        heads = words.runs(bucket_at, _BUCKET_COUNT_SIZE + _ITEM_HEADER_SIZE)
        per_bucket = heads[:, :_BUCKET_COUNT_SIZE].copy().view("<u2")[:, 0].astype(np.int64)
        if int(per_bucket.sum()) != count or not per_bucket.all():
            return None
        key_hash = np.empty(count, dtype=np.uint64)
        key_length = np.empty(count, dtype=np.int64)
        data_length = np.empty(count, dtype=np.int64)
        key_offset = np.empty(count, dtype=np.int64)
        slot = np.cumsum(per_bucket) - per_bucket  # each bucket's first item
        pos = bucket_at + _BUCKET_COUNT_SIZE
        live = np.arange(len(bucket_at))
        for k in range(int(per_bucket.max())):
            if k:
                more = per_bucket[live] > k
                live, pos = live[more], pos[more]
            if int(pos.max()) > end - _ITEM_HEADER_SIZE:
                return None
            header = words.u64(pos, 3) if k else heads[:, _BUCKET_COUNT_SIZE:].copy().view("<u8")
            keys_at = pos + _ITEM_HEADER_SIZE
            room = (end - keys_at).astype(np.uint64)
            if bool(np.any(header[:, 1] > room)) or bool(
                np.any(header[:, 2] > room - header[:, 1])
            ):
                return None
            at = slot[live] + k
            key_hash[at] = header[:, 0]
            key_length[at] = header[:, 1]
            data_length[at] = header[:, 2]
            key_offset[at] = keys_at
            pos = keys_at + header[:, 1].astype(np.int64) + header[:, 2].astype(np.int64)
            if k == 0:
                bucket_end = pos.copy()
            else:
                bucket_end[live] = pos
        if bool(np.any(bucket_end[:-1] != bucket_at[1:])):
            return None
        return ItemArrays(key_hash, key_offset, key_length, key_offset + key_length, data_length)

    @property
    def data(self) -> memoryview:
        """The whole file's bytes, which item offsets index."""
        return self._data

    def key(self, item: ItemRef) -> bytes:
        return bytes(self._data[item.key_offset : item.key_offset + item.key_length])

    # -- checked reads --------------------------------------------------------
    def _bucket_count(self, pos: int) -> tuple[int, int]:
        # LLVM's table knows no end of its payload: reads are bounded by the file only
        if len(self._data) - pos < _BUCKET_COUNT_SIZE:
            self._cur.fail(
                MalformedError,
                "a bucket's item count runs past the end of the file",
                field=f"{self.field}.item_count",
                expected="2 bytes",
                found=_left(len(self._data), pos),
                at=min(pos, len(self._data)),
                llvm_message=self.item_fault,
            )
        # A count of 0 (LLVM writes none) is taken as LLVM takes it: ``find`` sees an
        # empty bucket, and the walk of :meth:`items` counts it down past 0 -- its
        # ``offset_type`` wraps -- so it reads every later item as part of this bucket.
        (count,) = _U16.unpack_from(self._data, pos)
        return count, pos + _BUCKET_COUNT_SIZE

    def _item(self, pos: int) -> ItemRef:
        """One item at ``pos``, every field checked against the end of the file (LLVM's
        table knows no end of its payload; past the file it would read memory)."""
        end = len(self._data)
        header = _KEY_LESS_HEADER if self.key_less else _ITEM_HEADER
        if end - pos < header.size:
            self._cur.fail(
                MalformedError,
                "an item header runs past the end of the file",
                field=f"{self.field}.item",
                expected=f"{header.size} bytes",
                found=_left(end, pos),
                at=min(pos, end),
                llvm_message=self.item_fault,
            )
        key_offset = pos + header.size
        if self.key_less:
            key_hash, data_length = header.unpack_from(self._data, pos)
            key_length = _KEY_LESS_KEY_LENGTH
            key_field, key_at, data_at = "key", key_offset, pos + 8
        else:
            key_hash, key_length, data_length = header.unpack_from(self._data, pos)
            key_field, key_at, data_at = "key_length", pos + 8, pos + 16
        if self.unread_data is not None and self.unread_data(data_length):
            return ItemRef(key_hash, key_offset, key_length, key_offset + key_length, data_length)
        if key_length > end - key_offset:
            self._cur.fail(
                MalformedError,
                "an item's key runs past the end of the file",
                field=f"{self.field}.{key_field}",
                expected=f"<= {end - key_offset}",
                found=str(key_length),
                at=key_at,
                llvm_message=self.item_fault,
            )
        if data_length > end - key_offset - key_length:
            self._cur.fail(
                MalformedError,
                "an item's data runs past the end of the file",
                field=f"{self.field}.data_length",
                expected=f"<= {end - key_offset - key_length}",
                found=str(data_length),
                at=data_at,
                llvm_message=self.item_fault,
            )
        return ItemRef(key_hash, key_offset, key_length, key_offset + key_length, data_length)


def _left(end: int, pos: int) -> str:
    """What is left of the file at ``pos``; a position past its end is named, and the
    error's offset is then the end of the file (an offset is always inside the file)."""
    if pos > end:
        return f"a position {pos} past the end ({end} bytes)"
    return f"{end - pos} bytes left"
