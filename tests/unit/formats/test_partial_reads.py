"""What the raw and text readers had read when they failed, and what merge and show do with it.

llvm-profdata reads a raw profile record by record: a bad record, bad value
data or bytes after the last profile fail the read only after the records
before them were handed out, and ``merge`` has merged them by then while
``show`` has printed them into its stdout buffer (of which only the full
4096-byte blocks come out).  The expectations here are built from the intact
files, not from the code under test.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata.errors import (
    DecompressionError,
    HeaderCorruptError,
    MalformedError,
    ProfdataError,
    TooMuchDataError,
)
from profdata.formats import raw, raw_write
from profdata.formats._binary import ByteReader
from profdata.formats._names import read_names_as_llvm
from profdata.formats.raw_layout import RawHeader, raw_layout, sections
from profdata.model.instr import InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind
from profdata.ops.merge import MergeOptions, load_path, merge_instr
from profdata.ops.merge_inputs import FailureMode, WeightedFile
from profdata.releases import release
from tests.conftest import GOLDEN, CliResult

INPUTS = GOLDEN / "raw" / "inputs"
RUN1 = INPUTS / "irpgo-vpcalls-o2-l22__run1.profraw"
RUN2 = INPUTS / "irpgo-vpcalls-o2-l22__run2.profraw"
COUNTERS_DELTA_WORD = 10  # raw v10 header


def read_error(data: bytes) -> ProfdataError:
    with pytest.raises(ProfdataError) as info:
        raw.read(data, "bad.profraw")
    return info.value


def summary(records: list[InstrRecord]) -> list[tuple[str, int, list[int], object]]:
    return [(r.name, r.hash, r.counts.tolist(), r.value_sites) for r in records]


def test_bytes_after_the_last_profile_fail_after_every_record() -> None:
    intact = raw.read(RUN1.read_bytes())
    error = read_error(RUN1.read_bytes() + b"\xde\xad\xbe")
    assert isinstance(error, MalformedError)
    assert "not enough space for another header" in error.llvm_message
    assert isinstance(error.partial, InstrProfile)
    assert summary(list(error.partial.records)) == summary(list(intact.records))


def test_cut_value_data_keeps_the_records_before_its_owner() -> None:
    intact = raw.read(RUN1.read_bytes())
    owners = [i for i, r in enumerate(intact.records) if r.value_sites]
    error = read_error(RUN1.read_bytes()[:-8])  # the last blob loses its end
    assert isinstance(error, TooMuchDataError)
    assert isinstance(error.partial, InstrProfile)
    assert summary(list(error.partial.records)) == summary(list(intact.records[: owners[-1]]))


def test_a_bad_first_record_leaves_an_empty_profile_of_the_files_kind() -> None:
    data = bytearray(RUN1.read_bytes())
    struct.pack_into("<Q", data, 8 * COUNTERS_DELTA_WORD, 0x7777)
    error = read_error(bytes(data))
    assert "counter offset" in error.llvm_message
    assert isinstance(error.partial, InstrProfile)
    assert error.partial.records == []
    assert error.partial.kind == raw.read(RUN1.read_bytes()).kind


def test_a_header_failure_comes_before_any_record() -> None:
    error = read_error(RUN1.read_bytes()[:200])
    assert isinstance(error, HeaderCorruptError)
    assert error.partial is None


def merged(
    paths: list[tuple[str, int]], mode: FailureMode, given: InstrProfile | None = None
) -> InstrProfile:
    """Merge files (runs of one binary take the fast merge); the path ``given`` stands for
    the profile ``given``."""
    options = MergeOptions(release=release(22), failure_mode=mode)

    def load(path: str) -> InstrProfile:
        return given if given is not None and path == "given" else load_path(path)

    inputs = [WeightedFile(p, w) for p, w in paths]
    result = merge_instr(inputs, options, load=load if given is not None else load_path)
    return result.writer.to_profile()


@pytest.mark.parametrize("mode", [FailureMode.ALL, FailureMode.WARN])
def test_merge_keeps_what_was_read_of_a_failed_input(tmp_path: Path, mode: FailureMode) -> None:
    intact = raw.read(RUN1.read_bytes())
    owners = [i for i, r in enumerate(intact.records) if r.value_sites]
    bad = tmp_path / "cut.profraw"
    bad.write_bytes(RUN1.read_bytes()[:-8])
    read_part = InstrProfile(kind=intact.kind, records=list(intact.records[: owners[-1]]))
    got = merged([(str(RUN2), 1), (str(bad), 3)], mode)
    want = merged([(str(RUN2), 1), ("given", 3)], FailureMode.ANY, read_part)
    assert summary(list(got.records)) == summary(list(want.records))
    assert got.binary_ids == raw.read(RUN2.read_bytes()).binary_ids  # not the failed input's


def big_profile(functions: int) -> bytes:
    records = [
        InstrRecord(
            f"function_with_a_long_name_{i:05d}", 1000 + i, np.arange(1, 4, dtype=np.uint64)
        )
        for i in range(functions)
    ]
    return raw_write.write(InstrProfile(kind=ProfileKind.IR, records=records))


def test_show_prints_the_full_buffers_of_what_it_had_read(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    intact, bad = tmp_path / "intact.profraw", tmp_path / "bad.profraw"
    intact.write_bytes(big_profile(300))
    bad.write_bytes(intact.read_bytes() + b"\x01\x02\x03")
    whole = run_profdata("show", "--all-functions", "--counts", str(intact)).stdout
    records_part = whole[: whole.index(b"Instrumentation level:")]
    got = run_profdata("show", "--all-functions", "--counts", str(bad))
    assert got.code == 1
    assert b"not enough space for another header" in got.stderr
    assert len(records_part) > 3 * 4096
    assert got.stdout == records_part[: len(records_part) // 4096 * 4096]


def test_show_of_a_small_profile_prints_nothing_before_the_error(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(RUN1.read_bytes() + b"\x01\x02\x03")
    got = run_profdata("show", "--all-functions", "--counts", str(bad))
    assert (got.code, got.stdout) == (1, b"")


# -- the name chunks, walked as readAndDecodeStrings walks them ------------------------
def names(section: bytes, after: bytes = b"") -> list[bytes]:
    data = section + after
    return read_names_as_llvm(ByteReader(memoryview(data)), 0, len(section), "names")


def stored(payload: bytes) -> bytes:
    return bytes([len(payload), 0]) + payload


def compressed(payload: bytes, size: int | None = None, slack: bytes = b"") -> bytes:
    blob = zlib.compress(payload) + slack
    return bytes([len(payload) if size is None else size, len(blob)]) + blob


def test_chunks_and_the_zeros_between_them() -> None:
    section = stored(b"a\x01b") + b"\x00\x00" + compressed(b"cc\x01d")
    assert names(section) == [b"a\x01b", b"cc\x01d"]


def test_a_leading_zero_is_an_empty_chunk_and_so_an_empty_name() -> None:
    with pytest.raises(MalformedError) as info:
        names(b"\x00\x00" + stored(b"a"))
    assert info.value.llvm_message.endswith("symbol name is empty")


@pytest.mark.parametrize("payload", [b"\x01a", b"a\x01", b"a\x01\x01b"])
def test_empty_names_inside_a_chunk(payload: bytes) -> None:
    with pytest.raises(MalformedError):
        names(stored(payload))


def test_zlib_may_give_less_than_the_stated_size_and_end_early() -> None:
    assert names(compressed(b"abc", size=100, slack=b"\x7f\x7f")) == [b"abc"]


def test_zlib_giving_more_than_the_stated_size_fails() -> None:
    with pytest.raises(DecompressionError) as info:
        names(compressed(b"abcdef", size=3))
    assert info.value.llvm_message == "failed to uncompress data (zlib)"


def test_a_chunk_reads_on_past_its_section() -> None:
    """The section is 4 bytes, the chunk says 5: LLVM takes the next byte of the file."""
    section = bytes([5, 0]) + b"ab"
    assert names(section, after=b"cde") == [b"abcde"]


# -- text profiles: the same streaming --------------------------------------------------
GOOD_TEXT = "# IR level Instrumentation Flag\n:ir\nalpha\n10\n2\n1\n1\n\n"
BAD_TEXT = "# IR level Instrumentation Flag\n:ir\nalpha\n10\n2\n5\n7\n\nbeta\n11\n2\n3\nx\n\n"


def test_a_text_profile_fails_after_its_good_records(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.proftext", tmp_path / "bad.proftext"
    good.write_text(GOOD_TEXT)
    bad.write_text(BAD_TEXT)
    got = merged([(str(good), 1), (str(bad), 1)], FailureMode.ALL)
    assert [(r.name, r.counts.tolist()) for r in got.records] == [("alpha", [6, 8])]
    with pytest.raises(ProfdataError):
        merged([(str(good), 1), (str(bad), 1)], FailureMode.ANY)


def test_an_empty_value_blob_is_read_as_no_value_data() -> None:
    """TotalSize 0: LLVM reads an empty ValueProfData and stays put, so every record reads
    the same zero and the position after the last one is the blob's second word, not 8-aligned
    (llvm-profdata 22: "insufficient padding")."""
    data = bytearray(RUN1.read_bytes())
    intact = raw.read(bytes(data))
    layout = raw_layout(10, 8, "<")
    header = RawHeader.from_words(layout, struct.unpack_from("<16Q", data))
    value_start = {s.name: s for s in sections(layout, header, 0)}["vnames_padding"].end
    struct.pack_into("<I", data, value_start, 0)
    error = read_error(bytes(data))
    assert error.llvm_message.endswith("insufficient padding")
    assert isinstance(error.partial, InstrProfile)
    assert [r.value_sites for r in error.partial.records] == [{}] * len(intact.records)
    assert [r.counts.tolist() for r in error.partial.records] == [
        r.counts.tolist() for r in intact.records
    ]


# -- indexed profiles: records decoded on demand fail as LLVM's iteration does ------------
INDEXED_BASE = GOLDEN / "overlap" / "inputs" / "ir_base.profdata"


def foo_claims_1000_counters(tmp_path: Path) -> tuple[Path, int, list[InstrRecord]]:
    """``INDEXED_BASE`` with the record of "foo" claiming 1000 counters: the file, the
    offset of that count, and the records before foo's in payload order."""
    data = bytearray(INDEXED_BASE.read_bytes())
    at = data.find(struct.pack("<QQ", 10, 3))  # FuncHash 10 ("foo"), NumCounters 3
    data[at + 8 : at + 16] = struct.pack("<Q", 1000)
    corrupt = tmp_path / "corrupt.profdata"
    corrupt.write_bytes(bytes(data))
    records = list(load_path(str(INDEXED_BASE)).records)
    return corrupt, at + 8, records[: [r.name for r in records].index("foo")]


def test_an_indexed_record_that_fails_leaves_the_ones_before_it(tmp_path: Path) -> None:
    """LLVM's iteration of the hash table hands out the records before the bad one in
    payload order, then fails (merge: a warning, exit 0)."""
    corrupt, _, records = foo_claims_1000_counters(tmp_path)
    before = InstrProfile(kind=ProfileKind.IR, records=records)
    read, failure = load_path(str(corrupt)).read_so_far()
    assert isinstance(failure, MalformedError)
    assert summary(list(read.records)) == summary(list(before.records))
    got = merged([(str(RUN2), 1), (str(corrupt), 2)], FailureMode.ALL)
    want = merged([(str(RUN2), 1), ("given", 2)], FailureMode.ANY, before)
    assert summary(list(got.records)) == summary(list(want.records))
