"""GCC AutoFDO and compact binary sample profiles against the real llvm-profdata (make_goldens.py).

* compact binary writing: ``write(read(source))`` is byte-identical to
  ``merge --sample --compbinary`` of 14 and 16 for every text and GCC source;
* compact binary round trip: reading a compact file and writing it again gives
  the bytes the real tool gives for the same conversion (names are only MD5
  values in a compact file, and LLVM hashes them once more when it writes);
* ``show --sample`` and ``merge --sample --text`` of GCC and compact inputs,
  replayed in-process with the recording release: stdout, ``-o`` file and exit
  status identical, and each stderr line of the tool found in ours (we add a
  located detail line, which repeats GCOV's "unexpected end of memory buffer").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from profdata.formats import sample_compact
from profdata.formats.sample_registry import open_sample, read_sample_bytes
from profdata.releases import release
from tests.conftest import CliResult
from tests.golden._cases import load_document, replay_case

HERE = Path(__file__).resolve().parent
DOCUMENT = load_document(HERE)
COMPACT: list[dict[str, Any]] = DOCUMENT["compact"]
CASES: list[dict[str, Any]] = DOCUMENT["cases"]


@pytest.mark.parametrize(
    "entry", COMPACT, ids=[f"{Path(e['source']).name}/l{e['llvm']}" for e in COMPACT]
)
def test_compact_write_matches_llvm(entry: dict[str, Any]) -> None:
    rel = release(entry["llvm"])
    profile = open_sample(HERE / entry["source"], rel)
    assert sample_compact.write(profile, rel) == (HERE / entry["compbin"]).read_bytes()


@pytest.mark.parametrize(
    "entry", COMPACT, ids=[f"{Path(e['source']).name}/l{e['llvm']}" for e in COMPACT]
)
def test_compact_round_trip_matches_llvm(entry: dict[str, Any]) -> None:
    rel = release(entry["llvm"])
    data = (HERE / entry["compbin"]).read_bytes()
    profile = read_sample_bytes(data, entry["compbin"], rel)
    assert profile.format == "compbinary"
    assert all(fs.name.isdigit() for fs in profile.profiles.values())
    again = sample_compact.write(profile, rel)
    assert again == (HERE / entry["again"]).read_bytes()
    reread = read_sample_bytes(again, None, rel)
    shape = [
        (fs.total_samples, fs.head_samples, len(fs.body_samples))
        for fs in profile.profiles.values()
    ]
    assert sorted(
        (fs.total_samples, fs.head_samples, len(fs.body_samples)) for fs in reread.profiles.values()
    ) == sorted(shape)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_cli_matches_llvm_profdata(
    case: dict[str, Any],
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    replay_case(case, HERE, run_profdata, monkeypatch, tmp_path / "out.txt")


def test_goldens_cover_what_matters() -> None:
    by_id = {c["id"]: c for c in CASES}
    assert {e["llvm"] for e in COMPACT} == {14, 16}
    assert by_id["show-compbin-inline/r16"]["exit"] == 0
    assert by_id["show-compbin-inline/r19"]["exit"] == 1
    assert all(by_id[f"show-gcc_bad_hist_type/r{r}"]["exit"] == 1 for r in (14, 16, 19, 22))
    targets = (HERE / by_id["show-gcc_targets/r22"]["stdout"]).read_text()
    assert "calls: foo:60 bar:40" in targets
