"""Rebuild the shared corpus's checks on other programs, with the real tools as the oracle.

The conformance corpus in ../shared/corpus records what llvm-profdata 14, 16,
19 and 22 print for about 2,600 commands over profiles of a handful of
programs.  Passing it says little about programs it has not seen.  This
script keeps every case's commands and compiler flags but compiles the
programs in ``src/`` (or in the folder ``--src`` names, with the same file
names) instead (see ``SOURCES``), runs them, derives the non-raw inputs the
same way (indexed files written by each release, text files, truncated and
corrupted copies), turns the hand-written sample profiles into others (every
name respelled, every count changed), and then records the real
llvm-profdata's exit status, stdout and output files for each check into a
new manifest of the same format.  The corpus's own runner then checks any
tool against it:

    python tools/shadow_corpus/make_shadow.py ../shared/corpus /tmp/shadow
    ../shared/corpus/check_manifest /tmp/shadow -q -- profdata --llvm-release={llvm}

Needs clang-N, llvm-N and libclang-rt-N-dev for each release (and the i386
runtime for the -m32 case, which is skipped without it).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
SOURCES = {
    "vp_calls.c": "sv_values.c",
    "vcalls.cpp": "sv_classes.cpp",
    "cspgo.c": "sv_context.c",
    "cov_demo.c": "sv_coverage.c",
    "mcdc_demo.c": "sv_decisions.c",
    "phases.c": "sv_order.c",
    "hash_a.c": "sv_hash_a.c",
    "hash_b.c": "sv_hash_b.c",
    "vis_lib.c": "sv_lib.c",
    "vis_main.c": "sv_main.c",
}
Case = dict[str, Any]


_RESPELL = str.maketrans("abcdefghijklmnopqrstuvwxyz", "qwertyuiopasdfghjklzxcvbnm")
_NAME = re.compile(r"(?<![!\w])[A-Za-z_][\w.]*")


def respell(name: str) -> str:
    """Another name of the same length and mangling (``_Z``/``_ZN`` and digits kept)."""
    head = 3 if name.startswith("_ZN") else 2 if name.startswith("_Z") else 0
    return name[:head] + name[head:].translate(_RESPELL)


def respell_function(arg: str) -> str:
    """``--function=NAME`` with NAME respelled; any other argument as it is."""
    if arg.startswith("--function="):
        return "--function=" + respell(arg.split("=", 1)[1])
    return arg


def _count(text: str) -> str:
    value = int(text)
    return str(value * 3 + 1) if value else "0"


def _target(token: str) -> str:
    name, _, count = token.rpartition(":")
    return f"{respell(name)}:{_count(count)}" if name and count.isdigit() else token


def other_sample_text(text: str) -> str:
    """The same sample profile layout with other names and counts."""
    out = []
    for line in text.splitlines():
        body = line.lstrip(" ")
        indent = line[: len(line) - len(body)]
        if not body or body.startswith(("!", "#")):
            out.append(line)
        elif not indent:
            if body.startswith("["):
                context, _, rest = body.rpartition("]:")
                context = _NAME.sub(lambda m: respell(m.group(0)), context) + "]"
            else:
                context, _, rest = body.partition(":")
                context = respell(context)
            out.append(context + ":" + ":".join(_count(n) for n in rest.split(":")))
        else:
            offset, _, rest = body.partition(": ")
            tokens = rest.split(" ")
            first = _count(tokens[0]) if tokens[0].isdigit() else _target(tokens[0])
            out.append(indent + offset + ": " + " ".join([first, *map(_target, tokens[1:])]))
    return "\n".join(out) + "\n"


def llvm_profdata(release: int) -> str:
    return f"/usr/lib/llvm-{release}/bin/llvm-profdata"


def big_source(functions: int) -> str:
    """A generated program of many small functions, some with value sites."""
    lines = ["#include <stdio.h>", "#include <string.h>", "#include <stdlib.h>"]
    for i in range(functions):
        if i % 5 == 0:
            lines.append(
                f"int gx_{i}(int x) {{ char b[64]; memset(b, x, (size_t)(x % {i % 40 + 3})); "
                f"return b[0] + x * {i % 7 + 1}; }}"
            )
        elif i % 3 == 0:
            lines.append(
                f"int gx_{i}(int x) {{ int r = 0; for (int k = 0; k < x % {i % 9 + 2}; k++) "
                f"r += k ^ {i}; return r; }}"
            )
        else:
            lines.append(f"int gx_{i}(int x) {{ return x > {i % 50} ? x - {i} : x + {i}; }}")
    lines.append("typedef int (*gfn)(int);")
    lines.append("static gfn table[] = {" + ", ".join(f"gx_{i}" for i in range(functions)) + "};")
    lines.append(
        "int main(int argc, char **argv) { int n = argc > 1 ? atoi(argv[1]) : 1; int acc = 0;"
        f" for (int i = 0; i < {functions} * n; i += 3) acc += table[(i * 7) % {functions}](i);"
        ' printf("%d\\n", acc); return 0; }'
    )
    return "\n".join(lines) + "\n"


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, env=env, check=False)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr.decode()[-2000:]}")


def build_stage(stage: Case, build: Path, case_id: str, src: Path = SRC) -> None:
    """Compile one producer stage in ``build`` (programs from ``src``) and run it as recorded."""
    release = stage["clang"]
    driver = f"/usr/bin/{stage['driver']}"
    sources = []
    for name in stage["sources"]:
        if name.startswith("big-vis.c"):
            (build / "big.c").write_text(big_source(2500))
            sources.append("big.c")
        else:
            shutil.copy(src / SOURCES[name], build / SOURCES[name])
            sources.append(SOURCES[name])
    flags = list(stage["flags"])
    for flag in flags:
        if flag.startswith("-fprofile-use="):
            wanted = flag.split("=", 1)[1]
            raw = wanted.replace(".profdata", ".profraw")
            run([llvm_profdata(release), "merge", "-o", wanted, raw], build)
    shared = "-shared" in flags
    exe = "libprof.so" if shared else "prog"
    env_ld = {"LD_LIBRARY_PATH": str(build)}
    run([driver, *flags, *stage.get("implicit_flags", []), *sources, "-o", exe], build)
    for one in stage.get("runs", []):
        env = {"LLVM_PROFILE_FILE": one["LLVM_PROFILE_FILE"], "PATH": "/usr/bin:/bin", **env_ld}
        run(["setarch", "-R", f"./{exe}", *one["args"]], build, env)
    if case_id.startswith("cspgo") and "-fcs-profile-generate" in flags:
        env = {"LLVM_PROFILE_FILE": "stage2b.profraw", "PATH": "/usr/bin:/bin"}
        run(["setarch", "-R", f"./{exe}", "150"], build, env)


def mismatch_texts(folder: Path) -> None:
    """Two text profiles sharing function names: one hash differs, one counter count."""
    (folder / "mismatch_a.proftext").write_text(
        "# IR level Instrumentation Flag\n:ir\nstep\n# Func Hash:\n77\n# Num Counters:\n3\n"
        "# Counter Values:\n4\n0\n9\n\nmerge_me\n# Func Hash:\n5\n# Num Counters:\n2\n"
        "# Counter Values:\n1\n2\n\n"
    )
    (folder / "mismatch_b.proftext").write_text(
        "# IR level Instrumentation Flag\n:ir\nstep\n# Func Hash:\n78\n# Num Counters:\n3\n"
        "# Counter Values:\n1\n1\n1\n\nmerge_me\n# Func Hash:\n5\n# Num Counters:\n3\n"
        "# Counter Values:\n6\n0\n2\n\n"
    )


def derive_bad(original: Path, base: bytes, mine: bytes) -> bytes | None:
    """Do to ``mine`` what was done to ``base`` to make the corpus's bad file ``original``."""
    bad = original.read_bytes()
    if len(bad) < len(base) and base.startswith(bad):
        if len(bad) == len(base) - 8:
            return mine[:-8]
        if len(bad) <= 256:
            return mine[: len(bad)]
        return mine[: len(mine) // 2]
    if len(bad) > len(base) and bad.startswith(base):
        return mine + bad[len(base) :]
    if len(bad) == len(base):
        changed = [at for at in range(len(bad)) if bad[at] != base[at]]
        if len(changed) > 16 or any(at >= 512 for at in changed):
            return None  # not made from this base
        out = bytearray(mine)
        for at in changed:
            out[at] = bad[at]
        return bytes(out)
    return None


def bad_inputs(corpus: Path, out: Path, case: Case) -> None:
    """Corrupt copies of this run's profiles, made like the corpus's from its own."""
    folder = out / case["id"]
    bases = {
        rel: (
            f"irpgo-vpcalls-o2-{rel}/run1.profraw",
            f"irpgo-vpcalls-o2-{rel}/expected/{rel}-merge-o.profdata",
        )
        for rel in ("l14", "l22")
    }
    for rel in case["inputs"]:
        name = Path(rel).name
        prefix = name.split("-", 1)[0]
        made = None
        if prefix in bases and name.endswith((".profraw", ".profdata")):
            index = 0 if name.endswith(".profraw") else 1
            base_rel = bases[prefix][index]
            if not (out / base_rel).exists():
                continue
            made = derive_bad(corpus / rel, (corpus / base_rel).read_bytes(),
                              (out / base_rel).read_bytes())  # fmt: skip
        if made is None:
            shutil.copy(corpus / rel, folder / name)
        else:
            (folder / name).write_bytes(made)


def truncated(corpus: Path, out: Path, rel: str, base_rel: str) -> None:
    bad, base = (corpus / rel).read_bytes(), (corpus / base_rel).read_bytes()
    if not (out / base_rel).exists():
        return  # that release was not built
    mine = (out / base_rel).read_bytes()
    (out / rel).write_bytes(mine[: len(mine) * len(bad) // len(base)])


def record(out: Path, check: Case) -> Case:
    """Run one check with the real tool; the check with what it did."""
    args = check["args"]
    writes = check.get("writes")
    if writes:
        (out / writes).parent.mkdir(parents=True, exist_ok=True)
        (out / writes).unlink(missing_ok=True)
    done = subprocess.run([llvm_profdata(check["llvm"]), *args], cwd=out, capture_output=True)
    new = dict(check)
    new["exit"] = done.returncode
    stdout = out / check["stdout"]
    stdout.parent.mkdir(parents=True, exist_ok=True)
    stdout.write_bytes(done.stdout)
    phrase = check.get("stderr_contains")
    if phrase and phrase.encode() not in done.stderr:
        del new["stderr_contains"]
    new.pop("stderr_ref", None)
    if check.get("output"):
        if writes and (out / writes).exists():
            target = out / check["output"]
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(out / writes, target)
        else:
            del new["output"]
            new.pop("output_kind", None)
    return new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--llvm", type=int, action="append", help="only these releases")
    parser.add_argument("-k", dest="only", default="", help="only cases whose id holds this")
    parser.add_argument(
        "--src", type=Path, default=SRC, help="folder of the programs (the names of SOURCES)"
    )
    opts = parser.parse_args()
    corpus, out, src = opts.corpus.resolve(), opts.out.resolve(), opts.src.resolve()
    missing = sorted(name for name in SOURCES.values() if not (src / name).is_file())
    if missing:
        parser.error(f"{src} lacks {', '.join(missing)}")
    manifest = json.loads((corpus / "manifest.json").read_text())
    out.mkdir(parents=True, exist_ok=True)
    builds = out / "_build"
    cases = []
    for case in manifest["cases"]:
        if opts.only not in case["id"]:
            continue
        producer = case.get("producer")
        stages = producer if isinstance(producer, list) else [producer] if producer else []
        if opts.llvm and stages and stages[0]["clang"] not in opts.llvm:
            continue
        folder = out / case["id"]
        folder.mkdir(exist_ok=True)
        if stages:
            build = builds / case["id"]
            shutil.rmtree(build, ignore_errors=True)
            build.mkdir(parents=True)
            try:
                for stage in stages:
                    build_stage(stage, build, case["id"], src)
            except SystemExit as exc:
                print(f"skipped {case['id']}: {exc}", file=sys.stderr)
                continue
            for rel in case["inputs"]:
                name = Path(rel).name
                if (build / name).exists():
                    shutil.copy(build / name, folder / name)
            if case["id"].startswith("merge-hash-mismatch"):
                mismatch_texts(folder)
        cases.append(case)
    # derived inputs need the programs' profiles (and expected files) first
    ordered = sorted(cases, key=lambda c: c["id"].startswith(("merges-", "indexed-cross", "bad-")))
    recorded = []
    for case in ordered:
        folder = out / case["id"]
        if case["id"].startswith("indexed-cross-release"):
            for rel in case["inputs"]:
                release = int(rel.split("written-by-l")[1].split(".")[0])
                src = f"irpgo-vpcalls-o2-l{release}"
                if not (out / src / "run1.profraw").exists():
                    continue
                run([llvm_profdata(release), "merge", "-o", rel, f"{src}/run1.profraw",
                     f"{src}/run2.profraw"], out)  # fmt: skip
        elif case["id"].startswith("merges-"):
            for rel in case["inputs"]:
                if rel.endswith(".txt"):
                    shutil.copy(corpus / rel, out / rel)
                else:
                    release = rel.split("trunc-l")[1].split(".")[0]
                    truncated(corpus, out, rel, f"irpgo-vpcalls-o2-l{release}/run1.profraw")
        elif case["id"].startswith("bad-inputs"):
            bad_inputs(corpus, out, case)
        elif case["id"].startswith("sample-vis"):
            for rel in case["inputs"]:
                text = (corpus / rel).read_text()
                if rel.endswith(".list"):
                    text = "".join(respell(n) + "\n" for n in text.split())
                else:
                    text = other_sample_text(text)
                (out / rel).write_text(text)
            checks = [
                {**c, "args": [respell_function(a) for a in c["args"]]} for c in case["checks"]
            ]
            case = {**case, "checks": checks}
        elif not case.get("producer"):
            for rel in case["inputs"]:
                shutil.copy(corpus / rel, out / rel)
        checks = [
            record(out, check)
            for check in case["checks"]
            if not opts.llvm or check["llvm"] in opts.llvm
        ]
        recorded.append({**case, "checks": checks})
    manifest = {**manifest, "cases": recorded}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    print(f"{sum(len(c['checks']) for c in recorded)} checks in {len(recorded)} cases")


if __name__ == "__main__":
    main()
