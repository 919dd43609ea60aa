"""How ``merge`` and ``show --memory`` read a MemProf input: one open, the first bytes decide."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import IO, Any

import pytest

from profdata.errors import FileError, UnrecognizedFormatError
from profdata.formats.memprof_magic import MEMPROF_RAW_MAGIC
from profdata.formats.memprof_yaml import read_memprof_yaml
from profdata.ops.merge_memprof import load_memprof_input
from profdata.ops.show_memory import show_memory_file
from profdata.releases import release

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "memprof"


@pytest.fixture
def opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths opened through ``open`` while the test runs."""
    seen: list[str] = []
    real_open = builtins.open

    def counting(path: Any, *args: Any, **kwargs: Any) -> IO[Any]:
        seen.append(str(path))
        handle: IO[Any] = real_open(path, *args, **kwargs)
        return handle

    monkeypatch.setattr(builtins, "open", counting)
    return seen


def test_a_yaml_input_is_opened_once_and_read_whole(opens: list[str]) -> None:
    path = str(GOLDEN / "callee.yaml")
    profile = load_memprof_input(path)
    assert opens == [path]
    assert profile is not None and profile.format == "memprof-yaml"
    expected = read_memprof_yaml((GOLDEN / "callee.yaml").read_text(), path)
    assert profile.memprof is not None
    assert profile.memprof.records == expected.records
    assert profile.memprof.frames == expected.frames


def test_other_inputs_are_left_to_the_instr_readers(opens: list[str], tmp_path: Path) -> None:
    other = tmp_path / "x.profdata"
    other.write_bytes(b"\xfflprofi\x81" + bytes(64))
    assert load_memprof_input(str(other)) is None
    assert load_memprof_input(str(tmp_path / "missing")) is None
    assert load_memprof_input(str(tmp_path)) is None
    assert opens == [str(other), str(tmp_path / "missing"), str(tmp_path)]


def test_raw_profiles_are_refused_in_merge_and_show(tmp_path: Path) -> None:
    raw = tmp_path / "x.memprofraw"
    raw.write_bytes(MEMPROF_RAW_MAGIC + bytes(8))
    with pytest.raises(UnrecognizedFormatError, match="--profiled-binary"):
        load_memprof_input(str(raw))
    with pytest.raises(UnrecognizedFormatError, match="symbolization"):
        show_memory_file(str(raw), release(22))


def test_show_memory_of_a_missing_file_is_a_file_error(tmp_path: Path) -> None:
    with pytest.raises(FileError):
        show_memory_file(str(tmp_path / "missing"), release(22))


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        (22, "error: {path}: No such file or directory\n"),
        (19, "error: {path}\nNo such file or directory\n"),
        (16, "error: {path}\nNo such file or directory\n"),
    ],
)
def test_show_memory_of_a_missing_file_is_worded_per_release(
    number: int, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the real tools print it (checked against llvm-profdata 16, 19 and 22)."""
    from profdata.cli import main

    path = str(tmp_path / "missing")
    assert main([f"--llvm-release={number}", "show", "--memory", path]) == 1
    assert capsys.readouterr().err == expected.format(path=path)
