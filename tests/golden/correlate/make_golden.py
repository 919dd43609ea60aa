"""Build the correlation goldens: real clang binaries, raw profiles, llvm-profdata outputs.

Run from anywhere: ``python tests/golden/correlate/make_golden.py``.  Needs
clang-14/19/22 and llvm-profdata 14/16/19/22 (``/usr/lib/llvm-N/bin``).  Every
expected file is written by the real llvm-profdata; ``cases.json`` lists the
runs (``{out}`` is the output path the test substitutes) for
``tests/golden/test_correlate.py``.

Builds (``prog.c``, ``-O1 -g``, compiled by relative path so local names are
``prog.c;square``):

* ``l22-ir-dbg`` / ``l22-ir-bin``: clang 22, ``-fprofile-generate``,
  ``-mllvm -profile-correlate=debug-info`` / ``=binary``
* ``l22-fe-dbg`` / ``l22-fe-bin``: clang 22, ``-fprofile-instr-generate``
* ``l22-ir32-dbg`` / ``l22-ir32-bin``: clang 22, ``-m32`` (32-bit records and pointers)
* ``l19-ir-dbg`` / ``l19-ir-bin``: clang 19
* ``l14-ir-dbg``: clang 14, ``-mllvm -debug-info-correlate`` (raw v8, read by 14 and 16)

Each binary runs twice (``7`` and ``200``: the second calls ``never_called``).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAIN_RAW = "../programs/l22-ir-branches/default.profraw"  # an ordinary (not lightweight) v10


def tool(release: int) -> str:
    return f"/usr/lib/llvm-{release}/bin/llvm-profdata"


BUILDS = {
    "l22-ir-dbg": (22, "-fprofile-generate", ["-mllvm", "-profile-correlate=debug-info"]),
    "l22-ir-bin": (22, "-fprofile-generate", ["-mllvm", "-profile-correlate=binary"]),
    "l22-fe-dbg": (22, "-fprofile-instr-generate", ["-mllvm", "-profile-correlate=debug-info"]),
    "l22-fe-bin": (22, "-fprofile-instr-generate", ["-mllvm", "-profile-correlate=binary"]),
    "l22-ir32-dbg": (22, "-fprofile-generate", ["-m32", "-mllvm", "-profile-correlate=debug-info"]),
    "l22-ir32-bin": (22, "-fprofile-generate", ["-m32", "-mllvm", "-profile-correlate=binary"]),
    "l19-ir-dbg": (19, "-fprofile-generate", ["-mllvm", "-profile-correlate=debug-info"]),
    "l19-ir-bin": (19, "-fprofile-generate", ["-mllvm", "-profile-correlate=binary"]),
    "l14-ir-dbg": (14, "-fprofile-generate", ["-mllvm", "-debug-info-correlate"]),
}
#: the llvm-profdata releases that read each clang's raw version
READERS = {22: (22, 19), 19: (22, 19), 14: (16, 14)}


def build() -> None:
    for name, (clang, instr, flags) in BUILDS.items():
        subprocess.run(
            [f"clang-{clang}", "-O1", "-g", instr, *flags, "prog.c", "-o", name],
            cwd=HERE, check=True,
        )  # fmt: skip
        for run, arg in ((1, "7"), (2, "200")):
            env = dict(os.environ, LLVM_PROFILE_FILE=f"{name}.{run}.profraw")
            subprocess.run([f"./{name}", arg], cwd=HERE, env=env, check=True, capture_output=True)


cases: list[dict[str, object]] = []


#: damaged copies of a golden binary (``{patched}`` in a case's args): (binary, old, new)
PATCHES = {
    "no-counters-section": ("l22-ir-dbg", b"__llvm_prf_cnts", b"__llvm_prf_cntX"),
    "no-covnames-section": ("l22-ir-bin", b"__llvm_covnames", b"__llvm_covnameX"),
    "no-function-names": ("l22-ir-dbg", b"Function Name\0", b"Function Nbme\0"),
    "no-cfg-hashes": ("l22-ir-dbg", b"CFG Hash\0", b"CFG Hbsh\0"),
}


#: cut copies: (binary, bytes kept)
CUTS = {"truncated": ("l22-ir-dbg", 20000)}


def patched(name: str) -> bytes:
    """The bytes of damaged copy ``name`` (every occurrence replaced, or cut)."""
    if name in CUTS:
        binary, keep = CUTS[name]
        return (HERE / binary).read_bytes()[:keep]
    binary, old, new = PATCHES[name]
    return (HERE / binary).read_bytes().replace(old, new)


def record(
    case_id: str,
    release: int,
    args: list[str],
    *,
    output: str | None = None,
    patch: str | None = None,
) -> None:
    """Run the real tool; keep its stdout (or ``-o`` file), exit code and stderr."""
    scratch = str(HERE / "expected" / "scratch.out")  # error runs write nothing worth keeping
    damaged = HERE / "expected" / "scratch.bin"
    if patch is not None:
        damaged.write_bytes(patched(patch))
    real = [a.replace("{out}", output or scratch).replace("{patched}", str(damaged)) for a in args]
    proc = subprocess.run([tool(release), *real], cwd=HERE, capture_output=True)
    stdout_file = None
    if output is None and proc.stdout:
        stdout_file = f"expected/{case_id}.stdout"
        (HERE / stdout_file).write_bytes(proc.stdout)
    cases.append(
        {
            "id": case_id,
            "release": release,
            "args": args,
            "patch": patch,
            "output": output,
            "stdout": stdout_file,
            "exit": proc.returncode,
            "stderr": proc.stderr.decode().replace(str(damaged), "{patched}"),
        }
    )


def main() -> None:
    build()
    (HERE / "expected").mkdir(exist_ok=True)
    for name, (clang, _, _) in BUILDS.items():
        option = "--binary-file" if name.endswith("-bin") else "--debug-info"
        raws = [f"{name}.1.profraw", f"{name}.2.profraw"]
        for rel in READERS[clang]:
            tag = f"{name}.l{rel}"
            record(f"{tag}.merge", rel, ["merge", f"{option}={name}", *raws, "-o", "{out}"],
                   output=f"expected/{tag}.profdata")  # fmt: skip
            record(f"{tag}.merge-text", rel,
                   ["merge", "--text", f"{option}={name}", raws[0], "-o", "{out}"],
                   output=f"expected/{tag}.proftext")  # fmt: skip
            record(f"{tag}.merge-weighted", rel,
                   ["merge", f"{option}={name}", raws[1], "--weighted-input=3," + raws[0],
                    "-o", "{out}"],
                   output=f"expected/{tag}.weighted.profdata")  # fmt: skip
            if option == "--debug-info":
                record(f"{tag}.show", rel, ["show", f"--debug-info={name}"])
                record(f"{tag}.show-syms", rel,
                       ["show", f"--debug-info={name}", "--show-prof-sym-list",
                        "--detailed-summary"])  # fmt: skip
                if rel >= 16:
                    record(f"{tag}.show-yaml", rel,
                           ["show", f"--debug-info={name}", "--show-format=yaml"])  # fmt: skip
    for rel in (22, 19):
        tag = f"errors.l{rel}"
        record(f"{tag}.bin-without-covdata", rel,
               ["merge", "--binary-file=l22-ir-dbg", "l22-ir-bin.1.profraw",
                "-o", "{out}"])  # fmt: skip
        record(f"{tag}.dwarf-without-probes", rel,
               ["merge", "--debug-info=l22-ir-bin", "l22-ir-bin.1.profraw",
                "-o", "{out}"])  # fmt: skip
        record(f"{tag}.not-elf", rel,
               ["merge", "--debug-info=prog.c", "l22-ir-dbg.1.profraw", "-o", "{out}"])  # fmt: skip
        record(f"{tag}.both-options", rel,
               ["merge", "--debug-info=l22-ir-dbg", "--binary-file=l22-ir-bin",
                "l22-ir-dbg.1.profraw", "-o", "{out}"])  # fmt: skip
        record(f"{tag}.not-lightweight", rel,
               ["merge", "--debug-info=l22-ir-dbg", PLAIN_RAW, "-o", "{out}"])  # fmt: skip
        record(f"{tag}.show-no-probes", rel, ["show", "--debug-info=l22-ir-bin"])
        record(f"{tag}.show-json", rel, ["show", "--debug-info=l22-ir-dbg", "--json"])
    for rel in (16, 14):
        tag = f"errors.l{rel}"
        record(f"{tag}.not-elf", rel,
               ["merge", "--debug-info=prog.c", "l14-ir-dbg.1.profraw", "-o", "{out}"])  # fmt: skip
        record(f"{tag}.no-counters-section", rel,
               ["merge", "--debug-info=/bin/true", "l14-ir-dbg.1.profraw",
                "-o", "{out}"])  # fmt: skip
    for rel in (22, 19):
        tag = f"damaged.l{rel}"
        for patch in PATCHES:
            option = "--binary-file" if PATCHES[patch][0].endswith("-bin") else "--debug-info"
            raw = PATCHES[patch][0] + ".1.profraw"
            record(f"{tag}.{patch}", rel, ["merge", f"{option}={{patched}}", raw, "-o", "{out}"],
                   patch=patch)  # fmt: skip
        record(f"{tag}.truncated", rel,
               ["merge", "--debug-info={patched}", "l22-ir-dbg.1.profraw", "-o", "{out}"],
               patch="truncated")  # fmt: skip
        record(f"{tag}.max-warnings", rel,
               ["merge", "--debug-info={patched}", "--max-debug-info-correlation-warnings=2",
                "l22-ir-dbg.1.profraw", "-o", "{out}"], patch="no-cfg-hashes")  # fmt: skip
        record(f"{tag}.unlimited-warnings", rel,
               ["show", "--debug-info={patched}", "--max-debug-info-correlation-warnings=0"],
               patch="no-function-names")  # fmt: skip
        record(f"{tag}.show-yaml", rel,
               ["show", "--debug-info={patched}", "--show-format=yaml"],
               patch="no-cfg-hashes")  # fmt: skip
    (HERE / "expected" / "scratch.bin").unlink(missing_ok=True)
    (HERE / "expected" / "scratch.out").unlink(missing_ok=True)
    (HERE / "cases.json").write_text(json.dumps({"cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()
