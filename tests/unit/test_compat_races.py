"""Which merges the compat tests may see race inside the real llvm-profdata.

llvm-profdata gives input i to writer context i % N and merges each context's inputs
on a thread pool; two inputs of one context can reach the pool in either order, and
the output keeps that order (equal values of a site).  ``compare_with_tool`` reruns the
real tool on such a merge when its first run disagrees, so these rules decide which
comparisons may retry.
"""

from __future__ import annotations

import os

import pytest

from tests.compat.tools import may_race


@pytest.mark.parametrize(
    ("args", "racy"),
    [
        (["merge", "-j", "2", "a", "b", "a", "b", "-o", "x"], True),
        (["merge", "-j", "2", "a", "b", "-o", "x"], False),  # one input a context
        (["merge", "-j", "1", "a", "b", "c", "-o", "x"], False),  # one context
        (["merge", "--num-threads=3", "a", "b", "c", "d"], True),
        (["merge", "-j4", "a", "b", "c", "d"], False),
        (["merge", "--weighted-input=2,a", "-j", "2", "b", "c"], True),
        (["merge", "--sample", "-j", "2", "a", "b", "c"], False),  # no writer contexts
        (["show", "a"], False),
        (["overlap", "a", "b"], False),
    ],
)
def test_explicit_threads(args: list[str], racy: bool) -> None:
    assert may_race(args) == racy


def test_default_threads_follow_the_machine() -> None:
    """Without -j: as many contexts as threads, at most half the inputs (rounded up)."""
    many = os.cpu_count() or 1
    assert not may_race(["merge", "a", "b", "-o", "x"])  # one context for two inputs
    assert may_race(["merge", "a", "b", "c", "-o", "x"]) == (many >= 2)
