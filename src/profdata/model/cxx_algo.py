"""libstdc++'s ``std::nth_element`` (introselect) and ``std::sort`` (introsort), move for move.

LLVM breaks ties by whatever order these leave equal elements in, so "some
valid order" is not enough: the element moves of ``bits/stl_algo.h``
(``__introselect``, ``__introsort_loop``, median-of-three
``__unguarded_partition_pivot``, ``__heap_select``/``__sort_heap``,
``__insertion_sort``, ``__final_insertion_sort``) are replayed on a list of
elements compared with ``<`` only.  Debian's LLVM builds link libstdc++.

* LLVM 19's balanced partitioning splits a range with ``nth_element`` and
  later breaks gain ties by the order that leaves behind.
* From LLVM 19 ``InstrProfValueSiteRecord::sortByTargetValues`` is
  ``llvm::sort`` of a vector (a ``std::list::sort`` before): a value site with
  one value several times (unknown indirect-call targets are all 0) pairs
  those entries in ``merge`` and ``overlap`` in the order ``std::sort``
  leaves them, which past 16 elements is not their original order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


T = TypeVar("T", bound=_Ordered)
E = TypeVar("E")

#: ``_S_threshold``: ranges up to this long are left to the final insertion sort
_THRESHOLD = 16
#: ``std::sort`` of at most this many elements is an insertion sort, which is stable
STABLE_UP_TO = _THRESHOLD


def sort(a: list[T]) -> None:
    """Rearrange ``a`` in place exactly as ``std::sort(begin, end)`` does with ``<``."""
    n = len(a)
    if n < 2:
        return
    _introsort_loop(a, 0, n, 2 * (n.bit_length() - 1))
    if n > _THRESHOLD:
        _insertion_sort(a, 0, _THRESHOLD)
        for i in range(_THRESHOLD, n):  # __unguarded_insertion_sort
            _unguarded_linear_insert(a, i)
    else:
        _insertion_sort(a, 0, n)


class _Keyed(Generic[E]):
    """An element compared by its key alone, as a ``less_first``-style comparator does."""

    __slots__ = ("item", "key")

    def __init__(self, key: int, item: E) -> None:
        self.key = key
        self.item = item

    def __lt__(self, other: _Keyed[E]) -> bool:
        return self.key < other.key


def sort_by(items: Sequence[E], keys: Sequence[int]) -> list[E]:
    """``items`` in the order ``std::sort`` leaves them when it compares their ``keys``
    only (past 16 elements, those of one key do not keep their given order)."""
    keyed = [_Keyed(k, item) for k, item in zip(keys, items, strict=True)]
    sort(keyed)
    return [entry.item for entry in keyed]


def _introsort_loop(a: list[T], first: int, last: int, depth_limit: int) -> None:
    while last - first > _THRESHOLD:
        if depth_limit == 0:
            _heap_sort(a, first, last)
            return
        depth_limit -= 1
        cut = _unguarded_partition_pivot(a, first, last)
        _introsort_loop(a, cut, last, depth_limit)
        last = cut


def _heap_sort(a: list[T], first: int, last: int) -> None:
    """``std::partial_sort(first, last, last)``: ``__make_heap``, then ``__sort_heap``."""
    _heap_select(a, first, last, last)
    while last - first > 1:
        last -= 1
        value = a[last]
        a[last] = a[first]
        _adjust_heap(a, first, 0, last - first, value)


def _insertion_sort(a: list[T], first: int, last: int) -> None:
    for i in range(first + 1, last):
        if a[i] < a[first]:
            value = a[i]
            a[first + 1 : i + 1] = a[first:i]
            a[first] = value
        else:
            _unguarded_linear_insert(a, i)


def _unguarded_linear_insert(a: list[T], last: int) -> None:
    value = a[last]
    before = last - 1
    while value < a[before]:
        a[last] = a[before]
        last = before
        before -= 1
    a[last] = value


def nth_element(keys: list[T], nth: int) -> None:
    """Rearrange ``keys`` in place exactly as ``std::nth_element(begin, begin + nth, end)``."""
    last = len(keys)
    if last == 0 or nth == last:
        return
    _introselect(keys, 0, nth, last, 2 * (last.bit_length() - 1))


def _introselect(a: list[T], first: int, nth: int, last: int, depth_limit: int) -> None:
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
    _insertion_sort(a, first, last)


def _unguarded_partition_pivot(a: list[T], first: int, last: int) -> int:
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


def _move_median_to_first(a: list[T], result: int, x: int, y: int, z: int) -> None:
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


def _heap_select(a: list[T], first: int, middle: int, last: int) -> None:
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


def _adjust_heap(a: list[T], base: int, hole: int, length: int, value: T) -> None:
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
