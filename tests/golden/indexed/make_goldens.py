#!/usr/bin/env python3
"""Regenerate the indexed-reader goldens with the real LLVM tools.

Every expected file here is tool output, never hand-written:

* ``NAME.proftext``   -- ``llvm-profdata merge --text NAME.profdata`` (records, flags, traces);
* ``NAME.show.txt`` / ``NAME.showcs.txt`` -- ``llvm-profdata show --all-functions
  --ic-targets --show-vtables [--showcs]`` (record order and resolved target names);
* ``NAME.binids.txt`` -- ``llvm-profdata show --binary-ids`` (version 9+);
* ``NAME.summary.ll`` -- the ``ProfileSummary``/``CSProfileSummary`` metadata that
  ``clang -O2 -fprofile-use=NAME.profdata`` embeds in the module.  This is the
  summary *stored* in the file (``show --detailed-summary`` recomputes it from
  the records instead, which differs for ``compat.profdata.v4``).

Inputs come from three places:

* files copied from ``/work/shared/corpus`` and ``/work/shared/llvm-test-inputs``;
* files derived from those by header surgery, for versions no installed release
  writes (5, 6: re-tagged v7; 8: v7 plus a MemProfOffset word; 11: v12 minus
  the VTableNamesOffset word and its empty section) -- LLVM 22 reads them, so
  its output is still the expectation;
* files built here: MemProf profiles (``memprof_demo.c`` compiled with
  ``-fprofile-generate -fmemory-profile``, merged with ``--profiled-binary``; the
  binary's addresses make those bytes machine-specific) and a 300-function
  profile merged from a generated text file (512 buckets, collisions).

Run: ``python tests/golden/indexed/make_goldens.py`` (needs llvm-profdata 19 and 22,
clang-19 and clang-22).  ``goldens.json`` records the source and the release used.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = Path("/work/shared")
MAGIC = 0x8169666F72706CFF


def profdata(release: int) -> str:
    return f"/usr/lib/llvm-{release}/bin/llvm-profdata"


COPIED: dict[str, str] = {
    "v01-compat": "llvm-test-inputs/llvm-19/compat.profdata.v1",
    "v02-compat": "llvm-test-inputs/llvm-19/compat.profdata.v2",
    "v03-weight-foo": "llvm-test-inputs/llvm-19/weight-instr-foo.profdata",
    "v04-compat": "llvm-test-inputs/llvm-19/compat.profdata.v4",
    "v07-stable": "llvm-test-inputs/misc/stable.profdata",
    "v07-cspgo": "corpus/cspgo-classify-l14/expected/l14-merge-o.2.profdata",
    "v07-vpcalls": "corpus/irpgo-vpcalls-o2-l14/expected/l14-merge-o.profdata",
    "v09-cspgo": "corpus/cspgo-classify-l16/expected/l16-merge-o.2.profdata",
    "v10-compat": "llvm-test-inputs/llvm-19/compat.profdata.v10",
    "v12-mcdc": "corpus/fe-mcdc-mcdcdemo-l19/expected/l19-merge-o.profdata",
    "v12-vtable": "corpus/irpgo-vtable-vcalls-cpp-l19/expected/"
    "l19-merge-keep-vtable-symbols-o.profdata",
    "v12-temporal": "corpus/temporal-phases-l19/expected/l19-merge-o.profdata",
    "v13-temporal": "corpus/temporal-phases-l22/expected/l22-merge-o.profdata",
    "v13-vpcalls": "corpus/irpgo-vpcalls-o2-l22/expected/l22-merge-o.profdata",
    "v13-cspgo": "corpus/cspgo-classify-l22/expected/l22-merge-o.2.profdata",
    "v13-mcdc": "corpus/fe-mcdc-mcdcdemo-l22/expected/l22-merge-o.profdata",
    "v13-sbc": "corpus/fe-sbc-covdemo-l22/expected/l22-merge-o.profdata",
    "v13-fentry": "corpus/ir-fentrycov-vpcalls-l22/expected/l22-merge-o.profdata",
}


# -- header surgery -------------------------------------------------------------
def _words(data: bytes, count: int) -> list[int]:
    return list(struct.unpack_from(f"<{count}Q", data))


def _shift_buckets(data: bytearray, hash_offset: int, delta: int) -> None:
    num_buckets = struct.unpack_from("<Q", data, hash_offset)[0]
    for i in range(num_buckets):
        at = hash_offset + 16 + 8 * i
        (offset,) = struct.unpack_from("<Q", data, at)
        if offset:
            struct.pack_into("<Q", data, at, offset + delta)


def retag(version: int) -> Callable[[bytes], bytes]:
    def apply(data: bytes) -> bytes:
        out = bytearray(data)
        (word,) = struct.unpack_from("<Q", data, 8)
        struct.pack_into("<Q", out, 8, (word & ~0xFFFFFFFF) | version)
        return bytes(out)

    apply.__name__ = f"retag_{version}"
    return apply


def v7_to_v8(data: bytes) -> bytes:
    """Insert MemProfOffset = 0 after HashOffset; everything after moves by 8."""
    magic, word, unused, hash_type, hash_offset = _words(data, 5)
    out = bytearray(struct.pack("<6Q", magic, (word & ~0xFFFFFFFF) | 8, unused, hash_type,
                                hash_offset + 8, 0))  # fmt: skip
    out += data[40:]
    _shift_buckets(out, hash_offset + 8, 8)
    return bytes(out)


def v12_to_v11(data: bytes) -> bytes:
    """Drop VTableNamesOffset and its (empty) section; later offsets move back."""
    words = _words(data, 9)
    vt_offset = words[8]
    (vt_length,) = struct.unpack_from("<Q", data, vt_offset)
    assert vt_length == 0, "only an empty vtable-name section can be dropped"
    body = bytearray(data[72:vt_offset] + data[vt_offset + 8 :])

    def moved(offset: int) -> int:
        if offset == 0:
            return 0
        return offset - 8 - (8 if offset > vt_offset else 0)

    out = bytearray(struct.pack("<8Q", words[0], (words[1] & ~0xFFFFFFFF) | 11, words[2],
                                words[3], *(moved(o) for o in words[4:8])))  # fmt: skip
    out += body
    _shift_buckets(out, moved(words[4]), -8)
    return bytes(out)


DERIVED: dict[str, tuple[str, Callable[[bytes], bytes]]] = {
    "v05-stable": ("v07-stable", retag(5)),
    "v06-stable": ("v07-stable", retag(6)),
    "v08-vpcalls": ("v07-vpcalls", v7_to_v8),
    "v11-mcdc": ("v12-mcdc", v12_to_v11),
}


# -- built profiles ---------------------------------------------------------------
def build_memprof(work: Path) -> dict[str, tuple[bytes, int]]:
    """MemProf + IR profiles: LLVM 22 writes MemProf v2 and v3, LLVM 19 writes v0."""
    results: dict[str, tuple[bytes, int]] = {}
    source = HERE / "memprof_demo.c"
    for release, variants in ((22, {"v13-memprof3": "3", "v13-memprof2": "2"}),
                              (19, {"v12-memprof0": "0"})):  # fmt: skip
        exe = work / f"demo{release}"
        subprocess.run(
            [f"clang-{release}", "-g", "-O0", "-fprofile-generate", "-fmemory-profile",
             "-fno-omit-frame-pointer", "-Wl,--build-id", str(source), "-o", str(exe)],
            check=True,
        )  # fmt: skip
        env = dict(os.environ, LLVM_PROFILE_FILE=str(work / f"demo{release}.profraw"),
                   MEMPROF_OPTIONS=f"log_path={work / f'demo{release}.memprofraw'}")  # fmt: skip
        subprocess.run([str(exe)], check=True, env=env)
        memraw = sorted(work.glob(f"demo{release}.memprofraw*"))
        for name, memprof_version in variants.items():
            out = work / f"{name}.profdata"
            subprocess.run(
                [profdata(release), "merge", f"--memprof-version={memprof_version}",
                 f"--profiled-binary={exe}", *map(str, memraw),
                 str(work / f"demo{release}.profraw"), "-o", str(out)],
                check=True,
            )  # fmt: skip
            results[name] = (out.read_bytes(), release)
    return results


def many_functions_text() -> str:
    """300 IR functions with value sites; names chosen to collide in buckets."""
    lines = ["# IR level Instrumentation Flag", ":ir"]
    for i in range(300):
        name = f"fn_{i:03d}" if i % 5 else f"src/unit{i % 7}.c;local_{i}"
        lines += [name, str(0x1000 + 7919 * i), str(1 + i % 4)]
        lines += [str((i * 37 + j * 11) % 1000) for j in range(1 + i % 4)]
        if i % 3 == 0:
            lines += ["2", "0", "1", "2", f"fn_{(i + 1) % 300:03d}:{i + 5}", "ext_target:3",
                      "1", "1", "3", "8:40", "16:7", "513:1"]  # fmt: skip
        lines.append("")
    return "\n".join(lines) + "\n"


def build_many(work: Path) -> dict[str, tuple[bytes, int]]:
    text = work / "many.proftext"
    text.write_text(many_functions_text())
    out = work / "v13-many.profdata"
    subprocess.run([profdata(22), "merge", str(text), "-o", str(out)], check=True)
    return {"v13-many": (out.read_bytes(), 22)}


# -- expected outputs ---------------------------------------------------------------
#: clang refuses these with -fprofile-use, so their stored summary has no probe.
NO_SUMMARY_PROBE = {"v13-fentry": "Function entry profiles are not yet supported for optimization"}


def tool_output(args: list[str]) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True,
                          errors="surrogateescape").stdout  # fmt: skip


def summary_metadata(path: Path, release: int, work: Path) -> str:
    probe = HERE / "summary_probe.c"
    ir = tool_output([f"clang-{release}", "-O2", f"-fprofile-use={path}", "-S", "-emit-llvm",
                      "-o", "-", str(probe)])  # fmt: skip
    return "".join(line + "\n" for line in ir.splitlines() if line.startswith("!"))


def write_expected(name: str, release: int, work: Path) -> None:
    path = HERE / f"{name}.profdata"
    tool = profdata(release)
    (HERE / f"{name}.proftext").write_text(
        tool_output([tool, "merge", "--text", str(path), "-o", "-"]), errors="surrogateescape"
    )
    show = [tool, "show", "--all-functions", "--ic-targets", "--show-vtables", str(path)]
    (HERE / f"{name}.show.txt").write_text(tool_output(show), errors="surrogateescape")
    (HERE / f"{name}.showcs.txt").write_text(
        tool_output([*show, "--showcs"]), errors="surrogateescape"
    )
    version = struct.unpack_from("<Q", path.read_bytes(), 8)[0] & 0xFFFFFFFF
    if version >= 9:
        (HERE / f"{name}.binids.txt").write_text(
            tool_output([tool, "show", "--binary-ids", str(path)])
        )
    if name not in NO_SUMMARY_PROBE:
        (HERE / f"{name}.summary.ll").write_text(summary_metadata(path, release, work))


def main() -> None:
    manifest: dict[str, dict[str, object]] = {}
    for name, source in COPIED.items():
        shutil.copyfile(SHARED / source, HERE / f"{name}.profdata")
        manifest[name] = {"source": source, "llvm": 22}
    for name, (base, derive) in DERIVED.items():
        data = derive((HERE / f"{base}.profdata").read_bytes())
        (HERE / f"{name}.profdata").write_bytes(data)
        manifest[name] = {"derived_from": base, "by": derive.__name__, "llvm": 22}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, (data, release) in {**build_memprof(work), **build_many(work)}.items():
            (HERE / f"{name}.profdata").write_bytes(data)
            manifest[name] = {"built_by": "make_goldens.py", "llvm": release}
        for name, info in sorted(manifest.items()):
            tool_release = info["llvm"]
            assert isinstance(tool_release, int)
            write_expected(name, tool_release, work)
    (HERE / "goldens.json").write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")


if __name__ == "__main__":
    main()
