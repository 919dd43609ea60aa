#!/usr/bin/env python3
"""The floor of a raw merge: map every input, touch its bytes and add the counter arrays.

No merge can do less than this: each raw file has to be read, and its
counters added to a running total.  The files are mapped rather than read
(on the benchmark machine copying 1.9 GB out of the page cache costs more
system time than the whole floor), and every page is touched once, as a
reader that looks at all the data must.  ``bench_merge.py`` runs this script in
the same session as both tools, so profdata's time can be stated as a
multiple of the floor on the machine the table was measured on.  It knows
only 64-bit little-endian raw v10 files of one binary (what the benchmark
kit writes) and checks that every input has the first one's shape; it
imports nothing of profdata, so the start-up is Python's and numpy's only.

usage: merge_floor.py RAW...
"""

from __future__ import annotations

import mmap
import struct
import sys

import numpy as np

HEADER = struct.Struct("<16Q")  # raw v10: sixteen u64 words
PAGE = mmap.PAGESIZE
DATA_RECORD = 64  # 64-bit v10 data record: six pointers/words, u32, 3 x u16, u32, padding


def counters_of(blob: mmap.mmap, path: str) -> tuple[int, int]:
    """Byte offset and entry count of the counters section of a v10 raw profile."""
    words = HEADER.unpack_from(blob)
    if words[0] != 0xFF6C70726F667281 or words[1] & 0xFFFFFFFF != 10:
        sys.exit(f"{path}: not a 64-bit little-endian raw v10 profile")
    binary_ids, num_data, pad_before, num_counters = words[2:6]
    return HEADER.size + binary_ids + num_data * DATA_RECORD + pad_before, num_counters


def main(paths: list[str]) -> int:
    total: np.ndarray | None = None
    shape: tuple[int, int] | None = None
    touched = 0
    for path in paths:
        with open(path, "rb") as f:
            blob = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        where = counters_of(blob, path)
        if shape is None:
            shape = where
        elif where != shape:
            sys.exit(f"{path}: another binary's profile ({where} != {shape})")
        counts = np.frombuffer(blob, dtype="<u8", count=where[1], offset=where[0])
        if total is None:
            total = counts.copy()
        else:
            total += counts
        del counts
        touched += int(np.frombuffer(blob, dtype=np.uint8)[::PAGE].sum())
    print(int(total.sum()) if total is not None else 0, touched)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
