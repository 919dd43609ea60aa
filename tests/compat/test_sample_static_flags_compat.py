"""``merge --sample`` of probe-based or CS profiles mixed with plain ones, by input format.

llvm-profdata refuses to merge a probe-based profile with a plain one (``cannot
merge probe-based profile with non-probe-based profile``, and the same for CS)
by comparing ``FunctionSamples::ProfileIsProbeBased``/``ProfileIsCS`` -- static
flags each reader leaves behind -- across inputs.  The text reader sets them to
its profile's value; the ext-binary reader only ever sets the CS flag, and sets
the probe flag to its profile's value from a function metadata section that is not
empty (a CS profile's holds attributes; a plain profile's is empty); binary,
compact and GCC readers leave them.  So a plain ext-binary (or binary, GCC) input
after a probe-based one is merged, with ``Function hash mismatch`` warnings, and a
plain ext-binary after a CS one goes in silently, while a plain text input after
either is refused, and so is a plain CS ext-binary after a probe-based CS one.
Found by ``sample_random``'s weighted merges of two ext-binary files.
Every order of a probe-based, a CS and a plain profile in each format goes
through the real tool of every installed release, written as text and ext-binary:
exit status, stdout, stderr and output bytes must match.  One mix is refused on
purpose: LLVM 13 merging a GCC profile into a CS one gives the GCC functions an
empty context and writes them all as ``[]`` (and 13 keys its map by the context
string, so a plain ``main`` and a CS ``[main]`` are one profile there).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import SHARED, CliResult

pytestmark = pytest.mark.compat

PROBE = """\
main:100:10
 1: 50
 2: 50 foo:20
 !CFGChecksum: 123
foo:40:20
 1: 40
 !CFGChecksum: 456
"""
PLAIN = """\
main:30:3
 1: 10
 3: 20
bar:5:5
 1: 5
"""
CS = """\
[main:1 @ foo]:100:10
 1: 50
[main]:30:3
 1: 30
"""
CS_PROBE = """\
[main:1 @ foo]:100:10
 1: 50
 !CFGChecksum: 123
[main]:30:3
 1: 30
 !CFGChecksum: 456
"""
GCC = SHARED / "llvm-test-inputs" / "llvm-18" / "gcc-sample-profile.gcov"
RELEASES = tuple(
    r for r in (*tools.EXTRA_RELEASES, *tools.RELEASES) if tools.find_llvm_profdata(r) is not None
)


def _inputs(tool: Path, release: int, scratch: Path) -> dict[str, str]:
    """Each profile as text and as every binary encoding this release writes of it."""
    files: dict[str, str] = {}
    encodings = {"ext": ["--extbinary"], "bin": ["--binary"]}
    if release <= 16:
        encodings["comp"] = ["--compbinary"]
    for name, text in (("probe", PROBE), ("plain", PLAIN), ("cs", CS), ("csprobe", CS_PROBE)):
        source = scratch / f"{name}.txt"
        source.write_text(text)
        files[f"{name}.txt"] = str(source)
        for kind, flags in encodings.items():
            out = scratch / f"{name}.{kind}"
            made = tools.run_tool(tool, ["merge", "--sample", *flags, str(source), "-o", str(out)])
            if made.returncode == 0:  # the binary formats hold no probes or contexts
                files[f"{name}.{kind}"] = str(out)
    if GCC.exists():
        files["plain.gcc"] = str(GCC)
    return files


@pytest.mark.parametrize("release", RELEASES)
def test_static_flags_decide_which_mixes_merge(
    release: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    files = _inputs(tool, release, tmp_path)
    special = [k for k in files if not k.startswith(("plain", "csprobe"))]
    plain = [k for k in files if k.startswith("plain")]
    pairs = [(first, second) for first in special for second in plain]
    # a probe-based CS profile and a plain CS one: CS ext-binary files carry metadata
    pairs += [
        (p, c) for p in files if p.startswith("csprobe") for c in files if c.startswith("cs.")
    ]
    commands, refused = [], []
    for first, second in pairs:
        for pair in ((first, second), (second, first)):
            for out in ("--text", "--extbinary"):
                args = ["merge", "--sample", out, files[pair[0]], files[pair[1]], "-o", "@OUT"]
                if release == 13 and pair[0].startswith("cs.") and pair[1] == "plain.gcc":
                    refused.append(args)  # 13 writes "[]" names: refused on purpose
                else:
                    commands.append(args)
    three = [files["probe.ext"], files["plain.ext"], files["probe.txt"]]
    commands.append(["merge", "--sample", "--text", *three, "-o", "@OUT"])
    assert len(commands) > 40
    assert tools.differing(tool, release, commands, run_profdata, tmp_path, stderr="all") == []
    for args in refused:
        target = tmp_path / "refused.out"
        got = run_profdata("--llvm-release=13", *[a.replace("@OUT", str(target)) for a in args])
        assert got.code == 1 and b"empty context and writes them as '[]'" in got.stderr
        assert not target.exists()


PREINLINED = """\
[main:1 @ foo]:100:10
 1: 50
 !CFGChecksum: 123
 !Attributes: 2
[main]:30:3
 1: 30
 !CFGChecksum: 456
"""


@pytest.mark.parametrize("release", RELEASES)
def test_the_last_text_input_decides_preinlined(
    release: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """``ProfileIsPreInlined`` (``ProfileIsCSNested`` before 15), which the writer puts in the
    summary section's flags, is static too: a text input sets it to its own value, an
    ext-binary input only sets it.  A preinlined profile followed by a text one without
    the attribute is written without the flag; found while checking the probe flag.
    14's ext-binary reader clears it when its file has the flag (it assigns its own
    ``ProfileIsCSNested``, which nothing set), so a preinlined text input followed by its
    ext-binary copy is written without the flag there (found by ``tools/fuzz_llvm.py``)."""
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    files: dict[str, str] = {}
    for name, text in (("pre", PREINLINED), ("csprobe", CS_PROBE)):
        source = tmp_path / f"{name}.txt"
        source.write_text(text)
        files[f"{name}.txt"] = str(source)
        out = tmp_path / f"{name}.ext"
        made = tools.run_tool(
            tool, ["merge", "--sample", "--extbinary", str(source), "-o", str(out)]
        )
        if made.returncode == 0:
            files[f"{name}.ext"] = str(out)
    orders = [
        ("pre.txt", "csprobe.txt"), ("csprobe.txt", "pre.txt"), ("pre.ext", "csprobe.txt"),
        ("csprobe.txt", "pre.ext"), ("pre.ext", "csprobe.ext"), ("csprobe.ext", "pre.ext"),
        ("pre.txt", "csprobe.ext"), ("pre.txt", "pre.txt", "csprobe.txt"),
        ("pre.txt", "pre.ext"), ("pre.ext", "pre.txt", "pre.ext"), ("pre.ext", "pre.ext"),
    ]  # fmt: skip
    commands = [
        ["merge", "--sample", out, *[files[f] for f in order], "-o", "@OUT"]
        for order in orders
        if all(f in files for f in order)
        for out in ("--text", "--extbinary")
    ]
    assert len(commands) >= 10
    assert tools.differing(tool, release, commands, run_profdata, tmp_path, stderr="all") == []
