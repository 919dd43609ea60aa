#!/usr/bin/env python3
"""Regenerate the raw-reader goldens with the real ``llvm-profdata``.

Every expectation here is tool output, never hand-written.  For each raw input
(every ``.profraw`` of ``/work/shared/corpus`` and the v8/v10 ones of
``/work/shared/llvm-test-inputs``) the release that reads its version (v8:
LLVM 14, v10: LLVM 22) produced:

* ``expected/ID.text`` -- ``llvm-profdata show --text --all-functions FILE``: every
  data record in file order with its raw value order and the reader's own
  symbol table resolving targets (IR profiles: the non-CS records only);
* ``expected/ID.cs.text`` -- the same with ``--showcs`` (IR profiles only);
* in ``goldens.json``: the binary ids (``show --binary-ids``) and temporal traces
  (``show --temporal-profile-traces``), parsed from the tool's output.

Inputs under 64 KiB are copied to ``inputs/``; the larger ones are read from the
shared folder by the tests (which skip when it is absent).  Outputs over 64 KiB
are gzipped.

``bad/`` holds invalid inputs: the raw files of the corpus case ``bad-inputs-vis``
and files made here from real ones by changing a few bytes (see ``SURGERY``);
``goldens.json`` records the first error line the real tool printed for each
(``null`` when it read the file).

Run: ``python tests/golden/raw/make_goldens.py`` (needs llvm-profdata 14 and 22).
"""

from __future__ import annotations

import gzip
import json
import shutil
import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = Path("/work/shared")
COPY_LIMIT = 64 * 1024
TOOL_FOR_VERSION = {8: 14, 10: 22}
IR_FLAG = 1 << 56
V10_HEADER = 128  # header bytes of raw v10
V10_DATA = 64  # data record bytes of 64-bit raw v10


def profdata(release: int) -> str:
    return f"/usr/lib/llvm-{release}/bin/llvm-profdata"


def run(release: int, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [profdata(release), *map(str, args)], capture_output=True, text=True, check=False
    )


def raw_inputs() -> dict[str, Path]:
    """ID -> source path of every raw input a real tool reads."""
    found: dict[str, Path] = {}
    for path in sorted((SHARED / "corpus").glob("*/*.profraw")):
        case = path.parent.name
        if case == "bad-inputs-vis" or path.name.startswith("trunc-"):
            continue
        found[f"{case}__{path.stem}"] = path
    tests = SHARED / "llvm-test-inputs"
    for path in sorted(tests.rglob("*.profraw")):
        if path.read_bytes()[8] in TOOL_FOR_VERSION:
            rel = path.relative_to(tests)
            found["__".join(rel.with_suffix("").parts)] = path
    return found


def write_output(name: str, text: str) -> str:
    data = text.encode()
    if len(data) > COPY_LIMIT:
        name += ".gz"
        (HERE / "expected" / name).write_bytes(gzip.compress(data, mtime=0))
    else:
        (HERE / "expected" / name).write_bytes(data)
    return f"expected/{name}"


def binary_ids(release: int, path: Path) -> list[str]:
    lines = run(release, "show", "--binary-ids", path).stdout.splitlines()
    if "Binary IDs: " not in lines:
        return []
    return [line for line in lines[lines.index("Binary IDs: ") + 1 :] if line]


def traces(release: int, path: Path) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for line in run(release, "show", "--temporal-profile-traces", path).stdout.splitlines():
        if line.startswith("  Temporal Profile Trace "):
            weight = int(line.split("weight=")[1].split()[0])
            out.append({"weight": weight, "names": []})
        elif line.startswith("    ") and out:
            names = out[-1]["names"]
            assert isinstance(names, list)
            names.append(line.strip())
    return out


def golden_for(ident: str, path: Path) -> dict[str, object]:
    data = path.read_bytes()
    version, release = data[8], TOOL_FOR_VERSION[data[8]]
    word = struct.unpack_from("<Q", data, 8)[0]
    entry: dict[str, object] = {
        "source": str(path.relative_to(SHARED)),
        "llvm": release,
        "version": version,
    }
    if len(data) <= COPY_LIMIT:
        shutil.copyfile(path, HERE / "inputs" / f"{ident}.profraw")
        entry["input"] = f"inputs/{ident}.profraw"
    shown = run(release, "show", "--text", "--all-functions", path)
    assert shown.returncode == 0, shown.stderr
    entry["text"] = write_output(f"{ident}.text", shown.stdout)
    if word & IR_FLAG:
        shown = run(release, "show", "--text", "--all-functions", "--showcs", path)
        entry["cs_text"] = write_output(f"{ident}.cs.text", shown.stdout)
    entry["binary_ids"] = binary_ids(release, path)
    entry["traces"] = traces(release, path) if release >= 19 else []
    return entry


# -- versions no installed tool reads ------------------------------------------------
#: v5/v7/v9 inputs and the v8/v10 input of the same test program in a later release.
#: "records": same names, hashes and counts (the compiler did not change in between);
#: "entry-counts": same names and function entry counts (clang 11/12 hashed and placed
#: counters differently, so only records with as many counters have the same counts).
OLDER: dict[str, tuple[str, str]] = {
    "llvm-11__c-general": ("llvm-14__c-general", "entry-counts"),
    "llvm-12__c-general": ("llvm-14__c-general", "entry-counts"),
    "llvm-11__compressed": ("llvm-14__compressed", "entry-counts"),
    "llvm-12__compressed": ("llvm-14__compressed", "entry-counts"),
    "llvm-11__simple_project": ("", "none"),
    "llvm-13__c-general": ("llvm-14__c-general", "records"),
    "llvm-13__compressed": ("llvm-14__compressed", "records"),
    "llvm-18__c-general": ("llvm-19__c-general", "records"),
    "llvm-18__compressed": ("llvm-19__compressed", "records"),
    "llvm-18__basic": ("llvm-17__basic", "records"),
}  # fmt: skip


def older_inputs() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for ident, (counterpart, relation) in OLDER.items():
        source = "llvm-test-inputs/" + ident.replace("__", "/") + ".profraw"
        path = SHARED / source
        shutil.copyfile(path, HERE / "inputs" / f"{ident}.profraw")
        out[ident] = {
            "source": source,
            "input": f"inputs/{ident}.profraw",
            "version": path.read_bytes()[8],
            "counterpart": counterpart,
            "relation": relation,
        }
    return out


# -- invalid inputs ----------------------------------------------------------------
def _u64(data: bytes | bytearray, offset: int) -> int:
    return int(struct.unpack_from("<Q", data, offset)[0])


def _put(data: bytearray, fmt: str, offset: int, value: int) -> None:
    struct.pack_into(fmt, data, offset, value)


def _value_start(data: bytes | bytearray) -> int:
    """Offset of the value data of a 64-bit little-endian v10 file with one profile."""
    words = struct.unpack_from("<16Q", data)
    pos = V10_HEADER + words[2] + words[3] * V10_DATA + words[4]
    pos += words[5] * (1 if words[1] >> 60 & 1 else 8) + words[6]
    pos += words[7] + words[8]
    for size in (words[9], words[13] * 24, words[14]):
        pos += size + (-size % 8)
    return int(pos)


def _record(data: bytes | bytearray, index: int) -> int:
    return V10_HEADER + _u64(data, 16) + index * V10_DATA


def _surgery(base: str, change: Callable[[bytearray], bytes | bytearray]) -> Callable[[], bytes]:
    def make() -> bytes:
        return bytes(change(bytearray((SHARED / base).read_bytes())))

    return make


VP = "corpus/irpgo-vpcalls-o0-l22/run1.profraw"
MCDC = "corpus/fe-mcdc-mcdcdemo-l22/run1.profraw"
M32 = "corpus/m32-vpcalls-l22/run1.profraw"


def _set_record(
    index: int, offset: int, fmt: str, value: Callable[[int], int]
) -> Callable[[bytearray], bytearray]:
    def change(data: bytearray) -> bytearray:
        at = _record(data, index) + offset
        _put(data, fmt, at, value(struct.unpack_from(fmt, data, at)[0]))
        return data

    return change


def _set_blob(offset: int, fmt: str, value: int) -> Callable[[bytearray], bytearray]:
    def change(data: bytearray) -> bytearray:
        _put(data, fmt, _value_start(data) + offset, value)
        return data

    return change


def _truncate_value_data(data: bytearray) -> bytes:
    return bytes(data[: _value_start(data) + 4])


def _concat(gap: bytes, second: str | None = None) -> Callable[[bytearray], bytes]:
    def change(data: bytearray) -> bytes:
        other = (SHARED / second).read_bytes() if second else bytes(data)
        return bytes(data) + gap + other

    return change


def _append(tail: bytes) -> Callable[[bytearray], bytes]:
    def change(data: bytearray) -> bytes:
        return bytes(data) + tail

    return change


def _flip_names(data: bytearray) -> bytearray:
    words = struct.unpack_from("<16Q", data)
    names = V10_HEADER + words[2] + words[3] * V10_DATA + words[4] + words[5] * 8 + words[6]
    names += words[7] + words[8]
    for i in range(4, 12):
        data[names + i] ^= 0x5A
    return data


def _version_flags(flags: int) -> Callable[[bytearray], bytearray]:
    def change(data: bytearray) -> bytearray:
        _put(data, "<Q", 8, _u64(data, 8) | flags)
        return data

    return change


def _counters_only(data: bytearray) -> bytes:
    """What a debug-info-correlated program writes: header, binary ids and counters only."""
    words = list(struct.unpack_from("<16Q", data))
    ids = data[V10_HEADER : V10_HEADER + words[2]]
    start = V10_HEADER + words[2] + words[3] * V10_DATA + words[4]
    counters = data[start : start + words[5] * 8]
    words[1] |= 1 << 59
    words[3] = words[9] = words[10] = words[12] = 0
    return struct.pack("<16Q", *words) + bytes(ids) + bytes(counters)


def _binary_id_length(value: int) -> Callable[[bytearray], bytearray]:
    def change(data: bytearray) -> bytearray:
        _put(data, "<Q", V10_HEADER, value)
        return data

    return change


SURGERY: dict[str, tuple[str, str, Callable[[bytearray], bytes | bytearray]]] = {
    "num-counters-zero": (VP, "data[0].NumCounters = 0", _set_record(0, 48, "<I", lambda v: 0)),
    "counter-offset-past-end": (
        VP, "data[0].CounterPtr += 4096", _set_record(0, 16, "<Q", lambda v: (v + 4096) % 2**64),
    ),
    "num-counters-too-many": (
        VP, "data[3].NumCounters = 500", _set_record(3, 48, "<I", lambda v: 500),
    ),
    "bitmap-offset-negative": (
        MCDC, "data[0].BitmapPtr -= 4096",
        _set_record(0, 24, "<Q", lambda v: (v - 4096) % (1 << 64)),
    ),
    "bitmap-offset-past-end": (
        MCDC, "data[0].BitmapPtr += 64", _set_record(0, 24, "<Q", lambda v: (v + 64) % (1 << 64)),
    ),
    "bitmap-bytes-too-many": (
        MCDC, "data[0].NumBitmapBytes = 9", _set_record(0, 60, "<I", lambda v: 9),
    ),
    "value-kinds-invalid": (VP, "first blob NumValueKinds = 9", _set_blob(4, "<I", 9)),
    "value-total-size-odd": (VP, "first blob TotalSize = 20", _set_blob(0, "<I", 20)),
    "value-kind-invalid": (VP, "first blob record[0].Kind = 7", _set_blob(8, "<I", 7)),
    "value-sites-overrun": (
        VP, "first blob record[0].SiteCountArray[0] = 255", _set_blob(16, "<B", 255),
    ),
    "value-data-truncated": (VP, "cut 4 bytes into the value data", _truncate_value_data),
    "binary-id-length-zero": (VP, "binary id length = 0", _binary_id_length(0)),
    "binary-id-length-long": (VP, "binary id length = 64", _binary_id_length(64)),
    "concat-two": (VP, "the file twice", _concat(b"")),
    "concat-zero-gap": (VP, "the file, 64 zero bytes, the file", _concat(bytes(64))),
    "concat-misaligned": (VP, "the file, 3 zero bytes, the file", _concat(bytes(3))),
    "concat-garbage-word": (VP, "the file, 4 bytes 0xff, the file", _concat(b"\xff" * 4)),
    "concat-short-garbage": (VP, "the file, then 20 bytes 0xff", _append(b"\xff" * 20)),
    "concat-other-width": (VP, "the file, then a 32-bit raw file", _concat(b"", M32)),
    "names-zlib-corrupt": (VP, "8 bytes of the compressed names flipped", _flip_names),
    "debug-info-correlate": (
        VP, "version flag bit 59 (debug-info correlation) set", _version_flags(1 << 59),
    ),
    "debug-info-correlate-counters-only": (
        VP, "bit 59 set, NumData = NamesSize = 0, data and names removed", _counters_only,
    ),
}  # fmt: skip


def bad_inputs() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for path in sorted((SHARED / "corpus" / "bad-inputs-vis").glob("*.profraw")):
        name = path.stem
        release = 14 if name.startswith("l14") else 22
        shutil.copyfile(path, HERE / "bad" / path.name)
        out[name] = {"source": str(path.relative_to(SHARED)), "llvm": release}
    for name, (base, how, change) in SURGERY.items():
        data = (SHARED / base).read_bytes()
        made = change(bytearray(data))
        (HERE / "bad" / f"{name}.profraw").write_bytes(made)
        out[name] = {"derived_from": base, "by": how, "llvm": 22}
    for name, entry in out.items():
        tool = entry["llvm"]
        assert isinstance(tool, int)
        path = HERE / "bad" / f"{name}.profraw"
        res = run(tool, "show", "--all-functions", path)
        prefix = f"error: {path}: "
        first = res.stderr.splitlines()[0] if res.stderr else ""
        entry["exit"] = res.returncode
        entry["error"] = first[len(prefix) :] if first.startswith(prefix) else None
        if res.returncode and entry["error"] is None:
            entry["error_line"] = first
    return out


def main() -> None:
    for sub in ("inputs", "expected", "bad"):
        shutil.rmtree(HERE / sub, ignore_errors=True)
        (HERE / sub).mkdir()
    goldens = {ident: golden_for(ident, path) for ident, path in raw_inputs().items()}
    doc = {"inputs": goldens, "older": older_inputs(), "bad": bad_inputs()}
    (HERE / "goldens.json").write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
