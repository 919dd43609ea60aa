#!/usr/bin/env python3
"""Regenerate the ``overlap --sample`` goldens with the real llvm-profdata 14, 16, 19 and 22.

Layout (everything under ``expected/`` and ``cases.json`` is tool output, never
edited by hand):

* ``inputs/*.txt`` -- hand-written text sample profiles: inlinees matched,
  unmatched and nested, rows of equal base weight (their order is the test
  reader's ``unordered_map`` order), CS contexts, probe checksums, MD5 names,
  a profile without samples, a file that is no profile; ``cs_base.txt``,
  ``probe_base.txt`` and ``csprobe_base.txt`` are the shared corpus's
  ``sample-vis-*`` inputs;
* ``inputs/llvm19-sample-overlap-N.proftext`` and ``inputs/gcc.gcov`` -- LLVM's
  own test inputs (Apache-2.0 with LLVM exceptions);
* ``inputs/inline_base.{binary,extbinary,compbinary}`` -- ``inline_base.txt``
  written by ``llvm-profdata-14 merge --sample`` in those formats (compact
  binary is read by 14 and 16 only, so 19 and 22 record their error);
* ``inputs/nohot.binary`` -- ``inline_base.txt`` in the binary format with every
  stored summary ``MinCount`` raised to 10**6, so nothing is hot (LLVM prints
  ``-nan%``); built with profdata's binary writer pieces;
* ``expected/NAME.rN.stdout`` / ``.stderr`` (and ``.out`` for ``-o`` cases) --
  what release N printed for case NAME, run from this folder;
* ``cases.json`` -- one entry per (case, release).

Usage: ``python tests/golden/sample_overlap/make_goldens.py``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected"
OUT = HERE / "out"
RELEASES = (14, 16, 19, 22)
CONVERTED = ("binary", "extbinary", "compbinary")

#: name -> (arguments after ``overlap --sample``, output file or None)
CASES: dict[str, tuple[list[str], str | None]] = {}


def case(name: str, *args: str, output: str | None = None) -> None:
    paths = [a if a.startswith("-") else f"inputs/{a}" for a in args]
    if output is not None:
        paths = ["-o", f"out/{output}", *paths]
    CASES[name] = (paths, output)


_LL = "llvm19-sample-overlap-{}.proftext"
for base, test in ((1, 2), (1, 3), (1, 4), (2, 1), (3, 1), (1, 1)):
    case(f"llvm-{base}{test}", _LL.format(base), _LL.format(test))
    case(f"llvm-{base}{test}-cutoff-0", "--value-cutoff=0", _LL.format(base), _LL.format(test))
case("llvm-13-similarity", "--similarity-cutoff=999999", _LL.format(1), _LL.format(3))
case("llvm-12-function", "--function=ba", _LL.format(1), _LL.format(2))
case("llvm-12-cutoff-1000", "--value-cutoff=1000", _LL.format(1), _LL.format(2))
case("llvm-zero-test", _LL.format(1), _LL.format(5))
case("llvm-zero-base", _LL.format(5), _LL.format(1))
case("llvm-zero-both", _LL.format(5), _LL.format(5))
case("inline", "inline_base.txt", "inline_test.txt")
case("inline-cutoff-0", "--value-cutoff=0", "inline_base.txt", "inline_test.txt")
case("inline-swapped", "--value-cutoff=0", "inline_test.txt", "inline_base.txt")
case("inline-similarity", "--similarity-cutoff=990000", "inline_base.txt", "inline_test.txt")
case("inline-function", "--function=t", "inline_base.txt", "inline_test.txt")
case("inline-output", "--value-cutoff=0", "inline_base.txt", "inline_test.txt",
     output="inline.txt")  # fmt: skip
case("cs", "--value-cutoff=0", "cs_base.txt", "cs_test.txt")
case("cs-swapped", "--value-cutoff=0", "cs_test.txt", "cs_base.txt")
case("cs-function", "--function=funcA", "cs_base.txt", "cs_test.txt")
case("probe", "--value-cutoff=0", "probe_base.txt", "probe_test.txt")
case("md5", "--value-cutoff=0", "md5_base.txt", "md5_test.txt")
case("gcc", "--value-cutoff=0", "gcc.gcov", "gcc.gcov")
case("gcc-text", "--value-cutoff=0", "gcc.gcov", _LL.format(1))
for fmt in CONVERTED:
    case(f"{fmt}-text", "--value-cutoff=0", f"inline_base.{fmt}", "inline_test.txt")
case("no-hot", "nohot.binary", "nohot.binary")
case("err-probe-mismatch", "probe_base.txt", "inline_base.txt")
case("err-cs-mismatch", "cs_base.txt", "inline_base.txt")
case("err-csprobe-mismatch", "csprobe_base.txt", "inline_base.txt")
case("err-missing-base", "missing.txt", "inline_base.txt")
case("err-missing-test", "inline_base.txt", "missing.txt")
case("err-garbage", "inline_base.txt", "garbage.txt")


def tool(release: int) -> Path:
    return Path(f"/usr/lib/llvm-{release}/bin/llvm-profdata")


def run(release: int, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(tool(release)), *args], cwd=HERE, capture_output=True, timeout=60, check=False
    )


def make_converted() -> None:
    for fmt in CONVERTED:
        out = f"inputs/inline_base.{fmt}"
        proc = run(14, ["merge", "--sample", f"--{fmt}", "-o", out, "inputs/inline_base.txt"])
        if proc.returncode:
            raise SystemExit(proc.stderr.decode())


def make_nohot() -> None:
    """``inputs/nohot.binary`` (see the module docstring)."""
    from dataclasses import replace

    from profdata.formats import sample_binary
    from profdata.formats._binary import ByteWriter
    from profdata.formats.sample_registry import open_sample
    from profdata.model.sample import context_key
    from profdata.model.sample_summary import summarize_profile

    profile = open_sample(INPUTS / "inline_base.txt")
    summary = summarize_profile(profile)
    entries = tuple(replace(e, min_count=10**6) for e in summary.detailed)
    out = ByteWriter()
    out.uleb128(sample_binary.sp_magic())
    out.uleb128(sample_binary.VERSION)
    sample_binary.write_summary(out, replace(summary, detailed=entries))
    index = sample_binary.write_name_table(
        out, sample_binary.collect_names(profile.profiles.values())
    )
    for fs in sorted(
        profile.profiles.values(), key=lambda f: (-f.total_samples, context_key(f.context))
    ):
        out.uleb128(fs.head_samples)
        sample_binary.write_body(out, fs, index)
    (INPUTS / "nohot.binary").write_bytes(out.getvalue())


def main() -> int:
    missing = [r for r in RELEASES if not tool(r).exists()]
    if missing:
        raise SystemExit(f"llvm-profdata {missing} not installed; goldens left as they are")
    make_converted()
    make_nohot()
    shutil.rmtree(EXPECTED, ignore_errors=True)
    EXPECTED.mkdir()
    OUT.mkdir(exist_ok=True)
    entries = []
    for name, (args, output) in CASES.items():
        for release in RELEASES:
            proc = run(release, ["overlap", "--sample", *args])
            stem = f"{name}.r{release}"
            (EXPECTED / f"{stem}.stdout").write_bytes(proc.stdout)
            (EXPECTED / f"{stem}.stderr").write_bytes(proc.stderr)
            entry = {
                "id": f"{name}/r{release}",
                "llvm": release,
                "args": ["overlap", "--sample", *args],
                "exit": proc.returncode,
                "stdout": f"expected/{stem}.stdout",
                "stderr": f"expected/{stem}.stderr",
            }
            if output is not None:
                shutil.move(OUT / output, EXPECTED / f"{stem}.out")
                entry["writes"] = f"out/{output}"
                entry["output"] = f"expected/{stem}.out"
            entries.append(entry)
    shutil.rmtree(OUT, ignore_errors=True)
    versions = {
        str(r): run(r, ["merge", "--version"]).stdout.decode().strip().splitlines()
        for r in RELEASES
    }
    document = {
        "tool": "llvm-profdata overlap --sample (Debian LLVM packages 14, 16, 19, 22)",
        "made_by": "tests/golden/sample_overlap/make_goldens.py",
        "versions": versions,
        "cases": entries,
    }
    (HERE / "cases.json").write_text(json.dumps(document, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
