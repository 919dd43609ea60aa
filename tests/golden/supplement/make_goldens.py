#!/usr/bin/env python3
"""Regenerate the ``merge --supplement-instr-with-sample`` goldens with the real llvm-profdata.

Layout (everything under ``expected/`` and ``cases.json`` is tool output):

* ``inputs/`` -- LLVM's test inputs for the option (``mix_*``; ``colon-*`` are
  the ``FUnique``/``NoFUnique`` files of LLVM 16, whose local names read
  ``file:name``, ``semicolon-*`` those of 18+, ``file;name``), and small
  profiles written for this suite, each aimed at one rule: ``flatten_*``
  (inlinees and instr counter counts), ``overflow_*`` (saturated scaling),
  ``scale_down_*`` (a warm function above three times the threshold, value
  profiles), ``inlinee_*`` (body maxima exclude call sites), ``static_dups_*``
  and ``many_dups_*`` (static names shared by several files: the warnings and
  their order), ``cs_sample`` (a context-sensitive sample profile),
  ``pseudo_instr`` (an input that already holds a pseudo count), and two
  unreadable files;
* ``expected/NAME.sample.lN.FORMAT`` -- sample inputs converted by release N
  (``merge --sample --binary/--extbinary [--use-md5]``) and
  ``expected/mix_instr.lN.profdata`` (``mix_instr`` indexed by release N),
  used as inputs;
* ``expected/CASE.rN.out`` -- the merged profile (indexed, or text with
  ``--text``) written by release N;
* ``cases.json`` -- one entry per (case, release): arguments (``OUT`` stands
  for the output file), exit status, standard output and error, and the
  output file above.

The tool runs in this folder, so the paths in its messages are the relative
ones in the arguments.  Usage: ``python tests/golden/supplement/make_goldens.py``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"
RELEASES = (14, 16, 19, 22)
SUPPL = "--supplement-instr-with-sample="

_FUNIQUE_CASES = tuple(
    (f"funique-{delim}-{sample}-{instr}", (
        "--supplement-instr-with-sample", f"inputs/{delim}-{sample}.afdotext",
        "--suppl-min-size-threshold", "2", f"inputs/{delim}-{instr}.proftext",
    ))
    for delim in ("colon", "semicolon")
    for sample in ("FUnique", "NoFUnique")
    for instr in ("FUnique", "NoFUnique")
)  # fmt: skip

#: (case, arguments); every case runs with indexed and (but --gcc) with --text output
OUTPUT_CASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("mix-default", (SUPPL + "inputs/mix_sample.proftext", "inputs/mix_instr.proftext")),
    ("mix-min0", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=0",
        "inputs/mix_instr.proftext",
    )),
    ("mix-zero05-cold30", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=0",
        "-zero-counter-threshold=0.5", "-instr-prof-cold-threshold=30",
        "inputs/mix_instr.proftext",
    )),
    ("mix-zero07-cold30", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=0",
        "-zero-counter-threshold=0.7", "-instr-prof-cold-threshold=30",
        "inputs/mix_instr.proftext",
    )),
    ("mix-small-min2", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=2",
        "-zero-counter-threshold=0.7", "-instr-prof-cold-threshold=30",
        "inputs/mix_instr_small.proftext",
    )),
    ("mix-small-sparse", (
        SUPPL + "inputs/mix_sample.proftext", "--sparse", "inputs/mix_instr_small.proftext",
    )),
    ("mix-zero-hex", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=0",
        "-zero-counter-threshold=0x.8p0", "-instr-prof-cold-threshold=30",
        "inputs/mix_instr.proftext",
    )),
    ("mix-zero-inf", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=0",
        "-zero-counter-threshold=1e39", "inputs/mix_instr.proftext",
    )),
    ("mix-zero-nan", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=0",
        "-zero-counter-threshold=nan", "-instr-prof-cold-threshold=30",
        "inputs/mix_instr.proftext",
    )),
    ("mix-gcc-format", (
        SUPPL + "inputs/mix_sample.proftext", "--gcc", "-suppl-min-size-threshold=0",
        "inputs/mix_instr.proftext",
    )),
    ("pseudo-input", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=0",
        "inputs/pseudo_instr.proftext",
    )),
    ("flatten", (
        SUPPL + "inputs/flatten_sample.proftext", "-suppl-min-size-threshold=2",
        "inputs/flatten_instr.proftext",
    )),
    ("overflow", (
        SUPPL + "inputs/overflow_sample.proftext", "-instr-prof-cold-threshold=4000000000",
        "-suppl-min-size-threshold=0", "inputs/overflow_instr.proftext",
    )),
    ("scale-down", (
        SUPPL + "inputs/scale_down_sample.proftext", "-instr-prof-cold-threshold=4000000000",
        "-suppl-min-size-threshold=0", "inputs/scale_down_instr.proftext",
    )),
    ("inlinee", (
        SUPPL + "inputs/inlinee_sample.proftext", "-suppl-min-size-threshold=0",
        "inputs/inlinee_instr.proftext",
    )),
    ("static-dups", (
        SUPPL + "inputs/static_dups_sample.proftext", "-suppl-min-size-threshold=2",
        "inputs/static_dups_instr.proftext",
    )),
    ("many-dups-colon", (
        SUPPL + "inputs/many_dups_sample.proftext", "-suppl-min-size-threshold=2",
        "inputs/many_dups_colon_instr.proftext",
    )),
    ("many-dups-semicolon", (
        SUPPL + "inputs/many_dups_sample.proftext", "-suppl-min-size-threshold=2",
        "inputs/many_dups_semicolon_instr.proftext",
    )),
    ("cs-min0", (
        SUPPL + "inputs/cs_sample.proftext", "-suppl-min-size-threshold=0",
        "inputs/flatten_instr.proftext",
    )),
    ("cs-min2", (
        SUPPL + "inputs/cs_sample.proftext", "-suppl-min-size-threshold=2",
        "inputs/flatten_instr.proftext",
    )),
    *_FUNIQUE_CASES,
)  # fmt: skip

#: sample inputs converted by each release: (case, text source, instr input, format options)
CONVERTED: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("static-dups-extbinary", "static_dups_sample", "static_dups_instr", ("--extbinary",)),
    ("static-dups-binary", "static_dups_sample", "static_dups_instr", ("--binary",)),
    ("static-dups-md5", "static_dups_sample", "static_dups_instr", ("--extbinary", "--use-md5")),
    ("flatten-extbinary", "flatten_sample", "flatten_instr", ("--extbinary",)),
)

#: (case, arguments, releases) of runs that fail or write nothing
ERROR_CASES: tuple[tuple[str, tuple[str, ...], tuple[int, ...]], ...] = (
    ("to-stdout", (SUPPL + "inputs/mix_sample.proftext", "inputs/mix_instr.proftext"), RELEASES),
    ("to-stdout-text", (
        SUPPL + "inputs/mix_sample.proftext", "--text", "-o", "-", "inputs/mix_instr.proftext",
    ), RELEASES),
    ("two-inputs", (
        SUPPL + "inputs/mix_sample.proftext", "inputs/mix_instr.proftext",
        "inputs/mix_instr_small.proftext", "-o", "OUT",
    ), RELEASES),
    ("weighted", (
        SUPPL + "inputs/mix_sample.proftext", "--weighted-input=2,inputs/mix_instr.proftext",
        "-o", "OUT",
    ), RELEASES),
    ("no-input", (SUPPL + "inputs/mix_sample.proftext", "-o", "OUT"), RELEASES),
    ("with-sample-kind", (
        "--sample", SUPPL + "inputs/mix_sample.proftext", "inputs/mix_instr.proftext",
        "-o", "OUT",
    ), RELEASES),
    ("missing-sample", (
        SUPPL + "inputs/no_such_sample.txt", "inputs/mix_instr.proftext", "-o", "OUT",
    ), RELEASES),
    ("garbage-sample", (
        SUPPL + "inputs/not_a_profile.bin", "inputs/mix_instr.proftext", "-o", "OUT",
    ), RELEASES),
    ("instr-as-sample", (
        SUPPL + "inputs/mix_instr.proftext", "inputs/mix_instr.proftext", "-o", "OUT",
    ), RELEASES),
    ("missing-instr", (
        SUPPL + "inputs/mix_sample.proftext", "inputs/no_such_instr.proftext", "-o", "OUT",
    ), RELEASES),
    ("garbage-instr", (
        SUPPL + "inputs/mix_sample.proftext", "inputs/not_a_profile.bin", "-o", "OUT",
    ), RELEASES),
    ("truncated-instr-text", (
        SUPPL + "inputs/mix_sample.proftext", "inputs/garbage.txt", "-o", "OUT",
    ), RELEASES),
    ("sample-as-instr", (
        SUPPL + "inputs/mix_sample.proftext", "inputs/mix_sample.proftext", "-o", "OUT",
    ), RELEASES),
    ("dump-input-list", (
        SUPPL + "inputs/mix_sample.proftext", "--dump-input-file-list",
        "inputs/mix_instr.proftext", "inputs/mix_instr_small.proftext", "-o", "OUT",
    ), RELEASES),
    # 14 and 16 name the subcommand in option errors ("llvm-profdata merge: for the ...")
    ("bad-zero-threshold", (
        SUPPL + "inputs/mix_sample.proftext", "-zero-counter-threshold=abc",
        "inputs/mix_instr.proftext", "-o", "OUT",
    ), (19, 22)),
    ("bad-min-size", (
        SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=4294967296",
        "inputs/mix_instr.proftext", "-o", "OUT",
    ), (19, 22)),
    ("bad-cold-threshold", (
        SUPPL + "inputs/mix_sample.proftext", "-instr-prof-cold-threshold=-1",
        "inputs/mix_instr.proftext", "-o", "OUT",
    ), (19, 22)),
)  # fmt: skip


def tool(release: int) -> Path:
    return Path(f"/usr/lib/llvm-{release}/bin/llvm-profdata")


def version_lines(release: int) -> list[str]:
    done = subprocess.run([tool(release), "--version"], capture_output=True, text=True)
    return [line for line in done.stdout.splitlines() if line.strip()][:2]


def run_case(
    case_id: str, release: int, args: list[str], scratch: Path, writes: bool
) -> dict[str, object]:
    out = scratch / "out"
    out.unlink(missing_ok=True)
    argv = [str(tool(release)), "merge", *[str(out) if a == "OUT" else a for a in args]]
    done = subprocess.run(argv, cwd=HERE, capture_output=True)
    base = f"{case_id}.r{release}"
    entry: dict[str, object] = {
        "id": f"{case_id}/r{release}",
        "llvm": release,
        "args": args,
        "exit": done.returncode,
        "stderr": done.stderr.decode(),
        "stdout": done.stdout.decode(),
    }
    if writes and done.returncode == 0:
        shutil.copyfile(out, EXPECTED / f"{base}.out")
        entry["output"] = f"expected/{base}.out"
    return entry


def convert(release: int, source: str, options: tuple[str, ...]) -> str | None:
    """A sample input in a binary encoding, written by ``release`` (None if it cannot)."""
    suffix = "-".join(o.lstrip("-") for o in options)
    name = f"expected/{source}.sample.l{release}.{suffix}"
    done = subprocess.run(
        [tool(release), "merge", "--sample", *options, f"inputs/{source}.proftext", "-o", name],
        cwd=HERE,
        capture_output=True,
    )
    return name if done.returncode == 0 else None


def main() -> int:
    missing = [r for r in RELEASES if not tool(r).is_file()]
    if missing:
        print(f"llvm-profdata missing for releases {missing}", file=sys.stderr)
        return 1
    if EXPECTED.exists():
        shutil.rmtree(EXPECTED)
    EXPECTED.mkdir()
    cases: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for release in RELEASES:
            runs: list[tuple[str, list[str]]] = []
            for case_id, args in OUTPUT_CASES:
                runs.append((case_id, [*args, "-o", "OUT"]))
                if "--gcc" not in args:  # one output format only
                    runs.append((f"{case_id}-text", [*args, "--text", "-o", "OUT"]))
            for case_id, source, instr, options in CONVERTED:
                sample = convert(release, source, options)
                if sample is None:
                    continue
                common = [SUPPL + sample, "-suppl-min-size-threshold=2", f"inputs/{instr}.proftext"]
                runs.append((case_id, [*common, "-o", "OUT"]))
                runs.append((f"{case_id}-text", [*common, "--text", "-o", "OUT"]))
            for case_id, argv in runs:
                cases.append(run_case(case_id, release, argv, scratch, writes=True))
            indexed = f"expected/mix_instr.l{release}.profdata"
            subprocess.run(
                [tool(release), "merge", "inputs/mix_instr.proftext", "-o", indexed],
                cwd=HERE,
                check=True,
            )
            common = [SUPPL + "inputs/mix_sample.proftext", "-suppl-min-size-threshold=0", indexed]
            runs = [
                ("mix-indexed-input", [*common, "-o", "OUT"]),
                ("mix-indexed-input-text", [*common, "--text", "-o", "OUT"]),
            ]
            for case_id, argv in runs:
                cases.append(run_case(case_id, release, argv, scratch, writes=True))
            for case_id, args, releases in ERROR_CASES:
                if release in releases:
                    cases.append(run_case(case_id, release, list(args), scratch, writes=False))
    document = {
        "tool": "llvm-profdata (Debian LLVM packages 14, 16, 19, 22)",
        "made_by": "tests/golden/supplement/make_goldens.py",
        "versions": {str(r): version_lines(r) for r in RELEASES},
        "cases": cases,
    }
    (HERE / "cases.json").write_text(json.dumps(document, indent=1) + "\n")
    print(f"{len(cases)} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
