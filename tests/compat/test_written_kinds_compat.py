"""The variant flags each release writes into an indexed file's version word.

``InstrProfWriter::writeImpl`` copies the kinds its release knows: block
coverage and entry-only from 14, MemProf from 15, temporal profiles from 17,
loop entries from 22.  An input carrying a newer flag -- LLVM's own
``function-entry-coverage.profdata`` (an indexed v7 file that LLVM 13 reads)
or text profiles with each header the release's text reader knows -- is
merged by every installed release, 13 and 15 included, and by ``profdata
--llvm-release``; output bytes, stdout and exit status must be equal.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import SHARED, CliResult

pytestmark = pytest.mark.compat

ENTRY_COVERAGE = SHARED / "llvm-test-inputs" / "llvm-14" / "function-entry-coverage.profdata"
BODY = "main\n0x1234\n2\n1\n0\n\nfoo\n0x99\n1\n0\n"
#: text headers, with the first release whose text reader knows them (an older one refuses
#: the file as "file header is corrupt"; profdata reads it, as it reads every version)
HEADERS = {
    "ir": (":ir\n", 13),
    "entry-first": (":ir\n:entry_first\n", 13),
    "csir": (":csir\n", 13),
    "fe": (":fe\n", 13),
    "coverage": (":ir\n:single_byte_coverage\n", 19),
}
RELEASES = tuple(
    r for r in (*tools.EXTRA_RELEASES, *tools.RELEASES) if tools.find_llvm_profdata(r) is not None
)


@pytest.mark.parametrize("release", RELEASES)
def test_each_release_writes_the_kinds_it_knows(
    release: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    inputs = [str(ENTRY_COVERAGE)] if ENTRY_COVERAGE.exists() else []
    for name, (header, since) in HEADERS.items():
        if release < since:
            continue
        path = tmp_path / f"{name}.proftext"
        path.write_text(header + BODY)
        inputs.append(str(path))
    commands = [["merge", "-o", "@OUT", path] for path in inputs]
    commands += [["merge", "--text", "-o", "@OUT", path] for path in inputs]
    assert tools.differing(tool, release, commands, run_profdata, tmp_path) == []
