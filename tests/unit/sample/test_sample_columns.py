"""The column walk of binary sample profiles: what it gathers, and what it declines.

``walk_profiles`` answers ``None`` for anything the object reader treats
specially, so that the caller reads the file the usual way and reports the
fault there; here each such shape is fed in, and a small profile's columns are
checked field by field.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from profdata.errors import ProfdataError
from profdata.formats._binary import ByteReader
from profdata.formats._uleb import UlebRun, decode_run, encode_run
from profdata.formats.sample_columns import walk_profiles
from profdata.formats.sample_extbinary import SecType, read_section_table
from profdata.formats.sample_extbinary_write import write as write_extbinary
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import SampleMergeOptions, merge_samples
from profdata.ops.merge_sample_columns import merge_columns
from profdata.releases import release

NAMES = ["main", "foo", "bar"]
U32 = 0xFFFFFFFF


def run_of(values: list[int]) -> tuple[UlebRun, int]:
    data, _ = encode_run(values)
    return decode_run(data, 0, len(data)), len(data)


#: main: head 7, total 100, records 1 (offset 2, disc 3, samples 40, 1 target foo:9),
#: one callsite at 5.0 -> bar: total 30, record (1, 0, 30, no targets), no callsites
MAIN = [7, 0, 100, 1, 2, 3, 40, 1, 1, 9, 1, 5, 0, 2, 30, 1, 1, 0, 30, 0, 0]


def test_columns_of_a_nested_profile() -> None:
    run, end = run_of(MAIN)
    cols = walk_profiles(run, end, NAMES)
    assert cols is not None
    assert cols.node_parent.tolist() == [-1, 0]
    assert cols.node_name.tolist() == [0, 2]
    assert cols.node_total.tolist() == [100, 30]
    assert cols.node_head.tolist() == [7, 0]
    assert cols.node_site.tolist() == [0, 5 << 32]
    assert cols.rec_node.tolist() == [0, 1]
    assert cols.rec_loc.tolist() == [(2 << 32) | 3, 1 << 32]
    assert cols.rec_samples.tolist() == [40, 30]
    assert (cols.tgt_rec.tolist(), cols.tgt_name.tolist(), cols.tgt_count.tolist()) == (
        [0], [1], [9],
    )  # fmt: skip
    assert cols.count_sum() == 7 + 100 + 30 + 40 + 30 + 9


@pytest.mark.parametrize(
    ("why", "values"),
    [
        ("function name index outside the table", [7, 3, *MAIN[2:]]),
        ("call target index outside the table", [*MAIN[:8], 9, *MAIN[9:]]),
        ("callee index outside the table", [*MAIN[:13], 3, *MAIN[14:]]),
        ("line offset past 16 bits", [*MAIN[:4], 0x10000, *MAIN[5:]]),
        ("record count past 32 bits", [7, 0, 100, U32 + 1]),
        ("callsite count past 32 bits", [7, 0, 100, 0, U32 + 1]),
        ("numbers left over", [*MAIN, 5]),
        ("cut short", MAIN[:-3]),
        ("name index past 2**63", [7, 1 << 63, *MAIN[2:]]),
    ],
)
def test_faults_decline(why: str, values: list[int]) -> None:
    run, end = run_of(values)
    assert walk_profiles(run, end, NAMES) is None, why


def test_unterminated_number_declines() -> None:
    data = encode_run(MAIN)[0] + b"\x80"
    assert walk_profiles(decode_run(data, 0, len(data)), len(data), NAMES) is None


def test_a_damaged_input_is_reported_by_the_full_read(tmp_path: Path) -> None:
    fs = FunctionSamples(SampleContext("main"), 100, 7)
    fs.record_at(LineLocation(2, 0)).samples = 100
    good = write_extbinary(SampleProfile(profiles={fs.context: fs}))
    table = read_section_table(ByteReader(good))
    lbr = next(e for e in table if e.type == SecType.LBR_PROFILE)
    damaged = good[: lbr.offset + lbr.size - 3]  # the profiles cut short
    path = tmp_path / "cut.extbinary"
    path.write_bytes(damaged)
    inputs = [WeightedFile(str(path), 1)]
    assert merge_columns(inputs, release(22)) is None
    with pytest.raises(ProfdataError) as caught:
        merge_samples(inputs, SampleMergeOptions(release(22)))
    assert str(path) in str(caught.value)
