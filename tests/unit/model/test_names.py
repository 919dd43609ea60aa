"""The name hashes every reader and writer uses (:mod:`profdata.model.names`).

The 64-bit hash of a PGO name is the first 8 bytes of its MD5, little endian
(LLVM's ``MD5Hash``).  The bulk forms must give what one name at a time
gives, on any bytes: a raw profile's names need not be UTF-8.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from profdata.model.names import md5_array, md5_hash, md5_hash_bytes, md5_hashes


def test_known_hashes() -> None:
    """MD5("") is d41d8cd98f00b204 e9800998ecf8427e: its first 8 bytes, little endian."""
    assert md5_hash_bytes(b"") == 0x04B2008FD98C1DD4
    assert md5_hash("main") == md5_hash_bytes(b"main")
    assert md5_array([b"", b"main"]).tolist() == [0x04B2008FD98C1DD4, md5_hash("main")]


@given(st.lists(st.binary(max_size=40), max_size=30))
def test_bulk_hashes_are_each_names(names: list[bytes]) -> None:
    one_by_one = [md5_hash_bytes(name) for name in names]
    assert md5_hashes(names) == one_by_one
    array = md5_array(names)
    assert array.dtype == np.uint64 and array.flags.c_contiguous
    assert array.tolist() == one_by_one
