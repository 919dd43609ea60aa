"""Concatenated raw profiles whose first header's binary-id section is damaged, against the
real llvm-profdata 14, 16, 19 and 22.

14 and 16 parse binary ids only when asked (``readBinaryIds``), and then the current
header's, which after the records is the last one: an earlier header's bad section is
never parsed and fails nothing.  19 and 22 parse each header's ids as they read it and
fail.  profdata parsed every header's ids when asked, and failed under 14 and 16 too
(found by ``tools/fuzz_llvm.py``, stop 53: a 16 ``merge --text`` of such a file).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats import read_instr_bytes
from profdata.releases import release
from tests.compat.tools import differing
from tests.conftest import CliResult
from tests.malformed.header_words import with_word, word

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"
#: the first binary id's length word: right after the header (raw version 8: 14 and 16;
#: version 10: 19 and 22)
FIRST_ID_LENGTH = {14: 88, 16: 88, 19: 128, 22: 128}


def _concatenated(rel: int) -> tuple[bytes, bytes]:
    """Two copies of ``rel``'s golden run, the first one's binary id 50 bytes long (its
    section holds 24 bytes after the length), and the good run."""
    run = (PROGRAMS / f"l{rel}-ir-vp" / "default.profraw").read_bytes()
    assert int.from_bytes(run[16:24], "little") == 32  # one 20-byte build id, padded
    at = FIRST_ID_LENGTH[rel]
    assert word(run, at // 8) == 20
    return with_word(run, at // 8, 50) + run, run


@pytest.mark.parametrize("rel", [14, 16])
def test_up_to_16_an_earlier_headers_ids_are_never_parsed(rel: int) -> None:
    data, run = _concatenated(rel)
    profile = read_instr_bytes(data, "two.profraw", release=release(rel))
    alone = read_instr_bytes(run, "run.profraw", release=release(rel))
    assert profile.binary_ids_error is None
    assert profile.binary_ids_seen(True) == alone.binary_ids != []


@pytest.mark.parametrize("rel", [19, 22])
def test_from_19_every_header_parses_its_ids(rel: int) -> None:
    data, _ = _concatenated(rel)
    with pytest.raises(MalformedError, match="binary id"):
        read_instr_bytes(data, "two.profraw", release=release(rel))


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_concatenated_ids_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    data, run = _concatenated(rel)
    path, good = tmp_path / "two.profraw", tmp_path / "good.profraw"
    path.write_bytes(data)
    good.write_bytes(run)
    commands = [
        ["show", "--binary-ids", str(path)],
        ["merge", "-o", "@OUT", str(path)],
        ["merge", "--text", "-o", "@OUT", str(good), str(path)],
    ]
    tool = llvm_profdata(rel)
    assert not differing(tool, rel, commands, run_profdata, tmp_path, stderr="first")
