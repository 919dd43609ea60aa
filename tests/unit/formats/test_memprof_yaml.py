"""MemProf YAML input (formats/memprof_yaml.py): the subset LLVM's files use, and errors.

Byte-level agreement with llvm-profdata 22 (ids, order, merge) is in
tests/golden/memprof; these check the parser's corners and its refusals.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from profdata.errors import TextSyntaxError
from profdata.formats.memprof_magic import is_memprof_yaml
from profdata.formats.memprof_yaml import get_guid, read_memprof_yaml
from profdata.model.names import md5_hash

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "memprof"


def test_show_output_reads_back() -> None:
    data = read_memprof_yaml((GOLDEN / "show22.yaml").read_text())
    assert data.records
    sites = [s for r in data.records.values() for s in r.alloc_sites]
    assert sites and all(s.info.get("AllocCount") > 0 for s in sites)
    assert all(data.call_stacks[s.call_stack_id] for s in sites)


def test_block_and_flow_frames_are_the_same_frame() -> None:
    text = (GOLDEN / "callee.yaml").read_text()
    data = read_memprof_yaml(text)
    foo = get_guid("_Z3foov.llvm.123")
    assert foo == md5_hash("_Z3foov")
    stacks = [data.frames_of(s.call_stack_id) for s in data.records[foo].alloc_sites]
    first = data.records[0x1111].alloc_sites[1].call_stack_id
    assert stacks[0] == data.frames_of(first)
    callees = data.records[md5_hash("main")].call_sites[0].callee_guids
    assert callees == (foo,)
    wide = data.records[0x1111].call_sites[0].callee_guids
    assert wide[:2] == (0x2222, 0x3333) and len(wide) == 6


@pytest.mark.parametrize(
    ("name", "canonical"),
    [("f.llvm.42", "f"), ("f.part.3", "f"), ("f.__uniq.77", "f.__uniq.77"),
     ("f.llvm.1.part.2", "f.llvm.1"), ("f.llvm.x.y", "f.llvm.x.y")],
)  # fmt: skip
def test_guid_of_a_name_drops_selected_suffixes(name: str, canonical: str) -> None:
    """The GUIDs llvm-profdata 22 prints for these names (checked with the real tool)."""
    assert get_guid(name) == md5_hash(canonical)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("---\nfoo: 1\n", "unknown key 'foo'"),
        ("---\nHeapProfileRecords:\n  - GUID: 123\n", "use a hexadecimal GUID"),
        ("---\nHeapProfileRecords:\n  - GUID: 0xzz\n", "invalid hex64 number"),
        ("---\nHeapProfileRecords:\n  - AllocSites: []\n", "missing required key 'GUID'"),
        (
            "---\nHeapProfileRecords:\n  - GUID: f\n    CallSites:\n      - Frames:\n"
            "          - { Function: f, LineOffset: 1, Column: 2 }\n",
            "missing required key 'IsInlineFrame'",
        ),
        (
            "---\nHeapProfileRecords:\n  - GUID: f\n    CallSites:\n      - Frames:\n"
            "          - { Function: f, LineOffset: 4294967296, Column: 2, IsInlineFrame: no }\n",
            "out of range",
        ),
        (
            "---\nHeapProfileRecords:\n  - GUID: f\n    AllocSites:\n      - Callstack: []\n"
            "        MemInfoBlock: { Bogus: 1 }\n",
            "Key is not a valid validation event",
        ),
        ("---\nHeapProfileRecords: [ { GUID: f\n", "unterminated flow collection"),
    ],
)
def test_errors_fail_the_input_as_llvm_does(text: str, message: str) -> None:
    with pytest.raises(TextSyntaxError, match=message) as info:
        read_memprof_yaml(text, "x.yaml")
    assert info.value.llvm_message == "The profile is empty."
    assert info.value.path == "x.yaml"


def test_numbers_follow_llvm_radix_rules() -> None:
    text = (
        "---\nHeapProfileRecords:\n  - GUID: 0xA\n    AllocSites:\n      - Callstack:\n"
        "          - { Function: 0xa, LineOffset: 010, Column: 0x10, IsInlineFrame: Yes }\n"
        "        MemInfoBlock:\n          AllocCount: 0b101\n          TotalSize: 0o17\n"
    )
    data = read_memprof_yaml(text)
    site = data.records[10].alloc_sites[0]
    (frame,) = data.frames_of(site.call_stack_id)
    assert (frame.line_offset, frame.column, frame.is_inline_frame) == (8, 16, True)
    assert site.info.get("AllocCount") == 5 and site.info.get("TotalSize") == 15


def test_sniff_and_empty_documents() -> None:
    assert is_memprof_yaml(b"---\n") and not is_memprof_yaml(b"# x\n---")
    assert read_memprof_yaml("---\n# only comments\n...\n").is_empty()


def test_data_access_profiles_are_refused_not_dropped() -> None:
    text = "---\nDataAccessProfiles:\n  SampledRecords:\n    - { Symbol: x, AccessCount: 1 }\n"
    with pytest.raises(TextSyntaxError, match="DataAccessProfiles") as info:
        read_memprof_yaml(text, "d.yaml")
    assert "not supported by profdata" in info.value.llvm_message
