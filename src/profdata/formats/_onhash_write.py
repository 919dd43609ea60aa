"""LLVM's ``OnDiskChainedHashTableGenerator`` (64-bit hashes and offsets), writer side.

The bucket count and the order of items inside a bucket are not free: the
generator starts with 64 buckets, doubles when 3/4 full, prepends every item
to its bucket's chain (so each rehash reverses the items that stay together)
and shrinks or grows once more before emitting (``instr-indexed.md`` §5.3).
:func:`bucket_layout` replays exactly that so the written payload and table
are LLVM's bytes; :func:`emit` writes them.  Item contents are opaque here:
each item is its hash plus the bytes LLVM's ``Info`` writes after the hash
(key and data lengths, key, data), so the indexed profile and MemProf tables
can share the generator.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from profdata.formats._binary import ByteWriter

_INITIAL_BUCKETS = 64
_U16_MAX = 0xFFFF
_ITEM_HASH = struct.Struct("<Q")
_BUCKET_LENGTH = struct.Struct("<H")


def target_buckets(num_entries: int) -> int:
    """The bucket count ``Emit`` settles on: 1 for up to 2 entries, else ``NextPowerOf2(n*4/3)``."""
    if num_entries <= 2:
        return 1
    return 1 << ((num_entries * 4 // 3).bit_length())


def _rehash(buckets: list[list[int]], size: int, hashes: Sequence[int]) -> list[list[int]]:
    # chains are stored tail-first (list end = head) so "prepend" is an append
    new: list[list[int]] = [[] for _ in range(size)]
    mask = size - 1
    for chain in buckets:
        for item in reversed(chain):
            new[hashes[item] & mask].append(item)
    return new


def bucket_layout(hashes: Sequence[int]) -> list[list[int]]:
    """Item indexes per bucket, head first, after inserting ``hashes`` in this order.

    ``len(result)`` is the emitted NumBuckets; bucket ``i`` holds the items
    whose ``hash & (NumBuckets - 1) == i``.
    """
    buckets: list[list[int]] = [[] for _ in range(_INITIAL_BUCKETS)]
    for index, key_hash in enumerate(hashes):
        if (index + 1) * 4 >= len(buckets) * 3:
            buckets = _rehash(buckets, 2 * len(buckets), hashes)
        buckets[key_hash & (len(buckets) - 1)].append(index)
    target = target_buckets(len(hashes))
    if target != len(buckets):
        buckets = _rehash(buckets, target, hashes)
    return [chain[::-1] for chain in buckets]


def emit(out: ByteWriter, hashes: Sequence[int], items: Sequence[bytes]) -> int:
    """Write payload, padding and table; return the table's offset (LLVM's ``TableOff``).

    ``items[i]`` is everything written after item ``i``'s hash.
    """
    if len(hashes) != len(items):
        raise ValueError("one hash per item is required")
    layout = bucket_layout(hashes)
    offsets = [0] * len(layout)
    buf = out.buf
    for bucket, chain in enumerate(layout):
        if not chain:
            continue
        if len(chain) > _U16_MAX:
            raise ValueError(f"bucket {bucket} holds {len(chain)} items; LLVM stores a u16 count")
        offsets[bucket] = len(buf)
        buf += _BUCKET_LENGTH.pack(len(chain))
        for item in chain:
            buf += _ITEM_HASH.pack(hashes[item])
            buf += items[item]
    out.align8()
    table = len(out)
    out.u64(len(layout))
    out.u64(len(hashes))
    out.bytes(np.asarray(offsets, dtype="<u8").tobytes())
    return table
