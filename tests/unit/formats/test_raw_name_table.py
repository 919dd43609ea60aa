"""The raw reader's name table: NameRefs to names, in bulk and one at a time alike."""

from __future__ import annotations

import os
import random

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata import offload as offload_module
from profdata.formats import raw_profile
from profdata.formats.raw_profile import NameTable
from profdata.model import names as model_names
from profdata.model.names import md5_hash_bytes, name_bytes, name_str

# names as a compiler may write them: any bytes but the 0x01 separator, invalid UTF-8 included
_NAME = st.binary(min_size=1, max_size=12).filter(lambda b: b"\x01" not in b)


def _payloads(chunks: list[list[bytes]]) -> list[bytes]:
    return [b"\x01".join(chunk) for chunk in chunks if chunk]


def _expected(chunks: list[list[bytes]], refs: list[int]) -> list[str]:
    """What InstrProfSymtab answers: the first name with each hash, one name at a time."""
    first: dict[int, str] = {}
    for chunk in chunks:
        for name in chunk:
            first.setdefault(md5_hash_bytes(name), name_str(name))
    return [first.get(ref, "") for ref in refs]


@settings(max_examples=200, deadline=None)
@given(
    chunks=st.lists(st.lists(_NAME, max_size=6), max_size=5),
    unknown=st.lists(st.integers(0, 2**64 - 1), max_size=3),
    seed=st.integers(0, 1000),
    piece=st.sampled_from([1, 3, 16, 1 << 22]),
)
def test_names_of_is_the_table_lookup_of_each_ref(
    chunks: list[list[bytes]], unknown: list[int], seed: int, piece: int
) -> None:
    known = [md5_hash_bytes(name) for chunk in chunks for name in chunk]
    refs = known + unknown
    random.Random(seed).shuffle(refs)
    saved = raw_profile._PIECE
    raw_profile._PIECE = piece  # chunks taken together and cut alike
    try:
        bulk = NameTable(_payloads(chunks)).names_of(np.array(refs, dtype=np.uint64))
        table = NameTable(_payloads(chunks)).table()
    finally:
        raw_profile._PIECE = saved
    assert bulk == _expected(chunks, refs)
    assert [table.get(ref, "") for ref in refs] == bulk


def test_names_in_record_order_come_back_as_decoded() -> None:
    names = [b"main", b"f\xff\xfeoo", "caf\u00e9".encode(), b"_Z3barv", b"x.c;static"]
    refs = np.array([md5_hash_bytes(n) for n in names], dtype=np.uint64)
    assert NameTable([b"\x01".join(names)]).names_of(refs) == [name_str(n) for n in names]
    assert NameTable([b"\x01".join(names)]).names_of(refs[::-1]) == [
        name_str(n) for n in names[::-1]
    ]


def test_a_name_repeated_is_hashed_once_and_found() -> None:
    table = NameTable([b"\x01".join([b"same"] * 1000), b"same\x01other"])
    refs, texts = table._distinct()
    assert texts == ["same", "other"]
    assert refs.tolist() == [md5_hash_bytes(b"same"), md5_hash_bytes(b"other")]


@pytest.mark.parametrize("refs", [[], [0], [md5_hash_bytes(b"a"), 5]])
def test_an_empty_section_names_nothing(refs: list[int]) -> None:
    assert NameTable([]).names_of(np.array(refs, dtype=np.uint64)) == [""] * len(refs)


# -- hashing in a forked child ---------------------------------------------------------
def _mixed_chunks(seed: int, repeated: bool = True) -> list[list[bytes]]:
    """Chunks of names, some not valid UTF-8; some repeated within and across chunks, or
    each name once (as compilers write them)."""
    rng = random.Random(seed)
    pool = [b"fn_%d" % i for i in range(300)] + [b"bad\xff%d" % i for i in range(20)]
    if not repeated:
        rng.shuffle(pool)
        cuts = sorted(rng.sample(range(len(pool)), 3))
        return [pool[a:b] for a, b in zip([0, *cuts], [*cuts, len(pool)], strict=True)]
    return [[rng.choice(pool) for _ in range(rng.randint(0, 200))] for _ in range(4)]


@pytest.fixture
def eager_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any name section is worth a child, and a CPU is idle for it."""
    monkeypatch.setattr(model_names, "HASH_MEANWHILE_BYTES", 1)
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("piece", [5, 1 << 22])
@pytest.mark.parametrize("repeated", [True, False])
@pytest.mark.parametrize("ahead", [1 << 20, 0])  # the section decoded while the child hashes
def test_names_hashed_in_a_child_are_those_hashed_here(
    eager_child: None,
    forks: list[int],
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
    piece: int,
    repeated: bool,
    ahead: int,
) -> None:
    monkeypatch.setattr(raw_profile, "_PIECE", piece)
    monkeypatch.setattr(raw_profile, "_DECODE_AHEAD", ahead)
    payloads = _payloads(_mixed_chunks(seed, repeated))
    here = NameTable(payloads)._distinct()
    table = NameTable(payloads)
    table.hash_meanwhile()
    assert len(forks) == 1
    refs, texts = table._distinct()
    assert texts == here[1]
    assert refs.dtype == np.uint64 and refs.tolist() == here[0].tolist()
    assert refs.tolist() == [md5_hash_bytes(name_bytes(t)) for t in texts]
    table.hash_meanwhile()  # hashed already: no second child
    assert len(forks) == 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
def test_names_are_hashed_here_when_the_child_fails(
    eager_child: None, forks: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()
    hashes = NameTable._hashes

    def only_here(self: NameTable) -> tuple[npt.NDArray[np.uint64], bool]:
        if os.getpid() != parent:
            raise MemoryError("the child dies")
        return hashes(self)

    monkeypatch.setattr(NameTable, "_hashes", only_here)
    payloads = _payloads(_mixed_chunks(7))
    table = NameTable(payloads)
    table.hash_meanwhile()
    assert len(forks) == 1
    assert table._distinct()[0].tolist() == NameTable(payloads)._distinct()[0].tolist()


@pytest.mark.parametrize(("idle", "threshold"), [(1, 1), (2, 1 << 30)])
def test_no_child_without_an_idle_cpu_or_enough_names(
    forks: list[int], monkeypatch: pytest.MonkeyPatch, idle: int, threshold: int
) -> None:
    monkeypatch.setattr(model_names, "HASH_MEANWHILE_BYTES", threshold)
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: idle)
    table = NameTable(_payloads(_mixed_chunks(3)))
    table.hash_meanwhile()
    assert forks == []
    assert table._distinct()[1] == NameTable(_payloads(_mixed_chunks(3)))._distinct()[1]
