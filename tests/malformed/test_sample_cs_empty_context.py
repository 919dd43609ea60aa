"""A CS ext-binary profile whose CS name table holds a context of no frames, against the
real llvm-profdata 19 and 22.

A damaged CS name table (an entry's ``ContextSize`` one too large, so that the
entries after it are read out of step; ``tools/fuzz_llvm.py``, stop 55) can hold
an entry of size 0.  Every top-level context of a CS profile is a context to LLVM
(``hasContext``): it keys the profile map by the hash of its frames (for none:
``hash_combine_range`` of the empty range) and writes it back as a CS name table
entry of size 0.  profdata took such a context for the plain function "", so its
ext-binary writer put "" in the name table and the profile's body read back as
another context's (a merge added the two), and the map orders that decide the
FunctionMetadata section and the trimmed map differed.  (``overlap`` of such a
file and ``--convert-sample-profile-layout`` stay apart: LLVM compares and
flattens the context's leaf, which for no frames is whatever lies before them in
memory.)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats._binary import ByteReader
from profdata.formats.sample_extbinary import SecType, read_section_table
from profdata.formats.sample_registry import read_sample_bytes
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from profdata.ops.merge_sample import encode_sample
from profdata.releases import release
from tests.compat.tools import differing, run_tool_ok
from tests.conftest import CliResult

CS_TEXT = """\
[main:3 @ _Z5funcAi:1 @ _Z8funcLeafi]:1467299:11
 1: 6
 3: 287884
[main:3.1 @ _Z5funcBi]:120:19
 1: 19
 2: 101 _Z8funcLeafi:11
[main]:154:0
 1: 154
"""


def _empty_context_profile(rel: int) -> SampleProfile:
    """The text profile as profdata reads it, plus a profile of no frames, as the
    damaged name table gives it."""
    profile = read_sample_bytes(CS_TEXT.encode(), "cs.txt", release(rel))
    assert profile.is_cs
    empty = FunctionSamples(SampleContext(""))
    empty.add_body_samples(LineLocation(1, 0), 407)
    empty.add_total_samples(407)
    profile.profiles[empty.context] = empty
    return profile


@pytest.mark.parametrize("rel", [19, 22])
def test_a_context_of_no_frames_reads_back_as_itself(rel: int) -> None:
    profile = _empty_context_profile(rel)
    data = encode_sample(profile, "extbinary", release=release(rel))
    back = read_sample_bytes(data, "back.extbin", release(rel))
    totals = {str(fs.context): fs.total_samples for fs in back.profiles.values()}
    assert totals == {str(fs.context): fs.total_samples for fs in profile.profiles.values()}
    assert totals[""] == 407
    assert not next(fs for fs in back.profiles.values() if not fs.context.frames).context.name


def _shifted(data: bytes) -> bytes:
    """``data`` with the first CS name table entry's ContextSize one larger."""
    table = read_section_table(ByteReader(memoryview(data)))
    offset = next(e.offset for e in table if e.type == SecType.CS_NAME_TABLE)
    assert data[offset] < 0x80 and data[offset + 1] < 0x7F  # one-byte ULEB128s
    out = bytearray(data)
    out[offset + 1] += 1
    return bytes(out)


@pytest.mark.parametrize("rel", [19, 22])
def test_a_damaged_cs_name_table_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_test_inputs: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """The fuzzer's case: LLVM 19's ``cs-sample.proftext`` written by the real tool as a
    partial ext-binary profile, the first context one frame longer."""
    tool = llvm_profdata(rel)
    text = llvm_test_inputs / "llvm-19" / "cs-sample.proftext"
    if not text.is_file():
        pytest.skip(f"{text} is not in this tree")
    made = tmp_path / "made.extbin"
    run_tool_ok(
        tool,
        ["merge", "--sample", "--extbinary", "--gen-partial-profile", str(text), "-o", str(made)],
    )
    damaged = tmp_path / "damaged.extbin"
    damaged.write_bytes(_shifted(made.read_bytes()))
    profile = read_sample_bytes(damaged.read_bytes(), "d.extbin", release(rel))
    assert any(not fs.context.frames for fs in profile.profiles.values())
    commands = [
        ["show", "--sample", str(damaged)],
        ["merge", "--sample", "--extbinary", str(damaged), "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", str(damaged), str(text), "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", "--use-md5", str(damaged), "-o", "@OUT"],
        [
            "merge",
            "--sample",
            "--extbinary",
            "--sample-trim-cold-context",
            str(damaged),
            "-o",
            "@OUT",
        ],
        ["merge", "--sample", "--text", str(damaged), str(text), "-o", "@OUT"],
    ]
    assert not differing(tool, rel, commands, run_profdata, tmp_path)
