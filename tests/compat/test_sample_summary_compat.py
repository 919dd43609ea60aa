"""The summary of nested sample profiles whose inlinees carry ``!Attributes: 4``.

``ContextDuplicatedIntoBase`` (4) marks an inlined instance whose samples are
also in its function's own profile; from LLVM 15 ``SampleProfileSummaryBuilder``
does not count such an instance (or anything below it), LLVM 14 counts it.
LLVM's own test input (``sample-flatten-profile.proftext``, from 18) and a
profile with the attribute at several depths go through ``show
--detailed-summary``, ``merge`` (whose summary section is written) and
``overlap`` of every installed release, 13 and 15 included.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import SHARED, CliResult

pytestmark = pytest.mark.compat

FLATTEN = SHARED / "llvm-test-inputs" / "llvm-18" / "sample-flatten-profile.proftext"
DEEP = """\
main:500:10
 1: 100
 2: helper:200
  1: 150
  3: leaf:40
   1: 40
   !Attributes: 4
  !Attributes: 4
 3: other:90
  2: 60
  4: leaf:25
   2: 25
   !Attributes: 4
 !CFGChecksum: 7
helper:300:5
 1: 150
 3: 140
 !CFGChecksum: 9
leaf:70:3
 1: 40
 2: 25
 !CFGChecksum: 11
"""
RELEASES = tuple(
    r for r in (*tools.EXTRA_RELEASES, *tools.RELEASES) if tools.find_llvm_profdata(r) is not None
)


def _commands(path: str) -> list[list[str]]:
    return [
        ["show", "--sample", "--detailed-summary", path],
        ["merge", "--sample", "--extbinary", "-o", "@OUT", path],
        ["merge", "--sample", "--text", "-o", "@OUT", path],
        ["overlap", "--sample", path, path],
    ]


@pytest.mark.parametrize("release", RELEASES)
def test_duplicated_inlinees_leave_the_summary_from_15(
    release: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    deep = tmp_path / "deep.proftext"
    deep.write_text(DEEP)
    commands = _commands(str(deep))
    if FLATTEN.exists():
        commands += _commands(str(FLATTEN))
    assert tools.differing(tool, release, commands, run_profdata, tmp_path) == []
