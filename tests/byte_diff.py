"""Where two files that should be equal first differ, for assertion messages.

A failed byte-identity check on a profile is only actionable with the
offset of the first difference and the bytes around it; pytest's own diff of
two ``bytes`` values shows neither for files of a few kilobytes.
"""

from __future__ import annotations

import numpy as np


def first_difference(expected: bytes, got: bytes) -> str:
    """``first difference at byte N (0x..) ...`` with 16 bytes of each side from there."""
    common = min(len(expected), len(got))
    unequal = np.flatnonzero(
        np.frombuffer(expected, np.uint8, common) != np.frombuffer(got, np.uint8, common)
    )
    at = int(unequal[0]) if unequal.size else common
    return (
        f"first difference at byte {at} ({at:#x}); sizes {len(expected)} expected, "
        f"{len(got)} got; expected {expected[at : at + 16].hex(' ')} | "
        f"got {got[at : at + 16].hex(' ')}"
    )


def first_different_line(expected: str, got: str) -> str:
    """The first line (1-based) where two texts differ, both versions of it."""
    old, new = expected.splitlines(), got.splitlines()
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return f"first difference at line {number}:\n  expected: {a}\n  got:      {b}"
    return f"one text is a prefix of the other: {len(old)} expected lines, {len(new)} got"
