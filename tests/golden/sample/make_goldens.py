"""Regenerate the sample-profile goldens with the real llvm-profdata 14, 16, 19 and 22.

Usage: python tests/golden/sample/make_goldens.py

For every ``inputs/*.txt`` and each release it records, in
``expected/l<release>.json`` under the input's name, one result
(``{"exit", "stdout", "stderr"}``; bytes as UTF-8 with surrogate escapes) per
command:

* ``merge``      ``merge --sample --text``
* ``merge-<case>`` the same with the options of ``MERGE_CASES``
* ``binary``     ``merge --sample --binary`` (stdout holds the file's bytes, hex)
* ``binary-text`` ``merge --sample --text`` of that binary file (the binary reader)
* ``show-<case>`` ``show --sample`` with the options of ``SHOW_CASES``
* ``extbin-<case>`` ``merge --sample --extbinary`` with the options of ``EXTBIN_CASES``
  (stdout holds the file's bytes, hex); for each written file ``extbin-<case>-sec``
  (``show --sample --show-sec-info-only``), and for some ``extbin-<case>-text``
  (``merge --sample --text`` of it), ``extbin-<case>-show`` (``show --sample``) and
  ``extbin-<case>-remerge`` (``merge --sample --extbinary`` of it, hex)

Inputs: ``corpus-*`` are the shared corpus's sample inputs, ``llvm-*`` LLVM's
own test inputs, ``edge-*`` edge cases written for these tests.  Nothing here
is hand-written output.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected"
RELEASES = (14, 16, 19, 22)

#: show cases: name -> (options, first release that has them)
SHOW_CASES: dict[str, tuple[list[str], int]] = {
    "default": ([], 14),
    "all-counts": (["--all-functions", "--counts"], 14),
    "detailed": (["--detailed-summary"], 14),
    "hot": (["--hot-func-list"], 14),
    "topn2": (["--topn=2"], 14),
    "fn-main": (["--function=main"], 14),
    "fn-absent": (["--function=no_such_function"], 14),
    "json": (["--show-format=json"], 16),
    "json-fn": (["--show-format=json", "--function=main"], 16),
    "sec-info": (["--show-sec-info-only"], 14),
}


#: merge --sample --text cases with options: name -> (options, releases that have them)
MERGE_CASES: dict[str, tuple[list[str], tuple[int, ...]]] = {
    "merge-weighted": (["--weighted-input=3,{input}", "{input}"], RELEASES),
    "merge-flat": (["--convert-sample-profile-layout=flat", "{input}"], (19, 22)),
    "merge-nest": (["--convert-sample-profile-layout=nest", "{input}"], (19, 22)),
    "merge-gen-nested": (["--gen-cs-nested-profile", "{input}"], (14, 16)),
    "merge-cold-merge": (["--sample-merge-cold-context", "{input}"], RELEASES),
    "merge-cold-trim": (["--sample-trim-cold-context", "{input}"], RELEASES),
}


#: merge --sample --extbinary cases: name -> (options, releases that have them)
EXTBIN_CASES: dict[str, tuple[list[str], tuple[int, ...]]] = {
    "default": ([], RELEASES),
    "compress": (["--compress-all-sections"], RELEASES),
    "md5": (["--use-md5"], RELEASES),
    "partial": (["--gen-partial-profile"], RELEASES),
    "symlist": (["--prof-sym-list=inputs/symlist.list"], RELEASES),
    "all": (
        ["--use-md5", "--compress-all-sections", "--gen-partial-profile",
         "--prof-sym-list=inputs/symlist.list"],
        RELEASES,
    ),
    "split": (["--split-layout"], (22,)),
    "split-all": (["--split-layout", "--compress-all-sections", "--use-md5"], (22,)),
}  # fmt: skip
#: written files that are also read back (text, show, re-merge)
EXTBIN_READ_BACK = ("default", "md5", "all", "split")


def tool(release: int) -> str:
    return f"/usr/lib/llvm-{release}/bin/llvm-profdata"


def run(release: int, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([tool(release), *args], cwd=HERE, capture_output=True, timeout=60)


def text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def record(proc: subprocess.CompletedProcess[bytes]) -> dict[str, object]:
    return {"exit": proc.returncode, "stdout": text(proc.stdout), "stderr": text(proc.stderr)}


def extbin_cases(
    release: int,
    rel_input: str,
    case: str,
    options: list[str],
    scratch: Path,
    cases: dict[str, object],
) -> None:
    """One ``merge --sample --extbinary`` case and the reads of the file it wrote."""
    out = scratch / f"{case}.extbin"
    out.unlink(missing_ok=True)
    made = run(release, ["merge", "--sample", "--extbinary", *options, rel_input, "-o", str(out)])
    key = f"extbin-{case}"
    if made.returncode != 0 or not out.exists():
        cases[key] = record(made)
        return
    cases[key] = {"exit": 0, "stdout": out.read_bytes().hex(), "stderr": text(made.stderr)}
    cases[f"{key}-sec"] = record(
        run(release, ["show", "--sample", "--show-sec-info-only", str(out)])
    )
    if case not in EXTBIN_READ_BACK:
        return
    cases[f"{key}-text"] = record(
        run(release, ["merge", "--sample", "--text", str(out), "-o", "-"])
    )
    shown = run(release, ["show", "--sample", "--all-functions", "--counts", str(out)])
    if shown.returncode in (0, 1):
        cases[f"{key}-show"] = record(shown)
    again = scratch / "again.extbin"
    again.unlink(missing_ok=True)
    remade = run(release, ["merge", "--sample", "--extbinary", str(out), "-o", str(again)])
    if remade.returncode == 0 and again.exists():
        cases[f"{key}-remerge"] = {"exit": 0, "stdout": again.read_bytes().hex(), "stderr": ""}


def main() -> None:
    EXPECTED.mkdir(exist_ok=True)
    scratch = Path(tempfile.mkdtemp())
    try:
        for release in RELEASES:
            results: dict[str, dict[str, object]] = {}
            for source in sorted(INPUTS.glob("*.txt")):
                name = source.stem
                rel_input = f"inputs/{source.name}"
                cases: dict[str, object] = {}
                cases["merge"] = record(
                    run(release, ["merge", "--sample", "--text", rel_input, "-o", "-"])
                )
                for case, (options, releases) in MERGE_CASES.items():
                    if release in releases:
                        args = [o.format(input=rel_input) for o in options]
                        merge_args = ["merge", "--sample", "--text", *args, "-o", "-"]
                        cases[case] = record(run(release, merge_args))
                binary = scratch / f"{name}.afdo"
                made = run(release, ["merge", "--sample", "--binary", rel_input, "-o", str(binary)])
                if made.returncode == 0 and binary.exists():
                    cases["binary"] = {"exit": 0, "stdout": binary.read_bytes().hex(), "stderr": ""}
                    cases["binary-text"] = record(
                        run(release, ["merge", "--sample", "--text", str(binary), "-o", "-"])
                    )
                else:
                    cases["binary"] = record(made)
                for case, (options, releases) in EXTBIN_CASES.items():
                    if release in releases:
                        extbin_cases(release, rel_input, case, options, scratch, cases)
                for case, (options, first) in SHOW_CASES.items():
                    if release < first:
                        continue
                    shown = run(release, ["show", "--sample", *options, rel_input])
                    if shown.returncode in (0, 1):  # otherwise llvm-profdata crashed
                        cases[f"show-{case}"] = record(shown)
                results[name] = cases
            target = EXPECTED / f"l{release}.json"
            target.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
