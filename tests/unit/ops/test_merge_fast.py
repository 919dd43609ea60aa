"""The fast raw merge (``ops/merge_fast``) against the record-by-record merge it stands in for.

``merge_instr`` takes the fast path when it reads the files itself (the
default loader); passing any other loader forces the record-by-record merge,
which is the reference.  Every test merges the same files both ways and
compares everything a user can see: the indexed bytes (full and ``--sparse``),
the text output and the diagnostics.  Inputs: the raw files of the shared
corpus, hypothesis-generated runs of one synthetic binary written by
:mod:`profdata.formats.raw_write` (weights, counters at the saturation
edges, unknown call targets, sites that outgrow 255 values), and the
benchmark kit's real 20k-function profiles, also checked against the real
llvm-profdata.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import random
import shutil
import struct
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata import offload as offload_module
from profdata.errors import MergeError
from profdata.formats import map_file, raw_columns, raw_profile, raw_write
from profdata.formats import text as text_format
from profdata.formats._binary import ByteOrder
from profdata.formats.indexed_runs import IndexedShape
from profdata.formats.indexed_write import write_indexed
from profdata.formats.raw import read as raw_read
from profdata.formats.raw_columns import RawShape
from profdata.model import names as model_names
from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash
from profdata.ops import merge_fast, merge_group
from profdata.ops.merge import Diagnostic, MergeOptions, load_path, merge_instr
from profdata.ops.merge_fast import TableWriter, _widen
from profdata.ops.merge_inputs import FailureMode, InputFailure, WeightedFile
from profdata.ops.table_writer import has_duplicate_memop_values
from profdata.releases import release
from tests.conftest import REPO, SHARED

U64_MAX = (1 << 64) - 1
CORPUS = SHARED / "corpus"
#: the benchmark kit's profiles (``shared/bench/build_profiles.sh``), where BENCH_ROOT says
BENCH = Path(os.environ.get("BENCH_ROOT", REPO.parent / "profbench")) / "n20000" / "c22" / "raw"
LLVM22 = Path("/usr/lib/llvm-22/bin/llvm-profdata")
CALL, MEMOP = ValueKind.INDIRECT_CALL_TARGET, ValueKind.MEMOP_SIZE


@dataclass(frozen=True)
class Outcome:
    """What one merge showed: written bytes, text, diagnostics, or the error."""

    indexed: bytes
    sparse: bytes
    text: bytes
    diagnostics: tuple[object, ...]
    fast: bool
    invalid: bool  # merge's closing check: a memop size twice in a site


def _diagnostic(d: Diagnostic) -> object:
    if isinstance(d, InputFailure):  # the exception object itself differs between runs
        return ("failure", d.path, d.message)
    return d


def merge(
    files: Sequence[tuple[Path, int]],
    *,
    fast: bool,
    rel: int = 22,
    threads: int = 0,
    processes: int = 1,
) -> Outcome | str:
    inputs = [WeightedFile(str(path), weight) for path, weight in files]
    # --failure-mode=warn: inputs that fail (among them, from LLVM 18, raw runs with a
    # counter above 2**56) are listed and the rest still merged, so outputs compare too
    options = MergeOptions(
        release=release(rel),
        num_threads=threads,
        processes=processes,
        failure_mode=FailureMode.WARN,
    )
    load = load_path if fast else (lambda path: load_path(path, release=release(rel)))
    try:
        result = merge_instr(inputs, options, load=load)
    except MergeError as exc:
        return f"MergeError: {exc}"
    writer = result.writer
    used_fast = isinstance(writer, TableWriter)
    merged = writer.to_profile()
    return Outcome(
        write_indexed(merged, release=release(rel)),
        write_indexed(merged, release=release(rel), sparse=True),
        text_format.write(writer.to_profile(sparse=True), release(rel)),
        tuple(_diagnostic(d) for d in result.diagnostics),
        used_fast,
        has_duplicate_memop_values(merged),
    )


def assert_same(files: Sequence[tuple[Path, int]], *, rel: int = 22, threads: int = 0) -> bool:
    """Both merges agree; returns whether the fast one stayed fast to the end."""
    fast = merge(files, fast=True, rel=rel, threads=threads)
    slow = merge(files, fast=False, rel=rel, threads=threads)
    if isinstance(fast, str) or isinstance(slow, str):
        assert fast == slow
        return False
    assert not slow.fast
    assert fast.indexed == slow.indexed
    assert fast.sparse == slow.sparse
    assert fast.text == slow.text
    assert fast.diagnostics == slow.diagnostics
    assert fast.invalid == slow.invalid
    return fast.fast


# -- corpus raw files -------------------------------------------------------------------
def _corpus_dirs() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted({p.parent for p in CORPUS.rglob("*.profraw")})


@pytest.mark.parametrize("folder", _corpus_dirs(), ids=lambda p: p.name)
def test_corpus_raw_files(folder: Path) -> None:
    """Each raw file alone, three times with weights, and all of a folder's files together."""
    files = sorted(folder.glob("*.profraw"))
    for path in files:
        assert_same([(path, 1)])
        assert_same([(path, 1), (path, 2), (path, 3)], threads=0)
        assert_same([(path, 3), (path, 1), (path, 1), (path, 2)], threads=3, rel=19)
    assert_same([(p, 1) for p in files] * 2, threads=2)
    assert_same([(p, 2) for p in files], rel=14)


def test_corpus_has_fast_merges() -> None:
    """The corpus exercises the fast path, not only its fall-backs."""
    if not CORPUS.is_dir():
        pytest.skip("no corpus")
    fast = sum(
        assert_same([(path, 1), (path, 1)]) for path in sorted(CORPUS.rglob("*.profraw"))[:40]
    )
    assert fast >= 10


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
@pytest.mark.parametrize(("threads", "copies"), [(1, 1), (1, 5), (2, 1), (2, 3), (2, 4)])
def test_names_hashed_meanwhile_merge_alike(
    forks: list[int], monkeypatch: pytest.MonkeyPatch, threads: int, copies: int
) -> None:
    """The first raw input's names are hashed in a child while its group is made, with
    one writer context, with too few inputs for worker processes (fewer than 8) and
    with workers to come (which start as the child ends)."""
    if not CORPUS.is_dir():
        pytest.skip("no corpus")
    monkeypatch.setattr(model_names, "HASH_MEANWHILE_BYTES", 1)
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)
    started: list[bool] = []
    hash_meanwhile = raw_profile.NameTable.hash_meanwhile

    def recording(self: raw_profile.NameTable) -> bool:
        started.append(hash_meanwhile(self))
        assert started[-1] == self._hashing.started
        return started[-1]

    monkeypatch.setattr(raw_profile.NameTable, "hash_meanwhile", recording)
    files = sorted((CORPUS / "irpgo-vpcalls-o2-l22").glob("*.profraw")) * copies
    assert len(files) == 2 * copies
    assert assert_same([(path, 1) for path in files], threads=threads)
    assert started == [True]
    assert len(forks) >= len(started)


# -- generated runs of one binary -------------------------------------------------------
MEMOP_SIZES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 32, 33, 64, 65, 512, 513]
SMALL = st.integers(0, 50)
EDGE = st.sampled_from([U64_MAX, U64_MAX - 1, U64_MAX - 2, U64_MAX - 3, 1 << 63, (1 << 62) + 7])


@dataclass(frozen=True)
class Function:
    name: str
    hash: int
    counters: int
    call_sites: int
    memop_sites: int


@st.composite
def binaries(draw: st.DrawFn) -> list[Function]:
    names = draw(
        st.lists(st.text("abcdefgh_", min_size=1, max_size=6), min_size=1, max_size=6, unique=True)
    )
    return [
        Function(
            name,
            draw(st.integers(0, U64_MAX - 2)),
            draw(st.integers(1, 4)),
            draw(st.integers(0, 2)),
            draw(st.integers(0, 2)),
        )
        for name in names
    ]


@st.composite
def runs(draw: st.DrawFn, binary: list[Function], edges: bool) -> InstrProfile:
    """One run of ``binary``: counts, and targets among its functions (0: outside it)."""
    counts = st.one_of(SMALL, EDGE) if edges else SMALL
    targets = [0, *(md5_hash(f.name) for f in binary)]
    records = []
    for fn in binary:
        values = draw(st.lists(counts, min_size=fn.counters, max_size=fn.counters))
        sites: dict[ValueKind, list[list[ValueData]]] = {}
        if fn.call_sites:
            sites[CALL] = [
                [ValueData(t, draw(counts)) for t in draw(st.lists(st.sampled_from(targets),
                                                                    max_size=4, unique=True))]
                for _ in range(fn.call_sites)
            ]  # fmt: skip
        if fn.memop_sites:
            sites[MEMOP] = [
                [ValueData(s, draw(counts)) for s in draw(st.lists(st.sampled_from(MEMOP_SIZES),
                                                                    max_size=4, unique=True))]
                for _ in range(fn.memop_sites)
            ]  # fmt: skip
        records.append(InstrRecord(fn.name, fn.hash, np.array(values, dtype=np.uint64), b"", sites))
    return InstrProfile(kind=ProfileKind.IR, records=records, binary_ids=[b"\x12\x34"])


@st.composite
def merges(draw: st.DrawFn, edges: bool) -> tuple[list[InstrProfile], list[int], int]:
    binary = draw(binaries())
    profiles = draw(st.lists(runs(binary, edges), min_size=1, max_size=5))
    weights = draw(
        st.lists(st.sampled_from([1, 1, 1, 2, 3, 1 << 32]), min_size=len(profiles),
                 max_size=len(profiles))
    )  # fmt: skip
    return profiles, weights, draw(st.sampled_from([0, 0, 1, 2, 3]))


def _write(
    tmp: Path,
    profiles: list[InstrProfile],
    weights: list[int],
    layout: tuple[int, ByteOrder] = (8, "<"),
) -> list[tuple[Path, int]]:
    for old in tmp.glob("run*.profraw"):
        old.unlink()
    width, order = layout
    files = []
    for index, (profile, weight) in enumerate(zip(profiles, weights, strict=True)):
        path = tmp / f"run{index}.profraw"
        path.write_bytes(raw_write.write(profile, width=width, byteorder=order))
        files.append((path, weight))
    return files


LAYOUTS = st.sampled_from([(8, "<"), (8, ">"), (4, "<"), (4, ">")])


@pytest.mark.property
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(merges(edges=False), LAYOUTS)
def test_generated_runs(
    tmp_path: Path,
    case: tuple[list[InstrProfile], list[int], int],
    layout: tuple[int, ByteOrder],
) -> None:
    """Of either pointer width and byte order (the value blobs' words are read whole)."""
    profiles, weights, threads = case
    assert_same(_write(tmp_path, profiles, weights, layout), threads=threads)


@pytest.mark.parametrize("layout", [(8, "<"), (8, ">"), (4, "<"), (4, ">")])
def test_every_layout_takes_the_fast_path(
    tmp_path: Path, layout: tuple[int, ByteOrder], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Raw runs of either pointer width and byte order merge the fast way, their value
    blobs found by their first words, never by walking the chain."""

    def no_walk(*_: object) -> None:
        raise AssertionError("the blobs were walked")

    monkeypatch.setattr(raw_columns, "_walk_blobs", no_walk)
    rng = random.Random(3)
    binary = [Function(f"f{i}", rng.randrange(1 << 60), 2, i % 3, (i + 1) % 3) for i in range(9)]
    targets = [0, *(md5_hash(f.name) for f in binary)]

    def run() -> InstrProfile:
        records = []
        for fn in binary:
            sites: dict[ValueKind, list[list[ValueData]]] = {}
            for kind, count, pool in ((CALL, fn.call_sites, targets),
                                      (MEMOP, fn.memop_sites, MEMOP_SIZES)):  # fmt: skip
                sites[kind] = [
                    [ValueData(v, rng.randint(1, 9)) for v in rng.sample(pool, rng.randint(0, 4))]
                    for _ in range(count)
                ]
            counts = np.array([rng.randint(0, 9) for _ in range(fn.counters)], dtype=np.uint64)
            records.append(InstrRecord(fn.name, fn.hash, counts, b"", sites))
        return InstrProfile(kind=ProfileKind.IR, records=records, binary_ids=[b"\x12"])

    files = _write(tmp_path, [run() for _ in range(4)], [1, 2, 1, 3], layout)
    assert assert_same(files)


@pytest.mark.property
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(merges(edges=True), st.sampled_from([22, 14]))
def test_generated_runs_at_the_saturation_edges(
    tmp_path: Path, case: tuple[list[InstrProfile], list[int], int], rel: int
) -> None:
    """Counters and value counts near 2**64-1 and 2**64-3, with weights: clamps and warnings."""
    profiles, weights, threads = case
    assert_same(_write(tmp_path, profiles, weights), rel=rel, threads=threads)


@pytest.mark.property
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(merges(edges=True))
def test_counters_added_a_chunk_at_a_time_are_taken_back_where_one_could_saturate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: tuple[list[InstrProfile], list[int], int]
) -> None:
    """Chunks of two counters: a chunk whose sums could pass the maximum count comes after
    chunks already added, which are taken back before the checked merge."""
    monkeypatch.setattr(merge_fast, "_CHUNK", 2)
    profiles, weights, threads = case
    assert_same(_write(tmp_path, profiles, weights), threads=threads)


def _one_function(
    sites: list[list[tuple[int, int]]], counts: Sequence[int] = (5, 1)
) -> InstrProfile:
    rec = InstrRecord(
        "f", 0x1234, np.array(counts, dtype=np.uint64), b"",
        {MEMOP: [[ValueData(v, c) for v, c in site] for site in sites]},
    )  # fmt: skip
    return InstrProfile(kind=ProfileKind.IR, records=[rec])


def _site_of(files: list[tuple[Path, int]]) -> list[tuple[int, int]]:
    result = merge_instr(
        [WeightedFile(str(p), w) for p, w in files], MergeOptions(release=release(22))
    )
    assert isinstance(result.writer, TableWriter)
    (record,) = result.writer.records()
    return [(vd.value, vd.count) for vd in record.sites(MEMOP)[0]]


def test_sparse_keeps_or_drops_a_names_records_together(tmp_path: Path) -> None:
    """``--sparse`` drops a name whose records are all zero; a name with two records (two
    function hashes) stays whole when one of them has data, also on the fast path."""

    def run(first: int) -> InstrProfile:
        records = [
            InstrRecord("f", 1, np.array([first, 2], np.uint64), b"", {}),
            InstrRecord("f", 2, np.array([0, 0], np.uint64), b"", {}),
            InstrRecord("g", 3, np.array([0], np.uint64), b"", {}),
            InstrRecord("h", 4, np.array([0, 0, 0], np.uint64), b"", {}),
            InstrRecord("h", 5, np.array([0, 7], np.uint64), b"", {}),
        ]
        return InstrProfile(kind=ProfileKind.IR, records=records)

    files = _write(tmp_path, [run(i) for i in range(3)], [1] * 3)
    assert assert_same(files)
    outcome = merge(files, fast=True)
    assert isinstance(outcome, Outcome)
    listed = [line for line in outcome.text.decode().splitlines() if line in ("f", "g", "h")]
    assert listed == ["f", "f", "h", "h"]


def test_value_site_order_rules(tmp_path: Path) -> None:
    """Seen once: raw order, stably by count.  Merged: (count desc, value asc)."""
    raw = [(9, 5), (3, 7), (1, 5), (4, 2)]
    once = _write(tmp_path, [_one_function([raw])], [1])
    assert _site_of(once) == [(3, 7), (9, 5), (1, 5), (4, 2)]
    twice = _write(tmp_path, [_one_function([raw]), _one_function([[]])], [1, 1])
    assert _site_of(twice) == [(3, 7), (1, 5), (9, 5), (4, 2)]
    weighted = _write(tmp_path, [_one_function([raw]), _one_function([[(4, 3), (7, 1)]])], [1, 2])
    # 4 was there: 2 + 3*2; 7 is new to the site: inserted unscaled, as LLVM does
    assert _site_of(weighted) == [(4, 8), (3, 7), (1, 5), (9, 5), (7, 1)]
    assert_same(weighted)


def test_sites_outgrowing_255_values(tmp_path: Path) -> None:
    """Every merge cuts a site to its 255 largest entries; the cut order decides what stays."""
    rng = random.Random(7)
    profiles = [
        _one_function([[(v, rng.randint(1, 40)) for v in rng.sample(range(2000), 60)]])
        for _ in range(12)
    ]
    files = _write(tmp_path, profiles, [1] * 12)
    for threads in (0, 1, 3):
        assert assert_same(files, threads=threads)
    assert len(_site_of(files)) == 255


def test_counter_saturation(tmp_path: Path) -> None:
    """2**64-3 clamps and 2**64-1 saturates; each input that overflows warns once per function."""
    low = _one_function([[(1, U64_MAX - 1)]], counts=(5, U64_MAX - 3))
    high = _one_function([[(1, 10)]], counts=(U64_MAX - 2, U64_MAX))
    files = _write(tmp_path, [low, high, low], [1, 2, 1])
    for rel in (22, 14):
        assert assert_same(files, rel=rel)
    outcome = merge(files, fast=True)
    assert isinstance(outcome, Outcome)
    assert sum("COUNTER_OVERFLOW" in repr(d) for d in outcome.diagnostics) == 2


def test_pseudo_counts_and_duplicates_fall_back(tmp_path: Path) -> None:
    """A pseudo entry count, or one value twice in a site, leaves the rest to the slow merge."""
    pseudo = _one_function([[(1, 1)]], counts=(U64_MAX, 3))
    plain = _one_function([[(1, 1)]])
    assert not assert_same(_write(tmp_path, [plain, plain, pseudo, plain], [1, 1, 1, 1]))
    unknown = [ValueData(0, 3), ValueData(md5_hash("elsewhere"), 5)]  # both read back as 0
    calls = InstrRecord("g", 7, np.array([1], np.uint64), b"", {CALL: [unknown]})
    twice_unknown = InstrProfile(kind=ProfileKind.IR, records=[calls])
    assert not assert_same(_write(tmp_path, [twice_unknown] * 3, [1, 2, 1]))
    # a later run of a context goes the long way after its counters were added: they are
    # taken back first (else they would count twice)
    once = InstrProfile(
        kind=ProfileKind.IR,
        records=[InstrRecord("g", 7, np.array([4], np.uint64), b"", {CALL: [unknown[:1]]})],
    )
    assert not assert_same(_write(tmp_path, [once, twice_unknown, once], [1, 1, 1]))
    # a memop size twice in a site: the long way, and merge's closing check finds it (a
    # fast merge's table is taken to hold none, unchecked)
    sizes_twice = _one_function([[(8, 1), (3, 2), (8, 4)]])
    has_8 = _one_function([[(8, 1)]])
    odd_twice = _one_function([[(1000, 1), (3, 2), (1000, 4)]])  # no size the runtime records
    # a context's first run, or a later one with the size new to the site or stored already
    for runs in (
        [plain, sizes_twice],
        [plain, plain, sizes_twice],
        [has_8, has_8, sizes_twice],
        [plain, plain, odd_twice],
    ):
        files = _write(tmp_path, runs, [1] * len(runs))
        assert not assert_same(files)
        outcome = merge(files, fast=True)
        assert isinstance(outcome, Outcome) and outcome.invalid
    outcome = merge(_write(tmp_path, [plain, plain], [1, 1]), fast=True)
    assert isinstance(outcome, Outcome) and outcome.fast and not outcome.invalid


def test_mixed_inputs(tmp_path: Path) -> None:
    """Another binary midway, or its text profile: the contexts are handed over intact (a
    text profile of the group's binary crosses, ``test_merge_crossed``)."""
    first = _one_function([[(1, 1), (2, 5)]])
    other = InstrProfile(
        kind=ProfileKind.IR,
        records=[InstrRecord("f", 0x1234, np.array([1, 2, 3], np.uint64), b"", {})],
    )
    files = _write(tmp_path, [first, first, other, first], [1, 2, 1, 1])
    text, alike = tmp_path / "extra.proftext", tmp_path / "alike.proftext"
    text.write_bytes(text_format.write(other, release(22)))
    alike.write_bytes(text_format.write(first, release(22)))
    for threads in (0, 1, 3):
        assert not assert_same(files, threads=threads)
        assert not assert_same([*files[:2], (text, 1), files[0]], threads=threads)
        assert assert_same([*files[:2], (alike, 1), files[0]], threads=threads)
    missing = [files[0], (tmp_path / "missing.profraw", 1), files[1]]
    (tmp_path / "empty.profraw").write_bytes(b"")
    assert assert_same([files[0], (tmp_path / "empty.profraw", 1), files[1]])
    assert_same(missing)  # the missing input listed, the others merged
    outcome = merge(missing, fast=True)
    assert isinstance(outcome, Outcome)
    assert [d[0] for d in outcome.diagnostics if isinstance(d, tuple)] == ["failure"]


def test_processes_change_nothing(tmp_path: Path) -> None:
    """Contexts loaded in two processes: same bytes, same diagnostics in input order, also
    when a worker meets a bad file or another binary and its contexts are loaded again."""
    rng = random.Random(5)
    profiles = [
        _one_function(
            [[(v, rng.choice([1, 7, U64_MAX - 5])) for v in rng.sample(range(40), 5)]],
            counts=(rng.randint(1, 9), rng.choice([3, U64_MAX - 1])),
        )
        for _ in range(14)
    ]
    files = _write(tmp_path, profiles, [rng.choice([1, 2]) for _ in profiles])
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(files[0][0].read_bytes()[:200])
    other = tmp_path / "other.profraw"
    other.write_bytes(
        raw_write.write(
            InstrProfile(
                kind=ProfileKind.IR,
                records=[InstrRecord("f", 1, np.array([1, 2, 3], np.uint64), b"", {})],
            )
        )
    )
    cases = [files, [*files[:9], (bad, 1), *files[9:]], [*files[:8], (other, 1), *files[8:]]]
    for case in cases:
        for threads in (0, 3):
            one = merge(case, fast=True, threads=threads, processes=1)
            two = merge(case, fast=True, threads=threads, processes=2)
            assert one == two
            assert_same(case, threads=threads)
    outcome = merge(files, fast=True, processes=2)
    assert isinstance(outcome, Outcome) and outcome.fast
    assert any("COUNTER_OVERFLOW" in repr(d) for d in outcome.diagnostics)


def _twin_binary(count: int) -> list[InstrProfile]:
    """Runs of a binary with two functions of one hash, ``f`` and ``g``."""
    return [
        InstrProfile(
            kind=ProfileKind.IR,
            records=[
                InstrRecord(name, 7, np.array([run + 1, 2 * run], np.uint64), b"", {})
                for name in ("f", "g")
            ],
        )
        for run in range(count)
    ]


def _unname(files: list[tuple[Path, int]], names: Sequence[str]) -> None:
    """Point the NameRefs of ``names`` at hashes no name of the file has: they read as ""."""
    for path, _ in files:
        data = path.read_bytes()
        for index, name in enumerate(names):
            ref = md5_hash(name).to_bytes(8, "little")
            assert data.count(ref) == 1
            data = data.replace(ref, (0x5EED_0000 + index).to_bytes(8, "little"))
        path.write_bytes(data)


def _write_indexed(
    tmp: Path, profiles: list[InstrProfile], weights: list[int], rel: int = 22
) -> list[tuple[Path, int]]:
    for old in tmp.glob("run*.profdata"):
        old.unlink()
    files = []
    for index, (profile, weight) in enumerate(zip(profiles, weights, strict=True)):
        path = tmp / f"run{index}.profdata"
        path.write_bytes(write_indexed(profile, release=release(rel)))
        files.append((path, weight))
    return files


@pytest.mark.parametrize("kind", ["raw", "indexed"])
def test_workers_start_before_the_first_inputs_names(
    tmp_path: Path, forks: list[int], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The first input is read up to its group, the worker forked, and only then are its
    names made (decoding and hashing 100k names takes 0.1-0.2 s)."""
    events: list[str] = []
    for shape_class in (RawShape, IndexedShape):
        made = shape_class.__dict__["names"]

        def names(shape: object, made: functools.cached_property[list[str]] = made) -> list[str]:
            events.append("names")
            return made.func(shape)

        monkeypatch.setattr(shape_class, "names", property(names))
    fork = os.fork

    def forking() -> int:
        pid = fork()
        if pid:
            events.append("fork")
        return pid

    monkeypatch.setattr(os, "fork", forking)
    profiles = [_one_function([[(v, 1 + v) for v in range(3)]], counts=(i, 2)) for i in range(12)]
    files = (
        _write(tmp_path, profiles, [1] * 12)
        if kind == "raw"
        else _write_indexed(tmp_path, profiles, [1] * 12)
    )
    outcome = merge(files, fast=True, threads=2, processes=2)
    assert isinstance(outcome, Outcome) and outcome.fast
    assert events[:2] == ["fork", "names"]
    slow = merge(files, fast=False, threads=2)
    assert isinstance(slow, Outcome) and outcome == dataclasses.replace(slow, fast=True)


def test_an_indexed_key_hash_that_is_not_its_names_md5(tmp_path: Path) -> None:
    """A hand-made indexed file with two items named alike (one keeps the other's stored
    hash): the stored hashes look fine, the names then show the pair twice, and every
    input is merged record by record."""
    profiles = [
        InstrProfile(
            kind=ProfileKind.IR,
            records=[
                InstrRecord(name, 7, np.array([run + 1, 3], np.uint64), b"", {})
                for name in ("alpha_function", "gamma_function")
            ],
        )
        for run in range(10)
    ]
    files = _write_indexed(tmp_path, profiles, [1] * 10)
    for path, _ in files:
        data = path.read_bytes()
        assert data.count(b"gamma_function") == 1
        path.write_bytes(data.replace(b"gamma_function", b"alpha_function"))
    found = merge_fast.FastMerge(MergeOptions(release=release(22)), [], load_path)._group_of(
        memoryview(files[0][0].read_bytes()), load_path(str(files[0][0]))
    )
    assert found is not None and found[0].plausible() and not found[0].sure()
    two = merge(files, fast=True, threads=2, processes=2)
    assert isinstance(two, Outcome) and not two.fast
    assert two == merge(files, fast=False, threads=2)


def test_a_first_input_found_wrong_after_the_split_is_merged_the_long_way(
    tmp_path: Path, forks: list[int]
) -> None:
    """Workers start before the first input's names are known.  When the names then show
    two nameless records of one hash (which LLVM folds into one), or the first input
    turns out to need the long way (a pseudo count), the workers' arrays are dropped and
    every input is merged record by record, as in one process."""
    files = _write(tmp_path, _twin_binary(12), [1] * 12)
    _unname(files, ["f", "g"])
    group = merge_fast.FastMerge(
        MergeOptions(release=release(22)), [], load_path
    )._group_of(  # the group as the first input gives it
        memoryview(files[0][0].read_bytes()), load_path(str(files[0][0]))
    )
    assert group is not None and group[0].plausible() and not group[0].sure()
    pseudo = [_one_function([[(1, 1)]], counts=(U64_MAX, 3))]
    plain = [_one_function([[(v, 1)]], counts=(v, 2)) for v in range(11)]
    (tmp_path / "pseudo").mkdir()
    for case in (files, _write(tmp_path / "pseudo", pseudo + plain, [1] * 12)):
        before = len(forks)
        two = merge(case, fast=True, threads=2, processes=2)
        assert len(forks) == before + 1  # the worker did start
        slow = merge(case, fast=False, threads=2)
        assert isinstance(two, Outcome) and not two.fast
        assert two == slow  # bytes, text and diagnostics (neither took the fast way)


def test_groups_told_from_name_refs_and_names(tmp_path: Path) -> None:
    """Equal NameRefs are equal names: a pair twice among them is certain without the names
    (which are not made); remapping two names onto one is only seen from the names."""
    files = _write(tmp_path, _twin_binary(1), [1])
    view = memoryview(files[0][0].read_bytes())
    plain = merge_fast.FastMerge(MergeOptions(release=release(22)), [], load_path)
    found = plain._group_of(view, load_path(str(files[0][0])))
    assert found is not None
    group = found[0]
    assert group.plausible() and "_named" not in vars(group)  # names not made
    assert group.sure() and group.names == ["f", "g"]
    remapped = merge_fast.FastMerge(
        MergeOptions(release=release(22), remapping={"g": "f"}), [], load_path
    )
    assert remapped._group_of(view, load_path(str(files[0][0]))) is None


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="looks at /proc")
def test_workers_are_reaped_without_holding_the_merge_up(tmp_path: Path, forks: list[int]) -> None:
    """The merge goes on as soon as a worker's arrays are in; the worker, which still has
    to exit, is waited for by a thread, and is gone soon after."""
    started = forks
    profiles = [_one_function([[(v, 1 + v) for v in range(3)]], counts=(i, 2)) for i in range(12)]
    outcome = merge(_write(tmp_path, profiles, [1] * 12), fast=True, threads=2, processes=2)
    assert isinstance(outcome, Outcome) and outcome.fast
    assert len(started) == 1
    deadline = time.monotonic() + 30
    while Path(f"/proc/{started[0]}").exists():  # a zombie stays there until reaped
        assert time.monotonic() < deadline, "the worker was never reaped"
        time.sleep(0.05)


def test_worker_pipes_get_a_buffer_of_one_mib() -> None:
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("no pipe sizes here")
    if int(Path("/proc/sys/fs/pipe-max-size").read_text()) < 1 << 20:
        pytest.skip("the system caps pipes below 1 MiB")
    read_end, write_end = os.pipe()
    try:
        _widen(write_end)
        assert fcntl.fcntl(write_end, fcntl.F_GETPIPE_SZ) == 1 << 20
    finally:
        os.close(read_end)
        os.close(write_end)


# -- real profiles of the benchmark kit ------------------------------------------------------
def _bench_files(count: int) -> list[Path]:
    files = sorted(BENCH.glob("seed_*.profraw"))[:count]
    if len(files) < count:
        pytest.skip(f"fewer than {count} raw profiles in {BENCH}")
    return files


def test_real_profiles_fast_equals_slow() -> None:
    files = _bench_files(3)
    assert assert_same([(f, 1) for f in files])
    assert assert_same([(files[0], 1), (files[1], 3)], threads=1)


@pytest.mark.compat
def test_real_profiles_match_llvm_profdata(tmp_path: Path) -> None:
    if not LLVM22.exists() or shutil.which(str(LLVM22)) is None:
        pytest.skip("llvm-profdata 22 is not installed")
    files = _bench_files(6)
    for threads in (1, 2):
        expected = tmp_path / f"llvm-{threads}.profdata"
        subprocess.run(
            [str(LLVM22), "merge", "-j", str(threads), "-o", str(expected), *map(str, files)],
            check=True,
        )
        outcome = merge([(f, 1) for f in files], fast=True, threads=threads)
        assert isinstance(outcome, Outcome) and outcome.fast
        assert outcome.indexed == expected.read_bytes()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=12))
def test_a_pair_twice_is_told_from_sorted_names(pairs: list[tuple[int, int]]) -> None:
    """(name hash, function hash) twice, however the records are ordered."""
    names = np.array([n for n, _ in pairs], dtype=np.uint64)
    hashes = np.array([h for _, h in pairs], dtype=np.uint64)
    assert merge_group.has_pair_twice(names, hashes) == (len(set(pairs)) < len(pairs))


def _moved(data: bytes, by: int, only: int | None = None, unaddressed: int | None = None) -> bytes:
    """A raw run as if loaded ``by`` bytes away (every function address and every target
    of one, as ASLR moves them), or with function ``only`` moved alone; function
    ``unaddressed`` loses its address (and its targets become external)."""
    found = raw_columns.shape_of(memoryview(data), raw_read(data))
    assert found is not None
    shape = found[0]
    out = bytearray(data)
    lay = shape.layout
    start = shape.regions["data"][0] + lay.data_offset("function_pointer")
    words = np.frombuffer(out, dtype="<u8", offset=shape.value_start)
    for index in range(shape.header.num_data):
        at = start + index * lay.data_size
        (old,) = struct.unpack_from("<Q", out, at)
        new = old + by if only is None or index == only else old
        if index == unaddressed:
            new = 0
        struct.pack_into("<Q", out, at, new)
        targets = np.flatnonzero(words == old)  # every value that is this address
        for word in targets.tolist():
            target = 0x7F00_0000_0000 if index == unaddressed else new
            struct.pack_into("<Q", out, shape.value_start + 8 * word, target)
    return bytes(out)


@pytest.mark.parametrize("unaddressed", [None, 2])
def test_a_run_loaded_elsewhere_is_fast_and_one_function_moved_alone_crosses(
    tmp_path: Path, unaddressed: int | None
) -> None:
    """Indirect-call targets are looked up by one load offset for the whole run (with or
    without a function that has no address); a function that moved on its own would
    take its targets elsewhere, so that run is no run of the group's shape: it is read
    in full, in a shape of its own, which maps onto the group's record for record
    (``formats/crossed_runs``), its targets named by its own addresses."""
    rng = random.Random(5)
    binary = [Function(f"f{i}", rng.randrange(1 << 60), 1, 2, 0) for i in range(6)]
    # f2 (which may have no address) is no target: a target the fast path took elsewhere
    # is unknown, and a second unknown one in a site would send that run the long way
    targets = [md5_hash(f.name) for f in binary if f.name != "f2"]

    def run() -> InstrProfile:
        records = [
            InstrRecord(fn.name, fn.hash, np.array([rng.randint(0, 9)], dtype=np.uint64), b"",
                        {CALL: [[ValueData(t, rng.randint(1, 9)) for t in rng.sample(targets, 3)]
                                for _ in range(2)]})
            for fn in binary
        ]  # fmt: skip
        return InstrProfile(kind=ProfileKind.IR, records=records)

    files = _write(tmp_path, [run() for _ in range(3)], [1, 1, 1])
    first, second, third = (path.read_bytes() for path, _ in files)
    files[0][0].write_bytes(_moved(first, 0, unaddressed=unaddressed))
    files[1][0].write_bytes(_moved(second, 0x10000, unaddressed=unaddressed))
    files[2][0].write_bytes(_moved(third, 0x20000, unaddressed=unaddressed))
    assert assert_same(files)
    files[2][0].write_bytes(_moved(_moved(third, 0x20000, unaddressed=unaddressed), 8, only=4))
    shaped = raw_columns.shape_of(map_file(str(files[0][0])), raw_read(files[0][0].read_bytes()))
    assert shaped is not None
    assert raw_columns.read_run(map_file(str(files[2][0])), shaped[0]) is None
    assert assert_same(files)
