"""The Python API over the operations: merge_files/write_profile, to_json, to_dataframe.

Values are checked against what the CLI (and so the real tools' goldens)
produce for the same files: the merged bytes equal ``profdata merge``'s, the
JSON document equals ``show --show-format=json --all-functions``, and the
frame's columns equal reductions computed record by record.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import profdata
from profdata.errors import MergeError
from profdata.releases import release
from tests.conftest import REPO, CliResult

EXAMPLES = REPO / "src" / "profdata" / "examples"
RAW = EXAMPLES / "vp.profraw"
INDEXED = EXAMPLES / "vp.profdata"


def test_merge_files_writes_the_cli_bytes(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    cli_out = tmp_path / "cli.profdata"
    result = run_profdata("merge", "-o", str(cli_out), str(RAW), f"--weighted-input=3,{INDEXED}")
    assert result.code == 0
    merged = profdata.merge_files([RAW, (3, INDEXED)])
    assert merged.failed_inputs == 0
    api_out = tmp_path / "api.profdata"
    profdata.write_profile(merged.profile, api_out)
    assert api_out.read_bytes() == cli_out.read_bytes()


def test_write_profile_text_and_release(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    merged = profdata.merge_files([RAW], rel=release(14))
    for text, extra in ((True, ["--text"]), (False, [])):
        cli_out = tmp_path / f"cli{text}"
        run = run_profdata("--llvm-release=14", "merge", *extra, "-o", str(cli_out), str(RAW))
        assert run.code == 0
        api_out = tmp_path / f"api{text}"
        profdata.write_profile(merged.profile, api_out, text=text, rel=release(14))
        assert api_out.read_bytes() == cli_out.read_bytes()


def test_merge_files_reports_bad_inputs(tmp_path: Path) -> None:
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(RAW.read_bytes()[:100])
    with pytest.raises(MergeError):
        profdata.merge_files([RAW, bad])
    warned = profdata.merge_files([RAW, bad], failure_mode="warn")
    assert warned.failed_inputs == 1
    assert any(getattr(d, "path", None) == str(bad) for d in warned.diagnostics)


def test_to_json_is_the_show_document(run_profdata: Callable[..., CliResult]) -> None:
    shown = run_profdata("show", "--show-format=json", "--all-functions", "--counts", str(INDEXED))
    assert shown.code == 0
    document = profdata.to_json(profdata.open_instr(INDEXED))
    assert document == json.loads(shown.stdout)
    assert {f["name"] for f in document["functions"]} == {
        r.name for r in profdata.open_instr(INDEXED).records
    }


@pytest.mark.parametrize("path", [RAW, INDEXED], ids=["raw", "indexed"])
def test_to_dataframe_columns(path: Path) -> None:
    pytest.importorskip("pandas")
    profile = profdata.open_instr(path)
    frame = profdata.to_dataframe(profile, value_sites=True)
    records = list(profile.records)
    assert list(frame["name"]) == [r.name for r in records]
    column = {key: frame[key].to_numpy().tolist() for key in frame.columns if key != "name"}
    assert column["hash"] == [r.hash for r in records]
    for i, rec in enumerate(records):
        counts = [int(c) for c in rec.counts]
        assert column["num_counters"][i] == len(counts)
        assert column["entry_count"][i] == (counts[0] if counts else 0)
        assert column["max_count"][i] == max(counts, default=0)
        assert column["total_count"][i] == sum(counts) % (1 << 64)
        assert column["nonzero_counters"][i] == sum(1 for c in counts if c)
        sites = rec.sites(profdata.ValueKind.INDIRECT_CALL_TARGET)
        assert column["indirect_call_sites"][i] == len(sites)
    assert sum(column["profiled_values"]) > 0  # the example profiles value sites


def test_to_dataframe_of_a_profile_without_value_sites() -> None:
    pytest.importorskip("pandas")
    import numpy as np

    from profdata.model.instr import InstrProfile, InstrRecord
    from profdata.model.kinds import ProfileKind

    record = InstrRecord("f", 1, np.array([4, 0, 7], np.uint64), b"", {})
    frame = profdata.to_dataframe(
        InstrProfile(kind=ProfileKind.IR, records=[record]), value_sites=True
    )
    row = {key: frame[key].to_numpy().tolist()[0] for key in frame.columns}
    assert row["name"] == "f" and row["max_count"] == 7 and row["nonzero_counters"] == 2
    assert (row["indirect_call_sites"], row["memop_sites"], row["profiled_values"]) == (0, 0, 0)


@pytest.mark.parametrize("path", [RAW, INDEXED], ids=["raw", "indexed"])
def test_record_table_holds_the_records_as_columns(path: Path) -> None:
    """``record_table`` of a raw or indexed file comes from the file's sections in bulk, and
    holds exactly the records: counters per record, and value sites row by row."""
    profile = profdata.open_instr(path)
    table = profdata.record_table(profile)
    assert isinstance(table, profdata.RecordTable)
    records = list(profile.records)
    cols = table.columns
    assert list(cols.names) == [r.name for r in records]
    for i, rec in enumerate(records):
        start, length = int(cols.starts[i]), int(cols.lengths[i])
        assert cols.counts[start : start + length].tolist() == rec.counts.tolist()
    vals = table.values
    flat = iter(zip(vals.values.tolist(), vals.counts.tolist(), strict=True))
    lengths = iter(vals.site_lengths.tolist())
    seen = 0
    for record, kind, num_sites in zip(
        vals.row_record.tolist(), vals.row_kind.tolist(), vals.row_sites.tolist(), strict=True
    ):
        sites = records[record].sites(profdata.ValueKind(kind))
        assert len(sites) == num_sites
        for site in sites:
            assert [next(flat) for _ in range(next(lengths))] == [(v.value, v.count) for v in site]
        seen += 1
    assert seen == sum(len(r.sites_by_kind()) for r in records) > 0
