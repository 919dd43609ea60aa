#!/usr/bin/env python3
"""Regenerate the MemProf goldens with the real LLVM tools (16, 19 and 22).

Nothing here is hand-written output:

1. ``memprof_prog.cc`` is built with ``clang++-N -fprofile-generate
   -fmemory-profile -no-pie`` (LLVM 16 refuses PIE binaries) and run, which
   writes a ``.memprofraw`` and a ``.profraw``;
2. ``llvm-profdata-N merge --profiled-binary=EXE RAW.memprofraw PROG.profraw``
   writes ``lN-vV[-full].profdata`` for every MemProf version (and
   ``--memprof-full-schema``) release N writes; these are the inputs;
3. every case in ``cases.json`` is a real tool run on those inputs (or on the
   ``*.yaml`` inputs: ``show22`` output of ``l22-v3``, the hand-made
   ``callee.yaml`` and the generated ``deep.yaml``): its arguments, exit code,
   stdout and output file are
   stored under ``expected/``, and ``test_memprof_goldens.py`` replays the
   same arguments through ``profdata.cli.main``.

The binaries' addresses make the profiles machine-specific, so the profiles
are committed and only this script rebuilds them.  Raw ``.memprofraw``
symbolization is not done by profdata, so no case reads one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"

#: MemProf versions each release writes (`--memprof-version`); 16 has no such option.
VERSIONS: dict[int, list[int | None]] = {16: [None], 19: [0, 1, 2, 3], 22: [2, 3, 4]}


def profdata(release: int) -> str:
    return f"/usr/lib/llvm-{release}/bin/llvm-profdata"


def input_name(release: int, version: int | None, full: bool) -> str:
    return f"l{release}-v{'d' if version is None else version}{'-full' if full else ''}"


def build_inputs(work: Path) -> list[str]:
    names: list[str] = []
    for release, versions in VERSIONS.items():
        exe = work / f"prog{release}"
        subprocess.run(
            [f"clang++-{release}", "-g", "-O0", "-fprofile-generate", "-fmemory-profile",
             "-fno-omit-frame-pointer", "-no-pie", "-Wl,--build-id",
             str(HERE / "memprof_prog.cc"), "-o", str(exe)],
            check=True,
        )  # fmt: skip
        env = dict(
            os.environ,
            LLVM_PROFILE_FILE=str(work / f"prog{release}.profraw"),
            MEMPROF_OPTIONS=f"log_path={work / f'prog{release}.memprofraw'}",
        )
        subprocess.run([str(exe)], check=True, env=env)
        (raw,) = sorted(work.glob(f"prog{release}.memprofraw*"))
        for version in versions:
            for full in (False, True) if version is not None and version >= 2 else (False,):
                name = input_name(release, version, full)
                args = [profdata(release), "merge", f"--profiled-binary={exe}"]
                args += [] if version is None else [f"--memprof-version={version}"]
                args += ["--memprof-full-schema"] if full else []
                args += [str(raw), str(work / f"prog{release}.profraw")]
                subprocess.run([*args, "-o", str(HERE / f"{name}.profdata")], check=True)
                names.append(name)
    return names


def cases(inputs: list[str]) -> list[dict[str, object]]:
    """Every (release, arguments) pair to record; ``OUT`` is the output file."""
    out: list[dict[str, object]] = []
    readable = {16: ["l16-vd"], 19: [n for n in inputs if not n.startswith("l22")], 22: inputs}
    for name in inputs:
        for release in (16, 19, 22):
            out.append({"release": release, "args": ["show", "--memory", f"{name}.profdata"]})
        for release, names in readable.items():
            if name in names:
                out.append({"release": release, "args": ["merge", f"{name}.profdata", "-o", "OUT"]})
        out.append({"release": 22, "args": ["show", "--all-functions", f"{name}.profdata"]})
    for version in VERSIONS[22]:
        for full in ([], ["--memprof-full-schema"]):
            flags = [f"--memprof-version={version}", *full]
            out.append({"release": 22, "args": ["merge", *flags, "l22-v3.profdata", "-o", "OUT"]})
            for yaml in ("show22.yaml", "callee.yaml"):
                out.append({"release": 22, "args": ["merge", *flags, yaml, "-o", "OUT"]})
    for version in VERSIONS[19]:
        out.append({"release": 19, "args": ["merge", f"--memprof-version={version}",
                                             "l19-v2.profdata", "-o", "OUT"]})  # fmt: skip
    out.append({"release": 22, "args": ["merge", "callee.yaml", "show22.yaml", "callee.yaml",
                                        "-o", "OUT"]})  # fmt: skip
    out.append({"release": 22, "args": ["merge", "-j", "2", "show22.yaml", "callee.yaml",
                                        "callee.yaml", "show22.yaml", "-o", "OUT"]})  # fmt: skip
    out.append({"release": 22, "args": ["merge", "show22.yaml", "l22-v3.profdata", "-o", "OUT"]})
    for version in VERSIONS[22]:
        out.append({"release": 22, "args": ["merge", f"--memprof-version={version}",
                                             "deep.yaml", "-o", "OUT"]})  # fmt: skip
    return out


def deep_yaml() -> str:
    """Call stacks of 300 frames (2400 bytes of frame ids: a 3-chunk BLAKE3 input) that
    share prefixes, so the radix tree has jumps."""
    lines = ["---", "HeapProfileRecords:"]
    for leaf in range(3):
        lines += [f"  - GUID: 0x{0xD00 + leaf:x}", "    AllocSites:", "      - Callstack:"]
        depth = 300 - 40 * leaf
        for i in range(depth):
            fn = 0xD00 + leaf if i == 0 else 0xE000 + (depth - i)
            lines.append(
                f"          - {{ Function: 0x{fn:x}, LineOffset: {i % 7}, Column: "
                f"{i % 5}, IsInlineFrame: {'true' if i % 11 == 0 else 'false'} }}"
            )
        lines += ["        MemInfoBlock:", f"          AllocCount: {leaf + 1}",
                  f"          TotalSize: {100 * leaf + 8}", "          TotalLifetime: 3",
                  "          TotalLifetimeAccessDensity: 77"]  # fmt: skip
    return "\n".join(lines) + "\n"


def run_case(index: int, case: dict[str, object], work: Path) -> dict[str, object]:
    args = [str(a) for a in case["args"]]  # type: ignore[attr-defined]
    release = int(case["release"])  # type: ignore[call-overload]
    out_file = work / "out.profdata"
    out_file.unlink(missing_ok=True)
    real = [profdata(release), *(str(out_file) if a == "OUT" else a for a in args)]
    done = subprocess.run(real, cwd=HERE, capture_output=True)
    stem = f"case{index:03d}"
    record: dict[str, object] = {**case, "exit": done.returncode, "stdout": f"{stem}.stdout"}
    (EXPECTED / f"{stem}.stdout").write_bytes(done.stdout)
    if done.returncode:
        record["stderr_first_line"] = done.stderr.decode().splitlines()[0]
    if "OUT" in args and done.returncode == 0:
        shutil.copyfile(out_file, EXPECTED / f"{stem}.profdata")
        record["output"] = f"{stem}.profdata"
    return record


def main() -> None:
    EXPECTED.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        inputs = build_inputs(work)
        shown = subprocess.run(
            [profdata(22), "show", "--memory", str(HERE / "l22-v3.profdata")],
            check=True, capture_output=True,
        ).stdout  # fmt: skip
        (HERE / "show22.yaml").write_bytes(shown)
        (HERE / "deep.yaml").write_text(deep_yaml())
        records = [run_case(i, case, work) for i, case in enumerate(cases(inputs))]
    manifest = {"inputs": inputs, "cases": records}
    (HERE / "cases.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
