"""Name hashing (``IndexedInstrProf::ComputeHash`` / ``MD5Hash``).

Names are bytes in LLVM.  profdata holds them as ``str`` decoded with UTF-8 and
``surrogateescape`` so that any byte string survives a round trip unchanged;
:func:`name_bytes` gives the exact bytes back.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np
import numpy.typing as npt

try:  # CPython's own MD5 (HACL*): for short names its per-call cost is half of OpenSSL's,
    # and it spares every command hashlib's import (OpenSSL's, ~1.5 ms)
    from _md5 import md5 as _md5  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - builds without it
    from hashlib import md5 as _md5

ENCODING = "utf-8"
ERRORS = "surrogateescape"

#: bytes of names from which a reader hashes them in a forked child while its caller goes
#: on (``hash_names_meanwhile``): 1 MiB of 25-byte names takes ~15 ms to hash, a look at
#: the CPUs and a fork ~6 ms
HASH_MEANWHILE_BYTES = 1 << 20


def name_bytes(name: str) -> bytes:
    return name.encode(ENCODING, ERRORS)


def names_bytes(names: list[str]) -> list[bytes]:
    """:func:`name_bytes` of many names: encoded at once, joined by NUL, when no name holds a
    NUL (one encode of 100k names costs a tenth of 100k encodes)."""
    joined = "\x00".join(names)
    if names and joined.count("\x00") == len(names) - 1:
        return joined.encode(ENCODING, ERRORS).split(b"\x00")
    return [name_bytes(name) for name in names]


def name_str(data: bytes) -> str:
    return data.decode(ENCODING, ERRORS)


@lru_cache(maxsize=1 << 16)
def md5_hash(name: str) -> int:
    """The 64-bit name hash: first 8 bytes of MD5, little endian."""
    return int.from_bytes(_md5(name_bytes(name)).digest()[:8], "little")


def md5_hash_bytes(data: bytes) -> int:
    return int.from_bytes(_md5(data).digest()[:8], "little")


def md5_hashes(names: Iterable[bytes | memoryview]) -> list[int]:
    """:func:`md5_hash_bytes` of many names (readers hash every name of a profile)."""
    hashes: list[int] = md5_array(names).tolist()
    return hashes


def md5_array(names: Iterable[bytes | memoryview]) -> npt.NDArray[np.uint64]:
    """:func:`md5_hashes` as an array, for callers that want one: no Python int per name
    (100k names: 5 ms, and 4 MiB at the peak of making a raw profile's names)."""
    digests = b"".join([_md5(name).digest() for name in names])
    return np.frombuffer(digests, dtype="<u8")[::2].astype(np.uint64)
