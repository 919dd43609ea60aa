"""Broken raw profiles: every cut and every flipped byte gives a located FormatError.

The real files are the raw goldens (``tests/golden/raw/inputs``).  Each one is
cut at every header-field boundary, every section boundary and every
value-data blob boundary of every profile it holds; the error must be a
:class:`~profdata.errors.FormatError` that names the field and the offset where
the missing bytes start.  Random byte flips must give a profile or a
FormatError, never another exception.  (The real tool's messages for broken
files are checked in ``tests/golden/test_raw.py``.)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.errors import FormatError, HeaderCorruptError, TooMuchDataError, TruncatedError
from profdata.formats import raw
from profdata.formats.raw_layout import RawHeader, detect_magic, raw_layout, sections
from profdata.model.instr import InstrProfile
from tests.conftest import GOLDEN

INPUTS = GOLDEN / "raw" / "inputs"
FILES = sorted(INPUTS.glob("*.profraw"))


@dataclass(frozen=True)
class Cut:
    at: int  # keep this many bytes
    field: str  # what the cut removes the start of
    offset: int  # where the error must be located
    error: type[FormatError]


def cuts(data: bytes) -> list[Cut]:
    """Every header-field, section and value-blob boundary of every profile in ``data``."""
    magic = detect_magic(data)
    assert magic is not None
    width, order = magic
    found: list[Cut] = []
    pos = 0
    while True:
        version = struct.unpack_from(f"{order}Q", data, pos + 8)[0] & 0xFFFFFFFF
        layout = raw_layout(version, width, order)
        words = struct.unpack_from(f"{order}{len(layout.header_fields)}Q", data, pos)
        header = RawHeader.from_words(layout, words)
        for index, name in enumerate(layout.header_fields[1:], start=1):
            if pos == 0:
                found.append(Cut(8 * index, f"header.{name}", 8 * index, HeaderCorruptError))
            else:
                found.append(Cut(pos + 8 * index, "header", pos, FormatError))
        regions = sections(layout, header, pos)
        for region in regions[1:]:
            if region.size:
                found.append(Cut(region.start, region.name, region.start, HeaderCorruptError))
        end = regions[-1].end
        records = np.frombuffer(data, layout.data_dtype, header.num_data, regions[2].start)
        for index in np.flatnonzero((records["num_value_sites"] != 0).any(axis=1)).tolist():
            found.append(Cut(end, f"value_data[{index}].total_size", end, TruncatedError))
            found.append(Cut(end + 8, f"value_data[{index}].total_size", end, TooMuchDataError))
            end += struct.unpack_from(f"{order}I", data, end)[0]
        rest = np.flatnonzero(np.frombuffer(data, np.uint8, offset=end))
        if not len(rest):
            return [c for c in found if c.at < len(data)]
        pos = end + int(rest[0])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_cut_is_a_located_format_error(path: Path) -> None:
    data = path.read_bytes()
    boundaries = cuts(data)
    assert len(boundaries) >= 12
    for cut in boundaries:
        with pytest.raises(FormatError) as info:
            raw.read(data[: cut.at], path.name)
        error = info.value
        where = f"cut at {cut.at} ({cut.field})"
        assert isinstance(error, cut.error), f"{where}: {type(error).__name__}: {error}"
        assert error.location.offset == cut.offset, f"{where}: {error.locate()}"
        assert error.location.field, where
        if cut.error is not FormatError:
            assert error.location.field == cut.field, f"{where}: {error.locate()}"
        assert error.path == path.name


def test_cut_inside_a_header_word_is_located_at_that_word() -> None:
    data = (INPUTS / "m32-vpcalls-l22__run1.profraw").read_bytes()
    for at in range(8, 128):
        with pytest.raises(HeaderCorruptError) as info:
            raw.read(data[:at])
        assert info.value.location.offset == at - at % 8


def test_cuts_cover_the_second_profile_of_a_concatenated_file() -> None:
    data = (INPUTS / "shlib-score-l22__both.profraw").read_bytes()
    second = [c for c in cuts(data) if c.field == "header" and c.offset > 0]
    assert second and all(c.offset == second[0].offset for c in second)


# -- fuzzing -----------------------------------------------------------------------
FUZZ_FILES = [
    INPUTS / f"{name}.profraw"
    for name in (
        "irpgo-vpcalls-o0-l22__run1", "m32-vpcalls-l14__run1", "fe-mcdc-mcdcdemo-l22__run1",
        "fe-sbc-covdemo-l22__run1", "temporal-phases-l22__run2", "shlib-score-l22__both",
        "irpgo-vtable-vcalls-cpp-l22__run1", "ir-fentrycov-vpcalls-l16__run1",
        "llvm-11__c-general", "llvm-13__compressed", "llvm-18__c-general",
    )
]  # fmt: skip
FUZZ_DATA = [p.read_bytes() for p in FUZZ_FILES]


def _read_or_format_error(data: bytes) -> InstrProfile | FormatError:
    try:
        profile = raw.read(data)
    except FormatError as exc:
        return exc
    for record in profile.records:
        assert record.counts.dtype == np.uint64
    return profile


@st.composite
def flipped(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(FUZZ_DATA)))
    hot = min(len(data), 600)  # header, binary ids and data records
    positions = st.one_of(st.integers(8, hot - 1), st.integers(8, len(data) - 1))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(positions)
        data[at] = draw(st.sampled_from([0x00, 0xFF, 0x80, 0x7F, data[at] ^ 0x01, data[at] ^ 0x40]))
    if draw(st.booleans()):
        del data[draw(st.integers(8, len(data))) :]
    return bytes(data)


@pytest.mark.property
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flipped())
def test_flipped_bytes_give_a_profile_or_a_format_error(data: bytes) -> None:
    _read_or_format_error(data)


@pytest.mark.property
@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FUZZ_DATA), st.data())
def test_flipped_header_words_give_a_profile_or_a_format_error(
    data: bytes, draw: st.DataObject
) -> None:
    """Whole header words replaced by extreme values (sizes, deltas, counts)."""
    words = bytearray(data)
    for _ in range(draw.draw(st.integers(1, 3))):
        index = draw.draw(st.integers(1, 15))
        value = draw.draw(
            st.sampled_from([0, 1, 7, 8, 2**31, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 2**64 - 8])
        )
        words[8 * index : 8 * index + 8] = value.to_bytes(8, "little")
    _read_or_format_error(bytes(words))
