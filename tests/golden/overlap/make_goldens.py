#!/usr/bin/env python3
"""Regenerate the ``overlap`` goldens with the real llvm-profdata of LLVM 14, 16, 19 and 22.

Layout (everything under ``expected/`` and ``cases.json`` is tool output, never
edited by hand):

* ``inputs/*.proftext`` -- hand-written text profiles (value sites with
  partial overlaps, duplicate memop values, a 300-value site the base merge
  cuts to 255, CS and front-end records, names with odd bytes, the DenseMap
  empty-key FuncHash 2**64-1, zero sums, bad inputs), plus LLVM's own
  ``overlap_*`` test inputs (``llvm19-*``, Apache-2.0 with LLVM exceptions);
* ``inputs/*.profdata`` -- indexed copies of some text inputs, written by
  ``llvm-profdata-14 merge`` (indexed v7, which every release reads);
* ``expected/NAME.rN.stdout`` / ``.stderr`` -- what release N printed for
  case NAME, run from this folder with a pipe as stdout;
* ``cases.json`` -- one entry per (case, release): arguments, exit status and
  the two files, plus ``llvm-profdata --version`` of each release.

Usage: ``python tests/golden/overlap/make_goldens.py``.
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
RELEASES = (14, 16, 19, 22)

#: Text inputs converted to indexed v7 by llvm-profdata 14.
INDEXED = ("ir_base", "ir_test", "vp_base", "vp_test", "cs_base", "cs_test")

#: name -> (arguments after ``overlap``, releases); paths are relative to this folder.
CASES: dict[str, tuple[list[str], tuple[int, ...]]] = {}


def case(name: str, *args: str, releases: tuple[int, ...] = RELEASES) -> None:
    CASES[name] = ([a if a.startswith("-") else f"inputs/{a}" for a in args], releases)


case("ir", "ir_base.proftext", "ir_test.proftext")
case("ir-swapped", "ir_test.proftext", "ir_base.proftext")
case("ir-self", "ir_base.proftext", "ir_base.proftext")
case("ir-cutoff-0", "--value-cutoff=0", "ir_base.proftext", "ir_test.proftext")
case("ir-cutoff-100", "--value-cutoff=100", "ir_base.proftext", "ir_test.proftext")
case("ir-cutoff-octal", "-value-cutoff=010", "ir_base.proftext", "ir_test.proftext")
case("ir-function", "--function=oo", "ir_base.proftext", "ir_test.proftext")
case(
    "ir-function-cutoff",
    "--function=du",
    "--value-cutoff=5",
    "ir_base.proftext",
    "ir_test.proftext",
)
case("ir-cs", "--cs", "ir_base.proftext", "ir_test.proftext")
case("vp", "vp_base.proftext", "vp_test.proftext")
case("vp-cutoff-0", "--value-cutoff=0", "vp_base.proftext", "vp_test.proftext")
case("vp-swapped", "--value-cutoff=0", "vp_test.proftext", "vp_base.proftext")
case("vt", "--value-cutoff=0", "vt_base.proftext", "vt_test.proftext", releases=(19, 22))
case("cs", "--value-cutoff=0", "cs_base.proftext", "cs_test.proftext")
case("cs-cs", "--cs", "--value-cutoff=0", "cs_base.proftext", "cs_test.proftext")
case("fe", "--value-cutoff=0", "fe_base.proftext", "fe_test.proftext")
case("fe-cs", "--cs", "fe_base.proftext", "fe_test.proftext")
case("names", "--value-cutoff=0", "names_base.proftext", "names_test.proftext")
case("emptykey-ir", "--function=f", "emptykey_ir_base.proftext", "emptykey_ir_test.proftext")
case("emptykey-fe", "--value-cutoff=0", "emptykey_fe_base.proftext", "emptykey_fe_test.proftext")
case("emptykey-fe-swapped", "emptykey_fe_test.proftext", "emptykey_fe_base.proftext")
case("zero-base", "zero.proftext", "ir_test.proftext")
case("zero-test", "ir_test.proftext", "zero.proftext")
case("llvm19-overlap", "llvm19-overlap_1.proftext", "llvm19-overlap_2.proftext")
case("llvm19-overlap-cs", "--cs", "llvm19-overlap_1_cs.proftext", "llvm19-overlap_2_cs.proftext")
case("llvm19-overlap-vp", "llvm19-overlap_1_vp.proftext", "llvm19-overlap_2_vp.proftext")
case("indexed", "ir_base.profdata", "ir_test.profdata")
case("indexed-vp", "--value-cutoff=0", "vp_base.profdata", "vp_test.profdata")
case("indexed-cs", "--cs", "--value-cutoff=0", "cs_base.profdata", "cs_test.profdata")
case("indexed-text", "--value-cutoff=0", "ir_base.profdata", "ir_test.proftext")
case("err-missing-base", "missing.profdata", "ir_test.proftext")
case("err-missing-test", "ir_base.proftext", "missing.profdata")
case("err-empty", "empty.proftext", "ir_test.proftext")
case("err-garbage", "ir_base.proftext", "garbage.bin")
case("err-directory", "ir_base.proftext", ".")
case("err-positional", "ir_base.proftext")
case("err-cutoff", "--value-cutoff=1_000", "ir_base.proftext", "ir_test.proftext")


def tool(release: int) -> Path:
    return Path(f"/usr/lib/llvm-{release}/bin/llvm-profdata")


def run(release: int, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(tool(release)), *args], cwd=HERE, capture_output=True, timeout=60, check=False
    )


def make_indexed() -> None:
    for stem in INDEXED:
        out = INPUTS / f"{stem}.profdata"
        proc = run(14, ["merge", "-o", str(out), f"inputs/{stem}.proftext"])
        if proc.returncode:
            raise SystemExit(proc.stderr.decode())


def main() -> int:
    missing = [r for r in RELEASES if not tool(r).exists()]
    if missing:
        raise SystemExit(f"llvm-profdata {missing} not installed; goldens left as they are")
    make_indexed()
    shutil.rmtree(EXPECTED, ignore_errors=True)
    EXPECTED.mkdir()
    entries = []
    for name, (args, releases) in CASES.items():
        for release in releases:
            proc = run(release, ["overlap", *args])
            stem = f"{name}.r{release}"
            (EXPECTED / f"{stem}.stdout").write_bytes(proc.stdout)
            (EXPECTED / f"{stem}.stderr").write_bytes(proc.stderr)
            entries.append(
                {
                    "id": f"{name}/r{release}",
                    "llvm": release,
                    "args": ["overlap", *args],
                    "exit": proc.returncode,
                    "stdout": f"expected/{stem}.stdout",
                    "stderr": f"expected/{stem}.stderr",
                }
            )
    versions = {
        str(r): run(r, ["merge", "--version"]).stdout.decode().strip().splitlines()
        for r in RELEASES
    }
    document = {
        "tool": "llvm-profdata overlap (Debian LLVM packages 14, 16, 19, 22)",
        "made_by": "tests/golden/overlap/make_goldens.py",
        "versions": versions,
        "cases": entries,
    }
    (HERE / "cases.json").write_text(json.dumps(document, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
