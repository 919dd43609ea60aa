"""``llvm::xxh3_64bits`` (XXH3, 64-bit, seed 0, default secret) in pure Python.

LLVM's ``StringMap`` hashes its keys with ``xxh3_64bits`` since release 17
(``djbHash`` before), and ``llvm-profdata merge`` writes the vtable-name set in
that map's iteration order, so byte-identical output needs the very same
hash.  It is only ever applied to a handful of names, so clarity wins over
speed here; the test suite checks it against the C libxxhash when present.
"""

from __future__ import annotations

_M64 = (1 << 64) - 1

PRIME32_1 = 0x9E3779B1
PRIME32_2 = 0x85EBCA77
PRIME32_3 = 0xC2B2AE3D
PRIME64_1 = 0x9E3779B185EBCA87
PRIME64_2 = 0xC2B2AE3D27D4EB4F
PRIME64_3 = 0x165667B19E3779F9
PRIME64_4 = 0x85EBCA77C2B2AE63
PRIME64_5 = 0x27D4EB2F165667C5
PRIME_MX1 = 0x165667919E3779F9
PRIME_MX2 = 0x9FB21C651E98DF25

#: ``kSecret``, XXH3's 192-byte default secret.
SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
    "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
    "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e"
)
_STRIPE_LEN = 64
_SECRET_CONSUME_RATE = 8
_STRIPES_PER_BLOCK = (len(SECRET) - _STRIPE_LEN) // _SECRET_CONSUME_RATE
_BLOCK_LEN = _STRIPE_LEN * _STRIPES_PER_BLOCK
_SECRET_LASTACC_START = 7
_SECRET_MERGEACCS_START = 11
_MIDSIZE_STARTOFFSET = 3
_MIDSIZE_LASTOFFSET = 17
_SECRET_SIZE_MIN = 136


def _r64(data: bytes, pos: int) -> int:
    return int.from_bytes(data[pos : pos + 8], "little")


def _r32(data: bytes, pos: int) -> int:
    return int.from_bytes(data[pos : pos + 4], "little")


def _rotl64(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M64


def _swap64(x: int) -> int:
    return int.from_bytes(x.to_bytes(8, "little"), "big")


def _mul128_fold64(a: int, b: int) -> int:
    product = a * b
    return (product ^ (product >> 64)) & _M64


def _xxh64_avalanche(h: int) -> int:
    h ^= h >> 33
    h = (h * PRIME64_2) & _M64
    h ^= h >> 29
    h = (h * PRIME64_3) & _M64
    return h ^ (h >> 32)


def _avalanche(h: int) -> int:
    h ^= h >> 37
    h = (h * PRIME_MX1) & _M64
    return h ^ (h >> 32)


def _rrmxmx(h: int, length: int) -> int:
    h ^= _rotl64(h, 49) ^ _rotl64(h, 24)
    h = (h * PRIME_MX2) & _M64
    h ^= (h >> 35) + length
    h = (h * PRIME_MX2) & _M64
    return h ^ (h >> 28)


def _mix16(data: bytes, pos: int, spos: int) -> int:
    lo = _r64(data, pos) ^ _r64(SECRET, spos)
    hi = _r64(data, pos + 8) ^ _r64(SECRET, spos + 8)
    return _mul128_fold64(lo, hi)


def _len_0to16(data: bytes) -> int:
    n = len(data)
    if n > 8:
        lo = _r64(data, 0) ^ (_r64(SECRET, 24) ^ _r64(SECRET, 32))
        hi = _r64(data, n - 8) ^ (_r64(SECRET, 40) ^ _r64(SECRET, 48))
        acc = n + _swap64(lo) + hi + _mul128_fold64(lo, hi)
        return _avalanche(acc & _M64)
    if n >= 4:
        combined = _r32(data, n - 4) + (_r32(data, 0) << 32)
        return _rrmxmx(combined ^ (_r64(SECRET, 8) ^ _r64(SECRET, 16)), n)
    if n:
        combined = (data[0] << 16) | (data[n >> 1] << 24) | data[n - 1] | (n << 8)
        return _xxh64_avalanche(combined ^ (_r32(SECRET, 0) ^ _r32(SECRET, 4)))
    return _xxh64_avalanche(_r64(SECRET, 56) ^ _r64(SECRET, 64))


def _len_17to128(data: bytes) -> int:
    n = len(data)
    acc = n * PRIME64_1
    if n > 32:
        if n > 64:
            if n > 96:
                acc += _mix16(data, 48, 96) + _mix16(data, n - 64, 112)
            acc += _mix16(data, 32, 64) + _mix16(data, n - 48, 80)
        acc += _mix16(data, 16, 32) + _mix16(data, n - 32, 48)
    acc += _mix16(data, 0, 0) + _mix16(data, n - 16, 16)
    return _avalanche(acc & _M64)


def _len_129to240(data: bytes) -> int:
    n = len(data)
    acc = n * PRIME64_1
    for i in range(8):
        acc += _mix16(data, 16 * i, 16 * i)
    acc = _avalanche(acc & _M64)
    for i in range(8, n // 16):
        acc += _mix16(data, 16 * i, 16 * (i - 8) + _MIDSIZE_STARTOFFSET)
    acc += _mix16(data, n - 16, _SECRET_SIZE_MIN - _MIDSIZE_LASTOFFSET)
    return _avalanche(acc & _M64)


def _accumulate_512(acc: list[int], data: bytes, pos: int, spos: int) -> None:
    for i in range(8):
        value = _r64(data, pos + 8 * i)
        key = value ^ _r64(SECRET, spos + 8 * i)
        acc[i ^ 1] = (acc[i ^ 1] + value) & _M64
        acc[i] = (acc[i] + (key & 0xFFFFFFFF) * (key >> 32)) & _M64


def _scramble(acc: list[int], spos: int) -> None:
    for i in range(8):
        a = acc[i]
        a ^= a >> 47
        a ^= _r64(SECRET, spos + 8 * i)
        acc[i] = (a * PRIME32_1) & _M64


def _hash_long(data: bytes) -> int:
    n = len(data)
    acc = [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1]
    nb_blocks = (n - 1) // _BLOCK_LEN
    for block in range(nb_blocks):
        for stripe in range(_STRIPES_PER_BLOCK):
            pos = block * _BLOCK_LEN + stripe * _STRIPE_LEN
            _accumulate_512(acc, data, pos, stripe * _SECRET_CONSUME_RATE)
        _scramble(acc, len(SECRET) - _STRIPE_LEN)
    stripes = ((n - 1) - _BLOCK_LEN * nb_blocks) // _STRIPE_LEN
    for stripe in range(stripes):
        pos = nb_blocks * _BLOCK_LEN + stripe * _STRIPE_LEN
        _accumulate_512(acc, data, pos, stripe * _SECRET_CONSUME_RATE)
    last_secret = len(SECRET) - _STRIPE_LEN - _SECRET_LASTACC_START
    _accumulate_512(acc, data, n - _STRIPE_LEN, last_secret)
    result = n * PRIME64_1
    for i in range(4):
        spos = _SECRET_MERGEACCS_START + 16 * i
        result += _mul128_fold64(
            acc[2 * i] ^ _r64(SECRET, spos), acc[2 * i + 1] ^ _r64(SECRET, spos + 8)
        )
    return _avalanche(result & _M64)


def xxh3_64bits(data: bytes) -> int:
    """``llvm::xxh3_64bits(data)``."""
    n = len(data)
    if n <= 16:
        return _len_0to16(data)
    if n <= 128:
        return _len_17to128(data)
    if n <= 240:
        return _len_129to240(data)
    return _hash_long(data)
