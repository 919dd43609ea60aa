"""An MD5 sample profile whose name table holds the value 0, against the real llvm-profdata.

From 18 on names are ``FunctionId``s, and a hash of 0 prints as nothing (its
``str()``); 14 and 16 keep the decimal text "0".  Found by ``tools/fuzz_llvm.py``
(a zeroed word in a fixed-length MD5 name table of a CS profile, which 19 and 22
print); a plain profile with such a top-level function crashes 19 and 22.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.model.names import md5_hash
from tests.compat.tools import compare_with_tool, run_tool, run_tool_ok
from tests.conftest import CliResult

TEXT = b"main:900:0\n 1: 100\n 2: 800 foo:700\nbar:400:20\n 1: 400\nfoo:700:700\n 1: 700\n"


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_same_as_llvm(
    rel: int,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(rel)
    text, md5 = tmp_path / "p.txt", tmp_path / "p.extbin"
    text.write_bytes(TEXT)
    run_tool_ok(tool, ["merge", "--sample", "--extbinary", "--use-md5", str(text), "-o", str(md5)])
    data = md5.read_bytes()
    hashed = struct.pack("<Q", md5_hash("bar"))
    if hashed not in data:
        pytest.skip(f"llvm-profdata {rel} writes no fixed-length MD5 name table")
    md5.write_bytes(data.replace(hashed, bytes(8)))
    if rel >= 19:  # a top-level FunctionId of hash 0: the real tool crashes
        real = run_tool(tool, ["show", "--sample", str(md5)])
        assert real.returncode < 0
        got = run_profdata(f"--llvm-release={rel}", "show", "--sample", str(md5))
        assert got.code == 0 and b"Function: : 400, 20, 1 sampled lines\n" in got.stdout
        return
    for options in ((), ("--detailed-summary",), ("--hot-func-list",), ("--function=0",)):
        args = ["show", "--sample", *options, str(md5)]
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0
        assert same, args
    args = ["merge", "--sample", "--text", str(md5), "-o", "@OUT"]
    same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
    assert same and real.returncode == 0


@pytest.mark.parametrize("rel", [19, 22])
def test_a_context_frame_of_hash_0(
    rel: int,
    llvm_test_inputs: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    """``main``, the outer frame of every context, hashed to 0: printed ":3 @ ..."."""
    tool = llvm_profdata(rel)
    md5 = tmp_path / "cs.extbin"
    source = llvm_test_inputs / "llvm-19" / "cs-sample.proftext"
    run_tool_ok(
        tool, ["merge", "--sample", "--extbinary", "--use-md5", str(source), "-o", str(md5)]
    )
    md5.write_bytes(md5.read_bytes().replace(struct.pack("<Q", md5_hash("main")), bytes(8)))
    for args in (
        ["show", "--sample", str(md5)],
        ["show", "--sample", "--detailed-summary", str(md5)],
        ["merge", "--sample", "--text", str(md5), "-o", "@OUT"],
    ):
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0
        assert same, args
    shown = run_profdata(f"--llvm-release={rel}", "show", "--sample", str(md5)).stdout
    assert b"Function: :3 @ " in shown
