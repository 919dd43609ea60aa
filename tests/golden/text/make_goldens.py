#!/usr/bin/env python3
"""Regenerate the text-format goldens with the real llvm-profdata of LLVM 14, 16, 19 and 22.

Layout (everything under ``expected/`` is tool output, never edited by hand):

* ``inputs/*.proftext`` -- hand-written inputs (edge cases of the grammar, and
  ``err_*`` inputs LLVM rejects), plus copies of LLVM's own test inputs
  (``llvm19-*``, Apache-2.0 with LLVM exceptions) and of the shared corpus
  (``corpus-*``), copied by ``--collect``;
* ``expected/lN/NAME.proftext`` -- ``llvm-profdata merge --text`` of release N;
* ``expected/lN/NAME.err`` -- the message release N printed after
  ``warning: NAME.proftext:`` when it rejected the input;
* ``expected/lN/NAME.show.txt`` -- ``llvm-profdata show --text --all-functions``
  (only for the inputs in ``SHOW_TEXT``);
* ``expected/VERSIONS.txt`` -- ``llvm-profdata --version`` of each release used.

Usage: ``python tests/golden/text/make_goldens.py [--collect]``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected"
RELEASES = (14, 16, 19, 22)
SHARED = Path("/work/shared")

#: Instrumentation text inputs of LLVM's test suite (llvm-19 folder) and of the corpus.
COLLECT = {
    "llvm19": (
        SHARED / "llvm-test-inputs/llvm-19",
        [
            "CSIR_profile", "FUnique", "IR_profile", "NoFUnique", "bad-hash", "bar3-1", "basic",
            "clang_profile", "counter-mismatch-1", "counter-mismatch-2", "counter-mismatch-3",
            "counter-mismatch-4", "cs", "cutoff", "extra-word", "fe-basic", "foo3-1", "foo3-2",
            "foo3bar3-1", "header-directives-1", "header-directives-2", "header-directives-3",
            "instr-remap", "invalid-count-later", "ir-basic", "mix_instr", "mix_instr_small",
            "multiple-profdata-merge", "no-counts", "noncs", "overflow-instr", "overlap_1",
            "overlap_1_cs", "overlap_1_vp", "overlap_2", "overlap_2_cs", "overlap_2_vp",
            "same-name-1", "same-name-2", "vp-malform", "vp-malform2", "sample-fs",
            "cs-sample", "sample-empty-lines",
        ],
    ),
    "llvm11": (SHARED / "llvm-test-inputs/llvm-11", ["vp-truncate", "sample-profile"]),
    "corpus": (
        SHARED / "corpus",
        [
            "text-inputs-visible/fe_basic", "text-inputs-visible/ir_values",
            "bad-inputs-vis/bad_counter", "bad-inputs-vis/bad_flag",
            "bad-inputs-vis/bad_numcounters", "bad-inputs-vis/bad_truncated",
            "bad-inputs-vis/newline",
        ],
    ),
}  # fmt: skip

#: Inputs whose ``show --text --all-functions`` output is recorded too.
SHOW_TEXT = ("ext_targets", "value_order", "corpus-ir_values", "mcdc_bitmap", "vtable_only")


def tool(release: int) -> Path:
    return Path(f"/usr/lib/llvm-{release}/bin/llvm-profdata")


def collect() -> None:
    for prefix, (folder, stems) in COLLECT.items():
        for stem in stems:
            src = folder / f"{stem}.proftext"
            shutil.copyfile(src, INPUTS / f"{prefix}-{Path(stem).name}.proftext")


def run(release: int, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(tool(release)), *args], cwd=INPUTS, capture_output=True, timeout=60, check=False
    )


def llvm_message(stderr: bytes, name: str) -> str:
    """The message after ``warning: NAME:`` / ``error: NAME:`` on the first matching line."""
    for line in stderr.decode("utf-8", "replace").splitlines():
        for tag in ("warning: ", "error: "):
            prefix = f"{tag}{name}: "
            if line.startswith(prefix):
                return line[len(prefix) :]
    raise SystemExit(f"no message for {name} in {stderr!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", action="store_true", help="copy inputs from /work/shared")
    opts = parser.parse_args()
    if opts.collect:
        collect()
    versions = []
    for release in RELEASES:
        if not tool(release).exists():
            print(f"llvm-profdata {release} missing; its goldens are left as they are")
            continue
        out_dir = EXPECTED / f"l{release}"
        shutil.rmtree(out_dir, ignore_errors=True)
        out_dir.mkdir(parents=True)
        versions.append(run(release, ["merge", "--version"]).stdout.decode().strip())
        for src in sorted(INPUTS.glob("*.proftext")):
            stem = src.stem
            out = out_dir / f"{stem}.proftext"
            proc = run(release, ["merge", "--text", "-o", str(out), src.name])
            if proc.returncode != 0:
                out.unlink(missing_ok=True)
                (out_dir / f"{stem}.err").write_text(llvm_message(proc.stderr, src.name) + "\n")
            if stem in SHOW_TEXT:
                shown = run(release, ["show", "--text", "--all-functions", src.name])
                if shown.returncode == 0:
                    (out_dir / f"{stem}.show.txt").write_bytes(shown.stdout)
    (EXPECTED / "VERSIONS.txt").write_text("\n\n".join(versions) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
