"""Option values spelled every way ``cl`` accepts or refuses, against the real tools.

* ``cl::opt<unsigned>``, ``cl::opt<uint64_t>``, ``cl::opt<unsigned long long>`` and
  ``cl::list<unsigned>`` all read their values with ``StringRef::getAsInteger(0)``: the
  radix comes from a ``0x``/``0X``, ``0b``/``0B`` or ``0o`` prefix (not ``0O``) or a
  leading ``0``; no sign, blank or digit separator; no value past the type.  Python's
  ``int(text, 0)`` differs on most of these.
* ``cl::parser<bool>`` takes "", true/TRUE/True/1 and false/FALSE/False/0; nothing else.
* ``merge --memprof-version`` is a ``cl::opt`` of an enum whose value names are digits: the
  text must be one of them exactly.

Each spelling goes to llvm-profdata of every installed release and to ``profdata
--llvm-release=N``: exit status, stdout, the output file and stderr must be equal (for
``--memprof-version`` the first stderr line: 14 and 16 add a "Did you mean" line).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import REPO, CliResult

pytestmark = pytest.mark.compat

PROFILE = str(REPO / "tests" / "golden" / "programs" / "l22-ir-vp" / "default.proftext")
NUMBERS = [
    "017", "0O7", "0o7", "0x1F", "0X1f", "0b101", "0B1", "08", "0x", "",
    " 7", "+3", "1_0", "7 ", "4294967295", "4294967296", "18446744073709551616",
]  # fmt: skip
BOOLEANS = ["", "true", "TRUE", "True", "1", "false", "FALSE", "False", "0",
            "yes", "on", "no", "off", "tRue", "2", " 1"]  # fmt: skip
MEMPROF_VERSIONS = ["0", "1", "2", "3", "4", "03", "+3", " 3", "3 ", "0x3", "", "x"]

#: case -> (spellings, the command line of one (``@OUT``: the output), stderr compared)
CASES: dict[str, tuple[list[str], Callable[[str], list[str]], str]] = {
    "show-topn": (NUMBERS, lambda v: ["show", f"--topn={v}", PROFILE], "all"),
    "show-value-cutoff": (NUMBERS, lambda v: ["show", f"--value-cutoff={v}", PROFILE], "all"),
    "show-cutoffs": (
        NUMBERS,
        lambda v: ["show", f"--detailed-summary-cutoffs=10,{v}", PROFILE],
        "all",
    ),
    "overlap-value-cutoff": (
        NUMBERS,
        lambda v: ["overlap", f"--value-cutoff={v}", PROFILE, PROFILE],
        "all",
    ),
    "merge-sparse": (
        BOOLEANS,
        lambda v: ["merge", f"--sparse={v}", PROFILE, "-o", "@OUT"],
        "all",
    ),
    "merge-text": (BOOLEANS, lambda v: ["merge", f"-text={v}", PROFILE, "-o", "@OUT"], "all"),
    "show-all-functions": (BOOLEANS, lambda v: ["show", f"--all-functions={v}", PROFILE], "all"),
    "show-counts": (
        BOOLEANS,
        lambda v: ["show", f"-counts={v}", "--all-functions", PROFILE],
        "all",
    ),
    "merge-memprof-version": (
        MEMPROF_VERSIONS,
        lambda v: ["merge", f"--memprof-version={v}", PROFILE, "-o", "@OUT"],
        "first",
    ),
}


@pytest.mark.parametrize("release", tools.RELEASES)
@pytest.mark.parametrize("case", list(CASES))
def test_option_values_are_read_as_llvm_reads_them(
    release: int,
    case: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    spellings, command, stderr = CASES[case]
    commands = [command(value) for value in spellings]
    tool = llvm_profdata(release)
    assert tools.differing(tool, release, commands, run_profdata, tmp_path, stderr=stderr) == []
