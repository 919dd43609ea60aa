"""The indexed writer's payload filled in two parts, as ``fill_in_two`` fills it.

The writer lays the hash table out from each item's planned size
(``_record_lengths``) and fills item ranges independently; filled in two
ranges -- split at every item boundary the test picks -- the bytes must be
those of one fill, for every release's layout and version, with value data,
bitmaps, CS records and sparse writing.  The check inside the writer that a
range's record data has its planned lengths makes a wrong plan fail loudly.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import indexed_write
from profdata.formats.indexed_layout import FIRST_VERSION, LAST_VERSION
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ProfileKind
from profdata.releases import SUPPORTED, Release, release
from profdata.testing.strategies import instr_profiles

pytestmark = pytest.mark.property

Bytes = npt.NDArray[np.uint8]
Fill = Callable[[Bytes], None]


class _InTurn:
    """``fill_in_two`` in this process: the tail goes through a separate buffer, as a
    child's shared memory would, so a range writing outside its part shows."""

    def __init__(self, cut_seen: list[int]) -> None:
        self.cut_seen = cut_seen

    def zeros(self, size: int) -> Bytes:
        return np.zeros(size, dtype=np.uint8)

    def __call__(self, dest: Bytes, cut: int, here: Fill, there: Fill) -> None:
        self.cut_seen.append(cut)
        other = np.full(len(dest), 0xA5, dtype=np.uint8)
        there(other)
        here(dest)
        dest[cut:] = other[cut:]


@settings(max_examples=150, deadline=None)
@given(
    instr_profiles(
        max_records=12,
        kinds=(ProfileKind.IR, ProfileKind.IR | ProfileKind.CS, ProfileKind(0)),
        temporal=None,
    ),
    st.sampled_from(sorted(SUPPORTED)),
    st.sampled_from([None, *range(FIRST_VERSION, LAST_VERSION + 1)]),
    st.booleans(),
    st.floats(0, 1),
)
def test_two_parts_write_the_bytes_of_one(
    profile: InstrProfile, rel: int, version: int | None, sparse: bool, share: float
) -> None:
    chosen = release(rel)
    try:
        whole = indexed_write.write_indexed(profile, release=chosen, version=version, sparse=sparse)
    except ValueError:  # a version that cannot hold this profile: refused either way
        with pytest.raises(ValueError):
            _split(profile, chosen, version, sparse, share, [])
        return
    cuts: list[int] = []
    assert _split(profile, chosen, version, sparse, share, cuts) == whole
    assert len(cuts) == 1


def _split(
    profile: InstrProfile, chosen: Release, version: int | None, sparse: bool, share: float,
    cuts: list[int],
) -> bytes:  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(indexed_write, "_SPLIT_ITEMS", 0)
        patch.setattr(indexed_write, "_OWN_SHARE", share)
        return b"".join(
            indexed_write.encode_indexed(
                profile,
                release=chosen,
                version=version,
                sparse=sparse,
                fill_in_two=_InTurn(cuts),
            )
        )
