"""The bulk (numpy) decoders against the one-at-a-time decoders they stand in for.

``show`` reads indexed and raw profiles through :class:`RecordColumns` built
in bulk (``formats/indexed_columns.py``, ``formats/raw_values.py``), while the
item-by-item decoders define what is valid and which error comes first.  On
real files and on corrupted copies of them the two must agree: the bulk path
either refuses (and the caller falls back to the item-by-item decoder) or
gives exactly the records that decoder gives -- it never accepts bad data.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.errors import FormatError
from profdata.formats import indexed, raw, raw_records, raw_values
from profdata.model.instr import InstrRecord, RecordColumns
from profdata.model.record_table import RecordTable

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
INDEXED = sorted((GOLDEN / "indexed").glob("v*.profdata"))
RAW = sorted((GOLDEN / "raw" / "inputs").rglob("*.profraw"))


def assert_same_columns(a: RecordColumns, b: RecordColumns) -> None:
    assert a.names == b.names
    assert np.array_equal(a.hashes, b.hashes)
    assert np.array_equal(a.lengths, b.lengths)
    assert np.array_equal(a.counts, b.counts)


def assert_same_table(a: RecordTable, b: RecordTable) -> None:
    """Equal column by column, dtypes included (the writers encode from these)."""
    assert_same_columns(a.columns, b.columns)
    for x, y in ((a.bitmap_lengths, b.bitmap_lengths), (a.bitmaps, b.bitmaps)):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    for name in ("row_record", "row_kind", "row_sites", "site_lengths", "values", "counts"):
        x, y = getattr(a.values, name), getattr(b.values, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name


def _indexed_outcome(data: bytes) -> tuple[str, list[InstrRecord] | str]:
    """(which path decoded, the records or the error) for an indexed file."""
    try:
        profile = indexed.read(memoryview(data))
        bulk = profile._indexed.bulk()
    except FormatError as exc:
        return "header", str(exc)
    try:
        stream = list(profile._indexed._stream())
    except FormatError as exc:
        assert bulk is None, f"the bulk decoder accepted what the decoder rejects: {exc}"
        return "stream", str(exc)
    if bulk is None:
        return "stream", stream
    assert bulk.records() == stream
    assert_same_columns(bulk.columns, RecordColumns.of(stream))
    assert profile.columns() is bulk.columns
    table = profile.cheap_table()
    assert table is not None
    assert_same_table(table, RecordTable.of(stream))
    return "bulk", stream


@pytest.mark.parametrize("path", INDEXED, ids=lambda p: p.stem)
def test_bulk_indexed_decoding_of_goldens(path: Path) -> None:
    assert _indexed_outcome(path.read_bytes())[0] == "bulk"


@pytest.mark.property
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_bulk_indexed_decoding_of_corrupted_payloads(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(INDEXED), label="golden")
    blob = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 4), label="flips")):
        at = data.draw(st.integers(0, len(blob) - 1), label="offset")
        blob[at] = data.draw(st.sampled_from([0, 1, 2, 7, 8, 0x10, 0x7F, 0x80, 0xFF]))
    _indexed_outcome(bytes(blob))


def _raw_outcome(data: bytes) -> str | list[InstrRecord]:
    try:
        profile = raw.read(data)
    except FormatError as exc:
        return f"{type(exc).__name__}: {exc}"
    table = profile.cheap_table()  # before the records are built: from the sections
    records = list(profile.records)
    assert_same_columns(profile.columns(), RecordColumns.of(records))
    if table is not None:
        assert_same_table(table, RecordTable.of(records))
    return records


def _every_blob_checked(
    cur: object, starts: np.ndarray, last_kind: int = raw_values._IPVK_LAST
) -> raw_values.ValueRecords:
    """``scan_blobs`` flagging every blob, so each one meets the one-at-a-time checker."""
    found = raw_values.scan_blobs(cur, starts, last_kind)  # type: ignore[arg-type]
    found.bad = np.arange(len(starts))
    return found


def _raw_agrees(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    bulk = _raw_outcome(data)
    with monkeypatch.context() as patched:
        patched.setattr(raw_records, "scan_blobs", _every_blob_checked)
        one_by_one = _raw_outcome(data)
    assert bulk == one_by_one


@pytest.mark.parametrize("path", RAW, ids=lambda p: p.name)
def test_bulk_raw_columns_of_goldens(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    profile = raw.read(path.read_bytes())
    assert_same_columns(profile.columns(), RecordColumns.of(profile.records))
    _raw_agrees(path.read_bytes(), monkeypatch)
    profile.records = profile.records[:1]
    assert profile.cheap_table() is None  # a table of the records it no longer holds


@pytest.mark.property
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_bulk_raw_value_checks_of_corrupted_files(
    data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    candidates = [p for p in RAW if p.stat().st_size < 200_000]
    path = data.draw(st.sampled_from(candidates), label="golden")
    blob = bytearray(path.read_bytes())
    start = data.draw(st.integers(0, len(blob) - 1), label="region")
    for _ in range(data.draw(st.integers(1, 4), label="flips")):
        at = data.draw(st.integers(start, len(blob) - 1), label="offset")
        blob[at] = data.draw(st.sampled_from([0, 1, 2, 3, 7, 8, 0x10, 0x7F, 0x80, 0xFF]))
    _raw_agrees(bytes(blob), monkeypatch)


def test_value_columns_join_repeated_kinds_in_kind_order() -> None:
    """Kind records out of kind order, one kind twice, a kind with no sites: the table
    holds what ``decode_sites`` + ``sites_by_kind`` make of them (what records give)."""
    from profdata.model.record_table import ValueColumns

    # kind records of blobs 0 and 2: (kind, [site lengths]); values follow their sites
    layout = {0: [(2, [1]), (0, [2, 0]), (1, []), (0, [1])], 2: [(0, [3])]}
    data = bytearray()
    columns: list[list[int]] = [[] for _ in range(7)]  # ValueRecords fields, bad left empty
    value = 1
    for blob, kinds in layout.items():
        for kind, lengths in kinds:
            sites_at = len(data)
            data += bytes(lengths) + bytes(-len(lengths) % 8)
            values_at = len(data)
            for _ in range(sum(lengths)):
                data += value.to_bytes(8, "little") + (10 * value).to_bytes(8, "little")
                value += 1
            for field, item in zip(columns, (blob, kind, sites_at, len(lengths), values_at,
                                             sum(lengths)), strict=False):  # fmt: skip
                field.append(item)
    data += bytes(8)
    as_arrays = [np.array(c, dtype=np.int64) for c in columns]
    rows = raw_values.ValueRecords(*as_arrays)
    table = raw_values.value_columns(memoryview(bytes(data)), "<", rows)
    decoded = raw_values.decode_sites(memoryview(bytes(data)), "<", rows, 3)
    records = [InstrRecord(f"f{i}", i, np.zeros(1, np.uint64), b"", sites)
               for i, sites in enumerate(decoded)]  # fmt: skip
    expected = ValueColumns.of(records)
    for name in ("row_record", "row_kind", "row_sites", "site_lengths", "values", "counts"):
        assert np.array_equal(getattr(table, name), getattr(expected, name)), name
    assert table.row_kind.tolist() == [0, 2, 0]  # blob 0: both kind-0 records joined, then 2
    assert table.row_sites.tolist() == [3, 1, 1]
    assert table.values.tolist() == [2, 3, 4, 1, 5, 6, 7]
