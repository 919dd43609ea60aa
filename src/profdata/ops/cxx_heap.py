"""libstdc++'s ``std::priority_queue`` (``push_heap`` / ``pop_heap``), step for step.

``llvm-profdata show --topn=N`` keeps the N hottest functions in a
``std::priority_queue`` ordered by maximum count only, then prints them by
popping.  Among functions with equal counts the printed order is whatever the
heap's sift-up/sift-down moves leave behind, so a stable sort would not match:
the moves of ``bits/stl_heap.h`` (``__push_heap``, ``__adjust_heap``) are
reproduced here exactly.  Debian's LLVM builds link libstdc++.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PriorityQueue(Generic[T]):
    """``std::priority_queue<T, std::vector<T>, Compare>``; ``top`` is the greatest under less."""

    def __init__(self, less: Callable[[T, T], bool]) -> None:
        self._less = less
        self._heap: list[T] = []

    def __len__(self) -> int:
        return len(self._heap)

    def top(self) -> T:
        return self._heap[0]

    def push(self, value: T) -> None:
        self._heap.append(value)
        self._sift_up(len(self._heap) - 1, 0, value)

    def pop(self) -> T:
        heap = self._heap
        first = heap[0]
        if len(heap) > 1:
            value = heap[-1]
            heap[-1] = first
            self._adjust(0, len(heap) - 1, value)
        heap.pop()
        return first

    def drain(self) -> list[T]:
        """Pop everything: the order ``while (!q.empty()) { v.push_back(q.top()); q.pop(); }``."""
        out: list[T] = []
        while self._heap:
            out.append(self.pop())
        return out

    def _sift_up(self, hole: int, top: int, value: T) -> None:
        """``std::__push_heap``."""
        heap, less = self._heap, self._less
        parent = (hole - 1) // 2
        while hole > top and less(heap[parent], value):
            heap[hole] = heap[parent]
            hole = parent
            parent = (hole - 1) // 2
        heap[hole] = value

    def _adjust(self, hole: int, length: int, value: T) -> None:
        """``std::__adjust_heap`` over the first ``length`` elements."""
        heap, less = self._heap, self._less
        top = hole
        child = hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if less(heap[child], heap[child - 1]):
                child -= 1
            heap[hole] = heap[child]
            hole = child
        if (length & 1) == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            heap[hole] = heap[child - 1]
            hole = child - 1
        self._sift_up(hole, top, value)
