"""``merge``'s closing check for a memop size held twice in one site, on a merged table.

``has_duplicate_memop_values`` looks at a fast merge's result as columns:
sizes below 2**32 (all real ones) as one sorted word per (site, size), wider
ones by a two-key sort.  Both must say what ``validateRecord`` says of the
records one by one.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.record_table import RecordTable, TableProfile
from profdata.ops.merge_records import has_duplicate_memop_values as record_has_duplicates
from profdata.ops.table_writer import has_duplicate_memop_values

SIZES = st.one_of(
    st.integers(0, 40), st.sampled_from([(1 << 32) - 1, 1 << 32, (1 << 64) - 1, 1 << 40])
)


def _sites(draw: st.DrawFn, values: st.SearchStrategy[int]) -> list[list[ValueData]]:
    return [
        [ValueData(v, draw(st.integers(1, 9))) for v in draw(st.lists(values, max_size=5))]
        for _ in range(draw(st.integers(0, 3)))
    ]


@st.composite
def profiles(draw: st.DrawFn) -> InstrProfile:
    records = []
    for index in range(draw(st.integers(1, 4))):
        sites = {ValueKind.MEMOP_SIZE: _sites(draw, SIZES)}
        if draw(st.booleans()):  # a target twice is no memop problem
            sites[ValueKind.INDIRECT_CALL_TARGET] = _sites(draw, st.integers(0, 3))
        counts = np.array([1, 2], dtype=np.uint64)
        records.append(InstrRecord(f"f{index}", index, counts, b"", sites))
    return InstrProfile(kind=ProfileKind.IR, records=records)


@pytest.mark.property
@settings(max_examples=300, deadline=None)
@given(profiles())
def test_the_table_check_agrees_with_the_records(profile: InstrProfile) -> None:
    table = TableProfile(table=RecordTable.of(profile.records), kind=profile.kind)
    expected = any(record_has_duplicates(rec) for rec in profile.records)
    assert has_duplicate_memop_values(table) == expected


def test_both_sorts_are_taken() -> None:
    """A size twice is found among narrow sizes and among wide ones; the same size in two
    sites is no duplicate."""
    for size in (7, 1 << 40):
        twice = [ValueData(size, 1), ValueData(3, 1), ValueData(size, 2)]
        apart = [[ValueData(size, 1)], [ValueData(size, 1)]]
        for sites, expected in (([twice], True), (apart, False)):
            rec = InstrRecord("f", 1, np.array([1], np.uint64), b"", {ValueKind.MEMOP_SIZE: sites})
            table = TableProfile(table=RecordTable.of([rec]), kind=ProfileKind.IR)
            assert has_duplicate_memop_values(table) is expected
