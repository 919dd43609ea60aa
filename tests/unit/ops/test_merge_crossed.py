"""Raw and indexed runs of one binary mixed in one merge (``formats/crossed_runs``).

An indexed profile merged with new raw runs of its binary (either first) is
mapped onto the group's shape and stays on the fast path.  As in
``test_merge_fast``, every merge is made both ways -- fast and record by
record -- and must agree on the indexed bytes (full and sparse), the text
and the diagnostics; ``assert_same`` also says whether the fast merge stayed
fast, which the tests check where a mix must (or must not) cross.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.formats import crossed_runs, map_file, open_instr
from profdata.formats import text as text_format
from profdata.formats.crossed_runs import Crossing, Shape, crossing
from profdata.formats.indexed_runs import indexed_shape
from profdata.formats.raw_columns import shape_of
from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash
from profdata.ops import merge_fast
from profdata.releases import release
from tests.conftest import GOLDEN
from tests.unit.ops.test_merge_fast import (
    CALL,
    MEMOP,
    _write,
    _write_indexed,
    assert_same,
    merges,
)

Files = list[tuple[Path, int]]
VTABLE = ValueKind.VTABLE_TARGET


def _mixed(
    tmp_path: Path, profiles: list[InstrProfile], weights: list[int], rel: int = 22
) -> dict[str, Files]:
    """Each run as a raw file ("r"), and as an indexed ("i") and a text ("t") profile of it
    (same weights)."""
    raw = _write(tmp_path, profiles, weights)
    read = [open_instr(p) for p, _ in raw]
    texts = []
    for index, (profile, weight) in enumerate(zip(read, weights, strict=True)):
        path = tmp_path / f"run{index}.proftext"
        path.write_bytes(text_format.write(profile, release(rel)))
        texts.append((path, weight))
    return {"r": raw, "i": _write_indexed(tmp_path, read, weights, rel=rel), "t": texts}


@pytest.mark.property
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(merges(edges=False), st.data())
def test_generated_mixes(
    tmp_path: Path, case: tuple[list[InstrProfile], list[int], int], data: st.DataObject
) -> None:
    profiles, weights, threads = case
    files = _mixed(tmp_path, profiles, weights)
    picks = data.draw(
        st.lists(
            st.tuples(st.sampled_from("rit"), st.integers(0, len(profiles) - 1)),
            min_size=2,
            max_size=6,
        )
    )
    assert_same([files[kind][k] for kind, k in picks], threads=threads)


@pytest.mark.property
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(merges(edges=True), st.sampled_from([14, 22]), st.data())
def test_generated_mixes_at_the_saturation_edges(
    tmp_path: Path, case: tuple[list[InstrProfile], list[int], int], rel: int, data: st.DataObject
) -> None:
    """Counter overflows warn in each input's own record order; from LLVM 18 a raw run's
    counter above 2**56 fails the input, named by the first one in the run's order."""
    profiles, weights, threads = case
    files = _mixed(tmp_path, profiles, weights, rel)
    other = files[data.draw(st.sampled_from("it"))][0]
    raw = files["r"]
    mix = [other, *raw] if data.draw(st.booleans()) else [*raw, other, *raw[:1]]
    assert_same(mix, threads=threads, rel=rel)


# -- a binary of many functions: the mixes that must cross --------------------------------
_NAMES = [f"fn_{chr(97 + k % 26)}{k}" for k in range(40)]


def _run(seed: int, *, zero: int | None = None) -> InstrProfile:
    """A run of a 40-function binary with calls among its functions and memop sizes;
    ``zero``: that function never ran (no counts, no values)."""
    rng = np.random.default_rng(seed)
    targets = [md5_hash(n) for n in _NAMES[:12]]
    records = []
    for k, name in enumerate(_NAMES):
        ran = k != zero
        counts = rng.integers(0, 1000, size=1 + k % 4).astype(np.uint64) * ran
        sites = {}
        if k % 3 == 0:
            picks = rng.choice(len(targets), size=int(rng.integers(0, 5)), replace=False)
            sites[CALL] = [[ValueData(targets[p], int(rng.integers(1, 99))) for p in picks] * ran]
        if k % 5 == 0:
            sizes = rng.choice([1, 8, 16, 64], size=int(rng.integers(0, 3)), replace=False)
            sites[MEMOP] = [[ValueData(int(s), 3) for s in sizes] * ran, []]
        records.append(InstrRecord(name, 0x1000 + k, counts, b"", sites))
    return InstrProfile(kind=ProfileKind.IR, records=records, binary_ids=[b"\x12\x34"])


@pytest.mark.parametrize("threads", [0, 1, 2, 3])
@pytest.mark.parametrize(
    "pattern",
    ["irrr", "rrri", "rirri", "iirr", "riir", "trrr", "rrtr", "tirr", "ritr", "t", "tt", "tit"],
)
def test_mixes_of_one_binary_stay_fast(tmp_path: Path, pattern: str, threads: int) -> None:
    """Indexed or text first (the incremental merge) or raw first, in any order and any
    writer context, or text alone (its table is the group's shape): every input is merged
    as arrays, with the record merge's result."""
    weights = [1, 2, 1, 3, 1][: len(pattern)]
    mixed = _mixed(tmp_path, [_run(seed) for seed in range(len(pattern))], weights)
    files = [mixed[kind][k] for k, kind in enumerate(pattern)]
    assert assert_same(files, threads=threads)


@pytest.mark.parametrize("rel", [14, 22])
@pytest.mark.parametrize("spoiled", ["empty", "unreadable"])
def test_a_crossed_first_input_orders_its_context(tmp_path: Path, spoiled: str, rel: int) -> None:
    """When the first input cannot be read, the group comes from the second, in the other
    writer context, and the first context's first records are an indexed profile's: the
    merge meets them in its payload order, which decides the order of names that collide
    in LLVM 14's ``StringMap`` (LLVM 22's output does not depend on it)."""
    mixed = _mixed(tmp_path, [_run(1), _run(2)], [1, 1])
    raw, indexed = mixed["r"], mixed["i"]
    bad = tmp_path / "spoiled.profraw"
    bad.write_bytes(b"" if spoiled == "empty" else b"\x81rforpl\xff" + bytes(64))
    files = [(bad, 1), raw[0], indexed[1], raw[1]]
    assert assert_same(files, threads=2, rel=rel)
    assert assert_same([(bad, 1), indexed[0], raw[1], indexed[1]], threads=2, rel=rel)


def test_each_input_brings_its_own_binary_ids(tmp_path: Path) -> None:
    """An indexed profile merged elsewhere holds other binary ids than the raw runs: each
    crossed run adds those of its own file."""
    raw = _write(tmp_path, [_run(1), _run(2)], [1, 1])
    profile = open_instr(raw[0][0])
    profile.binary_ids = [b"\xab\xcd\xef"]
    indexed = _write_indexed(tmp_path, [profile], [1])
    for files in ([indexed[0], *raw], [*raw, indexed[0]]):
        assert assert_same(files)
        assert assert_same(files, threads=2)


@pytest.mark.parametrize("threads", [0, 2])
def test_an_indexed_profile_then_raw_runs_group_by_the_raw_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threads: int
) -> None:
    """The incremental merge's group is the raw runs' shape: the indexed first input
    crosses once, and no raw run has to (a sparse indexed profile keeps its own group)."""
    crossed: list[str] = []
    made = crossed_runs.crossing

    def recording(source: Shape, *args: Any) -> Crossing | None:
        crossed.append(type(source).__name__)
        return made(source, *args)

    monkeypatch.setattr(merge_fast, "crossing", recording)
    mixed = _mixed(tmp_path, [_run(1), _run(2), _run(3)], [2, 1, 1])
    raw = mixed["r"]
    assert assert_same([mixed["i"][0], raw[1], raw[2], raw[0]], threads=threads)
    assert crossed == ["IndexedShape"]
    crossed.clear()
    assert assert_same([mixed["t"][0], raw[1], raw[2], raw[0]], threads=threads)
    assert crossed == ["TableShape"]  # the text's own shape crosses once, as the indexed
    crossed.clear()
    sparse = _write_indexed(tmp_path, [_without(open_instr(raw[0][0]), _NAMES[7])], [1])
    assert not assert_same([sparse[0], raw[1], raw[2]], threads=threads)
    assert set(crossed) <= {"IndexedShape", "RawShape"}


def test_a_text_with_a_function_twice_goes_record_by_record(tmp_path: Path) -> None:
    """A text profile may list one (name, hash) twice, which the text reader sums: no
    shape (a group's records are distinct), the record-by-record merge reads it alone
    and with others, and stays the same as the fast one would be."""
    profile = _run(1)
    twice = InstrProfile(kind=ProfileKind.IR, records=[*profile.records, profile.records[3]])
    path = tmp_path / "twice.proftext"
    path.write_bytes(text_format.write(twice, release(22)))
    raw = _write(tmp_path, [_run(2)], [1])
    assert not assert_same([(path, 1)])
    assert not assert_same([(path, 2), (path, 1)])
    assert not assert_same([(path, 1), raw[0]])
    assert not assert_same([raw[0], (path, 1)])


def _texts() -> list[Path]:
    """The golden programs' text profiles (every instrumentation mode of 14-22)."""
    return sorted((GOLDEN / "programs").glob("l*/*.proftext"))


@pytest.mark.parametrize("path", _texts(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_texts_alone_and_weighted(path: Path) -> None:
    """A text profile converted alone, weighted, and merged with itself: as arrays where its
    table makes a shape, always with the record-by-record merge's result."""
    rel = int(path.parent.name[1:3])
    for files, threads in (([(path, 1)], 0), ([(path, 3)], 0), ([(path, 1), (path, 2)], 2)):
        assert_same(files, rel=rel, threads=threads)


def test_golden_texts_stay_fast_unless_declined() -> None:
    """The golden texts exercise the array path: all but those with temporal traces,
    vtable values or bitmaps (which some records lack) stay on it."""
    texts = _texts()
    if not texts:
        pytest.skip("no golden texts")
    for path in texts:
        profile = open_instr(path)
        declined = bool(profile.kind & ProfileKind.TEMPORAL) or any(
            rec.bitmap or VTABLE in rec.sites_by_kind() for rec in profile.records
        )
        assert assert_same([(path, 1)], rel=int(path.parent.name[1:3])) != declined, path


def _without(profile: InstrProfile, name: str) -> InstrProfile:
    return InstrProfile(kind=ProfileKind.IR, records=[r for r in profile.records if r.name != name])


def test_text_with_bitmaps_crosses_when_every_record_has_its_block(tmp_path: Path) -> None:
    """From LLVM 19 a text record without a bitmap block may take the bitmap of the
    record read before it (the text reader reuses one record): a text profile where
    only some records have bitmap bytes goes record by record; one where all do
    crosses."""

    def with_bitmaps(seed: int, every: bool) -> InstrProfile:
        profile = _run(seed)
        profile.records = [
            replace(rec, bitmap=bytes([seed, k % 7]) if every or k % 4 == 0 else b"")
            for k, rec in enumerate(profile.records)
        ]
        return profile

    for every in (False, True):
        mixed = _mixed(tmp_path, [with_bitmaps(s, every) for s in (1, 2, 3)], [1, 1, 1])
        raw, text = mixed["r"], mixed["t"]
        for files in ([text[0], raw[1], raw[2]], [raw[1], text[0], raw[2]]):
            assert assert_same(files) == every


def test_a_sparse_indexed_profile_does_not_cross(tmp_path: Path) -> None:
    """An indexed profile without a record the raw runs have (``--sparse`` drops records
    without counts): no one-to-one map, so that context goes record by record."""
    raw = _write(tmp_path, [_run(1), _run(2)], [1, 1])
    indexed = _write_indexed(tmp_path, [_without(open_instr(raw[0][0]), _NAMES[7])], [1])
    for threads in (0, 1):
        assert not assert_same([raw[1], indexed[0], raw[0]], threads=threads)
        assert not assert_same([indexed[0], raw[1]], threads=threads)


def test_a_target_the_group_cannot_name_falls_back(tmp_path: Path) -> None:
    """An indexed profile whose call site names a function outside the raw group's
    binary: that run has no ids in the group, and is merged record by record."""
    raw = _write(tmp_path, [_run(1)], [1])
    profile = open_instr(raw[0][0])
    first = profile.records[0]
    sites = {**first.value_sites, CALL: [[ValueData(md5_hash("elsewhere"), 5)]]}
    records = [InstrRecord(first.name, first.hash, first.counts, b"", sites), *profile.records[1:]]
    indexed = _write_indexed(tmp_path, [InstrProfile(kind=ProfileKind.IR, records=records)], [1])
    assert not assert_same([raw[0], indexed[0]])
    assert assert_same([raw[0], *_write_indexed(tmp_path, [profile], [1])])


def test_the_crossing_pairs_records_by_name_and_hash(tmp_path: Path) -> None:
    """The map takes every record to the one of the same name and function hash, with
    its counters; a name that differs (the hashes alike) is no crossing."""
    raw = _write(tmp_path, [_run(1)], [1])
    indexed = _write_indexed(tmp_path, [open_instr(raw[0][0])], [1])
    raw_profile = open_instr(raw[0][0])
    raw_shaped = shape_of(map_file(str(raw[0][0])), raw_profile)
    indexed_shaped = indexed_shape(map_file(str(indexed[0][0])))
    assert raw_shaped is not None and indexed_shaped is not None
    (rshape, rrun), (ishape, irun) = raw_shaped, indexed_shaped
    made = crossing(ishape, ishape.names, rshape, rshape.names)
    assert made is not None
    assert [rshape.names[r] for r in made.records.tolist()] == ishape.names
    assert ishape.names != rshape.names  # the payload order is not the data order
    crossed = made.run(irun)
    assert crossed is not None
    assert np.array_equal(crossed.counts, rrun.counts)
    assert np.array_equal(crossed.site_lengths, rrun.site_lengths)
    renamed = [*ishape.names]
    renamed[3] = "another"
    assert crossing(ishape, renamed, rshape, rshape.names) is None
    back = crossing(rshape, rshape.names, ishape, ishape.names)
    assert back is not None
    again = back.run(rrun)
    assert again is not None and np.array_equal(again.counts, irun.counts)
