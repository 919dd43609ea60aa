"""What a command imports: modules nobody needs cost every run their start-up.

A module costs 0.2-3 ms to import (a dataclass alone about 0.5 ms), and a
merge of raw profiles was importing the indexed reader, the MemProf model and
readers, the text format, the raw writer and correlation: about 20 ms of a
0.45 s merge.  Each is now imported where its inputs or options come.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).resolve().parents[2] / "golden" / "programs"
RAW = str(PROGRAMS / "l22-cs-vp" / "default.profraw")

#: what a merge of raw profiles into an indexed one does without
UNNEEDED_BY_RAW = (
    "traceback",
    "profdata.formats.indexed",
    "profdata.formats.indexed_runs",
    "profdata.formats.memprof",
    "profdata.formats.memprof_yaml",
    "profdata.formats.memprof_write",
    "profdata.model.memprof",
    "profdata.model.glibc_random",
    "profdata.formats.text",
    "profdata.formats.raw_write",
    "profdata.formats.correlate_data",
)


def _loaded_after(argv: list[str]) -> tuple[int, set[str]]:
    """The status of ``profdata ARGV`` run in a fresh interpreter, and which of
    :data:`UNNEEDED_BY_RAW` it left loaded."""
    code = (
        "import json, sys; from profdata.cli import main; "
        f"code = main({argv!r}); "
        f"print(json.dumps([code, [m for m in {UNNEEDED_BY_RAW!r} if m in sys.modules]]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    code, loaded = json.loads(done.stdout.splitlines()[-1])
    return code, set(loaded)


def test_a_raw_merge_loads_no_other_format(tmp_path: Path) -> None:
    out = tmp_path / "out.profdata"
    assert _loaded_after(["merge", RAW, "-o", str(out)]) == (0, set())
    assert out.stat().st_size > 0


@pytest.mark.parametrize(
    ("extra", "wanted"),
    [
        ([], {"profdata.formats.indexed", "profdata.formats.indexed_runs"}),
        (["--text"], {"profdata.formats.text"}),
    ],
)
def test_what_an_input_or_option_needs_is_still_loaded(
    tmp_path: Path, extra: list[str], wanted: set[str]
) -> None:
    """The other side of the test above: an indexed input loads the indexed reader, and
    ``--text`` the text writer (so a module list gone stale cannot pass unnoticed)."""
    indexed = tmp_path / "in.profdata"
    assert _loaded_after(["merge", RAW, "-o", str(indexed)])[0] == 0
    code, loaded = _loaded_after(["merge", str(indexed), *extra, "-o", str(tmp_path / "out")])
    assert code == 0
    assert wanted <= loaded
