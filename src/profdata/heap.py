"""The C heap of a profdata command: freed memory kept for reuse.

numpy takes each large array from ``malloc``, and glibc serves blocks above a
threshold (128 KB at first, adjusted up to 32 MB) with their own ``mmap``,
returned to the kernel when freed, and trims the top of its heap whenever
more than a little is free there.  Memory given back costs its first touch
again: on the virtual machines measured a fresh page costs about 2 ns a byte
(zeroed by the guest, then faulted in by the host), as much as the work done
on it.  A reader that gathers many temporary columns (``show --sample`` of a
16 MB profile makes hundreds of megabytes of them, each freed before the next
is made) paid for fresh pages over and over: keeping blocks up to 32 MB in
the heap and never trimming it took that reading from 0.9-1.1 s to 0.6 s.

Only the command line does this: a library call does not change its host
process's allocator.
"""

from __future__ import annotations

import contextlib

#: ``mallopt`` parameters (glibc ``malloc.h``)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: the largest block glibc lets the heap serve (``HEAP_MAX_SIZE / 2`` on 64-bit)
_HEAP_BLOCKS = 32 << 20
#: free memory at the top of the heap kept rather than trimmed
_KEEP = 1 << 30


def keep_freed_memory() -> bool:
    """Have glibc keep freed memory for reuse; whether it took the settings (False
    elsewhere than glibc)."""
    with contextlib.suppress(ImportError, OSError, AttributeError):
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
        return bool(mallopt(_M_MMAP_THRESHOLD, _HEAP_BLOCKS)) and bool(
            mallopt(_M_TRIM_THRESHOLD, _KEEP)
        )
    return False


__all__ = ["keep_freed_memory"]
