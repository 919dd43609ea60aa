"""An indexed summary whose size LLVM computes in ``uint32_t``, against the real llvm-profdata
14, 16, 19 and 22.

``readSummary`` sizes the summary with ``Summary::getSize`` (counts and result
``uint32_t``), copies that many bytes and reads everything from the copy: field
``K`` is word ``2 + K`` whatever NumSummaryFields says, the cutoff entries start
``NumSummaryFields`` words after the fields (64-bit pointer arithmetic), and
the hash table's payload begins where the size ends.  A NumSummaryFields of
``2**64 - 2`` (a header word of ``tools/fuzz_llvm.py``'s campaign of stop 50)
makes the summary 64 bytes shorter with its entries starting at the summary's
own first word: LLVM reads it without touching memory outside the file, and
``overlap`` succeeded where profdata refused the file as running past its end.
Where the copy or the entries leave the file, LLVM reads other memory (it
crashes on the goldens below), and profdata keeps its located error.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats.indexed import read
from tests.compat.tools import differing
from tests.conftest import CliResult
from tests.malformed.test_indexed_summary_field_count import _fields_at as _summary_at
from tests.malformed.test_indexed_summary_field_count import _with_fields

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "indexed"
#: a golden per release; no CS profile, whose CS summary is then read from the shifted
#: place (the real 16 crashes on ``v09-cspgo`` so; profdata fails it located)
FILES = {14: "v07-vpcalls", 16: "v07-stable", 19: "v12-temporal", 22: "v13-vpcalls"}
SHORTER = (1 << 64) - 2  # getSize: 16 + 24 * 16 + 8 * (2**32 - 2) wraps to 384, not 448


def _counts(data: bytes) -> tuple[int, int]:
    """NumSummaryFields and NumCutoffEntries as the file states them."""
    stated: tuple[int, int] = struct.unpack_from("<QQ", data, _summary_at(data))
    return stated


@pytest.mark.parametrize("name", sorted(set(FILES.values())))
def test_a_wrapped_size_reads_the_entries_from_the_summary_start(name: str) -> None:
    data = _with_fields(name, SHORTER)
    assert _counts(data) == (SHORTER, 16)
    at = _summary_at(data)
    words = struct.unpack_from("<48Q", data, at)
    summary = read(memoryview(data)).summary
    # entry I is words 3I..3I+2 from the summary's start; field K is word 2 + K
    expected = [(words[3 * i] & 0xFFFFFFFF, words[3 * i + 1], words[3 * i + 2]) for i in range(16)]
    assert [(e.cutoff, e.min_count, e.num_counts) for e in summary.detailed] == expected
    assert expected[0] == (0xFFFFFFFE, 16, words[2])
    assert summary.total_count == words[7]  # TotalBlockCount, field 5


def test_fields_past_the_stated_count_are_the_words_after_them() -> None:
    """NumSummaryFields 2: LLVM's ``get`` reads fields 2..5 from the first entries."""
    data = _with_fields("v13-vpcalls", 2)
    words = struct.unpack_from("<8Q", data, _summary_at(data))
    summary = read(memoryview(data)).summary
    assert (summary.max_count, summary.total_count) == (words[5], words[7])
    first = summary.detailed[0]
    assert (first.cutoff, first.min_count, first.num_counts) == (words[4], words[5], words[6])


@pytest.mark.parametrize("fields", [(1 << 64) - 4, 1 << 32, (1 << 32) - 1])
def test_entries_outside_the_copy_fail_located(fields: int) -> None:
    """``-4`` puts the entries 16 bytes before the copy, ``2**32`` 32 GiB after it, and
    ``2**32 - 1`` wraps the size below the entries' end: memory LLVM does not own."""
    data = _with_fields("v13-vpcalls", fields)
    with pytest.raises(MalformedError) as caught:
        read(memoryview(data), "wrapped.profdata")
    assert caught.value.location.field == "summary.num_cutoff_entries"
    assert caught.value.location.offset == _summary_at(data)
    assert caught.value.llvm_message.endswith("profile data is empty")


@pytest.mark.parametrize("rel", sorted(FILES))
def test_commands_match_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    name = FILES[rel]
    path = tmp_path / "wrapped.profdata"
    path.write_bytes(_with_fields(name, SHORTER))
    assert _counts(path.read_bytes())[1] == 16  # what SHORTER's arithmetic assumes
    good = GOLDEN / f"{name}.profdata"
    commands = [
        ["overlap", str(path), str(good)],  # LLVM 22 succeeds: profdata refused the file
        ["overlap", str(good), str(path)],
        ["show", "--all-functions", "--counts", str(path)],  # the payload 64 bytes early
        ["merge", str(path), "-o", "@OUT"],
    ]
    tool = llvm_profdata(rel)
    assert differing(tool, rel, commands, run_profdata, tmp_path, first_error_line=True) == []
