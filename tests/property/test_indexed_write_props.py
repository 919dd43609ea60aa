"""Properties of the indexed writer and of the LLVM container orders it replays.

The compat properties are differential: a random profile is rendered as a
text profile (records in random order, so insertion orders vary), merged by
the real ``llvm-profdata`` of each release, and our writer must produce the
same bytes from the same text; and what we write must read back in LLVM 22
with the counts we wrote.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.formats import _onhash_write, text
from profdata.formats.indexed_write import write_indexed
from profdata.model.instr import InstrProfile, InstrRecord, ValueData, ValueSite
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind
from profdata.model.llvm_containers import (
    djb_hash,
    djb_hashes,
    small_densemap_order,
    stringmap_order,
)
from profdata.model.names import md5_hash
from profdata.ops.merge import InstrProfWriter
from profdata.releases import release
from tests.compat import tools

pytestmark = pytest.mark.property

_NAME = st.from_regex(r"[a-z_][a-z0-9_.]{0,11}", fullmatch=True)
_HASH = st.one_of(st.integers(0, 24), st.integers(0, (1 << 64) - 3))
_COUNT = st.one_of(st.integers(0, 3), st.integers(0, (1 << 63) - 1))


@st.composite
def _sites(draw: st.DrawFn, kind: ValueKind, targets: list[int]) -> list[ValueSite]:
    sites: list[ValueSite] = []
    for _ in range(draw(st.integers(0, 3))):
        if kind is ValueKind.MEMOP_SIZE:
            values = draw(st.lists(st.integers(0, 600), max_size=4, unique=True))
        else:
            values = draw(st.lists(st.sampled_from(targets), max_size=4, unique=True))
        counts = draw(st.lists(st.integers(0, 1000), min_size=len(values), max_size=len(values)))
        sites.append([ValueData(v, c) for v, c in zip(values, counts, strict=True)])
    return sites


@st.composite
def profiles(draw: st.DrawFn, rel: int) -> tuple[list[InstrRecord], ProfileKind, dict[int, str]]:
    """Records in a random order, the profile kind, and the names of call/vtable targets."""
    names = draw(st.lists(_NAME, min_size=1, max_size=70, unique=True))
    symbols = {md5_hash(n): n for n in names}
    targets = [0, *symbols]
    cs = draw(st.booleans())
    records: list[InstrRecord] = []
    for name in names:
        hashes = draw(st.lists(_HASH, min_size=1, max_size=5, unique=True))
        for h in hashes:
            if cs and draw(st.booleans()):
                h |= CS_HASH_BIT
            elif not cs:
                h &= ~CS_HASH_BIT
            counts = draw(st.lists(_COUNT, min_size=1, max_size=5))
            sites: dict[ValueKind, list[ValueSite]] = {}
            for value_kind in ValueKind:
                if value_kind <= release(rel).max_value_kind and draw(st.integers(0, 3)) == 0:
                    sites[value_kind] = draw(_sites(value_kind, targets))
            bitmap = b""
            if release(rel).text_bitmaps and draw(st.integers(0, 4)) == 0:
                bitmap = draw(st.binary(min_size=1, max_size=4))
            records.append(InstrRecord(name, h, np.array(counts, dtype=np.uint64), bitmap, sites))
    kind = ProfileKind.IR
    if any(r.hash & CS_HASH_BIT for r in records):
        kind |= ProfileKind.CS
    order = draw(st.permutations(range(len(records))))
    return [records[i] for i in order], kind, symbols


def _render(
    records: list[InstrRecord], kind: ProfileKind, symbols: dict[int, str], rel: int
) -> bytes:
    row = release(rel)
    body = text.format_header(kind, row) + text.format_records(records, symbols, row)
    return body.encode()


def _ours(proftext: bytes, rel: int, sparse: bool) -> bytes:
    writer = InstrProfWriter()
    assert writer.add_profile(text.read(memoryview(proftext))) is None
    return write_indexed(writer.to_profile(), release=release(rel), sparse=sparse)


def _llvm_merge(tool: Path, proftext: bytes, *extra: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.proftext", Path(tmp) / "out.profdata"
        src.write_bytes(proftext)
        result = tools.run_tool(tool, ["merge", *extra, "-o", str(dst), str(src)])
        assert result.returncode == 0, result.stderr.decode()
        return dst.read_bytes()


_COMPAT_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.mark.compat
@pytest.mark.parametrize("rel", tools.RELEASES)
def test_same_bytes_as_llvm_merge(llvm_profdata: Callable[[int], Path], rel: int) -> None:
    tool = llvm_profdata(rel)

    @_COMPAT_SETTINGS
    @given(profile=profiles(rel), sparse=st.booleans())
    def check(profile: tuple[list[InstrRecord], ProfileKind, dict[int, str]], sparse: bool) -> None:
        records, kind, symbols = profile
        proftext = _render(records, kind, symbols, rel)
        expected = _llvm_merge(tool, proftext, *(["--sparse"] if sparse else []))
        assert _ours(proftext, rel, sparse) == expected

    check()


_BLOCK = re.compile(
    rb"  (.*):\n    Hash: 0x([0-9a-f]+)\n    Counters: \d+\n    Block counts: \[([0-9, ]*)\]\n"
)


@pytest.mark.compat
def test_llvm_22_reads_back_our_counts(llvm_profdata: Callable[[int], Path]) -> None:
    tool = llvm_profdata(22)

    @_COMPAT_SETTINGS
    @given(profile=profiles(22), version=st.integers(2, 13))
    def check(profile: tuple[list[InstrRecord], ProfileKind, dict[int, str]], version: int) -> None:
        records, _, _ = profile
        plain = [
            InstrRecord(r.name, r.hash & ~CS_HASH_BIT, r.counts)
            for r in records
            if not r.hash & CS_HASH_BIT
        ]
        unique = {(r.name, r.hash): r for r in plain}
        data = write_indexed(
            InstrProfile(ProfileKind.IR, list(unique.values())),
            release=release(22),
            version=version,
        )
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "ours.profdata"
            path.write_bytes(data)
            shown = subprocess.run(
                [str(tool), "show", "--all-functions", "--counts", str(path)],
                capture_output=True,
                check=True,
            ).stdout
        read_back = {
            (m[1].decode(), int(m[2], 16)): [int(c) for c in m[3].split(b", ") if c]
            for m in _BLOCK.finditer(shown)
        }
        assert read_back == {key: r.counts.tolist() for key, r in unique.items()}

    check()


# -- pure properties ------------------------------------------------------------------------
@given(profile=profiles(22), rel=st.sampled_from(tools.RELEASES), sparse=st.booleans())
@settings(max_examples=60, deadline=None)
def test_writing_is_deterministic(
    profile: tuple[list[InstrRecord], ProfileKind, dict[int, str]], rel: int, sparse: bool
) -> None:
    records, kind, _ = profile
    unique = list({(r.name, r.hash): r for r in records}.values())
    first = write_indexed(InstrProfile(kind, unique), release=release(rel), sparse=sparse)
    again = write_indexed(InstrProfile(kind, list(unique)), release=release(rel), sparse=sparse)
    assert first == again
    assert len(first) % 8 == 0


@given(st.lists(st.integers(0, (1 << 64) - 1), max_size=400))
def test_bucket_layout_places_every_item_once_in_its_bucket(hashes: list[int]) -> None:
    buckets = _onhash_write.bucket_layout(hashes)
    assert len(buckets) == _onhash_write.target_buckets(len(hashes))
    assert sorted(i for chain in buckets for i in chain) == list(range(len(hashes)))
    for index, chain in enumerate(buckets):
        assert all(hashes[i] & (len(buckets) - 1) == index for i in chain)


@given(st.lists(st.binary(max_size=40), max_size=50))
def test_vectorized_djb_matches_the_loop(keys: list[bytes]) -> None:
    assert djb_hashes(keys).tolist() == [djb_hash(k) for k in keys]


@given(st.lists(st.binary(max_size=12), max_size=120), st.booleans())
def test_stringmap_order_visits_each_distinct_key_once(keys: list[bytes], xxh3: bool) -> None:
    order = stringmap_order(keys, xxh3=xxh3)
    assert sorted(keys[i] for i in order) == sorted(set(keys))
    assert all(keys.index(keys[i]) == i for i in order)


@given(st.lists(st.integers(0, (1 << 64) - 3), max_size=80), st.booleans())
def test_densemap_order_visits_each_distinct_key_once(keys: list[int], mix: bool) -> None:
    order = small_densemap_order(keys, mix=mix)
    assert sorted(keys[i] for i in order) == sorted(set(keys))
    assert all(keys.index(keys[i]) == i for i in order)
