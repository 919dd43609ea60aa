"""A merged writer context whose records stay one table, and the check a written profile gets.

The fast merge ends with each context as a
:class:`~profdata.model.record_table.RecordTable`; :class:`TableWriter` keeps
it so until something asks for records one by one, so the indexed writer takes
the table's columns straight (building 100k record objects only to write
them would cost more than the merge).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from profdata.model.instr import InstrProfile, InstrRecord
from profdata.model.kinds import ValueKind
from profdata.model.record_table import RecordTable, TableProfile
from profdata.ops.merge import InstrProfWriter
from profdata.ops.merge_inputs import FilterNote, filter_regex
from profdata.ops.merge_records import has_duplicate_memop_values as record_has_duplicates


def functions_of(records: Sequence[InstrRecord]) -> dict[str, dict[int, InstrRecord]]:
    functions: dict[str, dict[int, InstrRecord]] = {}
    for rec in records:
        functions.setdefault(rec.name, {})[rec.hash] = rec
    return functions


class TableWriter(InstrProfWriter):
    """A merged writer context whose records stay a :class:`RecordTable` until asked for.

    The CLI writes the table straight to the indexed format; ``functions``
    (the record-by-record view) is built on first use.
    """

    def __init__(self, base: InstrProfWriter, table: RecordTable) -> None:
        self._functions: dict[str, dict[int, InstrRecord]] = {}
        super().__init__(
            release=base.release,
            traces=base.traces,
            kind=base.kind,
            frontend=base.frontend,
            functions={},
            binary_ids=base.binary_ids,
            vtable_names=base.vtable_names,
        )
        self._table: RecordTable | None = table

    @property
    def functions(self) -> dict[str, dict[int, InstrRecord]]:
        if self._table is not None:
            self._functions = functions_of(self._table.records())
            self._table = None
        return self._functions

    @functions.setter
    def functions(self, value: dict[str, dict[int, InstrRecord]]) -> None:
        self._functions = value
        self._table = None

    def filter_functions(self, keep: str = "", drop: str = "") -> FilterNote | None:
        if self._table is None:
            return super().filter_functions(keep, drop)
        if not keep and not drop:
            return None
        keep_re, drop_re = filter_regex(keep), filter_regex(drop)
        names = self._table.columns.names
        verdict: dict[str, bool] = {}
        for name in names:
            if name not in verdict:
                verdict[name] = not (
                    (drop_re is not None and drop_re.search(name))
                    or (keep_re is not None and not keep_re.search(name))
                )
        kept = np.array([verdict[name] for name in names], dtype=bool)
        self._table = self._table.take(np.flatnonzero(kept))
        return FilterNote(sum(1 for v in verdict.values() if not v), len(verdict))

    def to_profile(self, *, sparse: bool = False) -> InstrProfile:
        if self._table is None:
            return super().to_profile(sparse=sparse)
        table = self._table
        if sparse:  # the names with data: a name's records go, or stay, together
            has = table.has_data()
            if not table.names_distinct:
                names = table.columns.names
                with_data = {name for name, flag in zip(names, has.tolist(), strict=True) if flag}
                has = np.fromiter(map(with_data.__contains__, names), dtype=bool, count=len(has))
            table = table.take(np.flatnonzero(has))
        # distinct values: a context's values are keyed by (site, value)
        return TableProfile(table=table, distinct_values=True, **self.profile_fields())


def has_duplicate_memop_values(profile: InstrProfile) -> bool:
    """``validateRecord`` over a whole profile: some memop site holds a size twice."""
    if not isinstance(profile, TableProfile):
        return any(record_has_duplicates(rec) for rec in profile.records)
    if profile.distinct_values:
        return False
    vals = profile.table.values
    site_kind = np.repeat(vals.row_kind, vals.row_sites)
    site_of_value = np.repeat(np.arange(len(vals.site_lengths)), vals.site_lengths)
    memop = site_kind[site_of_value] == int(ValueKind.MEMOP_SIZE)
    sites, values = site_of_value[memop], vals.values[memop]
    if not len(values):
        return False
    if int(values.max()) < 1 << 32 and len(site_kind) < 1 << 31:  # sizes: one word sorts
        joined = np.sort((sites.astype(np.uint64) << np.uint64(32)) | values)
        return bool(np.any(joined[1:] == joined[:-1]))
    order = np.lexsort((values, sites))
    sites, values = sites[order], values[order]
    return bool(np.any((sites[1:] == sites[:-1]) & (values[1:] == values[:-1])))


__all__ = ["TableWriter", "functions_of", "has_duplicate_memop_values"]
