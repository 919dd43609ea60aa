"""libstdc++'s ``std::nth_element`` (introselect), move for move.

LLVM 19's balanced partitioning splits a range with ``nth_element`` and later
breaks gain ties by the order that leaves behind, so "some valid partial
order" is not enough: the element moves of ``bits/stl_algo.h``
(``__introselect``, median-of-three ``__unguarded_partition_pivot``,
``__heap_select``, ``__insertion_sort``) are replayed on a list of distinct
integer keys compared with ``<``.  Debian's LLVM builds link libstdc++.
"""

from __future__ import annotations


def nth_element(keys: list[int], nth: int) -> None:
    """Rearrange ``keys`` in place exactly as ``std::nth_element(begin, begin + nth, end)``."""
    last = len(keys)
    if last == 0 or nth == last:
        return
    _introselect(keys, 0, nth, last, 2 * (last.bit_length() - 1))


def _introselect(a: list[int], first: int, nth: int, last: int, depth_limit: int) -> None:
    while last - first > 3:
        if depth_limit == 0:
            _heap_select(a, first, nth + 1, last)
            a[first], a[nth] = a[nth], a[first]
            return
        depth_limit -= 1
        cut = _unguarded_partition_pivot(a, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    a[first:last] = sorted(a[first:last])


def _unguarded_partition_pivot(a: list[int], first: int, last: int) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1)
    lo, hi, pivot = first + 1, last, a[first]
    while True:
        while a[lo] < pivot:
            lo += 1
        hi -= 1
        while pivot < a[hi]:
            hi -= 1
        if not lo < hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


def _move_median_to_first(a: list[int], result: int, x: int, y: int, z: int) -> None:
    if a[x] < a[y]:
        if a[y] < a[z]:
            pick = y
        elif a[x] < a[z]:
            pick = z
        else:
            pick = x
    elif a[x] < a[z]:
        pick = x
    elif a[y] < a[z]:
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _heap_select(a: list[int], first: int, middle: int, last: int) -> None:
    length = middle - first
    if length >= 2:
        parent = (length - 2) // 2
        while True:
            _adjust_heap(a, first, parent, length, a[first + parent])
            if parent == 0:
                break
            parent -= 1
    for i in range(middle, last):
        if a[i] < a[first]:
            value = a[i]
            a[i] = a[first]
            _adjust_heap(a, first, 0, length, value)


def _adjust_heap(a: list[int], base: int, hole: int, length: int, value: int) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if a[base + child] < a[base + child - 1]:
            child -= 1
        a[base + hole] = a[base + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[base + hole] = a[base + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and a[base + parent] < value:
        a[base + hole] = a[base + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[base + hole] = value
