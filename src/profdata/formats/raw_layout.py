"""Byte layouts of raw profiles (``.profraw``), one per (version, pointer width, byte order).

compiler-rt writes the header words, the per-function data records
(``__llvm_profile_data``) and the vtable records in the byte order and pointer
width of the profiled program, and the set of fields depends on the raw
version (LLVM's ``InstrProfData.inc`` of releases 11 to 22; see
``shared/spec/instr-raw.md`` §4, §5.1, §9).  Keeping every variant as data --
a cached :class:`RawLayout` with numpy structured dtypes in explicit byte
order -- lets the reader turn the whole data section into one array and the
writer emit it from one, with no ``if version >= 9`` outside this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from profdata.formats._binary import ByteOrder, pad8
from profdata.formats.version_word import VERSION_MASK
from profdata.model.kinds import ProfileKind

MAGIC_64 = 0xFF6C70726F667281  # INSTR_PROF_RAW_MAGIC_64
MAGIC_32 = 0xFF6C70726F665281  # INSTR_PROF_RAW_MAGIC_32

#: Raw versions shipped by LLVM releases 11..22; 6 was never released.
SUPPORTED_VERSIONS: tuple[int, ...] = (5, 7, 8, 9, 10)

#: Timestamps in the first counter slot that mean "never called" (temporal profiles).
UNSET_TIMESTAMPS = (0, 0xFFFFFFFFFFFFFFFF)

_HEADER_FIELDS_V5 = (
    "magic", "version", "num_data", "padding_bytes_before_counters", "num_counters",
    "padding_bytes_after_counters", "names_size", "counters_delta", "names_delta",
    "value_kind_last",
)  # fmt: skip
_HEADER_FIELDS_V7 = (
    "magic", "version", "binary_ids_size", "num_data", "padding_bytes_before_counters",
    "num_counters", "padding_bytes_after_counters", "names_size", "counters_delta",
    "names_delta", "value_kind_last",
)  # fmt: skip
_HEADER_FIELDS_V9 = (
    "magic", "version", "binary_ids_size", "num_data", "padding_bytes_before_counters",
    "num_counters", "padding_bytes_after_counters", "num_bitmap_bytes",
    "padding_bytes_after_bitmap_bytes", "names_size", "counters_delta", "bitmap_delta",
    "names_delta", "value_kind_last",
)  # fmt: skip
_HEADER_FIELDS_V10 = (
    "magic", "version", "binary_ids_size", "num_data", "padding_bytes_before_counters",
    "num_counters", "padding_bytes_after_counters", "num_bitmap_bytes",
    "padding_bytes_after_bitmap_bytes", "names_size", "counters_delta", "bitmap_delta",
    "names_delta", "num_vtables", "vnames_size", "value_kind_last",
)  # fmt: skip
_HEADER_FIELDS = {5: _HEADER_FIELDS_V5, 7: _HEADER_FIELDS_V7, 8: _HEADER_FIELDS_V7,
                  9: _HEADER_FIELDS_V9, 10: _HEADER_FIELDS_V10}  # fmt: skip


def detect_magic(prefix: bytes | memoryview) -> tuple[int, ByteOrder] | None:
    """Pointer width and byte order announced by the first 8 bytes, or None."""
    if len(prefix) < 8:
        return None
    head = bytes(prefix[:8])
    orders: tuple[tuple[ByteOrder, int], ...] = (
        ("<", int.from_bytes(head, "little")),
        (">", int.from_bytes(head, "big")),
    )
    for order, word in orders:
        if word == MAGIC_64:
            return 8, order
        if word == MAGIC_32:
            return 4, order
    return None


def sniff(prefix: bytes | memoryview) -> bool:
    """A raw profile starts with one of the four raw magics (either width, either byte order)."""
    return detect_magic(prefix) is not None


def magic_for(width: int) -> int:
    return MAGIC_64 if width == 8 else MAGIC_32


def _c_struct(order: str, members: list[tuple[str, str, tuple[int, ...]]]) -> np.dtype[np.void]:
    """A structured dtype laid out with C's natural alignment, padded to 8 like the runtime's."""
    names: list[str] = []
    formats: list[object] = []
    offsets: list[int] = []
    pos = 0
    for name, code, shape in members:
        scalar = np.dtype(order + code)
        pos += -pos % scalar.itemsize
        names.append(name)
        formats.append((scalar, shape) if shape else scalar)
        offsets.append(pos)
        pos += scalar.itemsize * (shape[0] if shape else 1)
    return np.dtype(
        {"names": names, "formats": formats, "offsets": offsets, "itemsize": pos + pad8(pos)}
    )


@dataclass(frozen=True)
class RawLayout:
    """Everything that differs between raw variants; get one from :func:`raw_layout`."""

    version: int
    width: int  # pointer width P in bytes (8 or 4)
    order: ByteOrder
    header_fields: tuple[str, ...]
    data_dtype: np.dtype[np.void]  # one __llvm_profile_data record
    vtable_dtype: np.dtype[np.void]  # one VTableProfileData record (v10)
    num_value_kinds: int  # NumValueSites entries per data record (IPVK_Last + 1 of the writer)

    @property
    def header_size(self) -> int:
        return 8 * len(self.header_fields)

    def data_offset(self, name: str) -> int:
        """Byte offset of a field inside a data record."""
        offset: int = self.data_dtype.fields[name][1]  # type: ignore[index]
        return offset

    @property
    def data_size(self) -> int:
        """D: the byte size of one data record."""
        return self.data_dtype.itemsize

    @property
    def vtable_size(self) -> int:
        return self.vtable_dtype.itemsize

    @property
    def pointer_mask(self) -> int:
        return (1 << (8 * self.width)) - 1

    @property
    def value_kind_last(self) -> int:
        return self.num_value_kinds - 1

    @property
    def has_binary_ids(self) -> bool:
        return "binary_ids_size" in self.header_fields

    @property
    def has_bitmap(self) -> bool:
        return "num_bitmap_bytes" in self.header_fields

    @property
    def has_vtables(self) -> bool:
        return "num_vtables" in self.header_fields

    @property
    def relative_counter_ptr(self) -> bool:
        """CounterPtr/CountersDelta are data-relative (v8+), not absolute addresses (v5/v7)."""
        return self.version >= 8

    @property
    def counter_stride(self) -> int:
        """How far the counter delta moves per record (``advanceData``): D, or 0 if absolute."""
        return self.data_size if self.relative_counter_ptr else 0

    @property
    def pads_byte_counters(self) -> bool:
        """False for v8: the runtime of LLVM 14 and 16 computes PaddingBytesAfterCounters as if
        counters were 8 bytes, so single-byte counters leave it 0 and later sections unaligned."""
        return self.version != 8

    @property
    def maybe_trunk_relative(self) -> bool:
        """Some v7 files have v8's relative CounterPtrs: LLVM's own test input
        ``llvm-13/compressed.profraw`` (apparently written by a trunk compiler between the
        relative-pointer change, D104556, and the bump to v8).  Release 13 wrote absolute ones."""
        return self.version == 7

    @property
    def word_dtype(self) -> np.dtype[np.unsignedinteger]:
        return np.dtype(f"{self.order}u8")


@cache
def raw_layout(version: int, width: int, order: ByteOrder) -> RawLayout:
    """The cached layout of one variant (``version`` must be in :data:`SUPPORTED_VERSIONS`)."""
    header_fields = _HEADER_FIELDS[version]
    ptr = f"u{width}"
    has_bitmap = "num_bitmap_bytes" in header_fields
    kinds = 3 if "num_vtables" in header_fields else 2
    members: list[tuple[str, str, tuple[int, ...]]] = [
        ("name_ref", "u8", ()),
        ("func_hash", "u8", ()),
        ("counter_ptr", ptr, ()),
    ]
    if has_bitmap:
        members.append(("bitmap_ptr", ptr, ()))
    members += [
        ("function_pointer", ptr, ()),
        ("values", ptr, ()),
        ("num_counters", "u4", ()),
        ("num_value_sites", "u2", (kinds,)),
    ]
    if has_bitmap:
        members.append(("num_bitmap_bytes", "u4", ()))
    vtable = _c_struct(
        order,
        [("vtable_name_hash", "u8", ()), ("vtable_pointer", ptr, ()), ("vtable_size", "u4", ())],
    )
    return RawLayout(
        version=version,
        width=width,
        order=order,
        header_fields=header_fields,
        data_dtype=_c_struct(order, members),
        vtable_dtype=vtable,
        num_value_kinds=kinds,
    )


@dataclass(frozen=True)
class RawHeader:
    """The header words of one raw profile; fields a version lacks are 0."""

    magic: int = 0
    version: int = 0  # the whole version word: flags in the high 32 bits
    binary_ids_size: int = 0
    num_data: int = 0
    padding_bytes_before_counters: int = 0
    num_counters: int = 0
    padding_bytes_after_counters: int = 0
    num_bitmap_bytes: int = 0
    padding_bytes_after_bitmap_bytes: int = 0
    names_size: int = 0
    counters_delta: int = 0
    bitmap_delta: int = 0
    names_delta: int = 0
    num_vtables: int = 0
    vnames_size: int = 0
    value_kind_last: int = 0

    @classmethod
    def from_words(cls, layout: RawLayout, words: tuple[int, ...]) -> RawHeader:
        return cls(**dict(zip(layout.header_fields, words, strict=True)))

    def words(self, layout: RawLayout) -> tuple[int, ...]:
        return tuple(getattr(self, name) for name in layout.header_fields)

    @property
    def raw_version(self) -> int:
        return self.version & VERSION_MASK

    @property
    def kind(self) -> ProfileKind:
        return ProfileKind.from_version_word(self.version)

    @property
    def counter_width(self) -> int:
        """Bytes per counter entry: single-byte coverage counters are one byte."""
        return 1 if self.kind & ProfileKind.SINGLE_BYTE_COVERAGE else 8

    @property
    def lightweight(self) -> bool:
        """Whether the profile keeps its data and names in the binary (correlation).

        Debug-info mode sets ``VARIANT_MASK_DBG_CORRELATE``; binary mode sets no
        flag, but only a correlated profile has counters without data records.
        """
        if self.num_data or self.names_size:
            return False
        return bool(self.kind & ProfileKind.DEBUG_INFO_CORRELATE) or self.num_counters > 0


@dataclass(frozen=True)
class Section:
    """One region of a raw profile, relative to the start of the buffer."""

    name: str
    start: int
    size: int

    @property
    def end(self) -> int:
        return self.start + self.size


_U64 = (1 << 64) - 1


def _signed(value: int) -> int:
    """``value`` as the C++ reader's ``ptrdiff_t`` holds it: 64 bits, two's complement."""
    value &= _U64
    return value - (1 << 64) if value >> 63 else value


def _region_sizes(layout: RawLayout, header: RawHeader) -> list[tuple[str, int]]:
    """Each region's size as the counts say (unbounded: before any 64-bit wrap)."""
    vtables_size = header.num_vtables * layout.vtable_size
    return [
        ("header", layout.header_size),
        ("binary_ids", header.binary_ids_size),
        ("data", header.num_data * layout.data_size),
        ("padding_bytes_before_counters", header.padding_bytes_before_counters),
        ("counters", header.num_counters * header.counter_width),
        ("padding_bytes_after_counters", header.padding_bytes_after_counters),
        ("bitmap", header.num_bitmap_bytes),
        ("padding_bytes_after_bitmap_bytes", header.padding_bytes_after_bitmap_bytes),
        ("names", header.names_size),
        ("names_padding", pad8(header.names_size)),
        ("vtables", vtables_size),
        ("vtables_padding", pad8(vtables_size)),
        ("vnames", header.vnames_size),
        ("vnames_padding", pad8(header.vnames_size)),
    ]


def sections(layout: RawLayout, header: RawHeader, start: int) -> list[Section]:
    """The regions after the header, in file order (``RawInstrProfReader::readHeader``).

    Padding regions are listed too, so that a caller can name the exact region
    a truncated file stops in.  The value-data region has no size field; it
    is not listed (it begins at the end of the last region).  Sizes and offsets
    wrap at 64 bits, as ``readHeader``'s products and sums do: a damaged count
    can give a region a negative size, or one smaller than its count says
    (a count of 2**58 64-byte data records takes no bytes).
    """
    out: list[Section] = []
    offset = 0
    for name, size in _region_sizes(layout, header):
        out.append(Section(name, start + _signed(offset), _signed(size)))
        offset = (offset + size) & _U64
    return out


def wrapped(layout: RawLayout, header: RawHeader) -> bool:
    """Whether a size or offset of the header's regions reaches 2**63, where ``readHeader``'s
    64-bit arithmetic wraps, so that :func:`sections` are not what the counts say."""
    offset = 0
    for _, size in _region_sizes(layout, header):
        offset += size
        if size >> 63 or offset >> 63:
            return True
    return False
