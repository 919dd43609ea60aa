"""Indexed profile writer: byte identity with ``llvm-profdata merge`` of 14, 16, 19, 22.

Expected bytes come only from the real tools: the shared corpus (recorded
outputs) or ``llvm-profdata merge`` run at test time on a text profile that
the test renders (``@pytest.mark.compat``).  Text inputs keep their record
order through LLVM's text reader, so they pin down the insertion orders that
decide the hash-table and ``SmallDenseMap`` layouts.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import random
import struct
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from profdata.errors import EmptyProfileError
from profdata.formats import _onhash_write, open_instr, text
from profdata.formats._binary import ByteWriter
from profdata.formats._onhash import OnDiskHashTable
from profdata.formats.indexed_layout import LAST_VERSION, layout
from profdata.formats.indexed_write import SUMMARY_SIZE, write_indexed
from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind
from profdata.model.llvm_containers import (
    densemap_hash,
    djb_hash,
    djb_hashes,
    small_densemap_order,
    stringmap_order,
)
from profdata.model.names import md5_hash
from profdata.model.xxh3 import xxh3_64bits
from profdata.ops.merge import InstrProfWriter
from profdata.releases import release
from tests.compat import tools
from tests.conftest import SHARED

RELEASES = tools.RELEASES


def _u64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.uint64)


def _merged(profile: InstrProfile) -> InstrProfile:
    """What ``llvm-profdata merge`` of one input holds before writing."""
    writer = InstrProfWriter()
    assert writer.add_profile(profile) is None
    return writer.to_profile()


def _render(
    records: Sequence[InstrRecord],
    kind: ProfileKind,
    rel: int,
    symbols: dict[int, str] | None = None,
) -> bytes:
    """A text profile holding ``records`` in this order (LLVM reads them in file order)."""
    release_row = release(rel)
    body = text.format_header(kind, release_row)
    body += text.format_records(records, symbols or {}, release_row)
    return body.encode("utf-8", "surrogateescape")


def _llvm_merge(
    tool: Path, tmp_path: Path, proftext: bytes, *extra: str, name: str = "in"
) -> bytes:
    src = tmp_path / f"{name}.proftext"
    dst = tmp_path / f"{name}.profdata"
    src.write_bytes(proftext)
    result = tools.run_tool(tool, ["merge", *extra, "-o", str(dst), str(src)])
    assert result.returncode == 0, result.stderr.decode()
    return dst.read_bytes()


def _ours(proftext: bytes, rel: int, *, sparse: bool = False, version: int | None = None) -> bytes:
    profile = text.read(memoryview(proftext))
    return write_indexed(_merged(profile), release=release(rel), sparse=sparse, version=version)


# -- corpus: merges LLVM does one input after the other (no tool needed) ---------------------
_SEQUENTIAL_OPTIONS = {"--sparse", "--keep-vtable-symbols", "--num-threads=1"}

#: Checks whose input a reader turns into a different merged state than LLVM did.
_READER_QUIRKS = {
    # LLVM 16 keeps only the last binary id of a raw file holding two raw profiles
    "shlib-score-l16/l16-merge-o",
}


def _manifest_checks() -> list[tuple[str, dict[str, object]]]:
    manifest = SHARED / "corpus" / "manifest.json"
    if not manifest.is_file():
        return []
    found = []
    for case in json.loads(manifest.read_text())["cases"]:
        for check in case["checks"]:
            if check.get("output_kind") == "indexed" and check["exit"] == 0:
                found.append((f"{case['id']}/{check['name']}", check))
    return found


def _split_args(check: dict[str, object]) -> tuple[list[str], list[str]]:
    args = check["args"]
    assert isinstance(args, list)
    out = args.index("-o")
    rest = [str(a) for a in args[1:out] + args[out + 2 :]]
    return [a for a in rest if a.startswith("-")], [a for a in rest if not a.startswith("-")]


def _sequential_checks() -> list[tuple[str, dict[str, object]]]:
    """Merges with one writer context: at most 2 inputs or ``--num-threads=1``, no weights."""
    chosen = []
    for check_id, check in _manifest_checks():
        options, inputs = _split_args(check)
        single_context = len(inputs) <= 2 or "--num-threads=1" in options
        if (
            set(options) <= _SEQUENTIAL_OPTIONS
            and single_context
            and check_id not in _READER_QUIRKS
        ):
            chosen.append((check_id, check))
    return chosen


@pytest.mark.parametrize(("check_id", "check"), _sequential_checks())
def test_corpus_sequential_merge(corpus_dir: Path, check_id: str, check: dict[str, object]) -> None:
    options, inputs = _split_args(check)
    writer = InstrProfWriter()
    for name in inputs:
        try:
            profile = open_instr(corpus_dir / name)
        except EmptyProfileError:
            continue  # LLVM warns and merges nothing
        assert writer.add_profile(profile) is None
        if "--keep-vtable-symbols" in options:
            writer.vtable_names.extend(profile.vtable_names)
    rel = check["llvm"]
    assert isinstance(rel, int)
    got = write_indexed(writer.to_profile(), release=release(rel), sparse="--sparse" in options)
    assert got == (corpus_dir / str(check["output"])).read_bytes()


def test_corpus_checks_were_found() -> None:
    if not (SHARED / "corpus").is_dir():
        pytest.skip("shared corpus not present")
    assert len(_sequential_checks()) >= 200


def _indexed_outputs() -> list[tuple[str, int]]:
    """One indexed file per corpus case, with every release that can read it."""
    seen: set[str] = set()
    pairs: list[tuple[str, int]] = []
    for _, check in _manifest_checks():
        output = str(check["output"])
        folder = output.split("/")[0]
        if folder in seen:
            continue
        seen.add(folder)
        written_by = check["llvm"]
        assert isinstance(written_by, int)
        pairs.extend((output, rel) for rel in RELEASES if rel >= written_by)
    return pairs


@pytest.mark.compat
@pytest.mark.parametrize(("output", "rel"), _indexed_outputs())
def test_remerging_corpus_files_matches_llvm(
    llvm_profdata: Callable[[int], Path], corpus_dir: Path, tmp_path: Path, output: str, rel: int
) -> None:
    """Indexed input: records arrive in hash-table order, which LLVM does not round-trip either."""
    dst = tmp_path / "out.profdata"
    result = tools.run_tool(llvm_profdata(rel), ["merge", "-o", str(dst), str(corpus_dir / output)])
    assert result.returncode == 0, result.stderr.decode()
    profile = open_instr(corpus_dir / output)
    assert write_indexed(_merged(profile), release=release(rel)) == dst.read_bytes()


@pytest.mark.parametrize("rel", [16, 19, 22])
def test_corpus_binary_ids(corpus_dir: Path, rel: int) -> None:
    """The binary-id section: the corpus's text dump plus the ids ``show --binary-ids`` printed."""
    case = corpus_dir / f"binary-ids-vpcalls-l{rel}" / "expected"
    shown = (case / f"l{rel}-show-binary-ids.stdout").read_text()  # of the raw input
    ids = [bytes.fromhex(word) for word in shown.split("Binary IDs:")[1].split()]
    assert ids
    profile = text.read(memoryview((case / f"l{rel}-merge-text-o.proftext").read_bytes()))
    profile.binary_ids = ids
    got = write_indexed(_merged(profile), release=release(rel))
    assert got == (case / f"l{rel}-merge-o.profdata").read_bytes()


@pytest.mark.parametrize("rel", [19, 22])
def test_corpus_vtable_names_section(corpus_dir: Path, rel: int) -> None:
    """``--keep-vtable-symbols``: the names in ``StringSet`` (xxh3) order, one zlib chunk."""
    expected = (
        corpus_dir
        / f"irpgo-vtable-vcalls-cpp-l{rel}"
        / "expected"
        / f"l{rel}-merge-keep-vtable-symbols-o.profdata"
    ).read_bytes()
    # as stored in run1.profraw's vtable-names section (insertion order)
    names = ["_ZTVN3geo6SquareE", "_ZTVN3geo4RectE", "_ZTVN3geo3TriE", "_ZTVN3geo6CircleE"]
    lay = layout(release(rel).indexed_version)
    header = lay.header.unpack_from(expected)
    vtable_at = header[lay.header_fields.index("vtable_names_offset")]
    ours = write_indexed(InstrProfile(ProfileKind.IR, [], vtable_names=names), release=release(rel))
    ours_at = lay.header.unpack_from(ours)[lay.header_fields.index("vtable_names_offset")]
    assert ours[ours_at:] == expected[vtable_at:]


# -- the spec's examples, checked against the real tools ---------------------------------
def test_single_record_layout_offsets() -> None:
    """LLVM 22, one IR record of 2 counters: 640 bytes, table at 0x258 (instr-indexed §14)."""
    profile = InstrProfile(ProfileKind.IR, [InstrRecord("foo", 0x10, _u64(7, 3))])
    data = write_indexed(profile, release=release(22))
    lay = layout(13)
    header = dict(zip(lay.header_fields, lay.header.unpack_from(data), strict=True))
    assert len(data) == 640
    assert header["version"] == (1 << 56) | 13
    assert header["hash_offset"] == 0x258
    assert header["binary_id_offset"] == 0x270
    assert header["vtable_names_offset"] == 0x278
    assert header["memprof_offset"] == header["temporal_prof_traces_offset"] == 0


@pytest.mark.compat
@pytest.mark.parametrize("rel", RELEASES)
def test_single_record_matches_llvm(
    llvm_profdata: Callable[[int], Path], tmp_path: Path, rel: int
) -> None:
    proftext = b":ir\nfoo\n0x10\n2\n7\n3\n"
    assert _ours(proftext, rel) == _llvm_merge(llvm_profdata(rel), tmp_path, proftext)


def _names(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    names = [f"fn_{i}_{rng.randrange(1 << 30):x}" for i in range(count)]
    rng.shuffle(names)
    return names


@pytest.mark.compat
@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("count", [1, 2, 3, 6, 47, 48, 49, 301])
def test_hash_table_sizes_match_llvm(
    llvm_profdata: Callable[[int], Path], tmp_path: Path, rel: int, count: int
) -> None:
    """Bucket counts, in-bucket order after rehashes and (14/16) StringMap order."""
    records = [
        InstrRecord(name, i + 1, _u64(i, 2 * i + 1)) for i, name in enumerate(_names(count, count))
    ]
    proftext = _render(records, ProfileKind.IR, rel)
    expected = _llvm_merge(llvm_profdata(rel), tmp_path, proftext)
    assert _ours(proftext, rel) == expected
    lay = layout(release(rel).indexed_version)
    table_at = lay.header.unpack_from(expected)[lay.header_fields.index("hash_offset")]
    assert struct.unpack_from("<Q", expected, table_at)[0] == _onhash_write.target_buckets(count)


def _colliding_names(count: int, mask: int) -> list[str]:
    """Names whose MD5 hashes share the low bits, so they share a bucket in any small table."""
    names: list[str] = []
    i = 0
    while len(names) < count:
        name = f"c{i}"
        if md5_hash(name) & mask == 0:
            names.append(name)
        i += 1
    return names


@pytest.mark.compat
@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("count", [3, 5, 9])
def test_in_bucket_order_matches_llvm(
    llvm_profdata: Callable[[int], Path], tmp_path: Path, rel: int, count: int
) -> None:
    names = _colliding_names(count, 0x3F) + _names(60, 7)
    records = [InstrRecord(name, 5, _u64(i)) for i, name in enumerate(names)]
    proftext = _render(records, ProfileKind.IR, rel)
    assert _ours(proftext, rel) == _llvm_merge(llvm_profdata(rel), tmp_path, proftext)


@pytest.mark.compat
@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize(
    "hashes",
    [
        [1, 2],
        [2, 1],
        [1, 5],
        [5, 1],
        [4, 8, 12],
        [0x1A4D0AD3EFFFFFFF, 0x0A4D0AD3EFFFFFFF],
        [0x0A4D0AD3EFFFFFFF, 0x1A4D0AD3EFFFFFFF],
        list(range(64, 0, -1)),
        [3 << 40, 7 << 40, 1 << 40, 11 << 40, 2 << 40],
    ],
    ids=lambda h: f"{len(h)}-{h[0]:x}",
)
def test_records_of_one_name_follow_densemap_order(
    llvm_profdata: Callable[[int], Path], tmp_path: Path, rel: int, hashes: list[int]
) -> None:
    records = [InstrRecord("f", h, _u64(i + 1, h & 0xFF)) for i, h in enumerate(hashes)]
    records.append(InstrRecord("g", 9, _u64(1)))
    proftext = _render(records, ProfileKind.IR, rel)
    assert _ours(proftext, rel) == _llvm_merge(llvm_profdata(rel), tmp_path, proftext)


@pytest.mark.compat
@pytest.mark.parametrize("rel", RELEASES)
def test_cs_summary_matches_llvm(
    llvm_profdata: Callable[[int], Path], tmp_path: Path, rel: int
) -> None:
    """CS records (FuncHash bit 60) feed the second summary; pseudo counts feed neither."""
    records = []
    for i, name in enumerate(_names(20, 3)):
        records.append(InstrRecord(name, 0x123 + i, _u64(i * 10, i, 0, 5000 - i)))
        records.append(InstrRecord(name, CS_HASH_BIT | (0x77 + i), _u64(i, 3 * i + 1)))
    records.append(InstrRecord("pseudo_hot", 0x55, _u64(0xFFFFFFFFFFFFFFFF, 0)))
    records.append(InstrRecord("pseudo_warm", 0x56, _u64(0xFFFFFFFFFFFFFFFE, 3)))
    records.append(InstrRecord("saturated", 0x57, _u64(5, 0xFFFFFFFFFFFFFFFF)))
    proftext = _render(records, ProfileKind.IR | ProfileKind.CS, rel)
    expected = _llvm_merge(llvm_profdata(rel), tmp_path, proftext)
    got = _ours(proftext, rel)
    header_size = layout(release(rel).indexed_version).header_size
    summaries = slice(header_size, header_size + 2 * SUMMARY_SIZE)
    assert got[summaries] == expected[summaries]
    assert got == expected


@pytest.mark.compat
@pytest.mark.parametrize("rel", RELEASES)
def test_value_sites_and_sparse_match_llvm(
    llvm_profdata: Callable[[int], Path], tmp_path: Path, rel: int
) -> None:
    targets = {md5_hash(n): n for n in ("op_add", "op_sub", "op_mul")}
    add, sub, mul = targets
    records = [
        InstrRecord(
            "dispatch",
            42,
            _u64(10, 4),
            value_sites={
                ValueKind.INDIRECT_CALL_TARGET: [
                    [ValueData(add, 5), ValueData(sub, 5), ValueData(mul, 9)],
                    [],
                    [ValueData(0, 2), ValueData(0, 1)],
                ],
                ValueKind.MEMOP_SIZE: [[ValueData(8, 3), ValueData(513, 3), ValueData(1, 4)]],
            },
        ),
        InstrRecord("zero", 1, _u64(0, 0)),
        InstrRecord("op_add", 2, _u64(5)),
        InstrRecord("op_sub", 3, _u64(5)),
        InstrRecord("op_mul", 4, _u64(0)),
        InstrRecord("op_mul", 5, _u64(9)),
    ]
    proftext = _render(records, ProfileKind.IR, rel, targets)
    tool = llvm_profdata(rel)
    assert _ours(proftext, rel) == _llvm_merge(tool, tmp_path, proftext)
    sparse = _llvm_merge(tool, tmp_path, proftext, "--sparse", name="sparse")
    assert _ours(proftext, rel, sparse=True) == sparse


@pytest.mark.compat
@pytest.mark.parametrize("rel", [19, 22])
def test_bitmaps_and_temporal_traces_match_llvm(
    llvm_profdata: Callable[[int], Path], tmp_path: Path, rel: int
) -> None:
    records = [
        InstrRecord("mcdc", 7, _u64(3, 1, 2), bitmap=bytes([0x81, 0, 0xFF])),
        InstrRecord("nomcdc", 8, _u64(0)),
    ]
    row = release(rel)
    # stream size = trace count: LLVM 19 ignores a text input's stream size, 22 adds it
    traces = ":temporal_prof_traces\n2\n2\n3\nmcdc,nomcdc,\n1\nnomcdc,\n"
    body = text.format_header(ProfileKind.IR, row) + traces + text.format_records(records, {}, row)
    proftext = body.encode()
    assert _ours(proftext, rel) == _llvm_merge(llvm_profdata(rel), tmp_path, proftext)


# -- versions llvm-profdata no longer writes ------------------------------------------------
@pytest.mark.compat
@pytest.mark.parametrize("version", range(1, LAST_VERSION + 1))
def test_every_version_reads_back_in_llvm_22(
    llvm_profdata: Callable[[int], Path], tmp_path: Path, version: int
) -> None:
    """Our v1..v13 files decode in LLVM 22 to what the text input says (minus absent features)."""
    lay = layout(version)
    sites = {ValueKind.MEMOP_SIZE: [[ValueData(8, 3), ValueData(1, 1)]]}
    records = [
        InstrRecord("a", 11, _u64(5, 6), value_sites=sites if lay.has_value_data else {}),
        InstrRecord("b", 12, _u64(0), bitmap=b"\x03" if lay.has_bitmap else b""),
    ]
    if lay.multiple_records_per_name:
        records.append(InstrRecord("a", 13, _u64(1, 2, 3)))
    proftext = _render(records, ProfileKind.IR, 22)
    ours = tmp_path / "ours.profdata"
    ours.write_bytes(_ours(proftext, 22, version=version))
    tool = llvm_profdata(22)
    from_ours = tools.run_tool(tool, ["merge", "--text", "-o", "-", str(ours)])
    assert from_ours.returncode == 0, from_ours.stderr.decode()
    (tmp_path / "in.proftext").write_bytes(proftext)
    from_text = tools.run_tool(tool, ["merge", "--text", "-o", "-", str(tmp_path / "in.proftext")])
    assert from_ours.stdout == from_text.stdout
    shown = tools.run_tool(tool, ["show", "--all-functions", "--counts", str(ours)])
    assert shown.returncode == 0
    assert b"Block counts: [5, 6]" in shown.stdout


def test_old_versions_store_max_function_count() -> None:
    profile = InstrProfile(
        ProfileKind.FRONTEND,
        [InstrRecord("a", 1, _u64(40, 99)), InstrRecord("b", 2, _u64(70))],
    )
    for version in (1, 2, 3, 4):
        data = write_indexed(profile, release=release(22), version=version)
        word = struct.unpack_from("<Q", data, 16)[0]
        assert word == (70 if version < 4 else 0)


# -- bad input to the writer ---------------------------------------------------------------
def test_duplicate_record_is_refused() -> None:
    profile = InstrProfile(
        ProfileKind.IR, [InstrRecord("a", 1, _u64(1)), InstrRecord("a", 1, _u64(2))]
    )
    with pytest.raises(ValueError, match="two records with hash 0x1"):
        write_indexed(profile, release=release(22))


def test_version_1_holds_one_record_per_name() -> None:
    profile = InstrProfile(
        ProfileKind.IR, [InstrRecord("a", 1, _u64(1)), InstrRecord("a", 2, _u64(2))]
    )
    with pytest.raises(ValueError, match="version 1 holds one per name"):
        write_indexed(profile, release=release(22), version=1)
    assert write_indexed(profile, release=release(22), version=2)


def test_oversized_value_site_is_refused() -> None:
    site = [ValueData(v, 1) for v in range(256)]
    record = InstrRecord("a", 1, _u64(1), value_sites={ValueKind.MEMOP_SIZE: [site]})
    with pytest.raises(ValueError, match="256 values"):
        write_indexed(InstrProfile(ProfileKind.IR, [record]), release=release(22))


def test_unknown_version_is_refused() -> None:
    profile = InstrProfile(ProfileKind.IR, [])
    for version in (0, LAST_VERSION + 1):
        with pytest.raises(ValueError, match=r"not in 1\.\.13"):
            write_indexed(profile, release=release(22), version=version)


def test_memprof_flag_writes_the_section_llvm_merge_writes() -> None:
    """llvm-profdata 22 ``merge l22-v3.profdata`` (tests/golden/memprof): an indexed input's
    MemProf records are dropped and the section written empty; so is ours."""
    memprof = Path(__file__).resolve().parents[2] / "golden" / "memprof"
    cases = json.loads((memprof / "cases.json").read_text())["cases"]
    wanted = ["merge", "l22-v3.profdata", "-o", "OUT"]
    (case,) = [c for c in cases if c["release"] == 22 and c["args"] == wanted]
    expected = (memprof / "expected" / case["output"]).read_bytes()
    profile = open_instr(memprof / "expected" / case["output"])
    assert profile.kind & ProfileKind.MEMPROF
    assert write_indexed(profile, release=release(22)) == expected


def test_vtable_kind_is_dropped_before_llvm_19() -> None:
    sites = {ValueKind.VTABLE_TARGET: [[ValueData(md5_hash("_ZTV1A"), 4)]]}
    with_vtable = InstrProfile(ProfileKind.IR, [InstrRecord("a", 1, _u64(1), value_sites=sites)])
    without = InstrProfile(ProfileKind.IR, [InstrRecord("a", 1, _u64(1))])
    assert write_indexed(with_vtable, release=release(16)) == write_indexed(
        without, release=release(16)
    )
    assert write_indexed(with_vtable, release=release(19)) != write_indexed(
        without, release=release(19)
    )


# -- the hash-table generator -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("entries", "buckets"), [(0, 1), (1, 1), (2, 1), (3, 8), (6, 16), (48, 128), (301, 512)]
)
def test_target_bucket_counts(entries: int, buckets: int) -> None:
    assert _onhash_write.target_buckets(entries) == buckets
    assert len(_onhash_write.bucket_layout(list(range(entries)))) == buckets


def test_same_bucket_order_without_rehash_keeps_insertion_order() -> None:
    """Prepending, then the one shrink from 64 to 8 buckets, reverses twice."""
    assert _onhash_write.bucket_layout([0, 1024, 2048])[0] == [0, 1, 2]


def test_same_bucket_order_after_growth_rehash() -> None:
    """The 48th insert doubles 64 -> 128 first: the 47 earlier items reverse, it goes on top."""
    chain = _onhash_write.bucket_layout([i << 10 for i in range(48)])[0]
    assert chain == [47, *range(47)]


def test_emitted_table_reads_back() -> None:
    names = [f"k{i}".encode() for i in range(100)]
    hashes = [md5_hash(n.decode()) for n in names]
    items = [struct.pack("<QQ", len(n), 3) + n + b"abc" for n in names]
    out = ByteWriter()
    out.bytes(b"\0" * 8)
    table_at = _onhash_write.emit(out, hashes, items)
    assert table_at % 8 == 0
    table = OnDiskHashTable(memoryview(out.getvalue()), table_offset=table_at, payload_offset=8)
    assert table.num_entries == 100
    assert table.num_buckets == 256
    for name, key_hash in zip(names, hashes, strict=True):
        item = table.find(key_hash, name)
        assert item is not None
        assert table.key(item) == name
    assert sorted(table.key(item) for item in table.items()) == sorted(names)


# -- LLVM container orders ----------------------------------------------------------------------
def test_djb_hash_values() -> None:
    assert djb_hash(b"") == 0
    assert djb_hash(b"a") == 97
    assert djb_hash(b"ab") == 97 * 33 + 98
    keys = [b"", b"a", b"ab", bytes(range(256)) * 3]
    assert djb_hashes(keys).tolist() == [djb_hash(k) for k in keys]


def test_densemap_order_x37() -> None:
    # x*37 & 3: 1 -> 1, 2 -> 2, 4 -> 0, 5 -> 1 (collides with 1, probes to 2)
    assert small_densemap_order([2, 1], mix=False) == [1, 0]
    assert small_densemap_order([1, 5], mix=False) == [0, 1]
    assert small_densemap_order([5, 1], mix=False) == [0, 1]
    assert small_densemap_order([1, 4], mix=False) == [1, 0]


def test_densemap_order_mix() -> None:
    keys = [1, 2, 3]
    slots = [densemap_hash(k, mix=True) & 63 for k in keys]
    assert sorted(range(3), key=lambda i: slots[i]) == small_densemap_order(keys, mix=True)


def test_densemap_repeated_keys_keep_first_index() -> None:
    assert sorted(small_densemap_order([7, 7, 8], mix=True)) == [0, 2]


def test_stringmap_order_is_hash_order_without_collisions() -> None:
    keys = [b"b", b"a", b"c"]
    assert stringmap_order(keys, xxh3=False) == [1, 0, 2]  # 98, 97, 99 in 16 slots


def _libxxhash() -> Callable[[bytes], int] | None:
    path = ctypes.util.find_library("xxhash")
    if path is None:
        return None
    lib = ctypes.CDLL(path)
    fn = lib.XXH3_64bits
    fn.restype = ctypes.c_uint64
    fn.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    return lambda data: int(fn(data, len(data)))


def test_xxh3_matches_libxxhash() -> None:
    reference = _libxxhash()
    if reference is None:
        pytest.skip("libxxhash is not installed")
    rng = random.Random(5)
    lengths = [*range(0, 260), 1023, 1024, 1025, 2048, 4097]
    for length in lengths:
        data = bytes(rng.randrange(256) for _ in range(length))
        assert xxh3_64bits(data) == reference(data), length
