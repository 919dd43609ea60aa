"""``show``'s value-site results and statistics laid out per table, against the
record-by-record formatting they replaced (kept here as the reference).

The compat and golden tests hold the output to llvm-profdata on real profiles;
these reach what real profiles rarely hold: counts of 2**63 and above (printed
negative), site sums that wrap to 0 (divided by 1), sites past index 9 (wider
than ``%2u``), targets with no name, memop sizes wider than ``%4``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.instr import InstrRecord, ValueData
from profdata.model.kinds import ValueKind
from profdata.model.record_table import RecordTable
from profdata.ops.show import ValueSiteStats
from profdata.ops.show_value_sites import value_site_text
from profdata.testing.strategies import u64s

_U64_WRAP = 1 << 64
_I64_SIGN = 1 << 63
_HEADERS = {
    ValueKind.INDIRECT_CALL_TARGET: "    Indirect Target Results:\n",
    ValueKind.VTABLE_TARGET: "    VTable Results:\n",
    ValueKind.MEMOP_SIZE: "    Memory Intrinsic Size Results:\n",
}
TARGETS = [0, 1, 7, 12345, 2**63, 2**64 - 1]


def reference_results(rec: InstrRecord, kinds: list[ValueKind], symbols: dict[int, str]) -> str:
    """``traverseAllValueSites``: ``\\t[ %2u, target, %10 PRId64 ] (%.2f%%)`` per value,
    as ``show_text`` formatted it one record at a time."""
    parts: list[str] = []
    for kind in kinds:
        if kind is ValueKind.MEMOP_SIZE and not rec.num_sites(kind):
            continue
        parts.append(_HEADERS[kind])
        for index, site in enumerate(rec.sites(kind)):
            if not site:
                continue
            site_sum = sum(v.count for v in site) % _U64_WRAP or 1
            for value, count in site:
                target = symbols.get(value, "") if kind.targets_are_names else f"{value:4d}"
                signed = count - _U64_WRAP if count >= _I64_SIGN else count
                parts.append(
                    f"\t[ {index:2d}, {target}, {signed:10d} ] ({count * 100.0 / site_sum:.2f}%)\n"
                )
    return "".join(parts)


def reference_stats(records: list[InstrRecord], kind: ValueKind) -> ValueSiteStats:
    stats = ValueSiteStats()
    for rec in records:
        for site in rec.sites(kind):
            stats.num_sites += 1
            if site:
                stats.num_values += len(site)
                stats.num_sites_with_values += 1
                if len(site) > len(stats.histogram):
                    stats.histogram.extend([0] * (len(site) - len(stats.histogram)))
                stats.histogram[len(site) - 1] += 1
    return stats


_COUNTS = st.one_of(u64s(), st.sampled_from([2**63, 2**63 - 1, 2**64 - 1, 2**63 + 1]))
_SITE = st.lists(st.tuples(st.sampled_from(TARGETS) | u64s(), _COUNTS), max_size=4)


def _display_order(kinds: list[ValueKind]) -> list[ValueKind]:
    """``ShowOptions.value_kinds``'s order: indirect calls, vtables, memop sizes (not the
    kinds' numbers, which put memop sizes before vtables)."""
    order = [ValueKind.INDIRECT_CALL_TARGET, ValueKind.VTABLE_TARGET, ValueKind.MEMOP_SIZE]
    return [kind for kind in order if kind in kinds]


@st.composite
def _records(draw: st.DrawFn) -> list[InstrRecord]:
    records = []
    for index in range(draw(st.integers(0, 5))):
        sites: dict[ValueKind, list[list[ValueData]]] = {}
        for kind in ValueKind:
            kind_sites: list[list[tuple[int, int]]] = draw(st.lists(_SITE, max_size=13))
            keep_empty: bool = draw(st.booleans())
            if kind_sites or keep_empty:
                sites[kind] = [[ValueData(v, c) for v, c in site] for site in kind_sites]
        counts = np.zeros(draw(st.integers(0, 2)), dtype=np.uint64)
        records.append(InstrRecord(f"f{index}", index, counts, b"", sites))
    return records


@pytest.mark.property
@settings(max_examples=150, deadline=None)
@given(
    _records(),
    st.lists(st.sampled_from(list(ValueKind)), min_size=1, unique=True).map(_display_order),
    st.dictionaries(st.sampled_from(TARGETS), st.sampled_from(["", "main", "f\u00e9", "a;b"])),
)
def test_value_site_text_is_the_record_by_record_text(
    records: list[InstrRecord], kinds: list[ValueKind], symbols: dict[int, str]
) -> None:
    table = RecordTable.of(records)
    text = value_site_text(table, kinds, symbols)
    assert len(text.bounds) == len(records) + 1
    for index, rec in enumerate(records):
        got = text.text[text.bounds[index] : text.bounds[index + 1]].tobytes()
        assert got.decode("utf-8") == reference_results(rec, kinds, symbols)
        for position, kind in enumerate(kinds):
            assert int(text.sites_of(position)[index]) == rec.num_sites(kind)


@pytest.mark.property
@settings(max_examples=100, deadline=None)
@given(_records(), st.sampled_from(list(ValueKind)))
def test_site_stats_of_a_table_are_the_record_by_record_stats(
    records: list[InstrRecord], kind: ValueKind
) -> None:
    stats = ValueSiteStats()
    table = RecordTable.of(records)
    stats.add_table(table, kind)
    stats.add_table(table, kind)  # a second table adds to the first
    expected = reference_stats(records + records, kind)
    assert stats == expected


def test_value_site_text_of_a_known_record() -> None:
    """One record written out by hand: a wide site index, a negative count, a memop size
    wider than its field, an unknown target, and a site whose sum wraps to 0."""
    sites: dict[ValueKind, list[list[ValueData]]] = {
        ValueKind.INDIRECT_CALL_TARGET: [[]] * 10 + [[ValueData(7, 3), ValueData(9, 1)]],
        ValueKind.MEMOP_SIZE: [[ValueData(123456, 2**63), ValueData(8, 2**63)]],
    }
    rec = InstrRecord("f", 1, np.zeros(1, np.uint64), b"", sites)
    kinds = [ValueKind.INDIRECT_CALL_TARGET, ValueKind.MEMOP_SIZE]
    text = value_site_text(RecordTable.of([rec]), kinds, {7: "callee"})
    assert text.text.tobytes() == (
        b"    Indirect Target Results:\n"
        b"\t[ 10, callee,          3 ] (75.00%)\n"
        b"\t[ 10, ,          1 ] (25.00%)\n"
        b"    Memory Intrinsic Size Results:\n"
        b"\t[  0, 123456, -9223372036854775808 ] (922337203685477580800.00%)\n"
        b"\t[  0,    8, -9223372036854775808 ] (922337203685477580800.00%)\n"
    )
    assert text.sites_of(0).tolist() == [11] and text.sites_of(1).tolist() == [1]
