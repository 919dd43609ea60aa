"""``show`` of an indexed profile holding records without counters.

No reader refuses such a record in an indexed file (raw and text readers do),
and ``show`` reads its ``Counts[0]`` anyway: the summary counts it as a function
with one block, and a front-end profile prints its "Function count".  The value
is stale: the reader copies each record into one ``InstrProfRecord``, and an
empty vector copied in keeps the buffer, so it is the first counter of the last
record before it (in the reader's order) that had some.  Found by
``tools/fuzz_llvm.py`` (a swap of two words made such a record); checked with the
real llvm-profdata 14, 16, 19 and 22, whose ``merge`` of such a file crashes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata.formats import read_instr_bytes
from profdata.formats.indexed_write import encode_indexed
from profdata.model.instr import InstrProfile, InstrRecord, RecordColumns
from profdata.model.kinds import ProfileKind
from profdata.ops.show import stale_firsts
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

EMPTY = (4, 9)


def _profile(kind: ProfileKind, empty: tuple[int, ...] = EMPTY) -> InstrProfile:
    records = []
    for i in range(12):
        n = 0 if i in empty else i % 4 + 1
        counts = np.array([(i + 1) * 100 + j for j in range(n)], dtype=np.uint64)
        digest = 1000 + i if i != 6 else (1000 + i) | 1 << 60  # one CS record
        records.append(InstrRecord(f"fn_{i}", digest, counts))
    return InstrProfile(kind=kind, records=records)


def _write(path: Path, profile: InstrProfile, rel: int) -> Path:
    path.write_bytes(b"".join(bytes(c) for c in encode_indexed(profile, release=release(rel))))
    return path


COMMANDS = (
    (),
    ("--all-functions", "--counts"),
    ("--detailed-summary",),
    ("--topn=3",),
    ("--showcs", "--all-functions"),
    ("--function=fn_1",),
    ("--all-functions", "--text"),
    ("--all-functions", "--covered"),
)


@pytest.mark.parametrize("kind", [ProfileKind.IR, ProfileKind(0)], ids=["ir", "fe"])
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_same_as_llvm(
    rel: int,
    kind: ProfileKind,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "zero.profdata", _profile(kind), rel)
    tool = llvm_profdata(rel)
    for options in COMMANDS:
        args = ["show", *options, str(path)]
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0
        assert same, args


def test_the_summary_counts_the_stale_first_counters(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """llvm-profdata 22's numbers: the ten records with counters sum to 18529 in 27
    blocks (fn_6's CS record 2103 in 3 of them); fn_4 reads fn_7's 800 and fn_9 reads
    fn_10's 1100 (the records before them in its order)."""
    path = _write(tmp_path / "zero.profdata", _profile(ProfileKind.IR, EMPTY), 22)
    got = run_profdata("show", "--showcs", str(path))  # the CS record is fn_6's, not shown
    assert b"Total functions: 1\n" in got.stdout
    got = run_profdata("show", str(path))
    assert b"Total functions: 11\n" in got.stdout
    assert b"Total number of blocks: 26\n" in got.stdout
    assert b"Total count: 18326\n" in got.stdout  # 18529 - 2103 + 800 + 1100


def _columns(profile: InstrProfile) -> RecordColumns:
    """The profile as the indexed reader gives it back (in its hash-table order)."""
    data = b"".join(bytes(c) for c in encode_indexed(profile, release=release(22)))
    return read_instr_bytes(data, release=release(22)).columns()


def test_stale_firsts() -> None:
    empty = (0, 4, 5, 9)
    rows = _columns(_profile(ProfileKind.IR, empty))
    stale = stale_firsts(rows)
    assert stale is not None
    names = list(rows.names)
    for position, name in enumerate(names):
        if int(name[3:]) not in empty:
            continue
        before = [n for n in names[:position] if int(n[3:]) not in empty]
        expected = (int(before[-1][3:]) + 1) * 100 if before else 0  # its first counter
        assert int(stale[position]) == expected, name
    assert stale_firsts(_columns(_profile(ProfileKind.IR, ()))) is None
