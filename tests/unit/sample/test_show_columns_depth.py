"""Nested profiles at and past the depth the column printers take.

The column dump renders each node's indent and the closing brackets of the
nodes it ends into padded tables, whose width grows with the square of the
depth; past :data:`~profdata.formats.sample_column_order.DEEPEST` levels the
object printers take the profile.  Both sides of that line print the same
text as the object path, in text and JSON, and the text writer too."""

from __future__ import annotations

import pytest

from profdata.formats import sample_text
from profdata.formats.sample_column_order import DEEPEST, ColumnOrder
from profdata.formats.sample_column_write import write_text
from profdata.formats.sample_registry import read_sample_bytes
from profdata.formats.sample_text_columns import read_text_columns
from profdata.ops.show_sample import SampleShowOptions, show_columns_bytes, show_sample
from profdata.pieces import joined
from profdata.releases import release
from tests.unit.cli.test_deep_profiles import deep_text_profile

R22 = release(22)


def _nested(depth: int) -> bytes:
    """Two top-level functions, the first nested ``depth`` levels, the second flat: the
    text after the deepest node closes every level before the next function."""
    return (deep_text_profile(depth) + "other:5:1\n 3: 5\n").encode()


@pytest.mark.parametrize("depth", [1, 2, DEEPEST - 1, DEEPEST])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_nesting_up_to_the_limit_prints_from_columns_as_objects_do(depth: int, fmt: str) -> None:
    data = _nested(depth)
    options = SampleShowOptions(all_functions=True, show_format=fmt)
    by_columns = show_columns_bytes(memoryview(data), "in", options, R22)
    assert by_columns is not None
    by_objects = show_sample(read_sample_bytes(memoryview(data), "in", R22), options, R22)
    assert by_columns.text == by_objects.text
    assert f"f{depth}".encode() in by_columns.data


def test_deeper_nesting_is_left_to_the_object_path() -> None:
    data = _nested(DEEPEST + 1)
    options = SampleShowOptions(all_functions=True)
    assert show_columns_bytes(memoryview(data), "in", options, R22) is None
    read = read_text_columns(memoryview(data), "in", R22)
    assert read is not None
    assert not ColumnOrder(read[1]).ordered()


def test_the_text_writer_writes_nested_columns_as_the_object_writer() -> None:
    data = _nested(DEEPEST)
    read = read_text_columns(memoryview(data), "in", R22)
    assert read is not None
    order = ColumnOrder(read[1])
    assert order.ordered()
    expected = sample_text.write(read_sample_bytes(memoryview(data), "in", R22))
    assert joined([write_text(order)]) == expected
