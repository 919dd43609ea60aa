"""Sorted distinct values found through buckets: one look for most targets.

The fast merge maps every run's indirect-call targets to value ids: raw runs
by function address (addresses follow one another at about a function's
size), indexed runs by name MD5 (spread evenly over 64 bits).  Either way a
bucket key of each value -- an address offset shifted right, or the top bits
of a hash -- cuts the sorted array into buckets of about one value each.
A target is then compared with its bucket's first value, and the few that
share a bucket step on.  Binary search of 100k values took 5-6 ms a run;
this takes one gather and compare, and a few short steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]

__all__ = ["BucketedValues"]


@dataclass(frozen=True, eq=False)
class BucketedValues:
    """``values`` (sorted, distinct) and each bucket's first position in them."""

    values: U64s
    starts: npt.NDArray[np.int32]  # bucket b holds values[starts[b]:starts[b + 1]]

    @classmethod
    def of(cls, values: U64s, buckets: Ints, count: int) -> BucketedValues:
        """``buckets[i]`` is the bucket of ``values[i]`` (ascending with the values), each
        below ``count``."""
        starts = np.zeros(count + 1, dtype=np.int32)
        np.cumsum(np.bincount(buckets, minlength=count), out=starts[1:])
        return cls(values, starts)

    @property
    def count(self) -> int:
        return len(self.starts) - 1

    def find(self, targets: U64s, buckets: Ints) -> Ints:
        """Each target's position in ``values``, -1 where it is not there; ``buckets`` are
        the targets' buckets, each below :attr:`count`."""
        result = np.full(len(targets), -1, dtype=np.int64)
        if not len(self.values):
            return result
        values, last = self.values, len(self.values) - 1
        index = self.starts[buckets].astype(np.int64)
        end = self.starts[buckets + 1].astype(np.int64)
        pending = np.arange(len(targets))
        want = targets
        while len(pending):
            found = values[np.minimum(index, last)]
            inside = index < end
            hit = (found == want) & inside
            result[pending[hit]] = index[hit]
            more = (found < want) & inside
            pending, index, end = pending[more], index[more] + 1, end[more]
            want = targets[pending]
        return result
