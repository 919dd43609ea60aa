"""``indexed_runs.Vocabulary``: where each indirect-call target of an indexed run lies.

The bucketed look-up must give exactly the positions binary search gives,
and None as soon as one target is not in the vocabulary, for values spread
over 64 bits (name MD5s) and for values crowded into a few buckets.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats.indexed_runs import Vocabulary

_U64 = st.integers(0, 2**64 - 1)


@st.composite
def _case(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    crowded = draw(st.booleans())  # near values share their top bits, so one bucket
    base = draw(_U64) if crowded else 0
    spread = st.integers(0, 300).map(lambda d: min(base + d, 2**64 - 1)) if crowded else _U64
    values = sorted(set(draw(st.lists(spread | st.sampled_from([0, 2**64 - 1]), max_size=60))))
    targets = draw(st.lists(st.sampled_from(values), max_size=80)) if values else []
    if draw(st.booleans()):  # one target not in the vocabulary, anywhere among the others
        foreign = draw(spread.filter(lambda v: v not in values))
        targets.insert(draw(st.integers(0, len(targets))), foreign)
    return values, targets


@settings(max_examples=400, deadline=None)
@given(_case())
def test_positions_are_binary_searchs(case: tuple[list[int], list[int]]) -> None:
    values, targets = case
    vocabulary = Vocabulary.of(np.array(values, dtype=np.uint64))
    found = vocabulary.positions(np.array(targets, dtype=np.uint64))
    if all(t in values for t in targets):
        assert found is not None
        assert found.tolist() == [values.index(t) for t in targets]
    else:
        assert found is None


def test_every_md5_like_value_of_a_large_vocabulary() -> None:
    rng = np.random.default_rng(7)
    values = np.unique(rng.integers(0, 2**63, 50_000, dtype=np.int64).astype(np.uint64) * 2 + 1)
    vocabulary = Vocabulary.of(values)
    targets = values[rng.integers(0, len(values), 20_000)]
    found = vocabulary.positions(targets)
    assert found is not None
    assert np.array_equal(found, np.searchsorted(values, targets))
    assert vocabulary.positions(np.append(targets, np.uint64(2))) is None  # even values absent
