#!/usr/bin/env python3
"""Regenerate the ``show`` goldens with the real llvm-profdata 14, 16, 19 and 22.

The inputs (``inputs/*.proftext``) are hand-written text profiles, each aimed
at corner cases of ``llvm-profdata show`` for instrumentation profiles: value
site percentages and signed counts, pseudo counts, CS filtering, tie order of
``--topn`` and ``--hot-func-list``, float rounding of the detailed summary,
names that are not UTF-8, temporal traces and vtables, MC/DC bitmaps.  Every
expected file is the stdout of the real tool:
``expected/<input>/<option-set>.r<release>.stdout``; ``cases.json`` records
the arguments and the exit status.  Runs where a release cannot read the input
at all (its text reader predates a header or block) are left out; runs where a
release rejects an *option* are kept (exit 1, empty stdout) because profdata
reproduces that refusal.

Run: ``python tests/golden/show/make_goldens.py`` (needs /usr/lib/llvm-{14,16,19,22}).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected"
RELEASES = (14, 16, 19, 22)

ALL_VALUES = ["--all-functions", "--counts", "--ic-targets", "--memop-sizes"]
CUTOFFS = "--detailed-summary-cutoffs=1,5,10000,123456,990000,999999,1000175,1234567"

#: option sets applied to the general-purpose inputs; FN and CUT are per-input
FULL: dict[str, list[str]] = {
    "default": [],
    "all-counts": ["--all-functions", "--counts"],
    "all-values": ALL_VALUES,
    "all-vtables": ["--all-functions", "--ic-targets", "--show-vtables"],
    "function": ["--function=FN", "--counts"],
    "function-and-all": ["--function=FN", "--all-functions"],
    "topn": ["--topn=3"],
    "detailed": ["--detailed-summary"],
    "detailed-cutoffs": ["--detailed-summary", CUTOFFS],
    "cutoffs-only": [CUTOFFS],
    "value-cutoff": ["--value-cutoff=CUT", "--all-functions", "--counts"],
    "below-cutoff": ["--value-cutoff=CUT", "--list-below-cutoff"],
    "below-cutoff-zero": ["--list-below-cutoff", "--all-functions"],
    "covered": ["--covered"],
    "showcs": ["--showcs", "--all-functions", "--counts"],
    "text-all": ["--text", "--all-functions"],
    "text-only": ["--text"],
    "text-below-cutoff": ["--text", "--function=FN", "--value-cutoff=CUT", "--list-below-cutoff"],
    "covered-text": ["--covered", "--text", "--function=FN"],
    "hot": ["--hot-func-list"],
    "hot-cutoffs": ["--hot-func-list", "--detailed-summary-cutoffs=999999"],
    "binary-ids": ["--binary-ids"],
    "version": ["--profile-version"],
    "traces": ["--temporal-profile-traces"],
    "format-text": ["--show-format=text"],
    "format-yaml": ["--show-format=yaml"],
    "kitchen-sink": [
        *ALL_VALUES,
        "--topn=2",
        "--value-cutoff=1",
        "--detailed-summary",
        "--hot-func-list",
        "--binary-ids",
    ],
}

#: input -> (function filter, value cutoff, option sets)
PLAN: dict[str, tuple[str, str, dict[str, list[str]]]] = {
    "ir": ("a", "51", FULL),
    "fe": ("pseudo", "80", FULL),
    "ties": (
        "e",
        "50",
        {
            "default": [],
            "topn-1": ["--topn=1"],
            "topn-2": ["--topn=2"],
            "topn-3": ["--topn=3"],
            "topn-4": ["--topn=4"],
            "topn-5": ["--topn=5"],
            "topn-7": ["--topn=7"],
            "topn-20": ["--topn=20"],
            "topn-all": ["--topn=3", "--all-functions"],
            "hot": ["--hot-func-list"],
            "hot-below": [
                "--hot-func-list",
                "--topn=2",
                "--value-cutoff=CUT",
                "--list-below-cutoff",
            ],
            "hot-cutoff": ["--hot-func-list", "--value-cutoff=6"],
            "hot-cutoffs": ["--hot-func-list", "--detailed-summary-cutoffs=999999,990000"],
        },
    ),
    "cs": (
        "main",
        "5",
        {
            "default": [],
            "all-counts": ["--all-functions", "--counts"],
            "showcs": ["--showcs", "--all-functions", "--counts"],
            "showcs-summary": ["--showcs", "--detailed-summary", "--topn=2"],
            "covered": ["--covered"],
            "covered-cs": ["--covered", "--showcs"],
            "text-all": ["--text", "--all-functions"],
            "text-cs": ["--text", "--all-functions", "--showcs"],
            "function": ["--function=FN", "--showcs"],
        },
    ),
    "entry": (
        "main",
        "1",
        {
            "default": [],
            "all-counts": ["--all-functions", "--counts"],
            "text-all": ["--text", "--all-functions"],
        },
    ),
    "loops": (
        "main",
        "1",
        {
            "default": [],
            "all-counts": ["--all-functions", "--counts"],
            "text-all": ["--text", "--all-functions"],
        },
    ),
    "vt": (
        "main",
        "1",
        {
            "default": [],
            "all-values": [*ALL_VALUES, "--show-vtables"],
            "vtables": ["--all-functions", "--show-vtables"],
            "traces": ["--temporal-profile-traces"],
            "text-all": ["--text", "--all-functions"],
            "kitchen-sink": [
                *ALL_VALUES,
                "--show-vtables",
                "--temporal-profile-traces",
                "--topn=1",
            ],
        },
    ),
    "bitmap": (
        "check",
        "1",
        {
            "default": [],
            "all-counts": ["--all-functions", "--counts"],
            "text-all": ["--text", "--all-functions"],
        },
    ),
    "names": (
        "static",
        "5",
        {
            "all-values": ALL_VALUES,
            "function": ["--function=FN", "--ic-targets"],
            "text-all": ["--text", "--all-functions"],
            "covered": ["--covered"],
            "topn": ["--topn=4"],
            "below-cutoff": ["--value-cutoff=CUT", "--list-below-cutoff"],
        },
    ),
    "empty": (
        "x",
        "3",
        {
            "default": [],
            "everything": ["--all-functions", "--topn=2", "--ic-targets", "--value-cutoff=CUT"],
            "detailed": ["--detailed-summary"],
            "hot": ["--hot-func-list"],
            "text-all": ["--text", "--all-functions"],
            "covered": ["--covered"],
            "below-cutoff": ["--value-cutoff=CUT", "--list-below-cutoff"],
        },
    ),
    "zeros": (
        "main",
        "1",
        {
            "all-values": ALL_VALUES,
            "detailed": ["--detailed-summary"],
            "covered": ["--covered"],
            "text-all": ["--text", "--all-functions"],
            "hot": ["--hot-func-list"],
        },
    ),
    "shares": (
        "f",
        "1",
        {
            "default": [],
            "detailed-1pct": ["--detailed-summary", "--detailed-summary-cutoffs=10000"],
        },
    ),
}

#: the real tool's refusal of an input (not of an option) contains the input's name
_OPTION_ERRORS = ("Unknown command line argument", "not supported for instr profiles")


def tool(release: int) -> str:
    return f"/usr/lib/llvm-{release}/bin/llvm-profdata"


def main() -> None:
    if EXPECTED.exists():
        shutil.rmtree(EXPECTED)
    cases: list[dict[str, object]] = []
    for name, (needle, cutoff, sets) in PLAN.items():
        source = f"inputs/{name}.proftext"
        for slug, template in sets.items():
            args = [
                a.replace("FN", needle).replace("CUT", cutoff) if "=" in a else a for a in template
            ]
            for release in RELEASES:
                run = subprocess.run(
                    [tool(release), "show", *args, source],
                    cwd=HERE,
                    capture_output=True,
                    timeout=120,
                )
                stderr = run.stderr.decode("utf-8", "replace")
                if run.returncode and not any(e in stderr for e in _OPTION_ERRORS):
                    continue
                out = EXPECTED / name / f"{slug}.r{release}.stdout"
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(run.stdout)
                cases.append(
                    {
                        "id": f"{name}/{slug}/r{release}",
                        "llvm": release,
                        "args": ["show", *args, source],
                        "exit": run.returncode,
                        "stdout": str(out.relative_to(HERE)),
                        "stderr_first_line": stderr.splitlines()[0] if stderr else "",
                    }
                )
    manifest = {
        "tool": "llvm-profdata show (Debian LLVM packages 14, 16, 19, 22)",
        "made_by": "tests/golden/show/make_goldens.py",
        "cases": cases,
    }
    (HERE / "cases.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
