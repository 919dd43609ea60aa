"""Text format against goldens of the real llvm-profdata 14, 16, 19 and 22 (see make_goldens.py).

Stored goldens run everywhere; the ``compat`` tests run the installed tools
live (on the same inputs, and on randomly damaged inputs) and skip cleanly
when a release is not installed.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from profdata.errors import FormatError
from profdata.formats import text
from profdata.model.instr import InstrProfile, InstrRecord, ValueData, ValueSite
from profdata.releases import release

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected"
RELEASES = (14, 16, 19, 22)
CORPUS = Path("/work/shared/corpus")
U64_MAX = (1 << 64) - 1

#: (input, release) pairs whose golden differs from ours because that release's
#: *reader* parses the input differently from LLVM 22's (our reader is 22's).
OLDER_READERS_DIFFER = {
    ("err_dollar_name", 14): "LLVM 14 has no bitmap blocks: '$foo' is a function name",
    ("err_dollar_name", 16): "LLVM 16 has no bitmap blocks: '$foo' is a function name",
}
#: DenseMap<uint64_t>'s empty and tombstone keys: ``InstrProfWriter`` loses records with these
#: FuncHashes (the first with a "counter mismatch" warning, the second silently).
DENSEMAP_RESERVED_HASHES = (U64_MAX, U64_MAX - 1)
#: ``InstrProfWriter``'s default ``--temporal-profile-trace-reservoir-size``.
TRACE_RESERVOIR_SIZE = 100


def tool(number: int) -> Path:
    return Path(f"/usr/lib/llvm-{number}/bin/llvm-profdata")


def _merge_site(dest: ValueSite, src: ValueSite) -> ValueSite:
    """``InstrProfValueSiteRecord::merge``, weight 1: both sorted by value, equal values summed."""
    merged = sorted(dest, key=lambda v: v.value)
    pos = 0
    for item in sorted(src, key=lambda v: v.value):
        while pos < len(merged) and merged[pos].value < item.value:
            pos += 1
        if pos < len(merged) and merged[pos].value == item.value:
            total = min(merged[pos].count + item.count, U64_MAX)
            merged[pos] = ValueData(item.value, total)
            pos += 1
        else:
            merged.insert(pos, item)
            pos += 1
    return merged


def single_input_merge(profile: InstrProfile, number: int) -> InstrProfile:
    """What ``llvm-profdata merge`` of release ``number`` does to ONE text input (weight 1).

    ``InstrProfWriter::addRecord``: the first (name, hash) record is taken as
    is; a later one with the same counter count is added (saturating), its
    bitmap OR-ed and its value sites merged per site (a different number of
    counters or sites is dropped with a warning); after every addition each
    site is stable-sorted by descending count.  Records whose hash is a
    DenseMap reserved key vanish.  Empty temporal traces are dropped; an
    unsampled stream's size becomes the number of traces before LLVM 22 and
    stays as read in 22.  Enough for single inputs; the real merge lives in
    :mod:`profdata.ops.merge`.
    """
    merged: dict[tuple[str, int], InstrRecord] = {}
    for rec in profile.records:
        if rec.hash in DENSEMAP_RESERVED_HASHES:
            continue
        key = (rec.name, rec.hash)
        dest = merged.get(key)
        if dest is None:
            dest = merged[key] = InstrRecord(
                rec.name, rec.hash, rec.counts.copy(), rec.bitmap,
                {k: [list(s) for s in sites] for k, sites in rec.value_sites.items()},
            )  # fmt: skip
        elif len(dest.counts) == len(rec.counts):
            total = dest.counts.astype(object) + rec.counts.astype(object)
            dest.counts = np.array([min(int(t), U64_MAX) for t in total], dtype=np.uint64)
            if len(dest.bitmap) == len(rec.bitmap):
                dest.bitmap = bytes(a | b for a, b in zip(dest.bitmap, rec.bitmap, strict=True))
            for kind, sites in rec.value_sites.items():
                mine = dest.value_sites.get(kind, [])
                if len(mine) == len(sites):
                    dest.value_sites[kind] = [
                        _merge_site(a, b) for a, b in zip(mine, sites, strict=True)
                    ]
        for kind, sites in dest.value_sites.items():
            dest.value_sites[kind] = [sorted(s, key=lambda v: -v.count) for s in sites]
    traces = [t for t in profile.traces if t.function_hashes]
    stream_size = profile.trace_stream_size
    if number < 22 and stream_size <= TRACE_RESERVOIR_SIZE:
        stream_size = len(traces)
    return InstrProfile(
        kind=profile.kind,
        records=list(merged.values()),
        traces=traces,
        trace_stream_size=stream_size,
    )


def read_file(path: Path) -> InstrProfile:
    return text.read(memoryview(path.read_bytes()), path.name)


def golden_outputs() -> Iterator[tuple[str, int]]:
    for number in RELEASES:
        for out in sorted((EXPECTED / f"l{number}").glob("*.proftext")):
            yield out.stem, number


def golden_errors() -> Iterator[str]:
    for err in sorted((EXPECTED / "l22").glob("*.err")):
        yield err.stem


@pytest.mark.parametrize(("stem", "number"), list(golden_outputs()))
def test_merge_text_golden(stem: str, number: int) -> None:
    if (stem, number) in OLDER_READERS_DIFFER:
        pytest.skip(OLDER_READERS_DIFFER[(stem, number)])
    expected = (EXPECTED / f"l{number}" / f"{stem}.proftext").read_bytes()
    profile = single_input_merge(read_file(INPUTS / f"{stem}.proftext"), number)
    assert text.write(profile, release(number)).decode("utf-8", "surrogateescape") == (
        expected.decode("utf-8", "surrogateescape")
    )


def rejected_by_llvm22() -> Iterator[tuple[str, str]]:
    for err in sorted((EXPECTED / "l22").glob("*.err")):
        yield err.stem, err.read_text().rstrip("\n")


#: Inputs LLVM 22 rejects and we read on purpose (instr-text.md §4.2).
ACCEPTED_ON_PURPOSE = {"bitmap_300": "more than 255 bitmap bytes in one record"}


@pytest.mark.parametrize(
    ("stem", "message"),
    [case for case in rejected_by_llvm22() if case[0] not in ACCEPTED_ON_PURPOSE],
)
def test_rejected_with_llvm22_message(stem: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        read_file(INPUTS / f"{stem}.proftext")
    assert info.value.llvm_message == message
    assert info.value.location.line is not None


def test_more_than_255_bitmap_bytes_are_read() -> None:
    assert (EXPECTED / "l22" / "bitmap_300.err").read_text() == "truncated profile data\n"
    (record,) = read_file(INPUTS / "bitmap_300.proftext").records
    assert record.bitmap == bytes(i % 256 for i in range(300))


def show_text_goldens() -> Iterator[tuple[str, int]]:
    for number in RELEASES:
        for out in sorted((EXPECTED / f"l{number}").glob("*.show.txt")):
            yield out.name.removesuffix(".show.txt"), number


@pytest.mark.parametrize(("stem", "number"), list(show_text_goldens()))
def test_show_text_golden(stem: str, number: int) -> None:
    """``show --text --all-functions``: reader order, reader symbols, bare ``:ir``."""
    profile = read_file(INPUTS / f"{stem}.proftext")
    assert not any(r.is_cs for r in profile.records)
    shown = (":ir\n" if profile.kind.is_ir else "") + text.format_records(
        profile.records, profile.symbols, release(number)
    )
    expected = (EXPECTED / f"l{number}" / f"{stem}.show.txt").read_bytes()
    assert shown.encode("utf-8", "surrogateescape") == expected


def corpus_text_outputs() -> Iterator[tuple[str, int]]:
    manifest = CORPUS / "manifest.json"
    if not manifest.exists():
        return
    for case in json.loads(manifest.read_text())["cases"]:
        for check in case["checks"]:
            if check.get("output_kind") == "text":
                yield check["output"], check["llvm"]


@pytest.mark.parametrize(("output", "number"), list(corpus_text_outputs()))
def test_corpus_merge_text_outputs_round_trip(output: str, number: int) -> None:
    """Every ``merge --text`` output of the corpus is canonical: read then write gives it back."""
    data = (CORPUS / output).read_bytes()
    profile = text.read(memoryview(data), output)
    assert text.write(profile, release(number)) == data


# ---------------------------------------------------------------------------
# live comparisons with the installed tools

COMPAT_INPUTS = (
    "ext_targets", "headers_case", "entry_first", "fe_explicit", "temporal", "mcdc_bitmap",
    "radix", "crlf", "comments_blank", "names_bytes", "value_order", "repeated_kind",
    "empty_sites", "hash_densemap_keys", "llvm19-overlap_1_vp", "llvm19-counter-mismatch-1",
    "llvm19-multiple-profdata-merge", "corpus-ir_values", "corpus-fe_basic",
)  # fmt: skip


def run_merge_text(number: int, src: Path, out: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(tool(number)), "merge", "--text", "-o", str(out), str(src)],
        capture_output=True,
        timeout=60,
        check=False,
    )


def llvm_first_message(stderr: bytes, src: Path) -> str:
    for line in stderr.decode("utf-8", "replace").splitlines():
        for tag in ("warning: ", "error: "):
            if line.startswith(f"{tag}{src}: "):
                return line[len(f"{tag}{src}: ") :]
    raise AssertionError(f"no message about {src} in {stderr!r}")


@pytest.mark.compat
@pytest.mark.parametrize("number", RELEASES)
@pytest.mark.parametrize("stem", COMPAT_INPUTS)
def test_writer_matches_installed_llvm(stem: str, number: int, tmp_path: Path) -> None:
    if not tool(number).exists():
        pytest.skip(f"llvm-profdata {number} is not installed")
    src = INPUTS / f"{stem}.proftext"
    out = tmp_path / "out.proftext"
    proc = run_merge_text(number, src, out)
    if proc.returncode != 0:
        pytest.skip(f"LLVM {number} rejects {stem}: {llvm_first_message(proc.stderr, src)}")
    ours = text.write(single_input_merge(read_file(src), number), release(number))
    assert ours == out.read_bytes()


_FUZZ_LINES = (
    b"0", b"1", b"3", b"$2", b"$", b":ir", b":csir", b"# c", b"", b"x:1",
    b"** External Symbol **:2", b"4294967296", b"-1", b"0x", b"0x10", b"010", b"09",
    b" 1", b"1 ", b"\r", b"f", b"::",
)  # fmt: skip


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random damage: flip a byte, drop/duplicate/replace a line, insert a token, truncate."""
    lines = data.split(b"\n")
    action = rng.randrange(6)
    if action == 0 and data:
        pos = rng.randrange(len(data))
        return data[:pos] + bytes([rng.randrange(256)]) + data[pos + 1 :]
    i = rng.randrange(len(lines))
    if action == 1:
        del lines[i]
    elif action == 2:
        lines.insert(i, lines[i])
    elif action == 3:
        lines[i] = rng.choice(_FUZZ_LINES)
    elif action == 4:
        lines.insert(i, rng.choice(_FUZZ_LINES))
    else:
        return data[: rng.randrange(len(data) + 1)]
    return b"\n".join(lines)


FUZZ_BASES = (
    "ext_targets", "temporal", "mcdc_bitmap", "value_order", "comments_blank", "radix",
    "headers_case", "names_odd", "crlf", "llvm19-overlap_1_vp", "repeated_kind", "empty_sites",
)  # fmt: skip


@pytest.mark.compat
@pytest.mark.parametrize("base", FUZZ_BASES)
def test_damaged_inputs_behave_like_llvm22(base: str, tmp_path: Path) -> None:
    """Differential fuzz: LLVM 22 and we accept the same damaged files and word rejections alike."""
    if not tool(22).exists():
        pytest.skip("llvm-profdata 22 is not installed")
    rng = random.Random(f"text-fuzz-{base}")
    original = (INPUTS / f"{base}.proftext").read_bytes()
    compared = 0
    for attempt in range(20):
        data = mutate(mutate(original, rng), rng) if attempt % 2 else mutate(original, rng)
        if not data or not text.sniff(data):
            continue
        src = tmp_path / f"case{attempt}.proftext"
        src.write_bytes(data)
        out = tmp_path / f"case{attempt}.out"
        proc = run_merge_text(22, src, out)
        if proc.returncode not in (0, 1) or b"invalid profile created" in proc.stderr:
            continue  # LLVM crashed (e.g. reserving 10**12 counters), or a merge-side check
        try:
            profile = text.read(memoryview(data), str(src))
        except FormatError as exc:
            assert proc.returncode != 0, f"we reject what LLVM reads: {data!r}: {exc}"
            assert exc.llvm_message == llvm_first_message(proc.stderr, src), data
        else:
            if proc.returncode != 0:
                assert any(len(r.bitmap) > 255 for r in profile.records), (data, proc.stderr)
                continue
            ours = text.write(single_input_merge(profile, 22), release(22))
            assert ours == out.read_bytes(), data
        compared += 1
    assert compared >= 8
