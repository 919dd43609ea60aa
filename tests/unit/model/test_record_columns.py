"""``RecordColumns.name_source``: the names without the columns they came with."""

from __future__ import annotations

import gc

import numpy as np

from profdata.model.instr import RecordColumns


def _columns(names: list[str] | object) -> RecordColumns:
    counts = np.arange(6, dtype=np.uint64)
    return RecordColumns(
        names,  # type: ignore[arg-type]
        np.array([1, 2, 3], dtype=np.uint64),
        counts,
        np.array([1, 2, 3], dtype=np.int64),
    )


def test_made_names_come_as_copies() -> None:
    columns = _columns(["main", "f", "g"])
    source = columns.name_source()
    first = source()
    first.append("mutated")
    assert source() == ["main", "f", "g"] == columns.names


def test_names_are_made_once_and_the_maker_let_go() -> None:
    calls: list[int] = []

    class Maker:
        def __call__(self) -> list[str]:
            calls.append(1)
            return ["a", "b", "c"]

    maker = Maker()
    source = _columns(maker).name_source()
    del maker
    gc.collect()
    assert sum(isinstance(o, Maker) for o in gc.get_objects()) == 1  # the source holds it
    assert source() == ["a", "b", "c"]
    assert source() == ["a", "b", "c"]
    assert calls == [1]
    gc.collect()
    assert not any(isinstance(o, Maker) for o in gc.get_objects())


def test_the_source_holds_no_columns() -> None:
    """Nothing the source refers to is the columns or their counters (a view of a mapped
    file, in a reader's columns)."""
    columns = _columns(lambda: ["x", "y", "z"])
    source = columns.name_source()
    held = [cell.cell_contents for cell in source.__closure__ or ()]
    assert all(item is not columns and item is not columns.counts for item in held)
    assert source() == ["x", "y", "z"]
