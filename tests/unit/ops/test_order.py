"""``profdata.ops.order``: trace -> node conversion, names, and the rendered text.

The node expectations are the ones LLVM's own unit test (BPFunctionNodeTest)
asserts for ``createBPFunctionNodes``; whole outputs are checked against the
real tools in tests/golden/order.
"""

from __future__ import annotations

import pytest

from profdata.errors import UsageError
from profdata.model.instr import TemporalTrace
from profdata.ops.order import (
    FunctionOrder,
    create_function_nodes,
    order_functions,
    page_fault_area,
    parsed_irpgo_name,
    render_order,
)


def _nodes(traces: list[list[int]], remove_outliers: bool) -> dict[int, list[int]]:
    nodes = create_function_nodes([TemporalTrace(1, tuple(t)) for t in traces], remove_outliers)
    return dict(zip(nodes.ids, nodes.utilities, strict=True))


def test_one_trace_gets_prefix_utilities() -> None:
    assert _nodes([[0, 1, 2, 3]], remove_outliers=False) == {
        0: [0, 1, 2], 1: [1, 2], 2: [2], 3: [2],
    }  # fmt: skip


def test_utilities_continue_across_traces() -> None:
    assert _nodes([[0, 1, 2, 3, 4], [4, 2]], remove_outliers=False) == {
        0: [0, 1, 2, 3], 1: [1, 2, 3], 2: [2, 3, 5], 3: [2, 3], 4: [3, 4, 5],
    }  # fmt: skip


def test_outlier_utilities_are_removed() -> None:
    assert _nodes([[0, 1, 2, 3, 4], [4, 2]], remove_outliers=True) == {
        0: [1], 1: [1], 2: [5], 3: [], 4: [5],
    }  # fmt: skip


def test_nodes_are_ordered_by_first_timestamp_then_hash() -> None:
    nodes = create_function_nodes([TemporalTrace(1, (9, 7, 5)), TemporalTrace(1, (3, 5, 1))])
    assert nodes.ids == [3, 9, 5, 7, 1]


def test_repeated_function_counts_from_its_first_call() -> None:
    once = _nodes([[5, 6, 7, 8, 9]], remove_outliers=False)
    twice = _nodes([[5, 6, 7, 8, 5, 9]], remove_outliers=False)
    assert twice[5] == once[5]
    assert twice[9] == [3]


def test_empty_traces_still_consume_a_utility() -> None:
    plain = _nodes([[1, 2], [1, 2]], remove_outliers=False)
    spaced = _nodes([[1, 2], [], [1, 2]], remove_outliers=False)
    assert plain == {1: [0, 1, 2, 3], 2: [1, 3]}
    assert spaced == {1: [0, 1, 3, 4], 2: [1, 4]}


@pytest.mark.parametrize(
    ("name", "parsed"),
    [
        ("main", ("", "main")),
        ("local_a.c;helper", ("local_a.c", "helper")),
        ("dir/x.c;a;b", ("dir/x.c", "a;b")),
        ("trailing;", ("", "trailing;")),
        ("", ("", "")),
    ],
)
def test_parsed_irpgo_name(name: str, parsed: tuple[str, str]) -> None:
    assert parsed_irpgo_name(name) == parsed


def test_render_names_files_of_local_symbols_and_blank_unknown_hashes() -> None:
    text = render_order(FunctionOrder([1, 2, 3], area=2579), {1: "main", 2: "a.c;helper"})
    lines = text.splitlines()
    assert lines[0] == "# Ordered 3 functions"
    assert lines[1] == "# Total area under the page fault curve: 2.579000e+03"
    assert lines[2].startswith("# Warning: Mach-O may prefix symbols")
    assert lines[3:] == ["main", "# a.c", "helper", ""]


def test_area_is_printed_as_a_float() -> None:
    text = render_order(FunctionOrder([], area=123456789), {})
    assert "# Total area under the page fault curve: 1.234568e+08\n" in text


def test_page_fault_area_counts_touched_pages_per_call() -> None:
    ids = list(range(100))
    trace = TemporalTrace(1, (0, 40, 1, 99, 500, 70))
    # pages: 0 -> 0, 40 -> 1, 1 -> 0, 99 -> 3, 500 unknown, 70 -> 2
    assert page_fault_area(ids, [trace]) == 1 + 2 + 2 + 3 + 4
    assert page_fault_area(ids, [trace, trace]) == 2 * 12


def test_too_many_test_traces_is_a_usage_error() -> None:
    traces = [TemporalTrace(1, (1, 2))] * 3
    with pytest.raises(UsageError, match=r"expected: < 3, actual: 3"):
        order_functions(traces, num_test_traces=3)


def test_test_traces_do_not_change_the_order() -> None:
    traces = [TemporalTrace(1, tuple(range(i, i + 40))) for i in range(0, 60, 7)]
    alone = order_functions(traces[:-2])
    kept_back = order_functions(traces, num_test_traces=2)
    assert kept_back.ids == alone.ids
    assert alone.area is None
    assert kept_back.area is not None
