"""The raw reader against the real ``llvm-profdata`` (goldens in ``golden/raw``).

Every v8/v10 raw file of the shared corpus and of LLVM's own test inputs must
give exactly the records, binary ids and temporal traces that LLVM 14 (v8) or
22 (v10) printed for it; v5/v7/v9 files, which no installed release reads, must
agree with the same test program's file of a later release; the invalid inputs
must fail with the first error line the real tool printed.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from profdata.errors import CorrelationMismatchError, FormatError
from profdata.formats import raw, read_instr_bytes
from profdata.model.instr import InstrProfile
from profdata.releases import release
from tests.conftest import GOLDEN, SHARED
from tests.golden.raw_dump import DumpRecord, dump_records, parse_show_text

HERE = GOLDEN / "raw"
DOC: dict[str, Any] = json.loads((HERE / "goldens.json").read_text())
INPUTS: dict[str, dict[str, Any]] = DOC["inputs"]
OLDER: dict[str, dict[str, Any]] = DOC["older"]
BAD: dict[str, dict[str, Any]] = DOC["bad"]


def input_bytes(entry: dict[str, Any]) -> bytes:
    """A golden's raw input: the copy here, or the shared original for the big ones."""
    if "input" in entry:
        return (HERE / str(entry["input"])).read_bytes()
    path = SHARED / str(entry["source"])
    if not path.is_file():
        pytest.skip(f"{path} is not available")
    return path.read_bytes()


def expected_text(rel: str) -> str:
    data = (HERE / rel).read_bytes()
    return (gzip.decompress(data) if rel.endswith(".gz") else data).decode(
        "utf-8", "surrogateescape"
    )


def read(ident: str) -> InstrProfile:
    entry = INPUTS.get(ident) or OLDER[ident]
    return raw.read(input_bytes(entry), ident)


def shown(profile: InstrProfile, *, cs: bool) -> list[DumpRecord]:
    """What ``show --text`` prints: IR profiles show CS records only with ``--showcs``."""
    records = [r for r in profile.records if not profile.kind.is_ir or r.is_cs == cs]
    return dump_records(records, profile.symbols)


def test_goldens_cover_every_variant() -> None:
    """The goldens hold 32- and 64-bit, v8 and v10, FE/IR/CS, coverage, temporal, MC/DC."""
    kinds = {int.from_bytes((HERE / e["input"]).read_bytes()[8:16], "little") for e in
             INPUTS.values() if "input" in e}  # fmt: skip
    flags = {k >> 56 for k in kinds}
    assert {k & 0xFF for k in kinds} == {8, 10}
    assert {0x00, 0x01, 0x03, 0x10, 0x11, 0x31, 0x81} <= flags
    widths = {(HERE / e["input"]).read_bytes()[1] for e in INPUTS.values() if "input" in e}
    assert widths == {0x52, 0x72}  # 'R' (32-bit) and 'r' (64-bit) magics


@pytest.mark.parametrize("ident", sorted(INPUTS))
def test_records_match_llvm_show_text(ident: str) -> None:
    entry = INPUTS[ident]
    profile = read(ident)
    assert profile.format == "raw"
    assert profile.version == entry["version"]
    assert shown(profile, cs=False) == parse_show_text(expected_text(entry["text"]))
    if "cs_text" in entry:
        assert shown(profile, cs=True) == parse_show_text(expected_text(entry["cs_text"]))


@pytest.mark.parametrize("ident", sorted(INPUTS))
def test_binary_ids_and_traces_match_llvm(ident: str) -> None:
    entry = INPUTS[ident]
    profile = read(ident)
    ours = [bid.hex() for bid in profile.binary_ids]
    if entry["llvm"] <= 16:
        # LLVM 14/16 read binary ids lazily from the current header: of concatenated
        # profiles they show the last one's only.  LLVM 19+ (and profdata) show all.
        ours = ours[len(ours) - len(entry["binary_ids"]) :]
    assert ours == entry["binary_ids"]
    traces = [
        {"weight": t.weight, "names": [profile.symbols.get(h, "") for h in t.function_hashes]}
        for t in profile.traces
    ]
    assert traces == entry["traces"]
    assert profile.trace_stream_size == (1 if entry["traces"] else 0)


def _summary(profile: InstrProfile) -> list[tuple[str, int, tuple[int, ...]]]:
    return sorted((r.name, r.hash, tuple(int(c) for c in r.counts)) for r in profile.records)


@pytest.mark.parametrize("ident", sorted(OLDER))
def test_older_versions_agree_with_a_later_release(ident: str) -> None:
    entry = OLDER[ident]
    profile = read(ident)
    assert profile.version == entry["version"]
    assert profile.records and all(len(r.counts) for r in profile.records)
    if entry["relation"] == "none":
        return
    later = read(entry["counterpart"])
    if entry["relation"] == "records":
        assert _summary(profile) == _summary(later)
        return
    ours = {r.name: r for r in profile.records}
    theirs = {r.name: r for r in later.records}
    assert ours.keys() == theirs.keys()
    same_shape = 0
    for name, record in ours.items():
        assert record.counts[0] == theirs[name].counts[0], name
        if len(record.counts) == len(theirs[name].counts):
            same_shape += 1
            assert list(record.counts) == list(theirs[name].counts), name
    assert same_shape >= len(ours) // 2


BAD_FAILING = sorted(k for k, v in BAD.items() if v["exit"] and v["error"] is not None)


@pytest.mark.parametrize("name", BAD_FAILING)
def test_invalid_inputs_fail_with_llvms_message(name: str) -> None:
    """The first error line of the real tool, raised with a location."""
    entry = BAD[name]
    data = (HERE / "bad" / f"{name}.profraw").read_bytes()
    with pytest.raises(FormatError) as info:
        read_instr_bytes(data, f"bad/{name}.profraw")
    # a raw version other than the release's own: a file of a version no release wrote,
    # or one whose version field was changed (it reads only as another version)
    error = info.value.for_release(release(entry["llvm"]))
    assert error.llvm_message.splitlines()[0] == entry["error"]
    assert error.headline().splitlines()[0] == f"bad/{name}.profraw: {entry['error']}"
    if raw.sniff(data[:8]):
        assert info.value.location.offset is not None
        assert info.value.location.field


@pytest.mark.parametrize("name", sorted(k for k, v in BAD.items() if v["exit"] == 0))
def test_inputs_llvm_accepts_are_read(name: str) -> None:
    data = (HERE / "bad" / f"{name}.profraw").read_bytes()
    if not data:
        return  # merge skips empty inputs; that is the merge op's business
    if name == "debug-info-correlate-counters-only":
        # llvm-profdata reads a lightweight profile without its binary as an empty profile;
        # profdata asks for the binary instead (formats/correlate_data.py)
        with pytest.raises(CorrelationMismatchError, match="--debug-info=BINARY"):
            raw.read(data)
        return
    profile = raw.read(data)
    assert profile.records


def test_concatenated_copies_read_as_both() -> None:
    base = read("irpgo-vpcalls-o0-l22__run1")
    for name in ("concat-two", "concat-zero-gap"):
        profile = raw.read((HERE / "bad" / f"{name}.profraw").read_bytes())
        assert list(profile.records) == list(base.records) * 2
        assert profile.binary_ids == base.binary_ids * 2


def test_concatenated_shared_library_profile() -> None:
    """An executable and a shared library writing one file: two complete raw profiles."""
    profile = read("shlib-score-l22__both")
    assert len(profile.binary_ids) == 2
    names = {r.name for r in profile.records}
    assert "main" in names and len(profile.records) == len(names)
