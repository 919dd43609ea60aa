"""Indirect-call targets to value ids in the raw fast path (``CallTargets.ids``).

A target becomes its function's NameRef only at a function's exact start
address (``InstrProfSymtab::getFunctionHashFromAddress``), else 0.  The fast
path looks addresses up in a direct table when the functions are dense and
in address buckets otherwise; both must agree with a plain dictionary, for
any load offset and for 32-bit pointers (addresses wrap at 2**32).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import raw_call_targets
from profdata.model import cxx_algo

_FULL = (1 << 64) - 1


def _data(pointers: list[int], refs: list[int]) -> np.ndarray:
    data = np.zeros(len(pointers), dtype=[("function_pointer", "<u8"), ("name_ref", "<u8")])
    data["function_pointer"] = pointers
    data["name_ref"] = refs
    return data


@st.composite
def _case(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], int, int]:
    width = draw(st.sampled_from([32, 64]))
    mask = (1 << width) - 1
    align = 1 << draw(st.integers(0, 6))
    gap = draw(st.sampled_from([1, 3, 40, 5000]))  # 5000: too sparse for the table
    base = draw(st.integers(0, (1 << (width - 2)) - 1)) // align * align
    count = draw(st.integers(1, 40))
    steps = draw(st.lists(st.integers(1, gap), min_size=count, max_size=count))
    pointers = [base + align * sum(steps[: i + 1]) for i in range(count)]
    pointers += [0] * draw(st.integers(0, 2))  # functions without an address
    # records out of address order, or two at one address (the one the sort leaves first
    # wins): the map sorts them; laid out by address, it takes them as they come
    pointers += pointers[: draw(st.integers(0, 2))]
    if draw(st.booleans()):
        pointers = draw(st.permutations(pointers))
    refs = draw(st.lists(st.integers(1, _FULL), min_size=len(pointers), max_size=len(pointers)))
    offset = draw(st.integers(0, mask))
    near = [p + d for p in pointers if p for d in (-align, -1, 0, 1, align)]
    local = draw(st.lists(st.sampled_from(near) | st.integers(0, mask), max_size=60))
    targets = [(t + offset) & mask for t in local]
    return pointers, refs, targets, offset, mask


@settings(max_examples=300, deadline=None)
@given(_case())
def test_ids_are_the_exact_start_address_or_unknown(
    case: tuple[list[int], list[int], list[int], int, int],
) -> None:
    pointers, refs, targets, offset, mask = case
    data = _data(pointers, refs)
    # ``finalizeSymtab``'s sort by address alone (libstdc++'s, replayed by ``cxx_algo``,
    # which tests/compat/test_cxx_sort_compat.py holds to the real one) picks on duplicates
    pairs = [(p, r) for p, r in zip(pointers, refs, strict=True) if p]
    by_address: dict[int, int] = {}
    for address, ref in cxx_algo.sort_by(pairs, [p for p, _ in pairs]):
        by_address.setdefault(address, ref)
    expected = [by_address.get((t - offset) & mask, 0) for t in targets]
    array = np.array(targets, dtype=np.uint64)
    call_mask = _FULL if mask == _FULL else mask
    make = raw_call_targets.call_targets
    for targets_map in (make(data), make(data, 0)):
        ids = targets_map.ids(array, offset, call_mask)
        assert targets_map.values[ids].tolist() == expected
        if targets_map.direct_ids is not None and mask == _FULL:  # the all-kinds lookup
            dense = targets_map.dense_ids(array, offset)
            assert dense.tolist() == ids.tolist()


def test_dense_functions_get_a_direct_table_and_sparse_ones_buckets() -> None:
    dense = raw_call_targets.call_targets(_data([0x1000 + 16 * i for i in range(100)], [7] * 100))
    assert dense.direct is not None and dense.align_bits == 4 and len(dense.direct) == 100
    sparse = raw_call_targets.call_targets(_data([0x1000, 0x1010, 1 << 40], [7, 8, 9]))
    assert sparse.direct is None and sparse.lookup is not None and sparse.lookup.count > 1
    assert raw_call_targets.call_targets(_data([0x1000, 0x1010], [7, 8]), 0).direct is None
