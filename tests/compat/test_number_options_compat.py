"""Number-valued options spelled every way ``cl`` accepts or refuses, against the real tools.

``cl::opt<unsigned>``, ``cl::opt<uint64_t>``, ``cl::opt<unsigned long long>`` and
``cl::list<unsigned>`` all read their values with ``StringRef::getAsInteger(0)``: the
radix comes from a ``0x``/``0X``, ``0b``/``0B`` or ``0o`` prefix (not ``0O``) or a
leading ``0``; no sign, blank or digit separator; no value past the type.  Python's
``int(text, 0)`` differs on most of these, so each spelling goes to llvm-profdata of
every installed release and to ``profdata --llvm-release=N``: exit status, stdout and
stderr must be equal.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import REPO, CliResult

pytestmark = pytest.mark.compat

PROFILE = REPO / "tests" / "golden" / "programs" / "l22-ir-vp" / "default.proftext"
SPELLINGS = [
    "017", "0O7", "0o7", "0x1F", "0X1f", "0b101", "0B1", "08", "0x", "",
    " 7", "+3", "1_0", "7 ", "4294967295", "4294967296", "18446744073709551616",
]  # fmt: skip
OPTIONS: list[Callable[[str, str], list[str]]] = [
    lambda v, p: ["show", f"--topn={v}", p],
    lambda v, p: ["show", f"--value-cutoff={v}", p],
    lambda v, p: ["show", f"--detailed-summary-cutoffs=10,{v}", p],
    lambda v, p: ["overlap", f"--value-cutoff={v}", p, p],
]
NAMES = ["show-topn", "show-value-cutoff", "show-cutoffs", "overlap-value-cutoff"]


@pytest.mark.parametrize("release", tools.RELEASES)
@pytest.mark.parametrize("option", range(len(OPTIONS)), ids=NAMES)
def test_number_spellings_are_read_as_llvm_reads_them(
    release: int,
    option: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    commands = [OPTIONS[option](value, str(PROFILE)) for value in SPELLINGS]
    tool = llvm_profdata(release)
    assert tools.differing(tool, release, commands, run_profdata, tmp_path, stderr="all") == []


#: ``merge --memprof-version`` is a ``cl::opt`` of an enum whose value names are digits:
#: the text must be one of them exactly, so no spelling above but the plain digits passes
MEMPROF_SPELLINGS = ["0", "1", "2", "3", "4", "03", "+3", " 3", "3 ", "0x3", "", "x"]


@pytest.mark.parametrize("release", tools.RELEASES)
def test_memprof_version_is_matched_as_text(
    release: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    commands = [
        ["merge", f"--memprof-version={value}", str(PROFILE), "-o", "@OUT"]
        for value in MEMPROF_SPELLINGS
    ]
    tool = llvm_profdata(release)
    # 14 and 16 add a "Did you mean" line after the refusal: the first line is compared
    assert tools.differing(tool, release, commands, run_profdata, tmp_path, stderr="first") == []


#: ``cl::parser<bool>``: "", true/TRUE/True/1 and false/FALSE/False/0; nothing else
BOOL_SPELLINGS = ["", "true", "TRUE", "True", "1", "false", "FALSE", "False", "0",
                  "yes", "on", "no", "off", "tRue", "2", " 1"]  # fmt: skip
BOOL_OPTIONS: list[Callable[[str, str, str], list[str]]] = [
    lambda v, p, o: ["merge", f"--sparse={v}", p, "-o", o],
    lambda v, p, o: ["merge", f"-text={v}", p, "-o", o],
    lambda v, p, o: ["show", f"--all-functions={v}", p],
    lambda v, p, o: ["show", f"-counts={v}", "--all-functions", p],
]
BOOL_NAMES = ["merge-sparse", "merge-text", "show-all-functions", "show-counts"]


@pytest.mark.parametrize("release", tools.RELEASES)
@pytest.mark.parametrize("option", range(len(BOOL_OPTIONS)), ids=BOOL_NAMES)
def test_boolean_spellings_are_read_as_llvm_reads_them(
    release: int,
    option: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    commands = [BOOL_OPTIONS[option](value, str(PROFILE), "@OUT") for value in BOOL_SPELLINGS]
    tool = llvm_profdata(release)
    assert tools.differing(tool, release, commands, run_profdata, tmp_path, stderr="all") == []
