"""``llvm-profdata show --debug-info=BIN --show-format=yaml``: the correlator's probes.

Mirrors ``InstrProfCorrelatorImpl::dumpYaml`` (LLVM 16 to 22) as LLVM's
``yaml::Output`` writes it: keys padded to 16 columns, hashes and offsets as
``Hex64`` (upper-case, no leading zeros), optional keys left out, and scalars
quoted by ``yaml::needsQuotes`` -- single quotes for anything YAML could
misread (paths, ``file;name``), double quotes for control bytes and non-ASCII.
"""

from __future__ import annotations

import re

from profdata.formats.correlate_data import Probe

_INDICATORS = set("-?:\\,[]{}#&*!|>'\"%@`")
_SAFE = set("_-^., \t")
_NULLS = {"null", "Null", "NULL", "~"}
_BOOLS = {"true", "True", "TRUE", "false", "False", "FALSE"}
_NUMERIC = re.compile(
    r"""[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$  # decimal and float
    |0o[0-7]+$|0x[0-9a-fA-F]+$                                  # octal, hex
    |[-+]?\.(inf|Inf|INF)$|\.(nan|NaN|NAN)$""",
    re.VERBOSE,
)


def dump_probes_yaml(probes: list[Probe]) -> str:
    """The YAML document ``dumpYaml`` writes for ``probes``."""
    out = ["---", "Probes:"]
    for probe in probes:
        pairs: list[tuple[str, str]] = [("Function Name", _scalar(probe.function_name))]
        if probe.linkage_name is not None:
            pairs.append(("Linkage Name", _scalar(probe.linkage_name)))
        pairs += [
            ("CFG Hash", f"0x{probe.cfg_hash:X}"),
            ("Counter Offset", f"0x{probe.counter_offset:X}"),
            ("Num Counters", str(probe.num_counters)),
        ]
        if probe.file is not None:
            pairs.append(("File", _scalar(probe.file)))
        if probe.line is not None:
            pairs.append(("Line", str(probe.line)))
        for index, (key, value) in enumerate(pairs):
            lead = "  - " if index == 0 else "    "
            out.append(f"{lead}{key}:{' ' * max(16 - len(key), 1)}{value}")
    out.append("...")
    return "\n".join(out) + "\n"


def _scalar(raw: bytes) -> str:
    """A string scalar, quoted as ``yaml::needsQuotes`` asks."""
    text = raw.decode("utf-8", "surrogateescape")
    quoting = _quoting(raw)
    if quoting == 0:
        return text
    if quoting == 1:
        return "'" + text.replace("'", "''") + "'"
    return '"' + _double_escape(raw) + '"'


def _quoting(raw: bytes) -> int:
    """0: plain, 1: single quotes, 2: double quotes (``needsQuotes``)."""
    if not raw:
        return 1
    need = 0
    text = raw.decode("latin-1")
    if text[0].isspace() or text[-1].isspace():
        need = 1
    if text in _NULLS or text in _BOOLS or _NUMERIC.match(text):
        need = 1
    if text[0] in _INDICATORS:
        need = 1
    for byte in raw:
        char = chr(byte)
        if (char.isascii() and char.isalnum()) or char in _SAFE:
            continue
        if byte in (0x0A, 0x0D):
            need = 1
        elif byte == 0x7F or byte <= 0x1F or byte & 0x80:
            return 2
        else:
            need = 1
    return need


def _double_escape(raw: bytes) -> str:
    """``yaml::Output``'s double-quoted form: escapes for control bytes, UTF-8 kept."""
    named = {0x00: "0", 0x07: "a", 0x08: "b", 0x09: "t", 0x0A: "n", 0x0B: "v", 0x0C: "f",
             0x0D: "r", 0x1B: "e", 0x22: '"', 0x5C: "\\"}  # fmt: skip
    out: list[str] = []
    for char in raw.decode("utf-8", "surrogateescape"):
        code = ord(char)
        if code in named:
            out.append("\\" + named[code])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02X}")
        elif 0xDC80 <= code <= 0xDCFF:
            out.append("\\x" + f"{code - 0xDC00:02X}")
        else:
            out.append(char)
    return "".join(out)
