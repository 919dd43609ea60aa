#!/usr/bin/env python3
"""Regenerate the GCC AutoFDO and compact binary goldens with the real llvm-profdata.

Layout (everything under ``expected/`` and ``cases.json`` is tool output):

* ``inputs/`` -- LLVM's test inputs (``llvm14-*``, Apache-2.0 with LLVM
  exceptions), the shared corpus's ``sample-vis-*`` profiles (``inline.txt``,
  ``discrim.txt``, ``md5names.txt``, ``probe.txt``), ``ties.txt`` (rows of
  equal samples), and GCC files this script builds word by word
  (:func:`gcov_files`): indirect-call targets, nested inlinees, aliases of a
  top-level function, and damaged copies of LLVM's file;
* ``expected/NAME.lN.compbin`` -- ``merge --sample --compbinary`` of release N
  (14 and 16, the releases that write it) for every text or GCC input, and
  ``NAME.rt.lN.compbin`` the same tool converting its own compact file again;
* ``expected/CASE.rN.stdout`` / ``.stderr`` / ``.out`` -- ``show --sample`` and
  ``merge --sample --text`` of GCC and compact inputs by release N;
* ``cases.json`` -- one entry per (case, release).

Usage: ``python tests/golden/sample_formats/make_goldens.py``.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected"
OUT = HERE / "out"
RELEASES = (14, 16, 19, 22)
COMPACT_WRITERS = (14, 16)

#: Inputs converted to compact binary by 14 and 16.
COMPACT_SOURCES = (
    "llvm14-sample-profile.proftext",
    "llvm14-sample-hot-func-list.proftext",
    "llvm14-sample-fs.proftext",
    "llvm14-mix_sample.proftext",
    "llvm14-gcc-sample-profile.gcov",
    "inline.txt",
    "discrim.txt",
    "md5names.txt",
    "ties.txt",
    "gcc_targets.gcov",
)
GCC_INPUTS = ("llvm14-gcc-sample-profile.gcov", "gcc_targets.gcov")
BAD_GCC = (
    "gcc_trunc_8.gcov",
    "gcc_trunc_13.gcov",
    "gcc_trunc_60.gcov",
    "gcc_trunc_100.gcov",
    "gcc_bad_names_tag.gcov",
    "gcc_bad_functions_tag.gcov",
    "gcc_zero_name_length.gcov",
    "gcc_bad_hist_type.gcov",
)


def _words(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}I", *values)


def _u64(value: int) -> bytes:
    return _words(value & 0xFFFFFFFF, value >> 32)


def _string_table(names: list[str]) -> bytes:
    body = _words(len(names))
    for name in names:
        raw = name.encode() + b"\0"
        raw += b"\0" * (-len(raw) % 4)
        body += _words(len(raw) // 4) + raw
    return _words(0xAA000000, len(body) // 4) + body


def _pos(offset: int, count: int, targets: tuple[tuple[int, int, int], ...] = ()) -> bytes:
    out = _words(offset, len(targets)) + _u64(count)
    for hist, name, target_count in targets:
        out += _words(hist) + _u64(name) + _u64(target_count)
    return out


def _function(
    name: int, pos: list[bytes], sites: list[tuple[int, bytes]], head: int | None = None
) -> bytes:
    out = b"" if head is None else _u64(head)
    out += _words(name, len(pos), len(sites)) + b"".join(pos)
    for offset, inlined in sites:
        out += _words(offset) + inlined
    return out


def gcov_files() -> dict[str, bytes]:
    """GCC inputs built word by word (``sample-binary.md`` §6)."""
    names = ["main", "foo", "bar", "baz"]
    baz = _function(3, [_pos(1 << 16, 5, ((7, 2, 5),))], [])
    foo = _function(1, [_pos(1 << 16, 50), _pos(4 << 16 | 2, 7)], [(2 << 16 | 1, baz)])
    functions = [
        _function(
            0,
            [_pos(1 << 16, 100), _pos(2 << 16 | 3, 100, ((7, 1, 60), (7, 2, 40)))],
            [(3 << 16, foo)],
            head=10,
        ),
        _function(0, [_pos(1 << 16, 999)], [(3 << 16, foo)], head=5),  # an alias: head only
        _function(2, [], [], head=3),
        _function(2, [_pos(1 << 16, 30)], [], head=4),  # total still 0: read again
    ]
    body = _words(len(functions)) + b"".join(functions)
    targets = (
        b"adcg*704" + _words(0) + _string_table(names)
        + _words(0xAC000000, len(body) // 4) + body
    )  # fmt: skip
    llvm = (INPUTS / "llvm14-gcc-sample-profile.gcov").read_bytes()
    bad_hist = bytearray(targets)
    bad_hist[bad_hist.index(_words(7)) : bad_hist.index(_words(7)) + 4] = _words(6)
    zero_name = bytearray(llvm)
    zero_name[0x20:0x24] = _words(0)
    return {
        "gcc_targets.gcov": targets,
        "gcc_trunc_8.gcov": llvm[:8],
        "gcc_trunc_13.gcov": llvm[:13],
        "gcc_trunc_60.gcov": llvm[:60],
        "gcc_trunc_100.gcov": llvm[:100],
        "gcc_bad_names_tag.gcov": llvm[:12] + _words(0xAB000000) + llvm[16:],
        "gcc_bad_functions_tag.gcov": llvm[:0x44] + _words(0xAB000000) + llvm[0x48:],
        "gcc_zero_name_length.gcov": bytes(zero_name),
        "gcc_bad_hist_type.gcov": bytes(bad_hist),
    }


def tool(release: int) -> Path:
    return Path(f"/usr/lib/llvm-{release}/bin/llvm-profdata")


def run(release: int, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(tool(release)), *args], cwd=HERE, capture_output=True, timeout=60, check=False
    )


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0]


def main() -> int:
    missing = [r for r in RELEASES if not tool(r).exists()]
    if missing:
        raise SystemExit(f"llvm-profdata {missing} not installed; goldens left as they are")
    for name, data in gcov_files().items():
        (INPUTS / name).write_bytes(data)
    shutil.rmtree(EXPECTED, ignore_errors=True)
    EXPECTED.mkdir()
    OUT.mkdir(exist_ok=True)
    compact: list[dict[str, object]] = []
    for source in COMPACT_SOURCES:
        for release in COMPACT_WRITERS:
            first = f"expected/{_stem(source)}.l{release}.compbin"
            again = f"expected/{_stem(source)}.rt.l{release}.compbin"
            for src, dst in ((f"inputs/{source}", first), (first, again)):
                proc = run(release, ["merge", "--sample", "--compbinary", "-o", dst, src])
                if proc.returncode:
                    raise SystemExit(proc.stderr.decode())
            compact.append(
                {"llvm": release, "source": f"inputs/{source}", "compbin": first, "again": again}
            )
    cases: list[dict[str, object]] = []

    def record(name: str, args: list[str], release: int, output: str | None = None) -> None:
        proc = run(release, args)
        stem = f"{name}.r{release}"
        (EXPECTED / f"{stem}.stdout").write_bytes(proc.stdout)
        (EXPECTED / f"{stem}.stderr").write_bytes(proc.stderr)
        entry: dict[str, object] = {
            "id": f"{name}/r{release}", "llvm": release, "args": args,
            "exit": proc.returncode, "stdout": f"expected/{stem}.stdout",
            "stderr": f"expected/{stem}.stderr",
        }  # fmt: skip
        if output is not None:
            written = HERE / output
            if written.exists():
                shutil.move(written, EXPECTED / f"{stem}.out")
                entry["output"] = f"expected/{stem}.out"
            entry["writes"] = output
        cases.append(entry)

    for release in RELEASES:
        for source in (*GCC_INPUTS, *BAD_GCC):
            stem = _stem(source)
            record(f"show-{stem}", ["show", "--sample", f"inputs/{source}"], release)
        for source in GCC_INPUTS:
            stem = _stem(source)
            record(
                f"show-hot-{stem}", ["show", "--sample", "--hot-func-list", f"inputs/{source}"],
                release,
            )  # fmt: skip
            out = f"out/{stem}.txt"
            merge = ["merge", "--sample", "--text", "-o", out, f"inputs/{source}"]
            record(f"merge-text-{stem}", merge, release, out)
        for source in ("inline.txt", "ties.txt", "llvm14-sample-hot-func-list.proftext"):
            stem = _stem(source)
            compbin = f"expected/{stem}.l14.compbin"
            record(
                f"show-compbin-{stem}", ["show", "--sample", "--hot-func-list", compbin], release
            )
            out = f"out/{stem}.compbin.txt"
            record(
                f"merge-text-compbin-{stem}", ["merge", "--sample", "--text", "-o", out, compbin],
                release, out,
            )  # fmt: skip
    shutil.rmtree(OUT, ignore_errors=True)
    versions = {
        str(r): run(r, ["merge", "--version"]).stdout.decode().strip().splitlines()
        for r in RELEASES
    }
    document = {
        "tool": "llvm-profdata (Debian LLVM packages 14, 16, 19, 22)",
        "made_by": "tests/golden/sample_formats/make_goldens.py",
        "versions": versions,
        "compact": compact,
        "cases": cases,
    }
    (HERE / "cases.json").write_text(json.dumps(document, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
