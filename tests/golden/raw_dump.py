"""Compare records with ``llvm-profdata show --text --all-functions`` output.

``show --text`` prints every record of a raw profile in file order with
``writeRecordInText``: raw value order, targets resolved through the reader's
symbol table (``** External Symbol **`` when unknown).  Parsing it into
:class:`DumpRecord` values and turning our records into the same values keeps
the comparison independent of profdata's own text writer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from profdata.model.instr import InstrRecord
from profdata.model.kinds import ValueKind

EXTERNAL_SYMBOL = "** External Symbol **"

Site = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class DumpRecord:
    name: str
    hash: int
    counts: tuple[int, ...]
    bitmap: bytes
    #: kind -> sites -> (target name or value, count)
    sites: tuple[tuple[int, tuple[Site, ...]], ...]


class _Lines:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.pos = 0

    def take(self, expected: str | None = None) -> str:
        line = self.lines[self.pos]
        self.pos += 1
        if expected is not None and line != expected:
            raise ValueError(f"line {self.pos}: expected {expected!r}, found {line!r}")
        return line

    def peek(self, ahead: int = 0) -> str | None:
        at = self.pos + ahead
        return self.lines[at] if at < len(self.lines) else None


def parse_show_text(text: str) -> list[DumpRecord]:
    lines = _Lines(text)
    records: list[DumpRecord] = []
    while lines.peek() is not None:
        if lines.peek(1) != "# Func Hash:":
            lines.take()
            continue
        name = lines.take()
        lines.take("# Func Hash:")
        fhash = int(lines.take())
        lines.take("# Num Counters:")
        num = int(lines.take())
        lines.take("# Counter Values:")
        counts = tuple(int(lines.take()) for _ in range(num))
        bitmap = b""
        if lines.peek() == "# Num Bitmap Bytes:":
            lines.take()
            size = int(lines.take().lstrip("$"))
            lines.take("# Bitmap Byte Values:")
            bitmap = bytes(int(lines.take(), 16) for _ in range(size))
            lines.take("")  # writeRecordInText ends the bitmap block with a blank line
        kinds: list[tuple[int, tuple[Site, ...]]] = []
        if lines.peek() == "# Num Value Kinds:":
            lines.take()
            for _ in range(int(lines.take())):
                lines.take()
                kind = int(lines.take())
                lines.take("# NumValueSites:")
                sites: list[Site] = []
                for _ in range(int(lines.take())):
                    entries = []
                    for _ in range(int(lines.take())):
                        target, _, count = lines.take().rpartition(":")
                        entries.append((target, int(count)))
                    sites.append(tuple(entries))
                kinds.append((kind, tuple(sites)))
        records.append(DumpRecord(name, fhash, counts, bitmap, tuple(kinds)))
    return records


def dump_records(records: Iterable[InstrRecord], symbols: Mapping[int, str]) -> list[DumpRecord]:
    """Our records as ``show --text`` would print them with ``symbols`` as the symbol table."""
    out: list[DumpRecord] = []
    for record in records:
        kinds = []
        for kind, sites in record.sites_by_kind().items():
            rendered = tuple(
                tuple(
                    (
                        symbols.get(v.value, EXTERNAL_SYMBOL)
                        if kind is not ValueKind.MEMOP_SIZE
                        else str(v.value),
                        v.count,
                    )
                    for v in site
                )
                for site in sites
            )
            kinds.append((int(kind), rendered))
        out.append(
            DumpRecord(
                record.name,
                record.hash,
                tuple(int(c) for c in record.counts),
                record.bitmap,
                tuple(kinds),
            )
        )
    return out
