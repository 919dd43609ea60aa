"""MemProf YAML, the input ``llvm-profdata merge`` (LLVM 20+) accepts.

``YAMLMemProfReader`` claims any file starting with ``---`` and maps
``AllMemProfData``: ``HeapProfileRecords``, a list of ``GUID`` (hex, or a
function name hashed as ``memprof::getGUID``), ``AllocSites`` (``Callstack``
frames and a ``MemInfoBlock`` of named fields) and ``CallSites`` (``Frames``
and optional ``CalleeGuids``).  What ``show --memory`` prints reads back.

The YAML accepted here is the subset such files use: block mappings and
sequences, flow mappings and sequences (which may span lines), plain and
quoted scalars, comments and document markers; the first document with
content is read, as LLVM's ``yaml::Input`` ends up doing for ``show``
output, whose first document holds only the summary comments.  Frames and
call stacks get LLVM 20+'s BLAKE3 ids, in ``YAMLMemProfReader::parse`` order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from profdata.errors import Location, TextSyntaxError
from profdata.formats.memprof_ids import call_stack_id, frame_id_blake3
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ProfileKind
from profdata.model.memprof import (
    MIB_ID,
    MIB_WIDTH,
    AllocSite,
    CallSite,
    Frame,
    MemInfoBlock,
    MemProfData,
    MemProfRecord,
)
from profdata.model.names import md5_hash

Node: TypeAlias = str | list["Node"] | dict[str, "Node"] | None

#: a possessive key (its trailing blanks are stripped later): it can only end at the first
#: ':' or '#', and giving characters back would retry ``\s*:`` at each one, quadratic on a
#: long line without a colon
_KEY = re.compile(r"""^(?P<key>[^\s'"{}\[\],#][^:#]*+|"[^"]*"|'[^']*')\s*:(?:\s+(?P<rest>.*)|$)""")
_TRUE = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}
_FALSE = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}
EMPTY_PROFILE = "The profile is empty."
_SUFFIXES = (".llvm.", ".part.")  # getCanonicalFnName("selected") keeps ".__uniq."


def get_guid(name: str) -> int:
    """``memprof::getGUID``: MD5 of the name without ``.llvm.N`` / ``.part.N`` suffixes."""
    cand = name
    for suffix in _SUFFIXES:
        at = cand.rfind(suffix)
        if at >= 0 and cand.rfind(".") == at + len(suffix) - 1:
            cand = cand[:at]
    return md5_hash(cand)


def read_memprof_yaml(text: str, path: str | None = None) -> MemProfData:
    """Parse the document and intern frames and call stacks as LLVM's reader does."""
    doc = _Parser(text, path).document()
    if doc is None:
        return MemProfData()
    if not isinstance(doc, dict):
        raise _error(path, "the document is not a mapping")
    for key in doc:
        if key not in ("HeapProfileRecords", "DataAccessProfiles"):
            raise _error(path, f"unknown key '{key}'")
    if doc.get("DataAccessProfiles"):
        raise TextSyntaxError(
            "DataAccessProfiles (data access profiles of MemProf V4) are not supported",
            path=path,
            llvm_message="MemProf data access profiles: not supported by profdata",
        )
    out = MemProfData()
    for item in _seq(doc.get("HeapProfileRecords"), path, "HeapProfileRecords"):
        _record(out, _map(item, path, "HeapProfileRecords[]"), path)
    return out


def _record(out: MemProfData, item: dict[str, Node], path: str | None) -> None:
    _only(item, ("GUID", "AllocSites", "CallSites"), path)
    guid = _guid(_required(item, "GUID", path), path)
    record = MemProfRecord()
    for site in _seq(item.get("AllocSites"), path, "AllocSites"):
        fields = _map(site, path, "AllocSites[]")
        _only(fields, ("Callstack", "MemInfoBlock"), path)
        stack = _stack(out, _seq(_required(fields, "Callstack", path), path, "Callstack"), path)
        info = _mib(_map(_required(fields, "MemInfoBlock", path), path, "MemInfoBlock"), path)
        record.alloc_sites.append(AllocSite(stack, info))
    for site in _seq(item.get("CallSites"), path, "CallSites"):
        fields = _map(site, path, "CallSites[]")
        _only(fields, ("Frames", "CalleeGuids"), path)
        stack = _stack(out, _seq(_required(fields, "Frames", path), path, "Frames"), path)
        callees = tuple(_guid(g, path) for g in _seq(fields.get("CalleeGuids"), path, "Callees"))
        record.call_sites.append(CallSite(stack, callees))
    out.records.setdefault(guid, record)  # try_emplace: a repeated GUID is dropped


def _stack(out: MemProfData, frames: list[Node], path: str | None) -> int:
    ids = []
    for node in frames:
        fields = _map(node, path, "Frame")
        _only(fields, ("Function", "LineOffset", "Column", "IsInlineFrame"), path)
        frame = Frame(
            _guid(_required(fields, "Function", path), path),
            _uint(_required(fields, "LineOffset", path), 32, path),
            _uint(_required(fields, "Column", path), 32, path),
            _bool(_required(fields, "IsInlineFrame", path), path),
        )
        fid = frame_id_blake3(frame)
        out.frames.setdefault(fid, frame)
        ids.append(fid)
    stack = tuple(ids)
    cs_id = call_stack_id(stack)
    out.call_stacks.setdefault(cs_id, stack)
    return cs_id


def _mib(fields: dict[str, Node], path: str | None) -> MemInfoBlock:
    values: dict[int, int] = {}
    for name, node in fields.items():
        fid = MIB_ID.get(name)
        if fid is None:
            raise _error(path, "Key is not a valid validation event")
        values[fid] = _uint(node, 64, path) & ((1 << (8 * MIB_WIDTH[fid])) - 1)
    return MemInfoBlock(dict(sorted(values.items())))


# -- scalars ---------------------------------------------------------------------------
def _guid(node: Node, path: str | None) -> int:
    text = _scalar(node, path)
    if text.isdigit():
        raise _error(path, "use a hexadecimal GUID or a function instead")
    if text[:2].lower() == "0x":
        try:
            value = int(text[2:], 16)
        except ValueError:
            raise _error(path, "invalid hex64 number") from None
        if value >> 64:
            raise _error(path, "invalid hex64 number")
        return value
    return get_guid(text)


def _uint(node: Node, bits: int, path: str | None) -> int:
    """``getAsUnsignedInteger(Scalar, 0, N)``: 0x/0b/0o prefixes, a leading 0 is octal."""
    text = _scalar(node, path)
    low = text.lower()
    try:
        if low.startswith("0x"):
            value = int(text[2:], 16)
        elif low.startswith("0b"):
            value = int(text[2:], 2)
        elif low.startswith("0o"):
            value = int(text[2:], 8)
        elif len(text) > 1 and text.startswith("0"):
            value = int(text[1:], 8)
        else:
            value = int(text, 10) if text.isdigit() else -1
    except ValueError:
        value = -1
    if value < 0 or value >> bits:
        raise _error(path, "invalid number" if bits == 64 else f"out of range number: {text}")
    return value


def _bool(node: Node, path: str | None) -> bool:
    text = _scalar(node, path)
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _error(path, "invalid boolean")


def _scalar(node: Node, path: str | None) -> str:
    if not isinstance(node, str):
        raise _error(path, "not a scalar")
    return node


def _seq(node: Node, path: str | None, what: str) -> list[Node]:
    if node is None:
        return []
    if not isinstance(node, list):
        raise _error(path, f"{what}: not a sequence")
    return node


def _map(node: Node, path: str | None, what: str) -> dict[str, Node]:
    if not isinstance(node, dict):
        raise _error(path, f"{what}: not a mapping")
    return node


def _required(fields: dict[str, Node], key: str, path: str | None) -> Node:
    if key not in fields:
        raise _error(path, f"missing required key '{key}'")
    return fields[key]


def _only(fields: dict[str, Node], keys: tuple[str, ...], path: str | None) -> None:
    for key in fields:
        if key not in keys:
            raise _error(path, f"unknown key '{key}'")


def _error(path: str | None, message: str, line: int | None = None) -> TextSyntaxError:
    """LLVM prints the YAML diagnostic, then fails the input as ``The profile is empty.``"""
    return TextSyntaxError(
        message, path=path, location=Location(line=line), llvm_message=EMPTY_PROFILE
    )


# -- the YAML subset ---------------------------------------------------------------------
@dataclass
class _Line:
    indent: int
    text: str
    number: int


class _Parser:
    def __init__(self, text: str, path: str | None) -> None:
        self.path = path
        self.docs = _documents(text)

    def document(self) -> Node:
        for lines in self.docs:
            if lines:
                self.lines = lines
                self.at = 0
                node = self._node(lines[0].indent)
                if self.at < len(lines):
                    extra = lines[self.at]
                    raise _error(self.path, "unexpected content", extra.number)
                return node
        return None

    def _node(self, indent: int) -> Node:
        line = self.lines[self.at]
        if line.text == "-" or line.text.startswith("- "):
            return self._sequence(line.indent)
        if _KEY.match(line.text) and not line.text.startswith(("{", "[")):
            return self._mapping(line.indent)
        self.at += 1
        return self._inline(line.text, line)

    def _sequence(self, indent: int) -> list[Node]:
        items: list[Node] = []
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if line.indent != indent or not (line.text == "-" or line.text.startswith("- ")):
                break
            rest = line.text[1:].lstrip()
            if not rest:
                self.at += 1
                items.append(self._child(indent, allow_same=False))
                continue
            offset = len(line.text) - len(rest)
            self.lines[self.at] = _Line(indent + offset, rest, line.number)
            items.append(self._node(indent + offset))
        return items

    def _mapping(self, indent: int) -> dict[str, Node]:
        result: dict[str, Node] = {}
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if line.indent != indent:
                if line.indent > indent:
                    raise _error(self.path, "bad indentation", line.number)
                break
            match = _KEY.match(line.text)
            if match is None or line.text.startswith("- "):
                break
            key = _unquote(match.group("key").strip())
            rest = match.group("rest")
            self.at += 1
            if rest is None or not rest.strip():
                result[key] = self._child(indent, allow_same=True)
            else:
                result[key] = self._inline(rest.strip(), line)
        return result

    def _child(self, indent: int, *, allow_same: bool) -> Node:
        """The node under a key or ``-`` with nothing after it (None if there is none)."""
        if self.at >= len(self.lines):
            return None
        nxt = self.lines[self.at]
        if nxt.indent > indent:
            return self._node(nxt.indent)
        if allow_same and nxt.indent == indent and nxt.text.startswith("- "):
            return self._sequence(indent)
        return None

    def _inline(self, text: str, line: _Line) -> Node:
        if text[0] in "[{":
            while _depth(text) > 0:
                if self.at >= len(self.lines):
                    raise _error(self.path, "unterminated flow collection", line.number)
                text += " " + self.lines[self.at].text
                self.at += 1
            node, end = _flow(text, 0, self.path, line.number)
            if text[end:].strip():
                raise _error(self.path, "unexpected text after a flow collection", line.number)
            return node
        return _unquote(text)


def _documents(text: str) -> list[list[_Line]]:
    docs: list[list[_Line]] = [[]]
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = _strip_comment(raw).rstrip()
        if stripped.startswith("---"):
            docs.append([])
            stripped = stripped[3:].strip()
            if not stripped:
                continue
            docs[-1].append(_Line(0, stripped, number))
            continue
        if stripped == "...":
            docs.append([])
            continue
        if not stripped.strip():
            continue
        indent = len(stripped) - len(stripped.lstrip(" "))
        docs[-1].append(_Line(indent, stripped.strip(), number))
    return docs


def _strip_comment(line: str) -> str:
    quote = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index]
    return line


def _depth(text: str) -> int:
    depth = 0
    quote = ""
    for char in text:
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return depth


def _flow(text: str, pos: int, path: str | None, line: int) -> tuple[Node, int]:
    """One flow node at ``pos``: ``{k: v, ...}``, ``[a, ...]`` or a scalar up to , ] }."""
    pos = _skip(text, pos)
    if pos < len(text) and text[pos] in "[{":
        closing = "]" if text[pos] == "[" else "}"
        is_map = text[pos] == "{"
        pos = _skip(text, pos + 1)
        seq: list[Node] = []
        mapping: dict[str, Node] = {}
        while pos < len(text) and text[pos] != closing:
            if is_map:
                colon = text.find(":", pos)
                if colon < 0:
                    raise _error(path, "expected ':' in a flow mapping", line)
                key = _unquote(text[pos:colon].strip())
                value, pos = _flow(text, colon + 1, path, line)
                mapping[key] = value
            else:
                value, pos = _flow(text, pos, path, line)
                seq.append(value)
            pos = _skip(text, pos)
            if pos < len(text) and text[pos] == ",":
                pos = _skip(text, pos + 1)
            elif pos < len(text) and text[pos] != closing:  # e.g. "[a }]": no progress
                raise _error(path, "Expected , between entries!", line)
        if pos >= len(text):
            raise _error(path, "unterminated flow collection", line)
        return (mapping if is_map else seq), pos + 1
    end = pos
    if end < len(text) and text[end] in "'\"":
        close = text.find(text[end], end + 1)
        end = len(text) if close < 0 else close + 1
    else:
        while end < len(text) and text[end] not in ",]}":
            end += 1
    return _unquote(text[pos:end].strip()), end


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def memprof_yaml_profile(contents: bytes, path: str) -> InstrProfile:
    """A MemProf YAML file's bytes as a MemProf-flagged profile without counters (LLVM 20+)."""
    return InstrProfile(
        kind=ProfileKind.MEMPROF,
        records=[],
        format="memprof-yaml",
        memprof=read_memprof_yaml(contents.decode("utf-8", "surrogateescape"), path),
    )
