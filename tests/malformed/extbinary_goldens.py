"""The ext-binary sample goldens llvm-profdata of each release wrote
(``tests/golden/sample/expected/lNN.json``), and the patch the damage tests make to
their section header tables."""

from __future__ import annotations

import json
import struct
from functools import cache
from pathlib import Path

GOLDENS = Path(__file__).resolve().parents[1] / "golden" / "sample" / "expected"
TABLE_AT = 18  # magic (9), version (1), section count (8)


@cache
def results(rel: int) -> dict[str, dict[str, dict[str, object]]]:
    """Every golden case of release ``rel``: name -> case -> exit, stdout, stderr."""
    loaded: dict[str, dict[str, dict[str, object]]] = json.loads(
        (GOLDENS / f"l{rel}.json").read_text()
    )
    return loaded


def golden_text(rel: int, name: str, case: str) -> str:
    stdout = results(rel)[name][case]["stdout"]
    assert isinstance(stdout, str)
    return stdout


def golden(rel: int, name: str, case: str) -> bytes:
    """A written file (its stdout is kept as hex)."""
    return bytes.fromhex(golden_text(rel, name, case))


def patch_entry(data: bytes, index: int, field: int, value: int) -> bytes:
    """Set word ``field`` (0 type, 1 flags, 2 offset, 3 size) of table entry ``index``."""
    at = TABLE_AT + 32 * index + 8 * field
    return data[:at] + struct.pack("<Q", value) + data[at + 8 :]
