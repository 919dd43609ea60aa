"""Hypothesis round trips of MemProf data through the section writer and reader.

Random records (allocation and call-site contexts over a small pool of
frames, so call stacks share prefixes and the radix tree jumps) are written
in every MemProf version a release writes, read back (the same model, with
the fields of the schema) and written again (the same bytes).  The compat
property hands our V2-V4 bytes to llvm-profdata 22 and wants its YAML to be
ours.
"""

from __future__ import annotations

import struct
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.formats._binary import ByteWriter
from profdata.formats.indexed_write import write_indexed
from profdata.formats.memprof import read_memprof, rules_for
from profdata.formats.memprof_ids import call_stack_id, frame_id_blake3, frame_id_golden
from profdata.formats.memprof_write import schema_for, write_memprof
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ProfileKind
from profdata.model.memprof import (
    MIB_FIELDS,
    AllocSite,
    CallSite,
    Frame,
    MemInfoBlock,
    MemProfData,
    MemProfRecord,
    full_schema,
)
from profdata.ops.show_memory import show_memory
from profdata.releases import release
from tests.compat import tools

pytestmark = pytest.mark.property

_U64 = st.integers(0, 2**64 - 1)
_FRAMES = st.lists(
    st.builds(Frame, _U64, st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.booleans()),
    min_size=1,
    max_size=12,
    unique=True,
)

RawRecord = tuple[list[tuple[list[int], dict[int, int]]], list[tuple[list[int], list[int]]]]


@st.composite
def memprof_inputs(draw: st.DrawFn) -> tuple[list[Frame], dict[int, RawRecord]]:
    frames = draw(_FRAMES)
    index = st.integers(0, len(frames) - 1)
    stack = st.lists(index, min_size=0, max_size=8)
    mib = st.dictionaries(st.sampled_from([fid for _, fid, _ in MIB_FIELDS]), _U64, max_size=6)
    record = st.tuples(
        st.lists(st.tuples(stack, mib), max_size=3),
        st.lists(st.tuples(stack, st.lists(_U64, max_size=3)), max_size=3),
    )
    records = draw(st.dictionaries(_U64, record, min_size=0, max_size=24))
    return frames, records


def build(
    frames: list[Frame], records: dict[int, RawRecord], frame_id: Callable[[Frame], int]
) -> MemProfData:
    """Intern frames and call stacks in first-use order, as LLVM's readers do."""
    data = MemProfData()

    def intern(indexes: list[int]) -> int:
        ids = []
        for i in indexes:
            fid = frame_id(frames[i])
            data.frames.setdefault(fid, frames[i])
            ids.append(fid)
        cs_id = call_stack_id(ids)
        data.call_stacks.setdefault(cs_id, tuple(ids))
        return cs_id

    for guid, (allocs, calls) in records.items():
        rec = MemProfRecord()
        for stack, values in allocs:
            rec.alloc_sites.append(AllocSite(intern(stack), MemInfoBlock(values)))
        for stack, callees in calls:
            rec.call_sites.append(CallSite(intern(stack), tuple(callees)))
        data.records[guid] = rec
    return data


def expected_after(data: MemProfData, version: int, schema: tuple[int, ...]) -> dict[int, object]:
    """What the section can hold: the schema's fields (masked), callee GUIDs from V4 on."""
    widths = {fid: w for _, fid, w in MIB_FIELDS}
    out: dict[int, object] = {}
    for guid, rec in data.records.items():
        allocs = [
            (
                tuple(data.frames_of(s.call_stack_id)),
                {f: s.info.values.get(f, 0) % (1 << (8 * widths[f])) for f in schema},
            )
            for s in rec.alloc_sites
        ]
        calls = [
            (tuple(data.frames_of(c.call_stack_id)), c.callee_guids if version >= 4 else ())
            for c in rec.call_sites
        ]
        out[guid] = (allocs, calls)
    return out


def encode(data: MemProfData, version: int, schema: tuple[int, ...]) -> bytes:
    out = ByteWriter()
    out.zeros(16)  # the section's offsets are absolute: do not start at 0
    write_memprof(out, data, version, schema)
    return bytes(out.buf)


@pytest.mark.parametrize(
    ("rel", "version"), [(22, 2), (22, 3), (22, 4), (19, 0), (19, 1), (19, 2), (19, 3)]
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs=memprof_inputs(), full=st.booleans())
def test_write_read_write(
    rel: int, version: int, inputs: tuple[list[Frame], dict[int, RawRecord]], full: bool
) -> None:
    frames, records = inputs
    rules = rules_for(release(rel))
    data = build(frames, records, frame_id_blake3 if rel >= 20 else frame_id_golden)
    schema = schema_for(version, full, full_schema(27))
    written = encode(data, version, schema)
    back = read_memprof(memoryview(written), 16, rules)
    assert back.version == version and back.schema == schema
    assert expected_after(back, version, schema) == expected_after(data, version, schema)
    assert encode(back, version, schema) == written


@pytest.mark.compat
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs=memprof_inputs(), version=st.sampled_from([2, 3, 4]), full=st.booleans())
def test_llvm_22_shows_what_we_write(
    inputs: tuple[list[Frame], dict[int, RawRecord]], version: int, full: bool
) -> None:
    tool = tools.find_llvm_profdata(22)
    if tool is None:
        pytest.skip("llvm-profdata 22 is not installed")
    frames, records = inputs
    data = build(frames, records, frame_id_blake3)
    schema = schema_for(version, full, full_schema(27))
    data.schema = schema
    profile = InstrProfile(kind=ProfileKind.MEMPROF, records=[], format="merged", memprof=data)
    from profdata.formats.indexed_write import encode_indexed

    blob = b"".join(
        encode_indexed(
            profile, release=release(22), memprof_version=version, memprof_full_schema=full
        )
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.profdata"
        path.write_bytes(bytes(blob))
        shown = subprocess.run(
            [str(tool), "show", "--memory", str(path)], capture_output=True, check=True
        ).stdout.decode()
    start = struct.unpack_from("<Q", bytes(blob), 0x28)[0]
    ours = show_memory(read_memprof(memoryview(bytes(blob)), start, rules_for(release(22))))
    assert shown == ours
    assert write_indexed is not None
