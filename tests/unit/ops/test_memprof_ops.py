"""show --memory and merge around MemProf (ops/show_memory.py, ops/merge_memprof.py).

The byte-level agreement with llvm-profdata is in tests/golden/memprof; these
cover the refusals and the rules that the goldens exercise only once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats.memprof_magic import MEMPROF_RAW_MAGIC
from profdata.formats.memprof_yaml import read_memprof_yaml
from profdata.model.memprof import MemProfData, build_summary
from profdata.ops.merge_memprof import add_input_memprof, merge_writer_memprof
from tests.conftest import CliResult

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "memprof"


@pytest.fixture
def memprofraw(tmp_path: Path) -> Path:
    path = tmp_path / "x.memprofraw"
    path.write_bytes(MEMPROF_RAW_MAGIC + bytes(64))
    return path


def test_raw_memprof_is_refused_by_name(
    run_profdata: Callable[..., CliResult], memprofraw: Path, tmp_path: Path
) -> None:
    shown = run_profdata("show", "--memory", str(memprofraw))
    assert shown.code == 1
    assert "raw MemProf profile (.memprofraw): not supported by profdata" in shown.stderr.decode()
    merged = run_profdata(
        "merge", "--profiled-binary=a.out", str(memprofraw), "-o", str(tmp_path / "o")
    )
    assert merged.code == 1
    err = merged.stderr.decode()
    assert "raw MemProf profile (.memprofraw)" in err and "--profiled-binary" in err


def test_show_memory_json_is_refused(run_profdata: Callable[..., CliResult]) -> None:
    result = run_profdata("show", "--memory", "--json", str(GOLDEN / "l22-v3.profdata"))
    assert result.code == 1
    assert "JSON output is not supported for MemProf" in result.stderr.decode()


def test_yaml_merge_is_refused_before_llvm_20(
    run_profdata: Callable[..., CliResult], tmp_path: Path
) -> None:
    """LLVM 19 has no YAML reader: the file is a (malformed) text profile."""
    result = run_profdata(
        "--llvm-release=19", "merge", str(GOLDEN / "callee.yaml"), "-o", str(tmp_path / "o")
    )
    assert result.code == 1
    assert "The profile is empty." not in result.stderr.decode()


def _yaml(path: str) -> MemProfData:
    return read_memprof_yaml((GOLDEN / path).read_text())


def test_second_input_adds_only_its_first_frame() -> None:
    """LLVM 22's addMemProfData returns after the first frame it adds to a non-empty writer."""
    dest = _yaml("show22.yaml")
    before = (dict(dest.call_stacks), {g: len(r.alloc_sites) for g, r in dest.records.items()})
    incoming = _yaml("callee.yaml")
    add_input_memprof(dest, incoming)
    first = next(iter(incoming.frames))
    assert first in dest.frames and len(dest.frames) == len(_yaml("show22.yaml").frames) + 1
    assert (dest.call_stacks, {g: len(r.alloc_sites) for g, r in dest.records.items()}) == before


def test_writer_contexts_append_allocation_sites() -> None:
    dest = _yaml("callee.yaml")
    merge_writer_memprof(dest, _yaml("callee.yaml"))
    assert len(dest.records[0x1111].alloc_sites) == 4
    assert len(dest.records[0x1111].call_sites) == 1


def test_summary_counts_each_context_once() -> None:
    data = _yaml("callee.yaml")
    once = build_summary(data, by_frames=True)
    merge_writer_memprof(data, _yaml("callee.yaml"))
    assert build_summary(data, by_frames=True) == once
    assert build_summary(data, by_frames=False) == once
    assert (once.num_contexts, once.num_cold_contexts) == (2, 1)
