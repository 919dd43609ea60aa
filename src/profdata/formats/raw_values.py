"""The value-profile data of raw profiles, checked and decoded for all functions at once.

After the counters, names and vtables of a raw profile come one
``ValueProfData`` blob per function with value sites (``instr-raw.md`` §7):
``u32 TotalSize, u32 NumValueKinds``, then per kind ``u32 Kind, u32
NumValueSites``, one count byte per site padded to 8, and a (value, count)
word pair per profiled value.  Each blob's size says where the next one
starts, so the reader follows that chain in Python; everything inside the
blobs is read here with numpy, the k-th kind record of every blob in one step.

:func:`scan_blobs` mirrors each check of the reader's
``RawProfileReader._value_blob`` (``getValueProfData`` + ``checkIntegrity``)
and flags the blobs that fail one, so the reader raises the located error of
the first flagged blob; :func:`decode_sites` builds the value sites of every
blob, translating indirect-call and vtable addresses once per kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice

import numpy as np
import numpy.typing as npt

from profdata.formats._binary import ByteReader
from profdata.model.instr import ValueSite, distinct, spans, take, value_sites_of
from profdata.model.kinds import ValueKind
from profdata.model.record_table import ValueColumns

Ints = npt.NDArray[np.int64]
ValueSites = dict[ValueKind, list[ValueSite]]
#: translates the profiled values of one kind (raw addresses -> name hashes)
Translate = Callable[[int, npt.NDArray[np.uint64]], npt.NDArray[np.uint64]]

_IPVK_LAST = int(max(ValueKind))
_KINDS = tuple(ValueKind)  # by number


@dataclass(eq=False)
class ValueRecords:
    """Every kind record of every blob, in blob order then file order; and the bad blobs."""

    blob: Ints  # index of the blob (into the scanned starts)
    kind: Ints
    sites_at: Ints  # the site count bytes
    num_sites: Ints
    values_at: Ints  # the (value, count) word pairs
    num_values: Ints
    #: blobs that fail a check of ``_value_blob``, ascending
    bad: Ints


def blob_candidates(words: npt.NDArray[np.uint64], order: str) -> tuple[Ints, Ints]:
    """The index of every word that may begin a value blob, with its ``TotalSize``.

    A blob begins with ``TotalSize`` (a multiple of 8 and at least 16 when it
    holds a kind record) and ``NumValueKinds`` (1 to 3), and its first kind
    record with a ``Kind`` below 3.  One pass over the words finds those with
    1 to 3 in the ``NumValueKinds`` half; the few it finds are looked at closer.
    Inside blobs such words are rare, so a caller that checks the candidates
    chain exactly can take them as the blobs' starts.
    """
    if order == ">":  # TotalSize is the high half of each word: bring it down
        words = (words << np.uint64(32)) | (words >> np.uint64(32))
    with np.errstate(over="ignore"):  # NumValueKinds - 1 below 3 (and, for 1, TotalSize >= 16)
        maybe = np.flatnonzero(
            words - np.uint64((1 << 32) | 16) < np.uint64((_IPVK_LAST + 1) << 32)
        )
    size = take(words, maybe) & np.uint64(0xFFFFFFFF)
    first_kind = take(words, np.minimum(maybe + 1, len(words) - 1)) & np.uint64(0xFFFFFFFF)
    good = (size & np.uint64(7)) == 0
    good &= size >= np.uint64(16)
    good &= first_kind <= np.uint64(_IPVK_LAST)
    good &= maybe + 1 < len(words)
    # compress: boolean indexing is 2-4x slower with numpy 2.4
    return np.compress(good, maybe), np.compress(good, size).astype(np.int64)


def chain_starts(cur: ByteReader, start: int, count: int) -> Ints | None:
    """The starts of ``count`` chained blobs from ``start``, found without a Python loop;
    None when that cannot be settled so (the caller then walks the chain).

    The candidates (:func:`blob_candidates`) are the chain exactly when the
    first is ``start``, each one's size leads to the next and there are
    ``count`` of them: a missing or extra candidate breaks that.
    """
    size = cur.end
    if count == 0 or start % 4 or size - start < 8 * count:
        return None
    words = np.frombuffer(cur.data, dtype=f"{cur.order}u8", offset=start, count=(size - start) // 8)
    maybe, sizes = blob_candidates(words.astype(np.uint64, copy=False), cur.order)
    if len(maybe) != count or maybe[0] != 0:
        return None
    at = maybe * 8
    if not np.array_equal(at[1:], at[:-1] + sizes[:-1]) or int(at[-1] + sizes[-1]) > size - start:
        return None
    result: Ints = at + start
    return result


def scan_blobs(cur: ByteReader, starts: Ints, last_kind: int = _IPVK_LAST) -> ValueRecords:
    """Read the kind records of the blobs at ``starts`` (their sizes already checked);
    ``last_kind`` is the reading release's ``IPVK_Last`` (1 before LLVM 18).

    Blobs and the records in them keep the 8-byte alignment of the first blob,
    so u32 fields come from one aligned view of the file in its byte order.
    Reads of a blob that is already known bad are kept inside the blob's
    start, so garbage sizes never index past the file.
    """
    empty = np.zeros(0, dtype=np.int64)
    if not len(starts):
        return ValueRecords(empty, empty, empty, empty, empty, empty, empty)
    base = int(starts[0]) % 4
    u32 = np.frombuffer(cur.data, dtype=f"{cur.order}u4", offset=base, count=(cur.end - base) // 4)
    raw = np.frombuffer(cur.data, dtype=np.uint8)
    total = u32[(starts - base) // 4].astype(np.int64)
    num_kinds = u32[(starts - base) // 4 + 1].astype(np.int64)
    bad = num_kinds > last_kind + 1
    blob_end = starts + total
    record = starts + 8
    found: list[tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints]] = []
    for k in range(int(np.minimum(num_kinds, last_kind + 1).max())):
        live = np.flatnonzero(num_kinds > k)
        at, end = record[live], blob_end[live]
        short = at + 8 > end
        at = np.where(short, starts[live], at)
        kind = u32[(at - base) // 4].astype(np.int64)
        num_sites = u32[(at - base) // 4 + 1].astype(np.int64)
        sites_over = at + 8 + num_sites > end
        num_sites = np.where(short | sites_over, 0, num_sites)
        site_counts = np.zeros(int(num_sites.sum()) + 1, dtype=np.int64)
        np.cumsum(raw[spans(at + 8, num_sites)], dtype=np.int64, out=site_counts[1:])
        ends = np.cumsum(num_sites)
        num_values = site_counts[ends] - site_counts[ends - num_sites]
        head = 8 + num_sites + (-(8 + num_sites) % 8)
        values_over = at + head + 16 * num_values > end
        bad[live[short | (kind > last_kind) | sites_over | values_over]] = True
        ordinal = np.full(len(live), k, dtype=np.int64)
        found.append((live, ordinal, kind, at + 8, num_sites, at + head, num_values))
        record[live] = at + head + 16 * num_values
    if not found:  # every blob holds no kind record (NumValueKinds 0)
        return ValueRecords(empty, empty, empty, empty, empty, empty, np.flatnonzero(bad))
    blob, ordinal, kind, sites_at, num_sites, values_at, num_values = (
        np.concatenate(column) for column in zip(*found, strict=True)
    )
    order = np.lexsort((ordinal, blob))
    return ValueRecords(
        blob[order], kind[order], sites_at[order], num_sites[order], values_at[order],
        num_values[order], np.flatnonzero(bad),
    )  # fmt: skip


def decode_sites(
    data: memoryview,
    order: str,
    records: ValueRecords,
    blobs: int,
    translate: Translate | None = None,
) -> list[ValueSites]:
    """The value sites of each of ``blobs`` blobs (all of them good), from their kind records.

    Works on any alignment and byte order ``order`` ("<" or ">"), so the
    indexed reader decodes its records' value data (little endian, unaligned,
    values already name hashes: no ``translate``) with it too.
    """
    sites: list[ValueSites] = [{} for _ in range(blobs)]
    if not len(records.blob):
        return sites
    words = np.ndarray((max(len(data) - 7, 0),), dtype=f"{order}u8", buffer=data, strides=(1,))
    raw = np.frombuffer(data, dtype=np.uint8)
    site_lengths = iter(raw[spans(records.sites_at, records.num_sites)].tolist())
    pairs: dict[int, tuple[Iterator[int], Iterator[int]]] = {}
    for kind in np.unique(records.kind, return_counts=True)[0].tolist():
        mine = records.kind == kind
        at = spans(records.values_at[mine], records.num_values[mine], 16)
        values = words[at].astype(np.uint64)
        if translate is not None:
            values = translate(kind, values)
        counts = words[at + 8].astype(np.uint64)
        pairs[kind] = (iter(values.tolist()), iter(counts.tolist()))
    for blob, kind, num_sites in zip(
        records.blob.tolist(), records.kind.tolist(), records.num_sites.tolist(), strict=True
    ):
        values_of, counts_of = pairs[kind]
        sites[blob].setdefault(_KINDS[kind], []).extend(
            value_sites_of(zip(values_of, counts_of, strict=False), islice(site_lengths, num_sites))
        )
    return sites


def value_columns(
    data: memoryview, order: str, records: ValueRecords, translate: Translate | None = None
) -> ValueColumns:
    """The kind records ``records`` (their ``blob`` a record index, ascending) as
    :class:`ValueColumns`: what :func:`decode_sites` then ``InstrRecord.sites_by_kind``
    make of them -- kinds in kind order within a record, the sites of several kind
    records of one kind joined in file order, kinds without sites left out -- with no
    record objects (a reader's bulk table, for ``show``)."""
    keep = np.flatnonzero(records.num_sites > 0)
    record, kind = records.blob[keep], records.kind[keep]
    by_record = np.lexsort((kind, record))  # stable: one kind's records keep file order
    keep, record, kind = keep[by_record], record[by_record], kind[by_record]
    num_sites, num_values = records.num_sites[keep], records.num_values[keep]
    starts = np.ones(len(keep), dtype=bool)
    starts[1:] = (record[1:] != record[:-1]) | (kind[1:] != kind[:-1])
    row = np.cumsum(starts) - 1
    row_sites = np.bincount(row, weights=num_sites, minlength=int(starts.sum()))
    raw = np.frombuffer(data, dtype=np.uint8)
    site_lengths = raw[spans(records.sites_at[keep], num_sites)].astype(np.int64)
    words = np.ndarray((max(len(data) - 7, 0),), dtype=f"{order}u8", buffer=data, strides=(1,))
    at = spans(records.values_at[keep], num_values, 16)
    values = words[at].astype(np.uint64)
    if translate is not None:
        value_kind = np.repeat(kind, num_values)
        for each in distinct(kind).tolist():
            mine = value_kind == each
            values[mine] = translate(each, values[mine])
    return ValueColumns(
        record[starts], kind[starts], row_sites.astype(np.int64), site_lengths,
        values, words[at + 8].astype(np.uint64),
    )  # fmt: skip
