"""The sample text reader's call-target and vtable-type scans, on offsets.

``ParseLine`` narrows a ``StringRef`` to the rest of the line after every
``name:count`` pair.  Done with byte slices that copies the rest of the line
per pair: a 1 MB line of 100k targets took 20 s.  The scans now move an
offset over the line instead; the slicing versions (below, as they were)
are the reference they must agree with on any line, including the ``size_t``
wrap-arounds LLVM's arithmetic makes on odd spacing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import sample_text
from profdata.formats.sample_text import NPOS, _find, _first_not_space, _Line, _substr, _uint

pytestmark = pytest.mark.property

_MASK = NPOS


def reference_targets(rest: bytes, n3: int, out: _Line) -> bool:
    while n3 != NPOS:
        skip = _first_not_space(_substr(rest, n3))
        n3 = (n3 + skip) & _MASK
        rest = _substr(rest, n3)
        n3 = _find(rest, b":")
        if n3 in (NPOS, 0):
            return False
        while True:
            after_colon = _substr(rest, n3 + 1)
            target = _substr(rest, 0, n3)
            n4 = _find(after_colon, b" ")
            n4 = (n3 + n4 + 1) & _MASK if n4 != NPOS else len(rest)
            count = _uint(_substr(rest, n3 + 1, n4 - n3 - 1))
            if count is not None:
                break
            n5 = _find(after_colon, b":")
            if n5 == NPOS:
                return False
            n3 = (n3 + n5 + 1) & _MASK
        out.targets[target] = count
        if n4 == len(rest):
            break
        n3 = n4
    return True


def reference_type_counts(text: bytes, out: _Line) -> bool:
    index = _first_not_space(text)
    while index != NPOS:
        colon = _find(text, b":", index)
        if colon == NPOS:
            return False
        name = _substr(text, index, colon - index)
        after = _find(text, b" ", colon + 1)
        count = _uint(_substr(text, colon + 1, after - colon - 1))
        if count is None or name in out.types:
            return False
        out.types[name] = count
        if after == NPOS:
            break
        rest = _first_not_space(text[after:])
        index = NPOS if rest == NPOS else after + rest
    return True


#: lines of the characters that steer the scans: blanks, colons, digits, names
LINES = st.lists(
    st.sampled_from([b" ", b"  ", b":", b"1", b"42", b"f", b"g:h", b"x:1", b"1:2", b"\t"]),
    max_size=30,
).map(b"".join)


@settings(max_examples=2000, deadline=None)
@given(LINES, st.integers(0, 40) | st.just(NPOS))
def test_target_scan_is_the_slicing_scan(line: bytes, start: int) -> None:
    ours, theirs = _Line(), _Line()
    n3 = start if start == NPOS else min(start, len(line))
    assert sample_text._parse_targets(line, n3, ours) == reference_targets(line, n3, theirs)
    assert ours.targets == theirs.targets


@settings(max_examples=2000, deadline=None)
@given(LINES)
def test_type_count_scan_is_the_slicing_scan(line: bytes) -> None:
    ours, theirs = _Line(), _Line()
    assert sample_text._parse_type_counts(line, ours) == reference_type_counts(line, theirs)
    assert ours.types == theirs.types


def test_a_line_of_many_double_spaced_targets() -> None:
    """What made the slicing scan quadratic, read to the same targets."""
    line = b"  ".join(b"t%x:%d" % (i, i) for i in range(2000))
    ours, theirs = _Line(), _Line()
    assert sample_text._parse_targets(line, 0, ours) and reference_targets(line, 0, theirs)
    assert ours.targets == theirs.targets and len(ours.targets) == 2000
