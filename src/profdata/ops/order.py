"""``llvm-profdata order``: a startup function order from temporal profile traces.

Mirrors ``orderMain`` and ``TemporalProfTraceTy::createBPFunctionNodes`` of
LLVM 19 and 22.  The releases differ in one detail of the partitioning (how a
bisection arranges its nodes before splitting them, which decides ties), named
``Release.order_split_sorts``.  Each trace contributes utility nodes for the prefixes of
lengths 1, 2, 4, 8, ...: a function first called at timestamp ``t`` belongs to
the prefixes that contain ``t``.  Utility nodes shared by one function or by
more than half of them are dropped, the nodes are sorted by (earliest
timestamp, name hash) and balanced partitioning
(:mod:`profdata.model.balanced_partitioning`) orders them.  Trace weights are
ignored, as in LLVM.

With ``num_test_traces`` the last traces are kept out of the computation and
score the order instead: functions fill pages of 32, and the score sums, over
each test trace's calls, the number of distinct pages touched so far.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from profdata import releases
from profdata.errors import UsageError
from profdata.model.balanced_partitioning import BalancedPartitioning, BalancedPartitioningConfig
from profdata.model.instr import TemporalTrace
from profdata.releases import Release

FUNCTIONS_PER_PAGE = 32  # orderMain's guess, as symbol sizes are unknown
GLOBAL_IDENTIFIER_DELIMITER = ";"  # GlobalIdentifierDelimiter: "file;name" of local symbols
MACHO_WARNING = (
    '# Warning: Mach-O may prefix symbols with "_" depending on the linkage and this output '
    "does not take that into account. Some post-processing may be required before passing "
    "to the linker via -order_file.\n"
)

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class FunctionNodes:
    """``createBPFunctionNodes``' output: name hashes in input order and their utility lists."""

    ids: list[int]
    utilities: list[list[int]]


@dataclass(frozen=True)
class FunctionOrder:
    """The order of ``order`` and, with test traces, its page-fault score."""

    ids: list[int]
    area: int | None = None


def create_function_nodes(
    traces: Sequence[TemporalTrace], remove_outliers: bool = True
) -> FunctionNodes:
    """The balanced-partitioning nodes of ``traces``; orderMain keeps ``RemoveOutlierUNs`` on."""
    pair_ids: list[U64] = []
    pair_uns: list[I64] = []
    seen_ids: list[U64] = []
    seen_stamps: list[I64] = []
    next_un = 0
    for trace in traces:
        hashes = np.array(trace.function_hashes, dtype=np.uint64)
        if len(hashes) == 0:
            next_un += 1
            continue
        ids, first = np.unique(hashes, return_index=True)
        seen_ids.append(ids)
        seen_stamps.append(first.astype(np.int64))
        # the cutoff doubles from timestamp 1: prefixes end after 1, 2, 4, 8, ... calls
        levels = _prefix_level(first.astype(np.int64))
        top = int(_prefix_level(np.array([len(hashes) - 1], dtype=np.int64))[0])
        by_call = np.argsort(first, kind="stable")
        ids, levels = ids[by_call], levels[by_call]
        spans = top - levels + 1
        pair_ids.append(np.repeat(ids, spans))
        offsets = np.arange(int(spans.sum()), dtype=np.int64) - np.repeat(
            np.cumsum(spans) - spans, spans
        )
        pair_uns.append(next_un + np.repeat(levels, spans) + offsets)
        next_un += top + 1
    if not seen_ids:
        return FunctionNodes([], [])
    unique_ids, which = np.unique(np.concatenate(seen_ids), return_inverse=True)
    earliest = np.full(len(unique_ids), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(earliest, which, np.concatenate(seen_stamps))
    by_stamp = np.lexsort((unique_ids, earliest))
    position = np.empty(len(unique_ids), dtype=np.int64)
    position[by_stamp] = np.arange(len(unique_ids))
    all_ids = np.concatenate(pair_ids)
    all_uns = np.concatenate(pair_uns)
    frequency = np.bincount(all_uns)
    keep = (frequency[all_uns] > 1) & (2 * frequency[all_uns] <= len(unique_ids))
    if not remove_outliers:
        keep[:] = True
    node_ids = unique_ids[by_stamp].tolist()
    owners = position[np.searchsorted(unique_ids, all_ids[keep])]
    kept = all_uns[keep]
    grouped = np.argsort(owners, kind="stable")
    bounds = np.searchsorted(owners[grouped], np.arange(len(node_ids) + 1))
    sorted_uns = kept[grouped].tolist()
    utilities = [sorted_uns[bounds[i] : bounds[i + 1]] for i in range(len(node_ids))]
    return FunctionNodes(node_ids, utilities)


def _prefix_level(stamps: I64) -> I64:
    """How many prefix cutoffs (1, 2, 4, ...) lie at or below each timestamp."""
    _, exponent = np.frexp(stamps.astype(np.float64))
    levels: I64 = exponent.astype(np.int64)
    return levels


def check_test_traces(num_test_traces: int, num_traces: int) -> None:
    """orderMain's refusal to keep back every trace."""
    if num_test_traces and num_test_traces >= num_traces:
        raise UsageError(
            "--num-test-traces must be smaller than the total number of traces: "
            f"expected: < {num_traces}, actual: {num_test_traces}"
        )


def order_functions(
    traces: Sequence[TemporalTrace], num_test_traces: int = 0, release: Release | None = None
) -> FunctionOrder:
    """The function order of ``llvm-profdata order --num-test-traces=N`` of ``release``."""
    rel = release or releases.release()
    check_test_traces(num_test_traces, len(traces))
    split = len(traces) - num_test_traces
    nodes = create_function_nodes(traces[:split])
    config = BalancedPartitioningConfig(split_sorts=rel.order_split_sorts)
    order = BalancedPartitioning(config).run(nodes.utilities)
    ids = [nodes.ids[i] for i in order]
    if not num_test_traces:
        return FunctionOrder(ids)
    return FunctionOrder(ids, page_fault_area(ids, traces[split:]))


def page_fault_area(ids: Sequence[int], test_traces: Sequence[TemporalTrace]) -> int:
    """Area under the page-fault curve, as the ``unsigned`` orderMain accumulates."""
    page = {fid: i // FUNCTIONS_PER_PAGE for i, fid in enumerate(ids)}
    area = 0
    for trace in test_traces:
        touched: set[int] = set()
        for fid in trace.function_hashes:
            where = page.get(fid)
            if where is None:
                continue
            touched.add(where)
            area += len(touched)
    return area & 0xFFFFFFFF


def parsed_irpgo_name(name: str) -> tuple[str, str]:
    """``getParsedIRPGOName``: ("file", "name") for "file;name", else ("", name)."""
    file, sep, rest = name.partition(GLOBAL_IDENTIFIER_DELIMITER)
    if not sep or not rest:
        return "", name
    return file, rest


def render_order(order: FunctionOrder, symbols: Mapping[int, str]) -> str:
    """orderMain's text: header comments, then one symbol per line (its file as a comment)."""
    lines = [f"# Ordered {len(order.ids)} functions\n"]
    if order.area is not None:
        lines.append(f"# Total area under the page fault curve: {_float_e(order.area)}\n")
    lines.append(MACHO_WARNING)
    for fid in order.ids:
        file, name = parsed_irpgo_name(symbols.get(fid, ""))
        if file:
            lines.append(f"# {file}\n")
        lines.append(f"{name}\n")
    return "".join(lines)


def _float_e(area: int) -> str:
    """``raw_ostream << (float)Area``: the float widened to double, printed with %e."""
    return f"{float(np.float32(area)):e}"
