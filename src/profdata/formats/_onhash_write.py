"""LLVM's ``OnDiskChainedHashTableGenerator`` (64-bit hashes and offsets), writer side.

The bucket count and the order of items inside a bucket are not free: the
generator starts with 64 buckets, doubles when 3/4 full, prepends every item
to its bucket's chain (so each rehash reverses the items that stay together)
and shrinks or grows once more before emitting (``instr-indexed.md`` §5.3).
:func:`bucket_order` replays exactly that so the written payload and table
are LLVM's bytes; :func:`emit_items` writes them.  Item contents are opaque
here: each item is its hash plus the bytes LLVM's ``Info`` writes after the
hash (key and data lengths, key, data), so the indexed profile and MemProf
tables can share the generator.

A profile of 100k functions has 100k items, so both steps work on whole
arrays: the replay is one sort of the items (two when the table is
resized before emitting) instead of moving them one by one, and the
payload is assembled from streams (bucket sizes, hashes, the caller's
pieces) in one pass per stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from profdata.formats._binary import ByteWriter
from profdata.model.instr import spans, take

Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]

_INITIAL_BUCKETS = 64
_U16_MAX = 0xFFFF
_CHUNK_ITEMS = 16384  # items assembled per step when emitting


def target_buckets(num_entries: int) -> int:
    """The bucket count ``Emit`` settles on: 1 for up to 2 entries, else ``NextPowerOf2(n*4/3)``."""
    if num_entries <= 2:
        return 1
    return 1 << ((num_entries * 4 // 3).bit_length())


@dataclass(frozen=True)
class BucketOrder:
    """Where the generator puts each item: the emitted order and bucket of every item."""

    num_buckets: int
    items: Ints  # item indexes in emission order: bucket by bucket, each chain head first
    buckets: Ints  # the bucket of each emitted item (ascending)


def _bucket_of(hashes: npt.NDArray[np.uint64], items: Ints, size: int) -> Ints:
    return (hashes[items] & np.uint64(size - 1)).astype(np.int64)


def _rehashed(seq: Ints, hashes: npt.NDArray[np.uint64], size: int) -> Ints:
    """``resize``: walking the old chains in order and prepending reverses each new chain."""
    count = len(seq)
    key = _bucket_of(hashes, seq, size) * (count + 1) + (count - np.arange(count))
    return seq[np.argsort(key)]


def bucket_order(hashes: Sequence[int] | npt.NDArray[np.uint64]) -> BucketOrder:
    """The generator's layout after inserting ``hashes`` in this order.

    ``items`` holds the items in traversal order (bucket ascending, chain
    head first).  An insert goes on top of its chain and each growth rehash
    reverses every chain, so a chain reads: the items of the last epoch
    (between two growths), the epoch two before, ... newest first, then the
    items of the other epochs oldest first.  Epochs are runs of inserts, so
    that is one sort: items whose epoch has the last one's parity by
    descending insert, then the others by ascending insert.  The final
    resize to the target size is replayed as a rehash.
    """
    keys = np.asarray(hashes, dtype=np.uint64)
    count = len(keys)
    size = _INITIAL_BUCKETS
    growths: list[int] = []  # the first insert after each growth
    while (grow_at := 3 * size // 4 - 1) < count:  # that insert sees the table 3/4 full
        growths.append(grow_at)
        size *= 2
    inserted = np.arange(count, dtype=np.int64)
    epoch = np.searchsorted(np.array(growths, dtype=np.int64), inserted, side="right")
    newest_first = (len(growths) - epoch) % 2 == 0
    rank = np.where(newest_first, count - 1 - inserted, count + inserted)
    seq = np.argsort(_bucket_of(keys, inserted, size) * (2 * count) + rank)
    target = target_buckets(count)
    if target != size:
        seq = _rehashed(seq, keys, target)
    return BucketOrder(target, seq, _bucket_of(keys, seq, target))


def bucket_layout(hashes: Sequence[int]) -> list[list[int]]:
    """Item indexes per bucket, head first, after inserting ``hashes`` in this order.

    ``len(result)`` is the emitted NumBuckets; bucket ``i`` holds the items
    whose ``hash & (NumBuckets - 1) == i``.
    """
    order = bucket_order(hashes)
    layout: list[list[int]] = [[] for _ in range(order.num_buckets)]
    for item, bucket in zip(order.items.tolist(), order.buckets.tolist(), strict=True):
        layout[bucket].append(item)
    return layout


@dataclass(frozen=True)
class Payload:
    """Where every emitted item goes: the payload's layout, before any byte is written.

    Items are in emission order; item ``i`` starts at ``item_at[i]`` (from
    the payload's start) with its bucket's item count when it heads a chain,
    then its hash, then its chunk of each piece.
    """

    order: BucketOrder
    first: npt.NDArray[np.bool_]  # the item heads its bucket's chain
    chain: Ints  # items per bucket
    item_at: Ints
    size: int

    def cut(self, fraction: float) -> int:
        """The first item at or past ``fraction`` of the payload's bytes."""
        return int(np.searchsorted(self.item_at, int(self.size * fraction)))

    def put(
        self,
        dest: Bytes,
        hashes: npt.NDArray[np.uint64],
        pieces: Sequence[tuple[Bytes, Ints]],
        lo: int = 0,
        hi: int | None = None,
    ) -> Ints:
        """Items ``lo..hi-1`` into ``dest`` (the payload): ``hashes`` and each piece's
        stream and chunk lengths are those items' only.  Returns where each item's bytes
        after the pieces start, for a caller that puts the rest itself."""
        hi = len(self.item_at) if hi is None else hi
        first = self.first[lo:hi]
        item_at = self.item_at[lo:hi]
        heads_size = 2 * first.astype(np.int64)
        heads = self.order.buckets[lo:hi][first]
        counts = self.chain[heads].astype("<u2").view(np.uint8)
        put_bytes(dest, item_at[first], counts, heads_size[first])
        at = item_at + heads_size
        put_words(dest, at, np.asarray(hashes, dtype=np.uint64), np.ones(hi - lo, dtype=np.int64))
        at += 8
        for data, lengths in pieces:
            put_bytes(dest, at, np.asarray(data, dtype=np.uint8), lengths)
            at += lengths
        return at


def lay_out(order: BucketOrder, lengths: Sequence[Ints]) -> Payload:
    """The payload's layout for items whose pieces have these chunk ``lengths``."""
    count = len(order.items)
    buckets = order.buckets
    first = np.ones(count, dtype=bool)
    first[1:] = buckets[1:] != buckets[:-1]
    chain = np.bincount(buckets, minlength=order.num_buckets)
    if count and int(chain.max()) > _U16_MAX:
        bucket = int(np.argmax(chain))
        raise ValueError(f"bucket {bucket} holds {chain[bucket]} items; LLVM stores a u16 count")
    item_size = 2 * first.astype(np.int64) + 8
    for chunk_lengths in lengths:
        item_size += chunk_lengths
    item_at = np.cumsum(item_size) - item_size
    return Payload(order, first, chain, item_at, int(item_size.sum()))


def write_table(out: ByteWriter, payload: Payload, payload_at: int) -> int:
    """Padding and the bucket table after a payload written at ``payload_at``; the table's
    offset (LLVM's ``TableOff``)."""
    order = payload.order
    offsets = np.zeros(order.num_buckets, dtype=np.int64)
    offsets[order.buckets[payload.first]] = payload_at + payload.item_at[payload.first]
    out.align8()
    table = len(out)
    out.u64(order.num_buckets)
    out.u64(len(order.items))
    out.bytes(offsets.astype("<u8").tobytes())
    return table


def emit_items(
    out: ByteWriter,
    order: BucketOrder,
    hashes: npt.NDArray[np.uint64],
    pieces: Sequence[tuple[Bytes, Ints]],
) -> int:
    """Write payload, padding and table; return the table's offset (LLVM's ``TableOff``).

    Everything is in emission order (``order.items``): ``hashes[i]`` is the
    i-th emitted item's hash, and its bytes after the hash are the i-th chunk
    of each piece in turn (a piece is a byte stream and its chunk lengths).
    Each stream is put at its items' offsets in one scatter, by whole words
    where its chunks are (:func:`put_bytes`).
    """
    payload = lay_out(order, [lengths for _, lengths in pieces])
    payload_at = len(out)
    out.zeros(payload.size)
    dest = np.frombuffer(out.buf, dtype=np.uint8)[len(out.buf) - payload.size :]
    payload.put(dest, hashes, pieces)
    del dest  # the buffer grows below
    return write_table(out, payload, payload_at)


def put_bytes(dest: Bytes, starts: Ints, data: Bytes, lengths: Ints) -> None:
    """Chunk ``i`` of ``data`` (``lengths[i]`` bytes, back to back) to ``dest[starts[i]:]``.

    Chunks of whole words go as words: ``dest`` seen from each of its eight
    byte phases is a word array, and a chunk goes through the view that puts
    its start on a word boundary.  Others go byte by byte, ``_CHUNK_ITEMS`` at
    a time so the index arrays stay small.
    """
    if not len(data):
        return
    if not bool(np.any(lengths & 7)):
        put_words(dest, starts, np.ascontiguousarray(data).view("<u8"), lengths >> 3)
        return
    firsts = np.cumsum(lengths) - lengths
    for lo in range(0, len(starts), _CHUNK_ITEMS):
        hi = min(len(starts), lo + _CHUNK_ITEMS)
        chunk = lengths[lo:hi]
        begin, end = int(firsts[lo]), int(firsts[hi - 1] + chunk[-1])
        dest[spans(starts[lo:hi], chunk)] = data[begin:end]


class Phases(NamedTuple):
    """Runs grouped by the byte phase of their starts (``start & 7``): the parts of one
    record lie whole words apart, so they share a grouping, made once."""

    order: Ints  # the runs, phase by phase (each phase in run order)
    bounds: list[int]  # phase k's runs are ``order[bounds[k]:bounds[k + 1]]``

    @classmethod
    def of(cls, starts: Ints) -> Phases:
        phase = (starts & 7).astype(np.uint8)  # numpy sorts bytes stably by radix: one pass
        order = np.argsort(phase, kind="stable")
        bounds = [0, *np.cumsum(np.bincount(phase, minlength=8)).tolist()]
        return cls(order, bounds)


def put_words(
    dest: Bytes,
    starts: Ints,
    words: npt.NDArray[np.unsignedinteger],
    counts: Ints,
    firsts: Ints | None = None,
    phases: Phases | None = None,
) -> None:
    """Run ``i`` of ``words`` (``counts[i]`` words from ``firsts[i]``, or the runs back to
    back) to ``dest[starts[i]:]`` as little-endian words, at any byte alignment.

    ``dest`` seen from each of its eight byte phases is a word array; a run goes
    through the view that puts its start on a word boundary, so every word is
    one element copied, never eight bytes.  Runs taken from their source in
    place (``firsts``) are never gathered into a stream of their own first.
    The indexes of all phases are made at once and cut per phase (selecting
    each phase's runs from every array cost more than the copying).
    """
    if not len(starts):
        return
    if phases is None:
        phases = Phases.of(starts)
    order, bounds = phases.order, phases.bounds
    if firsts is None:
        firsts = np.cumsum(counts) - counts
    at = starts[order] >> 3  # a run's word in the view of its own phase
    if bool(np.all(counts == 1)):  # a word a run (hashes): no spans to build
        index, source = at, firsts[order]
        cuts = bounds
    else:
        counts = counts[order]
        index, source = spans(at, counts), spans(firsts[order], counts)
        ends = np.cumsum(counts)
        cuts = [0, *(int(ends[b - 1]) if b else 0 for b in bounds[1:])]
    for k in range(8):
        lo, hi = cuts[k], cuts[k + 1]
        if lo < hi:
            view = dest[k : k + (len(dest) - k) // 8 * 8].view("<u8")
            view[index[lo:hi]] = take(words, source[lo:hi])


def emit(out: ByteWriter, hashes: Sequence[int], items: Sequence[bytes]) -> int:
    """:func:`emit_items` for items given as bytes in insertion order.

    ``items[i]`` is everything written after item ``i``'s hash.
    """
    if len(hashes) != len(items):
        raise ValueError("one hash per item is required")
    order = bucket_order(hashes)
    emitted = order.items.tolist()
    data = np.frombuffer(b"".join(items[i] for i in emitted), dtype=np.uint8)
    lengths = np.array([len(items[i]) for i in emitted], dtype=np.int64)
    keys = np.asarray(hashes, dtype=np.uint64)[order.items]
    return emit_items(out, order, keys, [(data, lengths)])
