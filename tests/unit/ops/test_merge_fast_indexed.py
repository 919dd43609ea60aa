"""Indexed inputs on the fast merge path (``formats/indexed_runs``) against the record merge.

The same comparison as ``test_merge_fast``: both merges of the same files must
agree on the indexed bytes (full and sparse), the text and the diagnostics.
Inputs: every indexed profile of the shared corpus (all versions LLVM 14 to 22
write), indexed profiles written from hypothesis-generated runs of one
binary, and mixes with raw, text and foreign inputs.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from profdata.formats import open_instr
from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from tests.unit.ops.test_merge_fast import (
    BENCH,
    CORPUS,
    LLVM22,
    Outcome,
    _one_function,
    _write,
    _write_indexed,
    assert_same,
    merge,
    merges,
)


def _corpus_indexed() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(CORPUS.rglob("*.profdata"))


@pytest.mark.parametrize("path", _corpus_indexed(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_indexed_files(path: Path) -> None:
    """Each indexed file of the corpus alone, with weights, and across writer contexts."""
    assert_same([(path, 1)])
    assert_same([(path, 1), (path, 3), (path, 1)], threads=2)
    assert_same([(path, 2), (path, 1)], rel=19)


def test_corpus_indexed_files_take_the_fast_path() -> None:
    """Not only fall-backs: most of the corpus's indexed files merge as arrays."""
    paths = _corpus_indexed()
    if not paths:
        pytest.skip("no corpus")
    fast = sum(assert_same([(p, 1), (p, 2)]) for p in paths[:60])
    assert fast >= 30


@pytest.mark.property
@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(merges(edges=False))
def test_generated_indexed_runs(
    tmp_path: Path, case: tuple[list[InstrProfile], list[int], int]
) -> None:
    profiles, weights, threads = case
    raw = _write(tmp_path, profiles, weights)
    indexed = _write_indexed(tmp_path, [open_instr(p) for p, _ in raw], weights)
    assert_same(indexed, threads=threads)
    assert_same([*indexed, *raw], threads=threads)


@pytest.mark.property
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(merges(edges=True))
def test_generated_indexed_runs_at_the_saturation_edges(
    tmp_path: Path, case: tuple[list[InstrProfile], list[int], int]
) -> None:
    profiles, weights, threads = case
    raw = _write(tmp_path, profiles, weights)
    indexed = _write_indexed(tmp_path, [open_instr(p) for p, _ in raw], weights, rel=14)
    assert_same(indexed, threads=threads, rel=14)


def test_value_outside_the_vocabulary_falls_back(tmp_path: Path) -> None:
    """A call target the first profile did not have: that context merges record by record."""

    def calls(targets: list[int]) -> InstrProfile:
        first = _one_function([[(1, 2)]])
        rec = first.records[0]
        sites = {**rec.value_sites}
        sites[ValueKind.INDIRECT_CALL_TARGET] = [[ValueData(t, 4) for t in targets]]
        record = InstrRecord(rec.name, rec.hash, rec.counts, b"", sites)
        return InstrProfile(kind=ProfileKind.IR, records=[record])

    files = _write_indexed(tmp_path, [calls([11]), calls([11]), calls([99, 11])], [1, 1, 2])
    assert not assert_same(files)
    assert assert_same(files[:2])


def test_other_shapes_and_formats_mixed_in(tmp_path: Path) -> None:
    """Another binary's indexed profile midway, or its raw run: handed over intact.  A raw
    run of the same binary crosses (``test_merge_crossed``)."""
    first = _one_function([[(1, 1), (2, 5)]])
    other = _one_function([[(1, 1)]], counts=(1, 2, 3))
    files = _write_indexed(tmp_path, [first, first, other, first], [1, 2, 1, 1])
    raw = _write(tmp_path, [first, other], [1, 1])
    for threads in (0, 1, 3):
        assert not assert_same(files, threads=threads)
        assert not assert_same([*files[:2], raw[1], files[0]], threads=threads)
        assert assert_same([*files[:2], raw[0], files[0]], threads=threads)
    assert assert_same([files[0], files[1], files[3]])


def test_processes_change_nothing(tmp_path: Path) -> None:
    profiles = [_one_function([[(v, 3 + v) for v in range(k % 4)]]) for k in range(12)]
    files = _write_indexed(tmp_path, profiles, [1 + k % 2 for k in range(12)])
    for threads in (0, 3):
        one = merge(files, fast=True, threads=threads, processes=1)
        two = merge(files, fast=True, threads=threads, processes=2)
        assert one == two
        assert isinstance(one, Outcome) and one.fast
        assert_same(files, threads=threads)


@pytest.mark.compat
def test_real_indexed_profiles_match_llvm_profdata(tmp_path: Path) -> None:
    """Indexed profiles of the benchmark program, merged as arrays: llvm-profdata's bytes."""
    if shutil.which(str(LLVM22)) is None:
        pytest.skip("llvm-profdata 22 is not installed")
    raws = sorted(BENCH.glob("seed_*.profraw"))[:4]
    if len(raws) < 4:
        pytest.skip(f"fewer than 4 raw profiles in {BENCH}")
    indexed = []
    for raw in raws:
        out = tmp_path / f"{raw.stem}.profdata"
        subprocess.run([str(LLVM22), "merge", "-o", str(out), str(raw)], check=True)
        indexed.append(out)
    for threads in (1, 2):
        expected = tmp_path / f"llvm-{threads}.profdata"
        subprocess.run(
            [str(LLVM22), "merge", "-j", str(threads), "-o", str(expected), *map(str, indexed)],
            check=True,
        )
        outcome = merge([(f, 1) for f in indexed], fast=True, threads=threads)
        assert isinstance(outcome, Outcome) and outcome.fast
        assert outcome.indexed == expected.read_bytes()
