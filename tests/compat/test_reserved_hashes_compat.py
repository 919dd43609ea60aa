"""FuncHashes LLVM's writer map cannot hold, merged as each llvm-profdata merges them.

``InstrProfWriter`` keeps a name's records in a ``SmallDenseMap`` keyed by FuncHash,
whose empty key is 2**64-1 and tombstone key 2**64-2.  A record of the empty key
"finds" an empty bucket and merges into the blank record there (a counter mismatch
unless it has no counters); one of the tombstone key is stored where iteration never
looks, and the name's next record of that key merges into it.  Either way the name
stays in the writer's map with no record it can see, and the indexed writer writes
it as a hash-table item with no data: a file llvm-profdata itself then refuses to
show ("profile data is empty").  profdata dropped such a name, so its indexed file
differed, and never warned for a second tombstone record.

The first tests need no real tool (what LLVM does with its own output, and the
warning it prints, checked against llvm-profdata 14, 16, 19 and 22 when written);
the last runs the commands through each installed llvm-profdata.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

EMPTY, TOMBSTONE = 2**64 - 1, 2**64 - 2


def _text(*records: tuple[str, int, list[int]]) -> str:
    lines = [":ir"]
    for name, func_hash, counts in records:
        lines += [name, str(func_hash), str(len(counts)), *map(str, counts), ""]
    return "\n".join(lines)


#: names whose only records have reserved hashes, beside an ordinary one
ONLY_RESERVED = _text(("foo", EMPTY, [5, 6]), ("bar", TOMBSTONE, [7]), ("main", 10, [9]))
#: a name with an ordinary record too, and a name with two tombstone records (no empty
#: key: LLVM merges such a record into a bucket's unconstructed value, which holds
#: whatever the memory held; a fresh map's zeros read as a blank record, but after
#: other merges the real tools' answer varies, and 16 crashes now and then)
MIXED = _text(
    ("foo", 7, [3]), ("qux", TOMBSTONE, [4]), ("qux", TOMBSTONE, [4, 5]), ("bar", TOMBSTONE, [1])
)


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    only, mixed = tmp_path / "only.proftext", tmp_path / "mixed.proftext"
    only.write_text(ONLY_RESERVED)
    mixed.write_text(MIXED)
    return only, mixed


@pytest.mark.parametrize("rel", (14, 16, 19, 22))
def test_names_of_no_visible_record_are_written_without_data(
    rel: int, inputs: tuple[Path, Path], tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    only, _ = inputs
    out = tmp_path / "out.profdata"
    merged = run_profdata(f"--llvm-release={rel}", "merge", str(only), "-o", str(out))
    assert merged.code == 0
    assert merged.stderr.decode().splitlines() == [
        f"{only}: foo: function basic block count change detected (counter mismatch)",
        "Make sure that all profile data to be merged is generated from the same binary.",
    ]
    shown = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(out))
    assert shown.code == 1
    lines = shown.stderr.decode().splitlines()
    assert (
        lines[0] == f"error: {out}: malformed instrumentation profile data: profile data is empty"
    )
    assert "the item holds no record" in lines[1]
    sparse = tmp_path / "sparse.profdata"
    merged = run_profdata(
        f"--llvm-release={rel}", "merge", "--sparse", str(only), "-o", str(sparse)
    )
    shown = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(sparse))
    assert shown.code == 0, "--sparse writes no name without data"
    assert b"  main:\n" in shown.stdout and b"Total functions: 1\n" in shown.stdout


def test_a_second_tombstone_record_merges_into_the_hidden_one(
    inputs: tuple[Path, Path], tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    _, mixed = inputs
    merged = run_profdata("merge", "--text", str(mixed), "-o", str(tmp_path / "out.proftext"))
    assert merged.code == 0
    assert merged.stderr.decode().splitlines() == [
        f"{mixed}: qux: function basic block count change detected (counter mismatch)",
        "Make sure that all profile data to be merged is generated from the same binary.",
    ]
    text = (tmp_path / "out.proftext").read_text()
    assert "foo\n" in text and "bar" not in text and "qux" not in text


def _commands(only: str, mixed: str) -> list[list[str]]:
    return [
        ["merge", "-o", "@OUT", only],
        ["merge", "--sparse", "-o", "@OUT", only],
        ["merge", "-o", "@OUT", mixed],
        ["merge", "-o", "@OUT", mixed, mixed],
        ["merge", "--text", "-o", "@OUT", mixed],
        ["merge", "-o", "@OUT", f"--weighted-input=3,{mixed}", mixed],
        # a context's two inputs are the same profile, so the race for its lock changes
        # nothing in the file (the order of the two contexts' warnings varies)
        ["merge", "-j", "2", "-o", "@OUT", mixed, mixed, mixed, mixed],
    ]


@pytest.mark.compat
@pytest.mark.parametrize("release", tools.installed_releases())
def test_as_the_real_tool(
    release: int,
    inputs: tuple[Path, Path],
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    only, mixed = inputs
    for args in _commands(str(only), str(mixed)):
        part = "" if "-j" in args else "all"
        same, _ = tools.compare_with_tool(tool, release, args, run_profdata, tmp_path, stderr=part)
        assert same, args
