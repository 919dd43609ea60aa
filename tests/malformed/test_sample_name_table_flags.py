"""An ext-binary name table flagged fixed-length MD5 but not MD5: what each release reads.

LLVM's writer sets both flags or neither; only a damaged (or foreign) file has
``SecFlagFixedLengthMD5`` alone.  llvm-profdata 19 and 22 still read the table as
fixed-length hashes, which become ``FunctionId`` hashes: the profiles order, key and
merge as MD5 names (it prints "If FixedLengthMD5 is true, UseMD5 has to be true"
first, which profdata does not).  14 and 16 ask for hashes only under the MD5 flag
and read the table as strings, which fails.

The inputs are the ``--use-md5`` files llvm-profdata of each release wrote for the
goldens, with the flag cleared; the expected output of 19 and 22 is that of the
file as written, which the compat test holds to the real tools.

Found by ``tools/fuzz_paths.py``: ``merge --sample`` took such a file as plain
names in its column merge, where a profile of the same name from an MD5 input
then stood twice, and wrote one of the two.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import FormatError
from profdata.formats._binary import ByteReader
from profdata.formats.sample_extbinary import (
    FLAG_FIXED_LENGTH_MD5,
    FLAG_MD5_NAME,
    SecType,
    read_section_table,
)
from profdata.formats.sample_registry import read_sample_bytes
from profdata.releases import release
from tests.conftest import CliResult
from tests.malformed.extbinary_goldens import golden, patch_entry, results

NAMES = ("corpus-inline", "corpus-flat", "corpus-cs", "corpus-probe", "corpus-md5names")
NOTE = b"If FixedLengthMD5 is true, UseMD5 has to be true"


def md5_file(rel: int, name: str) -> bytes:
    return golden(rel, name, "extbin-md5")


def md5_flag_cleared(data: bytes) -> bytes:
    """``data`` with its name table's ``SecFlagMD5Name`` cleared (``FixedLengthMD5`` kept)."""
    table = read_section_table(ByteReader(data))
    index = next(i for i, e in enumerate(table) if e.type == SecType.NAME_TABLE and e.size)
    flags = table[index].flags
    assert flags & FLAG_MD5_NAME and flags & FLAG_FIXED_LENGTH_MD5
    return patch_entry(data, index, 1, flags & ~FLAG_MD5_NAME)


@pytest.mark.parametrize("rel", [19, 22])
@pytest.mark.parametrize("name", NAMES)
def test_from_18_the_hashes_are_md5_names(
    rel: int, name: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    cleared = tmp_path / "cleared.extbin"
    cleared.write_bytes(md5_flag_cleared(md5_file(rel, name)))
    profile = read_sample_bytes(cleared.read_bytes(), str(cleared), release(rel))
    assert profile.is_md5
    for case, args in (("show", ["show", "--sample"]), ("text", ["merge", "--sample", "--text"])):
        expected = results(rel)[name][f"extbin-md5-{case}"]
        got = run_profdata(f"--llvm-release={rel}", *args, str(cleared))
        assert got.code == expected["exit"]
        assert got.text == expected["stdout"]


@pytest.mark.parametrize("rel", [14, 16])
@pytest.mark.parametrize("name", NAMES)
def test_before_18_the_table_reads_as_strings(rel: int, name: str) -> None:
    cleared = md5_flag_cleared(md5_file(rel, name))
    with pytest.raises(FormatError) as caught:
        read_sample_bytes(cleared, "cleared.extbin", release(rel))
    assert caught.value.headline() == "cleared.extbin: Truncated profile data"


@pytest.mark.parametrize("fmt", ["--text", "--binary", "--extbinary"])
@pytest.mark.parametrize("rel", [19, 22])
def test_merged_with_its_md5_form_the_profiles_meet(
    fmt: str, rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """The fuzzing finding: the file and the file as written merge as two MD5 inputs do
    (one profile per function, every input's samples in it), on the column path too."""
    written = tmp_path / "written.extbin"
    written.write_bytes(md5_file(rel, "corpus-inline"))
    cleared = tmp_path / "cleared.extbin"
    cleared.write_bytes(md5_flag_cleared(written.read_bytes()))
    common = [f"--llvm-release={rel}", "merge", "--sample", fmt, "-o", "-"]
    twice = run_profdata(*common, f"--weighted-input=2,{written}", str(written))
    mixed = run_profdata(*common, f"--weighted-input=2,{written}", str(cleared))
    assert twice.code == mixed.code == 0
    assert mixed.stdout == twice.stdout
    once = run_profdata(*common, str(written))
    assert mixed.stdout != once.stdout  # the counts are the sum of both inputs


@pytest.mark.compat
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
@pytest.mark.parametrize("name", ["corpus-inline", "corpus-cs"])
def test_as_llvm_profdata(
    rel: int,
    name: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    written = tmp_path / "written.extbin"
    written.write_bytes(md5_file(rel, name))
    cleared = tmp_path / "cleared.extbin"
    cleared.write_bytes(md5_flag_cleared(written.read_bytes()))
    commands = (
        ["show", "--sample", str(cleared)],
        ["show", "--sample", "--show-format=json", str(cleared)],
        ["merge", "--sample", "--text", f"--weighted-input=2,{written}", str(cleared)],
        ["merge", "--sample", "--extbinary", str(cleared), str(written)],
    )
    for args in commands:
        if rel < 19 and "--show-format=json" in args:
            continue  # 19+ only
        real_out, our_out = tmp_path / "real.out", tmp_path / "our.out"
        real = subprocess.run(
            [str(tool), *args, "-o", str(real_out)], capture_output=True, timeout=60
        )
        ours = run_profdata(f"--llvm-release={rel}", *args, "-o", str(our_out))
        assert ours.code == real.returncode, args
        if real.returncode == 0:
            assert our_out.read_bytes() == real_out.read_bytes(), args
        if rel >= 19:  # the note LLVM prints on reading the table, once per read
            assert real.stderr == NOTE * args.count(str(cleared))
            assert ours.stderr == b""
        else:
            first = real.stderr.decode().splitlines()[0]
            assert ours.stderr.decode().splitlines()[0] == first
        real_out.unlink(missing_ok=True)
        our_out.unlink(missing_ok=True)
