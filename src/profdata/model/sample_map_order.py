"""Iteration order of a sample reader's profile map (``sample-binary.md`` §5.8).

LLVM keeps sample profiles in a libstdc++ ``std::unordered_map`` keyed by a
64-bit context hash: ``MD5`` of the name for plain profiles, LLVM's
``hash_combine_range`` of the frames for CS contexts.  Whatever visits that
map unsorted (``show --hot-func-list`` rows of equal TotalSamples, the
ext-binary FuncMetadata section) comes out in its bucket order, replayed
here: :func:`unordered_map_order` follows libstdc++'s insert and rehash
(identity hash, max load factor 1, the prime bucket counts).  The CS hash of
contexts longer than 8 frames uses ``hash_combine_range``'s 64-byte state,
which the spec marks unverified.
"""

from __future__ import annotations

import struct
from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from profdata.model.llvm_containers import StringMapTable
from profdata.model.names import md5_hash, name_bytes
from profdata.model.sample import (
    FunctionSamples,
    SampleContext,
    SampleProfile,
    empty_cs_context,
    md5_name_value,
    string_map_key,
)
from profdata.releases import Release

_M64 = (1 << 64) - 1
SEED = 0xFF51AFD7ED558CCD  # get_execution_seed()
K0 = 0xC3A5C85C97CB3127
K1 = 0xB492B66FBE98F273
K2 = 0x9AE16A3B2F90404F
K3 = 0xC949D7C7509E6557

#: libstdc++ ``__prime_list`` entries used by ``_Prime_rehash_policy::_M_next_bkt``
_SMALL_BUCKETS = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)


# libstdc++'s table skips primes above ~100 (it is geometric); these are its entries.
_PRIME_TABLE = (
    17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113,
    127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359,
    383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109, 1193,
    1289, 1381, 1493, 1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739,
    4027, 4349, 4703, 5087, 5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113,
    12011, 12983, 14033, 15173, 16411, 17749, 19183, 20753, 22447, 24281, 26267, 28411,
    30727, 33223, 35933, 38873, 42043, 45481, 49201, 53201, 57557, 62233, 67307, 72817,
    78779, 85229, 92203, 99733, 107897, 116731, 126271, 136607, 147793, 159871, 172933,
    187091, 202409, 218971, 236897, 256279, 277261, 299951, 324503, 351061, 379787, 410857,
    444487, 480881, 520241, 562841, 608903, 658753, 712697, 771049, 834181, 902483, 976369,
    1056323, 1142821, 1236397, 1337629, 1447153, 1565659, 1693859, 1832561, 1982627,
    2144977, 2320627, 2510653, 2716249, 2938679, 3179303, 3439651, 3721303, 4026031,
    4355707, 4712381, 5098259, 5515729, 5967347, 6456007, 6984629, 7556579, 8175383,
    8844859, 9569143, 10352717, 11200489, 12117689, 13109983, 14183539, 15345007,
    16601593, 17961079, 19431899, 21023161, 22744717, 24607243, 26622317, 28802401,
    31160981, 33712729, 36473443, 39460231, 42691603, 46187573, 49969847, 54061849,
    58488943, 63278561, 68460391, 74066549, 80131819, 86693767, 93793069, 101473717,
)  # fmt: skip


def _snap(x: int) -> int:
    i = bisect_left(_PRIME_TABLE, x)
    return _PRIME_TABLE[i] if i < len(_PRIME_TABLE) else x


def _next_bucket_count(x: int) -> int:
    """``_Prime_rehash_policy::_M_next_bkt``."""
    if x < len(_SMALL_BUCKETS):
        return _SMALL_BUCKETS[x]
    return _snap(x)


K = TypeVar("K", bytes, int)  # a profile map's key: 13's spelled context, 14+'s hash
_END = -2  # no next node
_HEAD = -1  # _M_before_begin, the node before the first


class UnorderedMapTable:
    """libstdc++'s ``unordered_map<uint64_t, T>``: its node list and, per bucket, the
    node before the bucket's first node (``_M_insert_bucket_begin``, ``_M_rehash``,
    ``_M_erase``).

    Erasing unlinks a node and never shrinks the table, so once keys were
    erased, later inserts land by the buckets the map had grown to: the
    iteration order is no longer that of a fresh map of the same keys (the
    cold-context trimmer erases cold contexts and then inserts merged ones).
    """

    def __init__(self) -> None:
        self.keys: list[int] = []  # by node (an erased key inserted again gets a new node)
        self.nxt: list[int] = []  # each node's next node
        self.first = _END  # _M_before_begin._M_nxt
        self.buckets: list[int | None] = [None]
        self.threshold = 0  # _M_next_resize
        self.node_of: dict[int, int] = {}  # live key -> node

    @classmethod
    def filled(cls, keys: Sequence[int]) -> UnorderedMapTable:
        """A map that ``keys`` were inserted into in this order."""
        table = cls()
        for key in keys:
            table.insert(key)
        return table

    def holds_exactly(self, keys: Sequence[int]) -> bool:
        return len(set(keys)) == len(self.node_of) and all(k in self.node_of for k in keys)

    def order(self) -> list[int]:
        """The live keys in iteration order."""
        keys: list[int] = []
        node = self.first
        while node != _END:
            keys.append(self.keys[node])
            node = self.nxt[node]
        return keys

    def _next(self, node: int) -> int:
        return self.first if node == _HEAD else self.nxt[node]

    def _link_after(self, before: int, node: int) -> None:
        if before == _HEAD:
            self.nxt[node] = self.first
            self.first = node
        else:
            self.nxt[node] = self.nxt[before]
            self.nxt[before] = node

    def insert(self, key: int) -> None:
        """``emplace`` of a key: a present key stays where it is."""
        if key in self.node_of:
            return
        count = len(self.node_of)
        if count + 1 > self.threshold:  # _M_need_rehash
            wanted = max(count + 1, 11 if self.threshold == 0 else 0)
            if wanted >= len(self.buckets):
                self._rehash(_next_bucket_count(max(wanted + 1, 2 * len(self.buckets))))
            else:
                self.threshold = len(self.buckets)
        node = len(self.keys)
        self.keys.append(key)
        self.nxt.append(_END)
        self.node_of[key] = node
        size = len(self.buckets)
        bucket = key % size
        before = self.buckets[bucket]
        if before is not None:
            self._link_after(before, node)
        else:  # the bucket's first node goes first in the list
            self._link_after(_HEAD, node)
            if self.nxt[node] != _END:
                self.buckets[self.keys[self.nxt[node]] % size] = node
            self.buckets[bucket] = _HEAD

    def erase(self, key: int) -> None:
        node = self.node_of.pop(key, None)
        if node is None:
            return
        size = len(self.buckets)
        bucket = key % size
        before = self.buckets[bucket]
        assert before is not None
        prev = before
        while self._next(prev) != node:
            prev = self._next(prev)
        after = self.nxt[node]
        after_bucket = self.keys[after] % size if after != _END else 0
        if prev == before:  # _M_remove_bucket_begin
            if after == _END or after_bucket != bucket:
                if after != _END:
                    self.buckets[after_bucket] = before
                self.buckets[bucket] = None
        elif after != _END and after_bucket != bucket:
            self.buckets[after_bucket] = prev
        if prev == _HEAD:
            self.first = after
        else:
            self.nxt[prev] = after

    def _rehash(self, size: int) -> None:
        self.threshold = size
        self.buckets = [None] * size
        node, self.first, begin_bucket = self.first, _END, 0
        while node != _END:
            after = self.nxt[node]
            bucket = self.keys[node] % size
            before = self.buckets[bucket]
            if before is None:
                self.nxt[node] = self.first
                self.first = node
                self.buckets[bucket] = _HEAD
                if self.nxt[node] != _END:
                    self.buckets[begin_bucket] = node
                begin_bucket = bucket
            else:
                self._link_after(before, node)
            node = after


def unordered_map_order(hashes: Sequence[int]) -> list[int]:
    """Iteration order (indexes into ``hashes``) of an ``unordered_map<uint64_t, T>``
    filled in this order; a repeated key keeps its first position."""
    index_of: dict[int, int] = {}
    for index, h in enumerate(hashes):
        index_of.setdefault(h, index)
    return [index_of[key] for key in UnorderedMapTable.filled(hashes).order()]


# -- LLVM's hash_combine_range (llvm/ADT/Hashing.h) -------------------------------------
def _rotr(v: int, s: int) -> int:
    return v if s == 0 else ((v >> s) | (v << (64 - s))) & _M64


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _hash_16_bytes(low: int, high: int) -> int:
    mul = 0x9DDFEA08EB382D69
    a = ((low ^ high) * mul) & _M64
    a ^= a >> 47
    b = ((high ^ a) * mul) & _M64
    b ^= b >> 47
    return (b * mul) & _M64


def _f64(s: bytes, i: int) -> int:
    value: int = struct.unpack_from("<Q", s, i)[0]
    return value


def _f32(s: bytes, i: int) -> int:
    value: int = struct.unpack_from("<I", s, i)[0]
    return value


def hash_short(s: bytes, seed: int = SEED) -> int:
    """``hash_short`` of up to 64 bytes."""
    n = len(s)
    if 4 <= n <= 8:
        a = _f32(s, 0)
        return _hash_16_bytes((n + (a << 3)) & _M64, seed ^ _f32(s, n - 4))
    if 8 < n <= 16:
        a = _f64(s, 0)
        b = _f64(s, n - 8)
        return _hash_16_bytes(seed ^ a, _rotr((b + n) & _M64, n)) ^ b
    if 16 < n <= 32:
        a = (_f64(s, 0) * K1) & _M64
        b = _f64(s, 8)
        c = (_f64(s, n - 8) * K2) & _M64
        d = (_f64(s, n - 16) * K0) & _M64
        return _hash_16_bytes(
            (_rotr((a - b) & _M64, 43) + _rotr(c ^ seed, 30) + d) & _M64,
            (a + _rotr(b ^ K3, 20) - c + n + seed) & _M64,
        )
    if n > 32:
        z = _f64(s, 24)
        a = (_f64(s, 0) + (n + _f64(s, n - 16)) * K0) & _M64
        b = _rotr((a + z) & _M64, 52)
        c = _rotr(a, 37)
        a = (a + _f64(s, 8)) & _M64
        c = (c + _rotr(a, 7)) & _M64
        a = (a + _f64(s, 16)) & _M64
        vf = (a + z) & _M64
        vs = (b + _rotr(a, 31) + c) & _M64
        a = (_f64(s, 16) + _f64(s, n - 32)) & _M64
        z = _f64(s, n - 8)
        b = _rotr((a + z) & _M64, 52)
        c = _rotr(a, 37)
        a = (a + _f64(s, n - 24)) & _M64
        c = (c + _rotr(a, 7)) & _M64
        a = (a + _f64(s, n - 16)) & _M64
        wf = (a + z) & _M64
        ws = (b + _rotr(a, 31) + c) & _M64
        r = _shift_mix(((vf + ws) * K2 + (wf + vs) * K0) & _M64)
        return (_shift_mix(((seed ^ ((r * K0) & _M64)) + vs) & _M64) * K2) & _M64
    if n:
        y = (s[0] + (s[n >> 1] << 8)) & 0xFFFFFFFF
        z = (n + (s[n - 1] << 2)) & 0xFFFFFFFF
        return (_shift_mix(((y * K2) ^ (z * K3) ^ seed) & _M64) * K2) & _M64
    return K2 ^ seed


class _HashState:
    """``hash_state`` for inputs longer than 64 bytes."""

    def __init__(self, s: bytes, seed: int) -> None:
        self.h0 = 0
        self.h1 = seed
        self.h2 = _hash_16_bytes(seed, K1)
        self.h3 = _rotr(seed ^ K1, 49)
        self.h4 = (seed * K1) & _M64
        self.h5 = _shift_mix(seed)
        self.h6 = _hash_16_bytes(self.h4, self.h5)
        self.mix(s)

    @staticmethod
    def _mix32(s: bytes, off: int, a: int, b: int) -> tuple[int, int]:
        a = (a + _f64(s, off)) & _M64
        c = _f64(s, off + 24)
        b = _rotr((b + a + c) & _M64, 21)
        d = a
        a = (a + _f64(s, off + 8) + _f64(s, off + 16)) & _M64
        b = (b + _rotr(a, 44) + d) & _M64
        a = (a + c) & _M64
        return a, b

    def mix(self, s: bytes) -> None:
        self.h0 = (_rotr((self.h0 + self.h1 + self.h3 + _f64(s, 8)) & _M64, 37) * K1) & _M64
        self.h1 = (_rotr((self.h1 + self.h4 + _f64(s, 48)) & _M64, 42) * K1) & _M64
        self.h0 ^= self.h6
        self.h1 = (self.h1 + self.h3 + _f64(s, 40)) & _M64
        self.h2 = (_rotr((self.h2 + self.h5) & _M64, 33) * K1) & _M64
        self.h3 = (self.h4 * K1) & _M64
        self.h4 = (self.h0 + self.h5) & _M64
        self.h3, self.h4 = self._mix32(s, 0, self.h3, self.h4)
        self.h5 = (self.h2 + self.h6) & _M64
        self.h6 = (self.h1 + _f64(s, 16)) & _M64
        self.h5, self.h6 = self._mix32(s, 32, self.h5, self.h6)
        self.h0, self.h2 = self.h2, self.h0

    def finalize(self, length: int) -> int:
        return _hash_16_bytes(
            (_hash_16_bytes(self.h3, self.h5) + _shift_mix(self.h1) * K1 + self.h2) & _M64,
            (_hash_16_bytes(self.h4, self.h6) + _shift_mix(length) * K1 + self.h0) & _M64,
        )


def hash_combine_range(items: Sequence[bytes], seed: int = SEED) -> int:
    """``hash_combine_range`` over elements whose hashable data are ``items``."""
    buffer = bytearray(64)
    fill = 0
    pos = 0
    while pos < len(items) and fill + len(items[pos]) <= 64:
        buffer[fill : fill + len(items[pos])] = items[pos]
        fill += len(items[pos])
        pos += 1
    if pos == len(items):
        return hash_short(bytes(buffer[:fill]), seed)
    state = _HashState(bytes(buffer), seed)
    length = 64
    while pos < len(items):
        fill = 0
        while pos < len(items) and fill + len(items[pos]) <= 64:
            buffer[fill : fill + len(items[pos])] = items[pos]
            fill += len(items[pos])
            pos += 1
        rotated = bytes(buffer[fill:]) + bytes(buffer[:fill])
        state.mix(rotated)
        length += fill
    return state.finalize(length)


def string_hash(data: bytes, seed: int = SEED) -> int:
    """``hash_value(StringRef)``: ``hash_combine_range`` over contiguous bytes."""
    n = len(data)
    if n <= 64:
        return hash_short(data, seed)
    state = _HashState(data[:64], seed)
    aligned = n & ~63
    for start in range(64, aligned, 64):
        state.mix(data[start : start + 64])
    if n & 63:
        state.mix(data[n - 64 :])
    return state.finalize(n)


def function_id_hash(name: str, md5_names: bool = False) -> int:
    """``FunctionId::getHashCode``: MD5 of the name, or the hash itself when the name came
    from an MD5 name table (:func:`~profdata.model.sample.md5_name_value`)."""
    value = md5_name_value(name) if md5_names else None
    return md5_hash(name) if value is None else value & _M64


def flat_key(profile: SampleProfile, md5_frames: bool) -> Callable[[str], object] | None:
    """What a flattened ``SampleProfileMap`` tells names apart by
    (:func:`~profdata.model.sample.flatten_contexts`): from 19 (``md5_frames``) the
    ``FunctionId`` hash (decimal names as hash values in an MD5 profile); before, the
    name (None)."""
    return partial(function_id_hash, md5_names=profile.is_md5) if md5_frames else None


def context_hash(
    context: SampleContext, md5_frames: bool = True, md5_names: bool = False, cs: bool = False
) -> int:
    """``SampleContext::getHashCode``: for plain names MD5 (19/22) or, with
    ``md5_frames=False``, ``hash_value(StringRef)`` as 14/16 hash them; for CS contexts
    the frames combined, each frame as LLVM 19/22 hash it (MD5 based, §5.8) or as 14/16
    do (``hash_combine(name, line, discriminator)``).  In a CS profile (``cs``) a
    context of no frames and no name is a CS name table entry of size 0, which only a
    damaged file holds (:func:`~profdata.model.sample.empty_cs_context`): LLVM hashes it
    by its frames (``hasContext``), the empty range."""
    if not context.frames and not empty_cs_context(context, cs):
        if not md5_frames:  # 14/16: FunctionSamples keyed by the name's hash_value
            return string_hash(name_bytes(context.name))
        return function_id_hash(context.name, md5_names)
    words = []
    for frame in context.frames:
        loc = frame.location
        if md5_frames:
            packed = (loc.discriminator << 32) | loc.line_offset
            value = (function_id_hash(frame.function, md5_names) + (packed << 5) + packed) & _M64
        else:
            parts = struct.pack("<QII", string_hash(name_bytes(frame.function)), *loc)
            value = hash_short(parts)
        words.append(struct.pack("<Q", value))
    return hash_combine_range(words)


def profile_map_order(
    profile: SampleProfile,
    md5_frames: bool = True,
    md5_names: bool | None = None,
    string_map: bool = False,
) -> list[FunctionSamples]:
    """The reader's profiles in its ``SampleProfileMap`` iteration order; ``md5_names``
    (default: the profile's) says whether decimal names are hash values; LLVM 13's
    ``StringMap`` order with ``string_map`` (:func:`string_map_order`)."""
    if string_map:
        return string_map_order(profile)
    keys = _hash_keys(profile, md5_frames, md5_names)
    return _in_order(profile, keys, _hash_table(profile, keys).order())


def _hash_keys(profile: SampleProfile, md5_frames: bool, md5_names: bool | None) -> list[int]:
    md5 = profile.is_md5 if md5_names is None else md5_names
    cs = profile.is_cs
    return [context_hash(fs.context, md5_frames, md5, cs) for fs in profile.profiles.values()]


def _in_order(profile: SampleProfile, keys: Sequence[K], order: list[K]) -> list[FunctionSamples]:
    """The profiles (keyed by ``keys``, in dict order) in ``order``; a key met twice is
    its first profile, as a map insert of a present key is a lookup."""
    at: dict[K, FunctionSamples] = {}
    for key, fs in zip(keys, profile.profiles.values(), strict=True):
        at.setdefault(key, fs)
    return [at[key] for key in order]


def hash_map_table(
    profile: SampleProfile, md5_frames: bool = True, md5_names: bool | None = None
) -> UnorderedMapTable:
    """14+'s profile map: an ``unordered_map`` keyed by :func:`context_hash`, filled in
    the order the profiles were read or merged -- or the table the cold-context
    trimmer left (``SampleProfile.map_table``)."""
    return _hash_table(profile, _hash_keys(profile, md5_frames, md5_names))


def _hash_table(profile: SampleProfile, keys: list[int]) -> UnorderedMapTable:
    table = profile.map_table
    if isinstance(table, UnorderedMapTable) and table.holds_exactly(keys):
        return table
    return UnorderedMapTable.filled(keys)


def string_map_order(profile: SampleProfile) -> list[FunctionSamples]:
    """LLVM 13's profile map in iteration order (:func:`string_map_table`)."""
    keys = [string_map_key(fs.context) for fs in profile.profiles.values()]
    return _in_order(profile, keys, _string_table(profile, keys).order())


def string_map_table(profile: SampleProfile) -> StringMapTable:
    """LLVM 13's profile map: a ``StringMap`` keyed by :func:`string_map_key`, filled in
    the order the profiles were read or merged -- or the table the cold-context
    trimmer left (``SampleProfile.map_table``)."""
    return _string_table(profile, [string_map_key(fs.context) for fs in profile.profiles.values()])


def _string_table(profile: SampleProfile, keys: list[bytes]) -> StringMapTable:
    table = profile.map_table
    if isinstance(table, StringMapTable) and table.holds_exactly(keys):
        return table
    return StringMapTable.filled(keys, xxh3=False)


def merge_map_key(context: SampleContext, release: Release, md5: bool, cs: bool = False) -> object:
    """What ``mergeSampleProfile``'s map keys a profile by in ``release``: 13's string
    (a plain ``main`` and a CS ``[main]`` are one key), 18+'s context hash (an MD5 name
    meets its string form; ``md5``: the profile's names are MD5 values; ``cs``: the
    profile is a CS one), else the context itself."""
    if release.sample_string_map_profiles:
        return string_map_key(context)
    if release.sample_md5_function_ids:
        return context_hash(context, release.sample_cs_hash_md5_frames, md5, cs)
    return context


def name_map_order(names: Sequence[str], release: Release) -> list[int]:
    """:func:`release_map_order` of a profile of plain functions named ``names`` (in the
    order read, MD5 names not taken as hashes) as indexes into ``names``: the keys are
    hashed from the names alone (a stand-in ``FunctionSamples`` per function cost
    0.2 s for 50,000)."""
    contexts = [SampleContext(name) for name in names]
    if release.sample_string_map_profiles:
        keys = [string_map_key(c) for c in contexts]
        index_of: dict[bytes, int] = {}
        for index, key in enumerate(keys):
            index_of.setdefault(key, index)
        return [index_of[key] for key in StringMapTable.filled(keys, xxh3=False).order()]
    md5_frames = release.sample_cs_hash_md5_frames
    return unordered_map_order([context_hash(c, md5_frames, False) for c in contexts])


def release_map_order(
    profile: SampleProfile, release: Release, md5_names: bool | None = None
) -> list[FunctionSamples]:
    """The reader's map in ``release``'s iteration order: 13's ``StringMap``, or the
    ``SampleProfileMap`` of 14 and later (see :func:`profile_map_order`)."""
    md5_frames = release.sample_cs_hash_md5_frames
    return profile_map_order(profile, md5_frames, md5_names, release.sample_string_map_profiles)
