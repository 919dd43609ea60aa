"""``show --sample --function=NAME`` of ext-binary files: the named read against the
real llvm-profdata 14/16/19/22, run live.

For each release, the ext-binary files that release wrote into the shared
corpus (plain, MD5, compressed; flat, inline, CS, probe profiles), every
function name in them and an absent one: the named read
(:func:`profdata.ops.show_sample.show_named_bytes`) must be taken and
print llvm-profdata's stdout byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from profdata.errors import ProfdataError
from profdata.formats.sample_registry import read_sample_bytes
from profdata.ops.show_sample import SampleShowOptions, show_named_bytes, show_sample_bytes
from profdata.releases import release
from tests.compat import tools
from tests.conftest import SHARED

pytestmark = pytest.mark.compat

CORPUS = SHARED / "corpus"
KINDS = ("o", "use-md5-o", "compress-all-sections-o")
SUMMARY_KINDS = ("prof-sym-list-o", "use-md5-compress-all-sections-prof-sym-list")


def _cases(kinds: tuple[str, ...] = KINDS) -> list[tuple[int, Path]]:
    cases: list[tuple[int, Path]] = []
    for number in tools.RELEASES:
        for kind in kinds:
            cases.extend(
                (number, path)
                for path in sorted(CORPUS.glob(f"sample-vis-*/expected/l{number}-merge-sample-"
                                               f"extbinary-{kind}.extbin"))
            )  # fmt: skip
    return cases


CASES = _cases()
SUMMARY_CASES = _cases(SUMMARY_KINDS)


def _named_reads_match(number: int, path: Path, flags: list[str], summaries: bool) -> None:
    """Every function of ``path`` (and an absent one) through the real tool and the
    named read, with the same flags (``summaries``: the two that print whole sections)."""
    tool = tools.find_llvm_profdata(number)
    if tool is None:
        pytest.skip(f"llvm-profdata {number} is not installed")
    data = path.read_bytes()
    profile = read_sample_bytes(data, str(path), release(number))
    names = sorted({c.name for c in profile.profiles} | {"no_such_function"})
    for name in names:
        result = tools.run_tool(tool, ["show", "--sample", *flags, f"--function={name}", str(path)])
        assert result.returncode == 0, result.stderr
        chosen = SampleShowOptions(
            function=name, detailed_summary=summaries, show_prof_sym_list=summaries
        )
        ours = show_named_bytes(memoryview(data), str(path), chosen, release(number))
        assert ours is not None
        assert ours.text.encode() == result.stdout, name


@pytest.mark.skipif(not CASES, reason="shared corpus not found")
@pytest.mark.parametrize(
    ("number", "path"), CASES, ids=[f"l{n}-{p.parts[-3]}-{p.name}" for n, p in CASES]
)
def test_named_read_prints_what_llvm_profdata_prints(number: int, path: Path) -> None:
    _named_reads_match(number, path, [], summaries=False)


@pytest.mark.skipif(not SUMMARY_CASES, reason="shared corpus not found")
@pytest.mark.parametrize(
    ("number", "path"),
    SUMMARY_CASES,
    ids=[f"l{n}-{p.parts[-3]}-{p.name}" for n, p in SUMMARY_CASES],
)
def test_named_read_with_summary_and_symbol_list(number: int, path: Path) -> None:
    """``--detailed-summary`` and ``--show-prof-sym-list`` print sections the named
    read reads in full, so they stay on it."""
    _named_reads_match(number, path, ["--detailed-summary", "--show-prof-sym-list"], summaries=True)


VTABLE_PROFILE = """\
main:1000:10
 1: 100
 2: 200 foo:150
 2: vtables _ZTV1A:30 _ZTV1B:20
 3: inl:300
  1: 300
  1: vtables _ZTV1C:5
other:500:5
 1: 500
 1: vtables _ZTV1A:7
"""


def test_named_read_of_vtable_type_profiles(tmp_path: Path) -> None:
    """LLVM 22 writes vtable type profiles after each level when asked (a hidden option)."""
    tool = tools.find_llvm_profdata(22)
    if tool is None:
        pytest.skip("llvm-profdata 22 is not installed")
    text = tmp_path / "vt.txt"
    text.write_text(VTABLE_PROFILE)
    out = tmp_path / "vt.extbin"
    made = tools.run_tool(
        tool,
        ["merge", "--sample", "--extbinary", "--extbinary-write-vtable-type-prof", str(text),
         "-o", str(out)],
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    data = out.read_bytes()
    for name in ("main", "other", "inl", "absent"):
        result = tools.run_tool(tool, ["show", "--sample", f"--function={name}", str(out)])
        assert result.returncode == 0, result.stderr
        ours = show_named_bytes(memoryview(data), str(out), SampleShowOptions(function=name),
                                release(22))  # fmt: skip
        assert ours is not None
        assert ours.text.encode() == result.stdout, name
    assert (
        b"vtables: _ZTV1A:30 _ZTV1B:20"
        in tools.run_tool(tool, ["show", "--sample", "--function=main", str(out)]).stdout
    )
    # Each byte corrupted: the full read's output, or the named read steps aside.
    options = SampleShowOptions(function="main")
    for pos in range(len(data)):
        for value in (0x00, 0x7F, 0xFF):
            mutated = bytearray(data)
            mutated[pos] = value
            fast = show_named_bytes(memoryview(mutated), None, options, release(22))
            if fast is None:
                continue
            try:
                full: object = show_sample_bytes(bytes(mutated), None, options, release(22))
            except ProfdataError as exc:
                full = exc
            assert fast == full, (pos, value)
