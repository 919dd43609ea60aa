"""How a MemProf input is told from the others by its first bytes.

``merge`` looks at every input's first bytes before reading it (a MemProf YAML
file is read as such, a raw ``.memprofraw`` file refused by name): these two
tests live apart from the MemProf readers so that a merge of other inputs
never imports them.
"""

from __future__ import annotations

MEMPROF_RAW_MAGIC = b"\x81rforpm\xff"  # MEMPROF_RAW_MAGIC_64 of .memprofraw files


def is_memprof_raw(prefix: bytes | memoryview) -> bool:
    """``RawMemProfReader::hasFormat``: whether a file starting with ``prefix`` is a raw
    ``.memprofraw`` profile, which ``merge`` and ``show --memory`` refuse by name."""
    return bytes(prefix[: len(MEMPROF_RAW_MAGIC)]) == MEMPROF_RAW_MAGIC


def is_memprof_yaml(prefix: bytes) -> bool:
    """``YAMLMemProfReader::hasFormat``: the buffer starts with ``---``."""
    return prefix.startswith(b"---")


__all__ = ["MEMPROF_RAW_MAGIC", "is_memprof_raw", "is_memprof_yaml"]
