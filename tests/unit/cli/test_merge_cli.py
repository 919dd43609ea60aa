"""``profdata merge`` end to end, in-process: messages, exit codes, outputs.

The stderr texts are llvm-profdata's (quoted from runs of the real 14/16/19/22
on the same inputs); the output bytes are compared with files the real tools
wrote (the shared corpus) or with our own other path to the same result.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult

Run = Callable[..., CliResult]

IR_A = ":ir\nfoo\n# Func Hash:\n10\n# Num Counters:\n2\n# Counter Values:\n7\n3\n\n"
IR_B = ":ir\nfoo\n# Func Hash:\n10\n# Num Counters:\n3\n# Counter Values:\n1\n1\n1\n\nbar\n" + (
    "# Func Hash:\n5\n# Num Counters:\n1\n# Counter Values:\n4\n\n"
)
FE = ":fe\nbar\n# Func Hash:\n5\n# Num Counters:\n1\n# Counter Values:\n4\n\n"
DUP_MEMOP = (
    ":ir\nfoo\n# Func Hash:\n10\n# Num Counters:\n1\n# Counter Values:\n7\n"
    "# Num Value Kinds:\n1\n# ValueKind = IPVK_MemOPSize:\n1\n# NumValueSites:\n1\n2\n1:10\n1:5\n\n"
)
HINT = "Make sure that all profile data to be merged is generated from the same binary.\n"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "a.proftext").write_text(IR_A)
    (tmp_path / "b.proftext").write_text(IR_B)
    (tmp_path / "fe.proftext").write_text(FE)
    (tmp_path / "dup.proftext").write_text(DUP_MEMOP)
    return tmp_path


def test_a_missing_input_stops_before_reading(run_profdata: Run, files: Path) -> None:
    out = files / "out.profdata"
    missing = files / "does-not-exist.profraw"
    got = run_profdata("merge", "-o", str(out), str(files / "a.proftext"), str(missing))
    assert got.code == 1
    assert got.stderr.decode().startswith(f"error: {missing}: No such file or directory\n")
    assert not out.exists()


def test_no_inputs(run_profdata: Run) -> None:
    got = run_profdata("merge", "-o", "x")
    assert got.code == 1
    assert got.stderr == b"error: no input files specified. See llvm-profdata merge -help\n"


def test_bad_weight(run_profdata: Run, files: Path) -> None:
    got = run_profdata("merge", f"--weighted-input=0,{files / 'a.proftext'}", "-o", "-")
    assert (got.code, got.stderr) == (1, b"error: input weight must be a positive integer\n")


@pytest.mark.parametrize("number", [14, 16])
def test_failure_mode_warn_is_unknown_before_18(
    run_profdata: Run, files: Path, number: int
) -> None:
    got = run_profdata(
        f"--llvm-release={number}", "merge", "--failure-mode=warn", str(files / "a.proftext")
    )
    assert got.code == 1
    assert b"for the --failure-mode option: Cannot find option named 'warn'!" in got.stderr


@pytest.mark.parametrize("option", ["--function=main", "--no-function=main"])
def test_function_filters_are_unknown_to_16(run_profdata: Run, files: Path, option: str) -> None:
    got = run_profdata("--llvm-release=16", "merge", option, str(files / "a.proftext"))
    assert got.code == 1
    assert f"Unknown command line argument '{option}'".encode() in got.stderr


def test_record_warnings_print_file_function_and_one_hint(run_profdata: Run, files: Path) -> None:
    # llvm-profdata merge --text a.proftext b.proftext b.proftext -j=1
    a, b = str(files / "a.proftext"), str(files / "b.proftext")
    got = run_profdata("merge", "--text", "-j", "1", a, b, b, "-o", "-")
    assert got.code == 0
    line = f"{b}: foo: function basic block count change detected (counter mismatch)\n"
    assert got.stderr.decode() == line + HINT + line
    assert "bar\n# Func Hash:\n5\n# Num Counters:\n1\n# Counter Values:\n8\n" in got.text


def test_flag_conflict_fails_the_merge_by_default(run_profdata: Run, files: Path) -> None:
    a, fe = str(files / "a.proftext"), str(files / "fe.proftext")
    got = run_profdata("merge", a, fe, "-o", str(files / "out"))
    assert got.code == 1
    lines = got.stderr.decode().splitlines()
    assert lines[0] == f"warning: {fe}: Merge IR generated profile with Clang generated profile."
    assert "error: no profile can be merged" in lines
    assert not (files / "out").exists()
    kept = run_profdata("merge", "--failure-mode=all", "--text", a, fe, "-o", "-")
    assert kept.code == 0
    assert kept.text.startswith("# IR level Instrumentation Flag\n:ir\nfoo\n")


def test_unreadable_input_is_listed_with_our_detail(run_profdata: Run, files: Path) -> None:
    junk = files / "junk.profraw"
    junk.write_bytes(b"\x81rfforpl\xff" + bytes(16))
    got = run_profdata("merge", "--failure-mode=warn", str(junk), "-o", str(files / "o"))
    assert got.code == 0
    lines = got.stderr.decode().splitlines()
    assert lines[0].startswith(f"warning: {junk}: ")
    assert lines[1].startswith("  detail: ")


def test_dump_input_file_list(run_profdata: Run, files: Path) -> None:
    listing = files / "inputs.txt"
    listing.write_text(f"# weights\n4,{files / 'b.proftext'}\n")
    got = run_profdata(
        "merge",
        "--dump-input-file-list",
        str(files / "a.proftext"),
        f"--weighted-input=3,{files / 'fe.proftext'}",
        "-f",
        str(listing),
    )
    assert got.code == 0
    assert got.text == (
        f"1,{files / 'a.proftext'}\n3,{files / 'fe.proftext'}\n4,{files / 'b.proftext'}\n"
    )


def test_stdout_holds_the_same_bytes_as_a_file(run_profdata: Run, files: Path) -> None:
    out = files / "out.profdata"
    a, b = str(files / "a.proftext"), str(files / "b.proftext")
    assert run_profdata("merge", a, b, "-o", str(out)).code == 0
    got = run_profdata("merge", a, b, "-o", "-")
    assert got.stdout == out.read_bytes()
    assert got.stdout.startswith(b"\xfflprofi\x81")


def test_output_may_be_an_input_and_is_replaced_whole(run_profdata: Run, files: Path) -> None:
    a = files / "a.proftext"
    expected = run_profdata("merge", "--text", str(a), str(files / "b.proftext"), "-o", "-")
    got = run_profdata("merge", "--text", str(a), str(files / "b.proftext"), "-o", str(a))
    assert got.code == 0
    assert a.read_bytes() == expected.stdout
    assert sorted(p.name for p in files.iterdir() if p.name.startswith(".")) == []


def test_unwritable_output(run_profdata: Run, files: Path) -> None:
    target = files / "no-such-dir" / "out.profdata"
    got = run_profdata("merge", str(files / "a.proftext"), "-o", str(target))
    assert got.code == 1
    assert got.stderr.decode().startswith(f"error: {target}: No such file or directory\n")


def test_gcc_format_is_not_for_instrumentation(run_profdata: Run, files: Path) -> None:
    got = run_profdata("merge", "--gcc", str(files / "a.proftext"), "-o", "-")
    assert (got.code, got.stderr) == (1, b"error: unknown format is specified\n")


@pytest.mark.parametrize(("number", "warned"), [(14, False), (16, True), (22, True)])
def test_duplicate_memop_values_warn_after_writing(
    run_profdata: Run, files: Path, number: int, warned: bool
) -> None:
    out = files / "dup.profdata"
    got = run_profdata(
        f"--llvm-release={number}", "merge", str(files / "dup.proftext"), "-o", str(out)
    )
    assert got.code == 0
    assert out.exists()
    assert (b"warning: invalid profile created. Please file a bug at: " in got.stderr) is warned


def test_remapping_file_errors_with_llvm_note(run_profdata: Run, files: Path) -> None:
    remap = files / "remap.txt"
    remap.write_text("foo renamed\nbad line here\n")
    got = run_profdata("merge", "-r", str(remap), str(files / "a.proftext"), "-o", "-")
    assert got.code == 1
    assert got.stderr.decode() == (
        f"error: {remap}:2: unexpected line in remapping file\n"
        "note: expected 'old_symbol new_symbol'\n"
    )


def test_remapping_renames_records(run_profdata: Run, files: Path) -> None:
    remap = files / "remap.txt"
    remap.write_text("foo renamed\n")
    got = run_profdata("merge", "--text", "-r", str(remap), str(files / "a.proftext"), "-o", "-")
    assert got.code == 0
    assert got.text.splitlines()[2] == "renamed"


def test_function_filter_note(run_profdata: Run, files: Path) -> None:
    b = str(files / "b.proftext")
    got = run_profdata("merge", "--text", "--function=^ba", b, "-o", "-")
    assert got.stderr == b"1 of 2 functions in the original profile are filtered.\n"
    assert got.text.splitlines()[2] == "bar"


def test_write_prev_version_writes_version_11(run_profdata: Run, files: Path) -> None:
    got = run_profdata("merge", "--write-prev-version", str(files / "a.proftext"), "-o", "-")
    assert got.stdout[8] == 11
    old = run_profdata(
        "--llvm-release=16", "merge", "--write-prev-version", str(files / "a.proftext")
    )
    assert old.code == 1


def test_num_threads_must_be_a_number(run_profdata: Run, files: Path) -> None:
    got = run_profdata("merge", "-j", "x", str(files / "a.proftext"))
    assert got.code == 1
    assert b"'x' value invalid for uint argument!" in got.stderr


def test_stdin_is_read_by_14_and_ignored_from_16(
    run_profdata: Run, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    for number, expected in ((14, "7\n3\n"), (16, "1\n1\n1\n")):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(IR_A.encode())))
        got = run_profdata(
            f"--llvm-release={number}", "merge", "--text", "--failure-mode=all",
            "-", str(files / "b.proftext"), "-o", "-",
        )  # fmt: skip
        assert got.code == 0
        assert expected in got.text


# f twice (the second merges into the first), then g without a bitmap block.
CARRY = ":fe\nf\n1\n1\n5\n$1\n0x3\n\nf\n1\n1\n5\n$1\n0x4\n\ng\n2\n1\n7\n\n"


def _text_record(name: str, hash_: int, counts: list[int], bitmap: list[int]) -> str:
    out = f"{name}\n# Func Hash:\n{hash_}\n# Num Counters:\n{len(counts)}\n# Counter Values:\n"
    out += "".join(f"{c}\n" for c in counts)
    if bitmap:
        out += f"# Num Bitmap Bytes:\n${len(bitmap)}\n# Bitmap Byte Values:\n"
        out += "".join(f"{b:#x}\n" for b in bitmap) + "\n"
    return out + "\n"


@pytest.mark.parametrize(
    ("release", "g_bitmap"), [("22", [4]), ("19", [4]), ("16", [])], ids=["22", "19", "16"]
)
def test_text_bitmap_left_by_a_merged_record(
    run_profdata: Run, tmp_path: Path, release: str, g_bitmap: list[int]
) -> None:
    """LLVM 19/22 give g the bitmap of the second f (merged, so not moved out of the reader's
    record); 16 has no bitmaps in text.  Expected texts are the real tools' output."""
    path = tmp_path / "carry.proftext"
    text = CARRY if release != "16" else CARRY.replace("$1\n0x3\n", "").replace("$1\n0x4\n", "")
    path.write_text(text)
    got = run_profdata(f"--llvm-release={release}", "merge", "--text", str(path), "-o", "-")
    assert got.code == 0
    f_bitmap = [7] if release != "16" else []
    assert got.text == _text_record("f", 1, [10], f_bitmap) + _text_record("g", 2, [7], g_bitmap)


def test_a_carried_bitmap_of_another_size_is_a_mismatch(run_profdata: Run, tmp_path: Path) -> None:
    """Two text dumps of one MC/DC program: in the second, a function without bitmap that
    follows one with a bitmap gets that bitmap and then mismatches its first copy (LLVM 22
    warns so and keeps the counter sum)."""
    first = ":fe\nc\n1\n1\n5\n$1\n0x3\n\nm\n2\n1\n7\n\n"
    (tmp_path / "1.proftext").write_text(first)
    (tmp_path / "2.proftext").write_text(first)
    got = run_profdata("merge", "--text", str(tmp_path / "1.proftext"),
                       str(tmp_path / "2.proftext"), "-o", "-")  # fmt: skip
    assert got.code == 0
    assert got.stderr.decode() == (
        f"{tmp_path / '2.proftext'}: m: function bitmap size change detected"
        " (bitmap size mismatch)\n"
    )
    assert got.text == _text_record("c", 1, [10], [3]) + _text_record("m", 2, [14], [])


def test_an_empty_bitmap_block_leaves_no_bitmap(run_profdata: Run, tmp_path: Path) -> None:
    """``$0`` clears the reader's bitmap: g after it gets none (as llvm-profdata 22 writes),
    where g after a merged f without a block would get f's."""
    path = tmp_path / "zero.proftext"
    path.write_text(CARRY.replace("g\n2", "f\n1\n1\n5\n$0\n\ng\n2"))
    got = run_profdata("merge", "--text", str(path), "-o", "-")
    assert got.code == 0
    assert got.stderr.decode() == f"{path}: f: function bitmap size change detected" + (
        " (bitmap size mismatch)\n"
    )
    assert got.text == _text_record("f", 1, [15], [7]) + _text_record("g", 2, [7], [])
