"""``show --sample --function=NAME`` of ext-binary files through the named read.

The named read must print what the full read prints, byte for byte, for
every function of every ext-binary golden (MD5, CS, probe, compressed,
split-layout files included) and for absent names, and must step aside
(``None``) whenever the full read would fail or could read differently.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from profdata.errors import ProfdataError
from profdata.formats._binary import ByteReader
from profdata.formats._uleb import decode_run
from profdata.formats.sample_body import function_spans
from profdata.formats.sample_extbinary import SecType, read_named, read_section_table, sniff
from profdata.formats.sample_registry import read_sample_bytes
from profdata.model.names import md5_hash
from profdata.ops.show_sample import (
    SampleShowOptions,
    SampleShowOutput,
    show_named_bytes,
    show_sample_bytes,
    takes_named_read,
)
from profdata.releases import release

TESTS = Path(__file__).resolve().parents[2]
CORPUS = Path("/work/shared/corpus")
RELEASES = (14, 16, 19, 22)
ABSENT = "no_such_function"
INLINE = "sample-vis-inline/expected/l22-merge-sample-extbinary-o.extbin"


def _ext_binary_files() -> list[Path]:
    found: list[Path] = []
    for root in (TESTS / "golden", CORPUS):
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.stat().st_size < 1 << 20:
                with path.open("rb") as fh:
                    if sniff(fh.read(16)):
                        found.append(path)
    return found


FILES = _ext_binary_files()


def _id(path: Path) -> str:
    parts = path.parts
    return "/".join(parts[-3:])


def _full(data: bytes, path: str, options: SampleShowOptions, number: int) -> object:
    """The full read's output, or its error text."""
    try:
        return show_sample_bytes(data, path, options, release(number))
    except ProfdataError as exc:
        return str(exc)


def _names(data: bytes, path: str, number: int) -> list[str]:
    profile = read_sample_bytes(data, path, release(number))
    return sorted({c.name for c in profile.profiles} | {ABSENT})


def test_the_goldens_cover_md5_cs_compressed_and_split_files() -> None:
    if not CORPUS.is_dir():
        pytest.skip("shared corpus not found")
    names = " ".join(p.name for p in FILES)
    dirs = {p.parts[-3] for p in FILES}
    assert {"sample-vis-cs", "sample-vis-md5names", "sample-vis-csprobe"} <= dirs
    assert "use-md5" in names and "compress-all-sections" in names and "split-layout" in names


@pytest.mark.parametrize("path", FILES, ids=[_id(p) for p in FILES])
def test_named_show_equals_full_show_for_every_function(path: Path) -> None:
    data = path.read_bytes()
    taken = 0
    for number in RELEASES:
        try:
            names = _names(data, str(path), number)
        except ProfdataError:
            # The full read fails: the named read must not print anything instead.
            for name in ("main", ABSENT):
                options = SampleShowOptions(function=name)
                assert (
                    show_named_bytes(memoryview(data), str(path), options, release(number)) is None
                )
                taken += 1
            continue
        for name in names:
            for extra in ({}, {"detailed_summary": True, "show_prof_sym_list": True}):
                options = SampleShowOptions(function=name, **extra)  # type: ignore[arg-type]
                fast = show_named_bytes(memoryview(data), str(path), options, release(number))
                assert fast is not None
                assert fast == _full(data, str(path), options, number), (number, name, extra)
                taken += 1
    assert taken


def test_md5_profiles_are_found_by_name_from_19_and_by_hash_before() -> None:
    paths = [p for p in FILES if "use-md5" in p.name and "md5names" in str(p)]
    if not paths:
        pytest.skip("shared corpus not found")
    data = paths[0].read_bytes()
    for number, key in ((22, "main"), (14, str(md5_hash("main")))):
        options = SampleShowOptions(function=key)
        fast = show_named_bytes(memoryview(data), None, options, release(number))
        assert isinstance(fast, SampleShowOutput)
        assert fast.text.startswith(f"Function: {md5_hash('main')}: ")
        assert fast == _full(data, "", options, number)


def test_the_named_read_builds_only_the_named_function() -> None:
    paths = [p for p in FILES if p.name == "l22-merge-sample-extbinary-o.extbin"]
    if not paths:
        pytest.skip("shared corpus not found")
    for path in paths:
        data = path.read_bytes()
        full = read_sample_bytes(data, str(path), release(22))
        for context in full.profiles:
            named = read_named(data, str(path), release(22), [context.name])
            assert named is not None
            expected = [c for c in full.profiles if not c.frames and c.name == context.name]
            assert list(named.profiles) == expected
            for key in expected:
                assert named.profiles[key] == full.profiles[key]
            assert named.summary == full.summary
            assert named.symbol_list == full.symbol_list
            assert (named.is_cs, named.is_md5, named.is_probe_based) == (
                full.is_cs,
                full.is_md5,
                full.is_probe_based,
            )


@pytest.mark.parametrize(
    "options",
    [
        SampleShowOptions(),
        SampleShowOptions(function="main", all_functions=True),
        SampleShowOptions(function="main", hot_func_list=True),
        SampleShowOptions(function="main", topn=3),
        SampleShowOptions(function="main", show_format="json"),
        SampleShowOptions(function="main", show_sec_info_only=True),
    ],
    ids=["no-function", "all-functions", "hot-func-list", "topn", "json", "sec-info"],
)
def test_options_that_need_every_function_take_the_full_read(options: SampleShowOptions) -> None:
    assert not takes_named_read(options)
    data = FILES[0].read_bytes() if FILES else b""
    assert show_named_bytes(memoryview(data), None, options, release(22)) is None


def test_other_formats_take_the_full_read() -> None:
    options = SampleShowOptions(function="main")
    text = memoryview(b"main:10:1\n 1: 10\n")
    assert show_named_bytes(text, None, options, release(22)) is None
    assert show_named_bytes(memoryview(b"\x00" * 3), None, options, release(22)) is None


def _mutation_files() -> list[Path]:
    wanted = (
        "sample-vis-inline/expected/l22-merge-sample-extbinary-o.extbin",
        "sample-vis-cs/expected/l22-merge-sample-extbinary-o.extbin",
        "sample-vis-probe/expected/l19-merge-sample-extbinary-o.extbin",
        "sample-vis-md5names/expected/l16-merge-sample-extbinary-use-md5-o.extbin",
    )
    return [p for p in FILES if any(str(p).endswith(w) for w in wanted)] or FILES[:1]


MUTATED = _mutation_files()


@pytest.mark.parametrize("path", MUTATED, ids=[_id(p) for p in MUTATED])
def test_a_corrupt_byte_anywhere_gives_the_full_reads_answer(path: Path) -> None:
    """Each byte set to a few values: the named read gives the full read's output or
    steps aside; when the full read fails it always steps aside."""
    data = path.read_bytes()
    number = 22 if "l22" in path.name else 19
    names = [*[n for n in _names(data, str(path), number) if n != ABSENT][:2], ABSENT]
    stepped_aside = 0
    for pos in range(len(data)):
        for value in (0x00, 0x7F, 0xFF):
            mutated = bytearray(data)
            if mutated[pos] == value:
                continue
            mutated[pos] = value
            for name in names:
                options = SampleShowOptions(function=name)
                fast = show_named_bytes(memoryview(mutated), None, options, release(number))
                if fast is None:
                    stepped_aside += 1
                    continue
                assert fast == _full(bytes(mutated), "", options, number), (pos, value, name)
    assert stepped_aside


@pytest.mark.parametrize("path", MUTATED, ids=[_id(p) for p in MUTATED])
def test_a_truncated_file_gives_the_full_reads_error(path: Path) -> None:
    data = path.read_bytes()
    options = SampleShowOptions(function="main")
    for size in range(len(data)):
        cut = data[:size]
        fast = show_named_bytes(memoryview(cut), None, options, release(22))
        if fast is not None:
            assert fast == _full(cut, "", options, 22), size


def _lbr_run(data: bytes) -> tuple[int, int]:
    table = read_section_table(ByteReader(data))
    entry = next(e for e in table if e.type == SecType.LBR_PROFILE and e.size)
    return entry.offset, entry.offset + entry.size


def test_function_spans_partition_the_section_and_follow_its_faults() -> None:
    paths = [p for p in FILES if p.name == "l22-merge-sample-extbinary-o.extbin"]
    if not paths:
        pytest.skip("shared corpus not found")
    data = next(p for p in paths if "inline" in str(p)).read_bytes()
    start, end = _lbr_run(data)
    run = decode_run(data, start, end)
    names = 7
    spans = function_spans(run, end, names, names, set(range(names)))
    assert spans is not None and len(spans) == 3
    assert spans[0][0] == 0 and spans[-1][1] == len(run.values)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    assert function_spans(run, end, names, names, set()) == []
    # a context index past the table, a callee name past it, and a cut-off section
    assert function_spans(run, end, names, 0, set()) is None
    assert function_spans(run, end, 0, names, set()) is None
    assert function_spans(decode_run(data, start, end - 1), end - 1, names, names, set()) is None
    assert function_spans(run, end + 1, names, names, set()) is None


def test_a_fault_in_another_function_is_still_the_error() -> None:
    """llvm-profdata reads every function before printing one, so a bad name index in
    the last function fails ``--function`` of the first (llvm-profdata 22: "Truncated
    function name table"); the named read steps aside for the full read to say so."""
    paths = [p for p in FILES if str(p).endswith(INLINE)]
    if not paths:
        pytest.skip("shared corpus not found")
    data = paths[0].read_bytes()
    start, end = _lbr_run(data)
    run = decode_run(data, start, end)
    spans = function_spans(run, end, 7, 7, set(range(7)))
    assert spans is not None
    last = spans[-1][0]
    first_name = read_sample_bytes(data, None, release(22)).sorted_profiles()[0].name
    mutated = bytearray(data)
    at = int(run.starts[last + 1])  # the last function's name index
    mutated[at] = 0x7F
    options = SampleShowOptions(function=first_name)
    assert show_named_bytes(memoryview(data), None, options, release(22)) is not None
    assert show_named_bytes(memoryview(mutated), None, options, release(22)) is None
    with pytest.raises(ProfdataError) as caught:
        show_sample_bytes(bytes(mutated), None, options, release(22))
    assert caught.value.llvm_message == "Truncated function name table"
