"""Correlation against the real tools, built fresh: clang R, then llvm-profdata R vs profdata.

``tests/golden/correlate/prog.c`` (and ``prog_cxx.cc``, with ``-mllvm
-disable-vp``, see there) is compiled by the clang of release R with
``-profile-correlate=debug-info`` and ``=binary`` and run twice; the real
``llvm-profdata`` of R and ``profdata --llvm-release=R`` merge the two
lightweight raw profiles with the binary, and must write the same bytes;
for debug info, ``show --debug-info --show-format=yaml`` must print the same
probes.  The goldens in ``tests/golden/correlate`` pin one build; this
catches what a build on another machine (other paths, other clang patch
release) would change.
"""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.compat import tools
from tests.conftest import GOLDEN, CliResult

pytestmark = pytest.mark.compat

SOURCES = {"c": GOLDEN / "correlate" / "prog.c", "cxx": GOLDEN / "correlate" / "prog_cxx.cc"}
FLAGS = {
    "debug-info": ("--debug-info", ["-mllvm", "-profile-correlate=debug-info"]),
    "binary": ("--binary-file", ["-mllvm", "-profile-correlate=binary"]),
}
CASES = [
    (22, "debug-info", "c"), (22, "binary", "c"), (19, "debug-info", "c"), (19, "binary", "c"),
    (22, "debug-info", "cxx"), (22, "binary", "cxx"),
]  # fmt: skip


def _build(release: int, mode: str, language: str, where: Path) -> Path:
    cxx = language == "cxx"
    clang = tools.find_clang(release, cxx)
    if clang is None or tools.find_llvm_profdata(release) is None:
        pytest.skip(f"clang/llvm-profdata {release} is not installed")
    source = SOURCES[language]
    shutil.copy(source, where / source.name)
    binary = where / "prog"
    flags = [*FLAGS[mode][1], *(["-mllvm", "-disable-vp"] if cxx else [])]
    subprocess.run(
        [str(clang), "-O1", "-g", "-fprofile-generate", *flags, source.name, "-o", "prog"],
        cwd=where, check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    for run, arg in ((1, "9"), (2, "150")):
        env = dict(os.environ, LLVM_PROFILE_FILE=str(where / f"prog.{run}.profraw"))
        subprocess.run([str(binary), arg], env=env, check=True, capture_output=True, timeout=60)
    return binary


@pytest.mark.parametrize(
    ("release", "mode", "language"), CASES, ids=[f"l{r}-{m}-{lang}" for r, m, lang in CASES]
)
def test_merge_with_binary_matches_llvm(
    release: int,
    mode: str,
    language: str,
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
) -> None:
    binary = _build(release, mode, language, tmp_path)
    option = f"{FLAGS[mode][0]}={binary}"
    raws = [str(tmp_path / "prog.1.profraw"), str(tmp_path / "prog.2.profraw")]
    real = tmp_path / "real.profdata"
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    done = tools.run_tool(tool, ["merge", option, *raws, "-o", str(real)])
    assert done.returncode == 0, done.stderr
    ours = tmp_path / "ours.profdata"
    result = run_profdata(f"--llvm-release={release}", "merge", option, *raws, "-o", str(ours))
    assert result.code == 0, result.stderr
    assert ours.read_bytes() == real.read_bytes()
    if mode == "debug-info":
        shown = tools.run_tool(tool, ["show", option, "--show-format=yaml"])
        result = run_profdata(f"--llvm-release={release}", "show", option, "--show-format=yaml")
        assert result.stdout == shown.stdout


def _build_id(binary: Path) -> bytes:
    """The NT_GNU_BUILD_ID note of an ELF binary (clang links one by default)."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import NoteSection

    with binary.open("rb") as fh:
        for section in ELFFile(fh).iter_sections():
            if isinstance(section, NoteSection):
                for note in section.iter_notes():
                    if note["n_type"] == "NT_GNU_BUILD_ID":
                        return bytes.fromhex(note["n_desc"])
    raise AssertionError(f"{binary} has no build ID")


def _both(
    release: int, argv: list[str], tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> tuple[tuple[int, bytes | None, str], tuple[int, bytes | None, str]]:
    """(status, output bytes, first stderr line) of llvm-profdata and of profdata."""
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    real, ours = tmp_path / "real.profdata", tmp_path / "ours.profdata"
    real.unlink(missing_ok=True)
    ours.unlink(missing_ok=True)
    done = tools.run_tool(tool, ["merge", *argv, "-o", str(real)])
    result = run_profdata(f"--llvm-release={release}", "merge", *argv, "-o", str(ours))
    return (
        (done.returncode, real.read_bytes() if real.exists() else None,
         done.stderr.decode().splitlines()[0] if done.stderr else ""),
        (result.code, ours.read_bytes() if ours.exists() else None,
         result.stderr.decode().splitlines()[0] if result.stderr else ""),
    )  # fmt: skip


@pytest.mark.parametrize("mode", ["binary", "debug-info"])
def test_merge_finds_the_binary_by_build_id_as_llvm_does(
    mode: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """``--correlate=KIND --debug-file-directory=DIR`` (LLVM 20+): the binary is looked up
    as DIR/.build-id/xx/rest.debug by the profile's build ID; a directory without it, or
    the other kind of correlation, fails the input as LLVM fails it."""
    binary = _build(22, mode, "c", tmp_path)
    build_id = _build_id(binary).hex()
    found = tmp_path / "dbg" / ".build-id" / build_id[:2] / f"{build_id[2:]}.debug"
    found.parent.mkdir(parents=True)
    shutil.copy(binary, found)
    raws = [str(tmp_path / "prog.1.profraw"), str(tmp_path / "prog.2.profraw")]
    other = "binary" if mode == "debug-info" else "debug-info"
    for argv in (
        [f"--correlate={mode}", f"--debug-file-directory={tmp_path / 'none'}",
         f"--debug-file-directory={tmp_path / 'dbg'}", *raws],
        [f"--correlate={mode}", f"--debug-file-directory={tmp_path / 'none'}", *raws],
        [f"--correlate={other}", f"--debug-file-directory={tmp_path / 'dbg'}", raws[0]],
    ):  # fmt: skip
        real, ours = _both(22, argv, tmp_path, run_profdata)
        assert ours == real, argv
    assert _both(22, [f"--binary-file={binary}", *raws], tmp_path, run_profdata)[0][0] == (
        0 if mode == "binary" else 1
    )


def test_merge_fetches_the_binary_from_a_debuginfod_server_as_llvm_does(
    tmp_path: Path, run_profdata: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--debuginfod``: after the directories, the client's cache, then each server of
    DEBUGINFOD_URLS (``buildid/<id>/debuginfo``) into that cache, under the name LLVM
    gives it (``llvmcache-`` and the XXH3 of the URL path)."""
    binary = _build(22, "binary", "c", tmp_path)
    build_id = _build_id(binary).hex()
    served = tmp_path / "srv" / "buildid" / build_id / "debuginfo"
    served.parent.mkdir(parents=True)
    shutil.copy(binary, served)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    server.directory = str(tmp_path / "srv")  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setenv("DEBUGINFOD_URLS", f"http://127.0.0.1:{server.server_address[1]}")
        argv = ["merge", "--correlate=binary", "--debuginfod", str(tmp_path / "prog.1.profraw")]
        tool = tools.find_llvm_profdata(22)
        assert tool is not None
        monkeypatch.setenv("DEBUGINFOD_CACHE_PATH", str(tmp_path / "cache-real"))
        done = tools.run_tool(tool, [*argv, "-o", str(tmp_path / "real.profdata")])
        monkeypatch.setenv("DEBUGINFOD_CACHE_PATH", str(tmp_path / "cache-ours"))
        result = run_profdata(*argv, "-o", str(tmp_path / "ours.profdata"))
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert (done.returncode, result.code) == (0, 0), (done.stderr, result.stderr)
    assert (tmp_path / "ours.profdata").read_bytes() == (tmp_path / "real.profdata").read_bytes()
    cached = {p.name for p in (tmp_path / "cache-ours").iterdir()}
    assert cached == {p.name for p in (tmp_path / "cache-real").iterdir()} - {"llvmcache.timestamp"}
    assert len(cached) == 1


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """Serves the directory its server names, without logging each request."""

    def __init__(self, request: Any, address: Any, server: Any) -> None:
        super().__init__(request, address, server, directory=server.directory)

    def log_message(self, format: str, *args: Any) -> None:
        pass
