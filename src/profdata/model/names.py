"""Name hashing (``IndexedInstrProf::ComputeHash`` / ``MD5Hash``).

Names are bytes in LLVM.  profdata holds them as ``str`` decoded with UTF-8 and
``surrogateescape`` so that any byte string survives a round trip unchanged;
:func:`name_bytes` gives the exact bytes back.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

ENCODING = "utf-8"
ERRORS = "surrogateescape"


def name_bytes(name: str) -> bytes:
    return name.encode(ENCODING, ERRORS)


def name_str(data: bytes) -> str:
    return data.decode(ENCODING, ERRORS)


@lru_cache(maxsize=1 << 16)
def md5_hash(name: str) -> int:
    """The 64-bit name hash: first 8 bytes of MD5, little endian."""
    return int.from_bytes(hashlib.md5(name_bytes(name)).digest()[:8], "little")


def md5_hash_bytes(data: bytes) -> int:
    return int.from_bytes(hashlib.md5(data).digest()[:8], "little")
