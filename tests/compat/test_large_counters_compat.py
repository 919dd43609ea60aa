"""A raw counter above 2**56 (LLVM 18+, PR 69513): ``merge`` lists the input as failed.

``RawInstrProfReader`` warns at the first counter above ``MaxCounterValue``
(2**56) in record order; ``loadInput`` keeps the input's records merged and
adds that first warning to the failed inputs, so ``--failure-mode=any`` (the
default) ends with ``no profile can be merged``, ``all`` and ``warn`` write
the merge with the large counts in it.  ``show`` and ``overlap`` say nothing.
Found by the sixth shadow program set, whose counters reach 2**63.  Checked
against the real llvm-profdata 19 and 22 (v10 runs) and 16 (v8 runs, which
has no such check), exit status, stdout, all of stderr and the output bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata.formats import raw_write
from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash
from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

LIMIT = 1 << 56


def _run(counts: tuple[list[int], list[int]], version: int) -> bytes:
    """A run of a two-function binary (one indirect-call site), with these counters."""
    sites = {ValueKind.INDIRECT_CALL_TARGET: [[ValueData(md5_hash("g"), 3)]]}
    records = [
        InstrRecord("f", 0x1111, np.array(counts[0], dtype=np.uint64), b"", sites),
        InstrRecord("g", 0x2222, np.array(counts[1], dtype=np.uint64), b"", {}),
    ]
    return raw_write.write(InstrProfile(kind=ProfileKind.IR, records=records), version=version)


@pytest.mark.parametrize("release", [16, 19, 22])
def test_merge_counts_a_large_counter_against_its_input(
    release: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(release)
    version = 8 if release == 16 else 10
    files = {
        "ok": ([5, 7], [LIMIT]),  # 2**56 itself is fine
        "big": ([5, LIMIT + 1], [LIMIT + 9]),  # the first one is reported
        "huge": ([(1 << 64) - 1, 2], [3]),
        "ok2": ([1, 2], [3]),
    }
    paths = {}
    for name, counts in files.items():
        paths[name] = tmp_path / f"{name}.profraw"
        paths[name].write_bytes(_run(counts, version))
    p = {name: str(path) for name, path in paths.items()}
    commands = [
        ["merge", p["big"], "-o", "@OUT"],
        ["merge", p["ok"], p["big"], p["ok2"], "-o", "@OUT"],
        ["merge", "--failure-mode=all", p["ok"], p["big"], p["huge"], "-o", "@OUT"],
        ["merge", "--failure-mode=all", p["big"], p["huge"], "-o", "@OUT"],
        ["merge", "--failure-mode=warn", p["big"], p["ok"], p["huge"], "-o", "@OUT"],
        ["merge", "--failure-mode=warn", "--text", p["huge"], p["ok2"], "-o", "@OUT"],
        # context i % 2 takes input i, and the real tool's pool may take two inputs of one
        # context in either order: each context gets one profile twice
        ["merge", "--failure-mode=warn", "-j", "2", p["big"], p["huge"], p["big"], p["huge"],
         "-o", "@OUT"],
        ["merge", "--failure-mode=warn", "--weighted-input=3,"+p["big"], p["ok"], "-o", "@OUT"],
        ["merge", p["ok"], p["ok2"], "-o", "@OUT"],
        ["show", "--all-functions", "--counts", p["big"]],
        ["overlap", p["big"], p["ok"]],
    ]  # fmt: skip
    assert not tools.differing(tool, release, commands, run_profdata, tmp_path)
    for args in commands:  # every stderr line but our own indented "detail:" ones
        out = [str(tmp_path / "x.out") if a == "@OUT" else a for a in args]
        real = tools.run_tool(tool, out).stderr.decode()
        ours = run_profdata(f"--llvm-release={release}", *out).stderr.decode()
        ours = "".join(line for line in ours.splitlines(True) if not line.startswith("  detail:"))
        assert ours == real, args
