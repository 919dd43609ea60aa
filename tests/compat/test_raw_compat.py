"""Raw files written by profdata, read by the real ``llvm-profdata``.

Every raw golden is re-written by :func:`profdata.formats.raw.write` in the
version its release reads (v10 for LLVM 22, v8 for LLVM 14), in both byte
orders, and ``llvm-profdata show --text --all-functions`` of the result must
print exactly our records.  Generated profiles go the same way.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings

from profdata.formats import raw
from profdata.formats._binary import ByteOrder
from profdata.formats.raw_layout import detect_magic
from profdata.model.instr import InstrProfile
from profdata.testing.strategies import instr_profiles
from tests.compat import tools
from tests.conftest import GOLDEN
from tests.golden.raw_dump import EXTERNAL_SYMBOL, DumpRecord, dump_records, parse_show_text

pytestmark = pytest.mark.compat


def _one_per_case(paths: list[Path]) -> list[Path]:
    """The last file of each corpus case of releases 14 and 22, and LLVM's own inputs."""
    chosen: dict[str, Path] = {}
    for path in reversed(paths):
        case = path.stem.split("__")[0]
        if case.endswith(("-l16", "-l19")):
            continue
        chosen.setdefault(case if "-l" in case else path.stem, path)
    return sorted(chosen.values())


REAL = _one_per_case(
    sorted(p for p in (GOLDEN / "raw" / "inputs").glob("*.profraw") if p.read_bytes()[8] in (8, 10))
)
RELEASE_FOR_VERSION = {8: 14, 10: 22}


def shown_by_llvm(tool: Path, data: bytes, tmp_path: Path, *, cs: bool) -> list[DumpRecord]:
    path = tmp_path / f"written-{os.getpid()}.profraw"
    path.write_bytes(data)
    args = ["show", "--text", "--all-functions", str(path)] + (["--showcs"] if cs else [])
    result = tools.run_tool(tool, args)
    assert result.returncode == 0, result.stderr.decode()
    return parse_show_text(result.stdout.decode("utf-8", "surrogateescape"))


def ours(profile: InstrProfile, *, cs: bool) -> list[DumpRecord]:
    records = [r for r in profile.records if not profile.kind.is_ir or r.is_cs == cs]
    return dump_records(records, profile.symbols)


def without_call_targets(records: list[DumpRecord]) -> list[DumpRecord]:
    """LLVM <= 16 lose every indirect-call target of a cross-endian file (instr-raw.md §10.3)."""
    out = []
    for record in records:
        sites = tuple(
            (kind, tuple(tuple((EXTERNAL_SYMBOL, c) for _, c in s) for s in kind_sites))
            if kind == 0
            else (kind, kind_sites)
            for kind, kind_sites in record.sites
        )
        out.append(DumpRecord(record.name, record.hash, record.counts, record.bitmap, sites))
    return out


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
@pytest.mark.parametrize("order", ["<", ">"])
def test_llvm_reads_our_rewrite_of_real_files(
    path: Path, order: ByteOrder, tmp_path: Path, llvm_profdata: Callable[[int], Path]
) -> None:
    data = path.read_bytes()
    profile = raw.read(data)
    assert profile.version is not None
    release = RELEASE_FOR_VERSION[profile.version]
    tool = llvm_profdata(release)
    magic = detect_magic(data)
    assert magic is not None
    written = raw.write(profile, version=profile.version, width=magic[0], byteorder=order)
    for cs in (False, True) if profile.kind.is_ir else (False,):
        expected = ours(profile, cs=cs)
        if order == ">" and release <= 16:
            expected = without_call_targets(expected)
        assert shown_by_llvm(tool, written, tmp_path, cs=cs) == expected


@settings(max_examples=15, deadline=None, derandomize=True)
@given(instr_profiles(temporal=None, single_byte_coverage=None))
def test_llvm_22_reads_generated_profiles(profile: InstrProfile) -> None:
    tool = tools.find_llvm_profdata(22)
    if tool is None:
        pytest.skip("llvm-profdata 22 is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        for cs in (False, True) if profile.kind.is_ir else (False,):
            got = shown_by_llvm(tool, raw.write(profile), Path(tmp), cs=cs)
            assert got == ours(profile, cs=cs)
