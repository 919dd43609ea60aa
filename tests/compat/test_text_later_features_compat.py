"""Text profiles holding what later releases added, read under older releases, and
``merge -o -`` into a pipe, against the real llvm-profdata.

README (Compatibility) says: 13-16 refuse ``:single_byte_coverage``,
``:temporal_prof_traces``, a record with three value kinds and a ``$N`` bitmap block,
13-19 refuse ``:instrument_loop_entries``; profdata reads text alike under every
release and writes what the selected release can hold, which that release's tool reads.
These tests hold both halves against the real tools, so the list stays true: the real
tool's refusal, and the real tool reading what profdata wrote for it.  README (merge)
also says that ``-o -`` writes a whole indexed profile into a pipe, where llvm-profdata
cannot seek back to patch its header and fails.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat.tools import differing, run_tool, run_tool_ok
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"

_RECORD = "main\n# Func Hash:\n10\n# Num Counters:\n2\n# Counter Values:\n5\n7\n"
_CALLEE = "callee\n# Func Hash:\n11\n# Num Counters:\n1\n# Counter Values:\n3\n"
_VTABLE_RECORD = (
    "main\n# Func Hash:\n10\n# Num Counters:\n2\n# Counter Values:\n5\n7\n"
    "# Num Value Kinds:\n3\n"
    "# ValueKind = IPVK_IndirectCallTarget:\n0\n# NumValueSites:\n1\n1\ncallee:3\n"
    "# ValueKind = IPVK_MemOPSize:\n1\n# NumValueSites:\n1\n1\n8:2\n"
    "# ValueKind = IPVK_VTableTarget:\n2\n# NumValueSites:\n1\n1\n_ZTV1A:3\n"
)
_HEADER_CORRUPT = "invalid instrumentation profile data (file header is corrupt)"
_MALFORMED = "malformed instrumentation profile data"

#: name: (text, the releases (of 13, 14, 15, 16 and 19) that refuse it, their message)
CASES: dict[str, tuple[str, tuple[int, ...], str]] = {
    "single_byte_coverage": (
        f":ir\n:single_byte_coverage\n{_RECORD}\n{_CALLEE}",
        (13, 14, 15, 16),
        _HEADER_CORRUPT,
    ),
    "temporal_prof_traces": (
        ":ir\n:temporal_prof_traces\n# Num Temporal Profile Traces:\n1\n"
        "# Temporal Profile Trace Stream Size:\n1\n2\nmain,callee\n"
        f"{_RECORD}\n{_CALLEE}",
        (13, 14, 15, 16),
        _HEADER_CORRUPT,
    ),
    "instrument_loop_entries": (
        f":ir\n:instrument_loop_entries\n{_RECORD}\n{_CALLEE}",
        (13, 14, 15, 16, 19),
        _HEADER_CORRUPT,
    ),
    "vtable_value_kind": (f":ir\n{_VTABLE_RECORD}\n{_CALLEE}", (13, 14, 15, 16), _MALFORMED),
    # the older releases take "$1" for the next function's name and fail on "callee"
    "bitmap_block": (
        f"main\n10\n2\n5\n7\n$1\n0x3\n\n{_CALLEE}",
        (13, 14, 15, 16),
        _MALFORMED,
    ),
}


def _refusals() -> list[tuple[str, int]]:
    return [(name, rel) for name, (_, refusing, _) in CASES.items() for rel in refusing]


@pytest.mark.parametrize(("name", "rel"), _refusals())
def test_read_under_a_release_that_refuses_it(
    name: str,
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    text, _, message = CASES[name]
    source = tmp_path / f"{name}.proftext"
    source.write_text(text)
    refused = run_tool(tool, ["show", "--all-functions", "--counts", str(source)])
    assert refused.returncode == 1
    assert message in refused.stderr.decode(errors="replace")

    out = tmp_path / "out.profdata"
    merged = run_profdata(f"--llvm-release={rel}", "merge", "-o", str(out), str(source))
    assert merged.code == 0, merged.stderr
    shown = run_tool_ok(tool, ["show", "--all-functions", "--counts", str(out)])
    assert b"  main:\n" in shown.stdout and b"Counters: 2\n" in shown.stdout
    show = ["show", "--all-functions", "--counts", str(out)]
    assert not differing(tool, rel, [show], run_profdata, tmp_path)


@pytest.mark.parametrize("rel", [14, 22])
def test_merge_to_stdout_writes_the_whole_profile_into_a_pipe(
    rel: int, tmp_path: Path, llvm_profdata: Callable[[int], Path]
) -> None:
    tool = llvm_profdata(rel)
    run = PROGRAMS / f"l{rel}-ir-vp" / "default.profraw"
    expected = tmp_path / "llvm.profdata"
    run_tool_ok(tool, ["merge", "-o", str(expected), str(run)])
    piped = run_tool(tool, ["merge", "-o", "-", str(run)])
    assert piped.returncode != 0  # 22: "Illegal seek", exit 1; 14 aborts
    assert piped.stdout != expected.read_bytes()

    ours = subprocess.run(
        [sys.executable, "-m", "profdata", f"--llvm-release={rel}", "merge", "-o", "-", str(run)],
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == expected.read_bytes()
