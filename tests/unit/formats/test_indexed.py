"""Indexed profile reader against real llvm-profdata/clang output.

The committed goldens (``tests/golden/indexed``, made by ``make_goldens.py``)
cover versions 1 to 13 and run without any LLVM install; the ``compat`` tests
run the installed llvm-profdata live over every indexed file of the shared
corpus and LLVM's test inputs.
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from profdata.errors import MalformedError
from profdata.formats import detect, instr_formats, open_instr
from profdata.formats._onhash import OnDiskHashTable
from profdata.formats.indexed import INDEXED, IndexedProfile, read, sniff
from profdata.model.instr import InstrRecord
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash
from profdata.model.summary import ProfileSummary, SummaryEntry, summarize_records
from tests.conftest import SHARED

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "indexed"
MANIFEST: dict[str, dict[str, object]] = json.loads((GOLDEN / "goldens.json").read_text())
GOLDENS = sorted(MANIFEST)
EXTERNAL = "** External Symbol **"
U64 = (1 << 64) - 1
U32 = (1 << 32) - 1


def golden_path(name: str, suffix: str = ".profdata") -> Path:
    return GOLDEN / f"{name}{suffix}"


def load(path: Path) -> IndexedProfile:
    return read(memoryview(path.read_bytes()), str(path))


def load_golden(name: str) -> IndexedProfile:
    return load(golden_path(name))


# -- llvm-profdata merge --text ----------------------------------------------------
Sites = dict[int, list[list[tuple[str, int]]]]
RecordKey = tuple[str, int]
RecordBody = tuple[tuple[int, ...], bytes, Sites]


@dataclass
class LlvmText:
    flags: list[str]
    traces: list[tuple[int, list[str]]]
    stream_size: int
    records: dict[RecordKey, RecordBody]


def parse_llvm_text(text: str) -> LlvmText:
    """LLVM's text profile (instr-text.md §3-§4), as merge --text writes it."""
    lines = [line for line in text.split("\n") if line and not line.startswith("#")]
    i = 0
    out = LlvmText([], [], 0, {})
    while i < len(lines) and lines[i].startswith(":"):
        keyword = lines[i][1:].lower()
        out.flags.append(keyword)
        i += 1
        if keyword == "temporal_prof_traces":
            count, out.stream_size = int(lines[i], 0), int(lines[i + 1], 0)
            i += 2
            for _ in range(count):
                names = [n.strip() for n in lines[i + 1].split(",") if n.strip()]
                out.traces.append((int(lines[i], 0), names))
                i += 2
    while i < len(lines):
        name, func_hash, num_counts = lines[i], int(lines[i + 1]), int(lines[i + 2])
        counts = tuple(int(c) for c in lines[i + 3 : i + 3 + num_counts])
        i += 3 + num_counts
        bitmap = b""
        if i < len(lines) and lines[i].startswith("$"):
            num_bytes = int(lines[i][1:])
            bitmap = bytes(int(b, 0) for b in lines[i + 1 : i + 1 + num_bytes])
            i += 1 + num_bytes
        sites: Sites = {}
        if i < len(lines) and lines[i].isdigit():
            num_kinds = int(lines[i])
            i += 1
            for _ in range(num_kinds):
                kind, num_sites = int(lines[i]), int(lines[i + 1])
                i += 2
                kind_sites = sites.setdefault(kind, [])
                for _ in range(num_sites):
                    num_values = int(lines[i])
                    values = [line.rsplit(":", 1) for line in lines[i + 1 : i + 1 + num_values]]
                    kind_sites.append([(v, int(c)) for v, c in values])
                    i += 1 + num_values
        out.records[(name, func_hash)] = (counts, bitmap, sites)
    return out


_TEXT_FLAGS = {
    "ir": ProfileKind.IR,
    "csir": ProfileKind.IR | ProfileKind.CS,
    "entry_first": ProfileKind.ENTRY_FIRST,
    "instrument_loop_entries": ProfileKind.LOOP_ENTRIES,
    "single_byte_coverage": ProfileKind.SINGLE_BYTE_COVERAGE,
    "temporal_prof_traces": ProfileKind.TEMPORAL,
}
#: Flags the text format cannot express (instr-text.md §3).
_NOT_IN_TEXT = ProfileKind.FUNCTION_ENTRY_ONLY | ProfileKind.MEMPROF


def function_symbols(profile: IndexedProfile) -> dict[int, str]:
    """The merge writer's symbol table: function names only (instr-text.md §5.2)."""
    return {md5_hash(name): name for name in profile.names()}


def as_text_records(profile: IndexedProfile) -> dict[RecordKey, RecordBody]:
    names = function_symbols(profile)
    out: dict[RecordKey, RecordBody] = {}
    for rec in profile.records:
        sites: Sites = {}
        for kind, kind_sites in rec.sites_by_kind().items():
            sites[int(kind)] = [
                [
                    (
                        names.get(v.value, EXTERNAL) if kind.targets_are_names else str(v.value),
                        v.count,
                    )
                    for v in site
                ]
                for site in kind_sites
            ]
        out[(rec.name, rec.hash)] = (tuple(int(c) for c in rec.counts), rec.bitmap, sites)
    return out


def check_against_text(profile: IndexedProfile, text: str) -> None:
    expected = parse_llvm_text(text)
    assert as_text_records(profile) == expected.records
    want_kind = ProfileKind.FRONTEND
    for flag in expected.flags:
        want_kind |= _TEXT_FLAGS[flag]
    assert profile.kind & ~_NOT_IN_TEXT == want_kind
    names = function_symbols(profile)
    ours = [
        (t.weight, [n for n in (names.get(h, "") for h in t.function_hashes) if n])
        for t in profile.traces
    ]
    assert ours == expected.traces
    if expected.flags.count("temporal_prof_traces"):
        assert profile.trace_stream_size == expected.stream_size


# -- llvm-profdata show --all-functions --ic-targets --show-vtables ---------------------
@dataclass
class ShownFunction:
    name: str
    hash: int
    targets: dict[str, list[tuple[int, str, int]]]  # section -> (site, name, count)


_TARGET_LINE = re.compile(r"^\t\[\s*(\d+), (.*),\s+(-?\d+) \]")
_SECTIONS = {"    Indirect Target Results:": "ic", "    VTable Results:": "vtable"}


def parse_show(text: str) -> list[ShownFunction]:
    lines = text.split("\n")
    out: list[ShownFunction] = []
    section = ""
    for i, line in enumerate(lines):
        is_name = line.startswith("  ") and line.endswith(":") and i + 1 < len(lines)
        if is_name and lines[i + 1].startswith("    Hash: 0x"):
            out.append(ShownFunction(line[2:-1], int(lines[i + 1][10:], 16), {}))
            section = ""
            continue
        if line in _SECTIONS:
            section = _SECTIONS[line]
            out[-1].targets[section] = []
        elif (m := _TARGET_LINE.match(line)) and section:
            out[-1].targets[section].append((int(m[1]), m[2], int(m[3])))
    return out


def shown_by_us(profile: IndexedProfile, records: list[InstrRecord]) -> list[ShownFunction]:
    symbols = profile.symbols
    out = []
    for rec in records:
        targets: dict[str, list[tuple[int, str, int]]] = {}
        for section, kind in (
            ("ic", ValueKind.INDIRECT_CALL_TARGET),
            ("vtable", ValueKind.VTABLE_TARGET),
        ):
            targets[section] = [
                (i, symbols.get(v.value, ""), v.count)
                for i, site in enumerate(rec.sites(kind))
                for v in site
            ]
        out.append(ShownFunction(rec.name, rec.hash, targets))
    return out


def check_against_show(profile: IndexedProfile, text: str, *, cs: bool) -> None:
    """Payload order, and IC/vtable targets resolved through the reader's symbol table."""
    shown = parse_show(text)
    records = [r for r in profile.records if not profile.kind.is_ir or r.is_cs == cs]
    ours = shown_by_us(profile, records)
    assert [(f.name, f.hash) for f in ours] == [(f.name, f.hash) for f in shown]
    for mine, theirs in zip(ours, shown, strict=True):
        for section, lines in theirs.targets.items():
            assert mine.targets[section] == lines, (mine.name, section)


# -- clang's ProfileSummary metadata -------------------------------------------------------
_MD_NODE = re.compile(r"^!(\d+) = !\{(.*)\}$")
_MD_KEYS = {
    "TotalCount": "total_count",
    "MaxCount": "max_count",
    "MaxInternalCount": "max_internal_count",
    "MaxFunctionCount": "max_function_count",
    "NumCounts": "num_counts",
    "NumFunctions": "num_functions",
}


def parse_summary_metadata(ll: str) -> dict[str, ProfileSummary]:
    """``ProfileSummary``/``CSProfileSummary`` module flags as ProfileSummary values."""
    nodes = {int(m[1]): m[2] for line in ll.splitlines() if (m := _MD_NODE.match(line))}

    def refs(body: str) -> list[int]:
        return [int(r) for r in re.findall(r"!(\d+)", body)]

    out: dict[str, ProfileSummary] = {}
    for body in nodes.values():
        flag = re.fullmatch(r'i32 \d+, !"(CS)?ProfileSummary", !(\d+)', body)
        if not flag:
            continue
        values: dict[str, int] = {}
        detailed: list[SummaryEntry] = []
        for ref in refs(nodes[int(flag[2])]):
            key = re.match(r'!"(\w+)", (.*)', nodes[ref])
            assert key is not None
            if key[1] in _MD_KEYS:
                values[_MD_KEYS[key[1]]] = int(key[2].split()[1]) & U64
            elif key[1] == "DetailedSummary":
                for entry in refs(nodes[int(key[2][1:])]):
                    cutoff, min_count, num = (int(x.split()[1]) for x in nodes[entry].split(", "))
                    detailed.append(SummaryEntry(cutoff & U32, min_count & U64, num & U32))
        out["cs" if flag[1] else "plain"] = ProfileSummary(**values, detailed=tuple(detailed))
    return out


# -- goldens -----------------------------------------------------------------------
@pytest.mark.parametrize("name", GOLDENS)
def test_golden_version_matches_name(name: str) -> None:
    profile = load_golden(name)
    assert profile.format == "indexed"
    assert profile.version == int(name[1:3])
    assert profile.header.version & U32 == profile.version


@pytest.mark.parametrize("name", GOLDENS)
def test_golden_records_match_merge_text(name: str) -> None:
    check_against_text(
        load_golden(name), golden_path(name, ".proftext").read_text("utf-8", "surrogateescape")
    )


@pytest.mark.parametrize("name", GOLDENS)
@pytest.mark.parametrize("cs", [False, True], ids=["plain", "cs"])
def test_golden_order_and_targets_match_show(name: str, cs: bool) -> None:
    suffix = ".showcs.txt" if cs else ".show.txt"
    text = golden_path(name, suffix).read_text("utf-8", "surrogateescape")
    check_against_show(load_golden(name), text, cs=cs)


@pytest.mark.parametrize("name", [n for n in GOLDENS if golden_path(n, ".summary.ll").exists()])
def test_golden_stored_summary_matches_clang(name: str) -> None:
    profile = load_golden(name)
    embedded = parse_summary_metadata(golden_path(name, ".summary.ll").read_text())
    assert profile.summary == embedded["plain"]
    assert profile.cs_summary == embedded.get("cs")


@pytest.mark.parametrize("name", [n for n in GOLDENS if golden_path(n, ".binids.txt").exists()])
def test_golden_binary_ids_match_show(name: str) -> None:
    text = golden_path(name, ".binids.txt").read_text()
    shown = text.split("Binary IDs:", 1)[1].split() if "Binary IDs:" in text else []
    assert [b.hex() for b in load_golden(name).binary_ids] == shown


def test_summary_is_stored_not_recomputed() -> None:
    """compat.profdata.v4 stores 18 cutoffs (an older cutoff list): we report what is stored."""
    profile = load_golden("v04-compat")
    assert len(profile.summary.detailed) == 18
    assert profile.summary != summarize_records(profile.records)


def test_summaries_before_v4_are_empty_like_llvm() -> None:
    summary = load_golden("v02-compat").summary
    assert summary.num_functions == summary.total_count == 0
    assert [e.cutoff for e in summary.detailed][:2] == [10000, 100000]
    assert {(e.min_count, e.num_counts) for e in summary.detailed} == {(0, 0)}


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("v05-stable", "v07-stable"),
        ("v06-stable", "v07-stable"),
        ("v07-vpcalls", "v08-vpcalls"),
        ("v11-mcdc", "v12-mcdc"),
    ],
)
def test_versions_with_the_same_records_read_the_same(older: str, newer: str) -> None:
    a, b = load_golden(older), load_golden(newer)
    assert list(a.records) == list(b.records)
    assert a.summary == b.summary
    assert a.binary_ids == b.binary_ids


def test_vtable_names_and_symbols() -> None:
    profile = load_golden("v12-vtable")
    assert sorted(profile.vtable_names) == [
        "_ZTVN3geo3TriE", "_ZTVN3geo4RectE", "_ZTVN3geo6CircleE", "_ZTVN3geo6SquareE",
    ]  # fmt: skip
    for name in [*profile.vtable_names, *profile.names()]:
        assert profile.symbols[md5_hash(name)] == name
    assert len(profile.symbols) == len(profile.vtable_names) + len(list(profile.names()))


def test_symbols_without_vtable_names_are_the_function_names() -> None:
    profile = load_golden("v13-vpcalls")
    assert profile.vtable_names == []
    assert profile.symbols == {md5_hash(n): n for n in profile.names()}
    assert profile.symbol(md5_hash("main")) == "main"


def test_temporal_traces_read_eagerly() -> None:
    profile = load_golden("v13-temporal")
    assert profile.kind & ProfileKind.TEMPORAL
    assert profile.trace_stream_size == 5
    assert [t.weight for t in profile.traces] == [1] * 5
    assert profile.traces[0].function_hashes[0] == md5_hash("main")


@pytest.mark.parametrize(
    ("name", "first_word"), [("v13-memprof3", 3), ("v13-memprof2", 2), ("v12-memprof0", None)]
)
def test_memprof_section_is_kept_as_a_byte_range(name: str, first_word: int | None) -> None:
    profile = load_golden(name)
    data = golden_path(name).read_bytes()
    assert profile.kind & ProfileKind.MEMPROF
    assert profile.memprof_range is not None
    start, end = profile.memprof_range
    assert start == profile.header.memprof_offset
    assert end == profile.header.binary_id_offset  # LLVM writes binary ids right after it
    (word,) = struct.unpack_from("<Q", data, start)
    if first_word is None:
        assert word >= 24  # MemProf v0: the first word is already RecordTableOffset
    else:
        assert word == first_word
    assert len(profile.records) == 2
    assert "main" in profile


def test_no_memprof_range_without_the_flag() -> None:
    assert load_golden("v13-vpcalls").memprof_range is None


# -- lookup ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", GOLDENS)
def test_lookup_of_every_name_equals_iteration(name: str) -> None:
    profile = load_golden(name)
    by_name: dict[str, list[InstrRecord]] = {}
    for rec in profile.records:
        by_name.setdefault(rec.name, []).append(rec)
    assert list(profile.names()) == list(by_name)
    for key, records in by_name.items():
        assert key in profile
        assert profile.lookup(key) == records


@pytest.mark.parametrize("name", ["v01-compat", "v13-many", "v13-cspgo"])
def test_lookup_of_an_absent_name_is_empty(name: str) -> None:
    profile = load_golden(name)
    for absent in ["", "no_such_function", "main ", "fn_300"]:
        assert profile.lookup(absent) == []
        assert absent not in profile
    assert 42 not in profile


def test_cs_records_share_one_key() -> None:
    profile = load_golden("v13-cspgo")
    records = profile.lookup("main")
    assert len(records) == 2
    assert sorted(r.is_cs for r in records) == [False, True]


def _bucket_offsets(data: bytes, profile: IndexedProfile) -> list[int]:
    table = profile.table
    start = table.table_offset + 16
    return list(struct.unpack_from(f"<{table.num_buckets}Q", data, start))


def test_lookup_reads_only_the_key_bucket() -> None:
    """Every other bucket's count is zeroed; lookups still work, iteration notices (LLVM's
    walk then reads the later counts as parts of items, and fails where they say so)."""
    data = golden_path("v13-many").read_bytes()
    pristine = read(memoryview(data))
    offsets = _bucket_offsets(data, pristine)
    names = list(pristine.names())
    for name in names[::23]:
        mine = pristine.table.bucket_index(md5_hash(name))
        broken = bytearray(data)
        for index, offset in enumerate(offsets):
            if offset and index != mine:
                struct.pack_into("<H", broken, offset, 0)
        profile = read(memoryview(bytes(broken)))
        assert profile.lookup(name) == pristine.lookup(name)
        assert name in profile
        with pytest.raises(MalformedError) as info:
            list(profile.records)
        assert (info.value.location.field or "").startswith("hash_table.")


def test_lookup_asks_for_one_bucket(monkeypatch: pytest.MonkeyPatch) -> None:
    profile = load_golden("v13-many")
    asked: list[int] = []
    original = OnDiskHashTable.bucket

    def counting(self: OnDiskHashTable, index: int) -> Iterator[object]:
        asked.append(index)
        return original(self, index)

    monkeypatch.setattr(OnDiskHashTable, "bucket", counting)
    assert profile.lookup("fn_007")
    assert asked == [md5_hash("fn_007") & (profile.table.num_buckets - 1)]


def test_table_shape_of_a_300_function_profile() -> None:
    profile = load_golden("v13-many")
    assert profile.table.num_buckets == 512
    assert profile.table.num_entries == 300
    data = golden_path("v13-many").read_bytes()
    shared = [o for o in _bucket_offsets(data, profile) if o]
    sizes = [struct.unpack_from("<H", data, o)[0] for o in shared]
    assert max(sizes) > 1  # some buckets hold colliding names
    assert sum(sizes) == 300


# -- the lazy record sequence -------------------------------------------------------------
@pytest.mark.parametrize("name", ["v02-compat", "v13-cspgo", "v13-many", "v12-vtable"])
def test_sequence_protocol(name: str) -> None:
    profile = load_golden(name)
    records = list(profile.records)
    assert len(profile.records) == len(profile) == len(records)
    assert [profile.records[i] for i in range(len(records))] == records
    assert profile.records[-1] == records[-1]
    assert profile.records[1:4] == records[1:4]
    assert profile.records[::-2] == records[::-2]
    with pytest.raises(IndexError):
        profile.records[len(records)]
    assert list(profile) == records


def test_counts_are_zero_copy_uint64_views() -> None:
    data = golden_path("v13-vpcalls").read_bytes()
    profile = read(memoryview(data))
    whole = np.frombuffer(data, dtype=np.uint8)
    for rec in profile.records:
        assert rec.counts.dtype == np.uint64
        assert np.shares_memory(rec.counts, whole)


def test_bitmap_bytes_are_decoded_from_u64_words() -> None:
    records = {r.name: r for r in load_golden("v13-mcdc").records}
    assert records["check_access"].bitmap == b"\x1f"
    assert records["main"].bitmap == b""


def test_nothing_is_decoded_until_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from profdata.formats.indexed_records import RecordDecoder

    calls: list[str] = []
    original = RecordDecoder.decode

    def spy(self: RecordDecoder, name: str, item: object) -> list[InstrRecord]:
        calls.append(name)
        return original(self, name, item)  # type: ignore[arg-type]

    monkeypatch.setattr(RecordDecoder, "decode", spy)
    profile = load_golden("v13-many")
    assert calls == []
    profile.lookup("fn_001")
    assert calls == ["fn_001"]


# -- registration and the public entry points -------------------------------------------------
def test_registered_and_detected() -> None:
    assert INDEXED in instr_formats()
    assert instr_formats()[0] is INDEXED  # LLVM checks the indexed magic first
    data = golden_path("v13-cspgo").read_bytes()
    assert sniff(data[:8])
    assert detect(data[:8]) is INDEXED
    assert not sniff(data[:7])
    assert not sniff(b"\xff\x6c\x70\x72\x6f\x66\x69\x00")


def test_open_instr_maps_the_file(tmp_path: Path) -> None:
    path = tmp_path / "copy.profdata"
    path.write_bytes(golden_path("v13-vpcalls").read_bytes())
    profile = open_instr(path)
    assert isinstance(profile, IndexedProfile)
    assert list(profile.records) == list(load_golden("v13-vpcalls").records)


# -- compat: live llvm-profdata over the shared corpus ------------------------------------
#: Deliberately broken inputs of the corpus (tests/malformed covers them).
BAD_INPUTS = SHARED / "corpus" / "bad-inputs-vis"


def _shared_indexed_files() -> list[Path]:
    found: list[Path] = []
    for root in (SHARED / "corpus", SHARED / "llvm-test-inputs"):
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and "profdata" in path.name and path.parent != BAD_INPUTS:
                with path.open("rb") as fh:
                    if sniff(fh.read(8)):
                        found.append(path)
    return found


SHARED_FILES = _shared_indexed_files()


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(SHARED)) for p in paths]


def _run(tool: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tool), *args], capture_output=True, text=True, errors="surrogateescape", timeout=120
    )


_SUMMARY_LINE = re.compile(r"^(\d+) blocks \([^)]*\) with count >= (\d+) account", re.M)


def _shown_summary(text: str) -> tuple[int, ...]:
    def field(label: str) -> int:
        match = re.search(label + r": (\d+)", text)
        assert match, label
        return int(match[1])

    return (
        field("Total functions"),
        field("Maximum function count"),
        field("Maximum internal block count"),
        field("Total number of blocks"),
        field("Total count"),
        *(v for m in _SUMMARY_LINE.finditer(text) for v in (int(m[1]), int(m[2]))),
    )


def _our_summary(summary: ProfileSummary) -> tuple[int, ...]:
    return (
        summary.num_functions,
        summary.max_function_count,
        summary.max_internal_count,
        summary.num_counts,
        summary.total_count,
        *(v for e in summary.detailed for v in (e.num_counts, e.min_count)),
    )


@pytest.mark.compat
@pytest.mark.parametrize("path", SHARED_FILES, ids=_ids(SHARED_FILES))
def test_shared_file_matches_llvm_22(path: Path, llvm_profdata: Callable[[int], Path]) -> None:
    tool = llvm_profdata(22)
    text = _run(tool, "merge", "--text", str(path), "-o", "-")
    if text.returncode:
        pytest.skip(f"llvm-profdata 22 refuses it: {text.stderr.strip()}")
    profile = load(path)
    check_against_text(profile, text.stdout)
    for cs in (False, True):
        args = ["--all-functions", "--ic-targets", "--show-vtables", "--detailed-summary"]
        show = _run(tool, "show", *args, *(["--showcs"] if cs else []), str(path))
        check_against_show(profile, show.stdout, cs=cs)
        records = [r for r in profile.records if not profile.kind.is_ir or r.is_cs == cs]
        assert _our_summary(summarize_records(records)) == _shown_summary(show.stdout)


@pytest.mark.compat
@pytest.mark.slow
def test_100k_functions_iterate_quickly(
    tmp_path: Path, llvm_profdata: Callable[[int], Path]
) -> None:
    lines = [":ir"]
    for i in range(100_000):
        num = 1 + i % 6
        lines += [f"function_{i}", str(i * 2654435761 % (1 << 59)), str(num)]
        lines += [str((i * 7 + j) % 1000) for j in range(num)]
        lines.append("")
    text = tmp_path / "big.proftext"
    text.write_text("\n".join(lines) + "\n")
    indexed = tmp_path / "big.profdata"
    subprocess.run([str(llvm_profdata(22)), "merge", str(text), "-o", str(indexed)], check=True)
    profile = open_instr(indexed)
    assert isinstance(profile, IndexedProfile)
    start = time.perf_counter()
    total = sum(len(r.counts) for r in profile.records)
    elapsed = time.perf_counter() - start
    assert total == sum(1 + i % 6 for i in range(100_000))
    assert elapsed < 10, f"iterating 100k functions took {elapsed:.2f}s"
    assert summarize_records(profile.records) == profile.summary
    assert profile.lookup("function_99999")[0].counts.tolist() == [
        (99_999 * 7 + j) % 1000 for j in range(1 + 99_999 % 6)
    ]
