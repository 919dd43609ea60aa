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
from profdata.formats import indexed, raw, raw_values
from profdata.model.instr import InstrRecord, RecordColumns

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
INDEXED = sorted((GOLDEN / "indexed").glob("v*.profdata"))
RAW = sorted((GOLDEN / "raw" / "inputs").rglob("*.profraw"))


def assert_same_columns(a: RecordColumns, b: RecordColumns) -> None:
    assert a.names == b.names
    assert np.array_equal(a.hashes, b.hashes)
    assert np.array_equal(a.lengths, b.lengths)
    assert np.array_equal(a.counts, b.counts)


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
    records = list(profile.records)
    assert_same_columns(profile.columns(), RecordColumns.of(records))
    return records


def _every_blob_checked(cur: object, starts: np.ndarray) -> raw_values.ValueRecords:
    """``scan_blobs`` flagging every blob, so each one meets the one-at-a-time checker."""
    found = raw_values.scan_blobs(cur, starts)  # type: ignore[arg-type]
    found.bad = np.arange(len(starts))
    return found


def _raw_agrees(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    bulk = _raw_outcome(data)
    with monkeypatch.context() as patched:
        patched.setattr(raw, "scan_blobs", _every_blob_checked)
        one_by_one = _raw_outcome(data)
    assert bulk == one_by_one


@pytest.mark.parametrize("path", RAW, ids=lambda p: p.name)
def test_bulk_raw_columns_of_goldens(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    profile = raw.read(path.read_bytes())
    assert_same_columns(profile.columns(), RecordColumns.of(profile.records))
    _raw_agrees(path.read_bytes(), monkeypatch)


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
