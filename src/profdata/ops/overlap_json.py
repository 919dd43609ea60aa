"""``profdata overlap --show-format=json`` for instrumentation profiles (a profdata extra).

llvm-profdata only prints text; scripts that compare profiles in CI want the
numbers without parsing ``%.3f%%``.  The document holds the same
:class:`~profdata.ops.overlap.OverlapResult` the text comes from, with full
precision: fractions are the doubles LLVM multiplies by 100 before printing,
so ``round(100 * x, 3)`` gives the text's figure.  One JSON object, ASCII
only, integers exact (hashes can exceed 2**53).  Schema
``profdata.overlap.instr/1`` (stable; additions only):

``schema``
    ``"profdata.overlap.instr/1"``.
``llvm_release``
    the ``--llvm-release`` whose rules were applied.
``base_profile``, ``test_profile``
    the input names as given on the command line.
``zero_sum_profile``
    the input whose edge count sum is below 1 (LLVM stops there; ``program``
    is then null and ``functions`` empty), else null.
``program``
    null or ``{"functions": {"overlap", "mismatch", "only_in_test"},
    "edge": STATS, "values": {kind: STATS}}``.  ``functions`` counts test
    records: matched (including those whose own sum is 0), same name with
    another hash / counter count / site count, and names absent from the base.
``functions``
    the function-level blocks llvm-profdata prints (``--value-cutoff``,
    ``--function``), in test-profile order: ``{"name", "hash": int,
    "counters": int, "edge": STATS, "values": {kind: STATS}}``.
``warnings``
    the base merge's problems (also printed on stderr):
    ``[{"function", "kind", "message"}]`` with ``kind`` one of
    ``"count_mismatch"``, ``"counter_overflow"``, ``"bitmap_mismatch"``,
    ``"value_site_count_mismatch"``, ``"hash_mismatch"``.

``STATS`` is ``{"overlap": float, "mismatch": float, "only_in_test": float,
"base_sum": int, "test_sum": int}``: the three fractions of the test
profile's sum (``mismatch`` and ``only_in_test`` are 0 in function blocks),
and the sums LLVM prints (each function's sum wraps at 2**64; the program
sums are doubles, so beyond 2**53 they are rounded as llvm-profdata's are).
``values`` has a key per value kind llvm-profdata prints (base or test sum
at least 1): ``"indirect_call_target"``, ``"memop_size"``,
``"vtable_target"`` (LLVM 18+).
"""

from __future__ import annotations

import json
from typing import Any

from profdata.ops.overlap import OverlapResult, OverlapStats

SCHEMA = "profdata.overlap.instr/1"


def render_json(result: OverlapResult) -> str:
    """The result as one JSON document (schema in the module docstring), newline-terminated."""
    return json.dumps(to_document(result)) + "\n"


def to_document(result: OverlapResult) -> dict[str, Any]:
    stopped = result.zero_sum_profile is not None
    return {
        "schema": SCHEMA,
        "llvm_release": result.release.number,
        "base_profile": result.base_name,
        "test_profile": result.test_name,
        "zero_sum_profile": result.zero_sum_profile,
        "program": None if stopped else _program(result.program),
        "functions": [_function(func) for func in result.functions],
        "warnings": [
            {"function": w.function, "kind": w.kind.name.lower(), "message": w.kind.value}
            for w in result.warnings
        ],
    }


def _program(stats: OverlapStats) -> dict[str, Any]:
    return {
        "functions": {
            "overlap": stats.overlap.num_entries,
            "mismatch": stats.mismatch.num_entries,
            "only_in_test": stats.unique.num_entries,
        },
        "edge": _stats(stats, None),
        "values": _values(stats),
    }


def _function(stats: OverlapStats) -> dict[str, Any]:
    return {
        "name": stats.func_name,
        "hash": stats.func_hash,
        "counters": stats.overlap.num_entries,
        "edge": _stats(stats, None),
        "values": _values(stats),
    }


def _values(stats: OverlapStats) -> dict[str, Any]:
    return {kind.name.lower(): _stats(stats, int(kind)) for kind in stats.kinds_shown()}


def _stats(stats: OverlapStats, kind: int | None) -> dict[str, Any]:
    def pick(value: float, per_kind: list[float]) -> float:
        return value if kind is None else per_kind[kind]

    return {
        "overlap": pick(stats.overlap.count_sum, stats.overlap.value_counts),
        "mismatch": pick(stats.mismatch.count_sum, stats.mismatch.value_counts),
        "only_in_test": pick(stats.unique.count_sum, stats.unique.value_counts),
        "base_sum": int(pick(stats.base.count_sum, stats.base.value_counts)),
        "test_sum": int(pick(stats.test.count_sum, stats.test.value_counts)),
    }
