"""``SPF_Binary`` profiles written by the real ``llvm-profdata`` read in two parts at the
guessed cut (:mod:`profdata.formats.sample_binary_cut`): the cut is a function start of the
real writer's layout, and ``show --sample`` prints what the real tool prints."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata import offload as offload_module
from profdata.formats import sample_binary_cut, sample_columns, sample_text
from tests.conftest import CliResult
from tests.property.test_sample_text_columns import same_columns
from tests.unit.sample.test_sample_binary_cut import (
    _columns,
    _function_starts,
    _profile,
    _section,
    _whole,
)
from tests.unit.test_offload import count_offloads


@pytest.mark.compat
@pytest.mark.parametrize("release", [14, 16, 19, 22])
def test_the_real_writers_binary_reads_in_two_parts(
    release: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
) -> None:
    tool = str(llvm_profdata(release))
    text, binary = tmp_path / "p.proftext", tmp_path / "p.binary"
    text.write_bytes(sample_text.write(_profile(400, release)))
    subprocess.run(
        [tool, "merge", "--sample", "--binary", str(text), "-o", str(binary)],
        check=True, capture_output=True,
    )  # fmt: skip
    data = binary.read_bytes()
    cur, names = _section(data)
    cut = sample_binary_cut.guessed_cut(cur.data, cur.pos, cur.end, names)
    assert cut is not None and cut in _function_starts(data)
    whole = _whole(data)
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)
    monkeypatch.setattr(sample_columns, "_SPLIT_BYTES", 0)
    parts_read = count_offloads(monkeypatch)
    parts = _columns(data)
    assert parts_read == [1]
    assert whole is not None and parts is not None and same_columns(whole, parts)
    args = ["show", "--sample", "--all-functions", str(binary)]
    real = subprocess.run([tool, *args], capture_output=True, check=True)
    ours = run_profdata(f"--llvm-release={release}", *args)
    assert len(parts_read) == 2  # the show read it in two parts as well
    assert ours.code == 0 and ours.stdout == real.stdout
