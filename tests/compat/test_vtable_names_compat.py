"""``merge --keep-vtable-symbols``: which vtable names are kept and in which order, against
llvm-profdata 19 and 22.

``loadInput`` walks each reader's symbol table -- a ``StringMap`` filled in the
input's file order -- into the writer's ``StringSet``, which is written in its own
order: two hash orders, one after the other, so an input's names arrive in its own
map's order.  A raw file of several concatenated profiles keeps only the last one's
table (every header makes a new one).  Writer contexts fold without their vtable
names.  The names here (a dozen ``_ZTV`` symbols in two overlapping sets) are in an
order that no single pass of the map gives.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata.formats import raw_write, read_instr_bytes
from profdata.model.instr import InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind
from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

FIRST = [f"_ZTV2V{i}" for i in (1, 5, 15, 7, 3, 11, 2)]
SECOND = [f"_ZTV2V{i}" for i in (9, 15, 4, 1, 13, 6, 12)]


def _text(function: str, names: list[str]) -> str:
    """A text profile whose one function has one vtable value site naming ``names``."""
    site = "".join(f"{name}:{count}\n" for count, name in enumerate(names, 1))
    return (
        f"# IR level Instrumentation Flag\n:ir\n{function}\n# Func Hash:\n1024\n"
        "# Num Counters:\n1\n# Counter Values:\n5\n# Num Value Kinds:\n1\n"
        f"# ValueKind = IPVK_VTableTarget:\n2\n# NumValueSites:\n1\n{len(names)}\n{site}\n"
    )


def _raw(function: str, names: list[str]) -> bytes:
    record = InstrRecord(function, 0x1234, np.array([3, 1], dtype=np.uint64), b"", {})
    return raw_write.write(InstrProfile(kind=ProfileKind.IR, records=[record], vtable_names=names))


def _same(
    release: int, argv: list[str], tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> tuple[bytes, bytes]:
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    real, ours = tmp_path / "real.profdata", tmp_path / "ours.profdata"
    done = tools.run_tool(tool, ["merge", "--keep-vtable-symbols", *argv, "-o", str(real)])
    assert done.returncode == 0, done.stderr
    result = run_profdata(
        f"--llvm-release={release}", "merge", "--keep-vtable-symbols", *argv, "-o", str(ours)
    )
    assert result.code == 0, result.stderr
    return ours.read_bytes(), real.read_bytes()


@pytest.mark.parametrize("release", [19, 22])
def test_vtable_names_in_llvms_order(
    release: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(release)
    a, b = tmp_path / "a.proftext", tmp_path / "b.proftext"
    a.write_text(_text("f", FIRST))
    b.write_text(_text("g", SECOND))
    indexed = tmp_path / "a.profdata"  # an indexed input, as the real tool writes it
    done = tools.run_tool(tool, ["merge", "--keep-vtable-symbols", str(a), "-o", str(indexed)])
    assert done.returncode == 0, done.stderr
    cases = [[str(a)], [str(indexed)], [str(b), str(a)]]
    mixed = [str(a), str(b), str(indexed), str(b), str(a)]
    cases.append(["-j", "1", *mixed])
    # with N contexts, input i goes to context i % N; two inputs of one context may reach
    # the real tool's pool in either order (a race in llvm-profdata, whose order the names
    # keep), so each context gets one profile twice and only the fold order is compared
    distinct = [str(a), str(b), str(indexed), str(b)]
    cases += [["-j", str(n), *(distinct[:n] * 2)] for n in (2, 3, 4)]
    for argv in cases:
        ours, real = _same(release, argv, tmp_path, run_profdata)
        assert ours == real, argv


def test_concatenated_raw_keeps_the_last_profiles_names(
    tmp_path: Path, llvm_profdata: Callable[[int], Path], run_profdata: Callable[..., CliResult]
) -> None:
    llvm_profdata(22)
    both = tmp_path / "both.profraw"
    both.write_bytes(_raw("f", FIRST) + _raw("g", SECOND))
    ours, real = _same(22, [str(both)], tmp_path, run_profdata)
    assert ours == real
    assert set(read_instr_bytes(real).vtable_names) == set(SECOND)  # FIRST's own ones gone
