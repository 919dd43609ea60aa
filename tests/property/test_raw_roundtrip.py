"""Raw round trips: model -> raw bytes -> model, for every version, width and byte order.

Generated profiles (``profdata.testing.strategies``) and every real raw golden
must read back equal after :func:`profdata.formats.raw.write`; real
little-endian files converted to big endian must read back equal too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.formats import raw
from profdata.formats._binary import ByteOrder
from profdata.formats.raw_layout import detect_magic
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.testing.strategies import RAW_NAME_CHARS, instr_profiles
from tests.conftest import GOLDEN

ORDERS: tuple[ByteOrder, ...] = ("<", ">")
VARIANTS = [(v, w, o) for v in (5, 7, 8, 9, 10) for w in (8, 4) for o in ORDERS]
REAL = sorted((GOLDEN / "raw" / "inputs").glob("*.profraw"))


def assert_same(ours: InstrProfile, back: InstrProfile, *, version: int) -> None:
    assert back.format == "raw" and back.version == version
    assert back.kind == ours.kind
    assert list(back.records) == list(ours.records)
    assert back.binary_ids == ours.binary_ids
    assert back.traces == ours.traces
    assert back.trace_stream_size == ours.trace_stream_size
    assert back.vtable_names == ours.vtable_names
    assert back.symbols == ours.symbols


def raw_profiles(version: int) -> st.SearchStrategy[InstrProfile]:
    """Everything a raw file of ``version`` can hold, including raw-only shapes."""
    kinds = tuple(ValueKind) if version >= 10 else (ValueKind(0), ValueKind(1))
    return instr_profiles(
        name_chars=RAW_NAME_CHARS,
        single_byte_coverage=None,
        temporal=None,
        value_kinds=kinds,
        bitmaps=version >= 9,
        binary_ids=version >= 7,
        duplicate_records=True,
        distinct_values=False,
    )


@pytest.mark.property
@pytest.mark.parametrize(("version", "width", "order"), VARIANTS)
def test_generated_profiles_round_trip(version: int, width: int, order: ByteOrder) -> None:
    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(raw_profiles(version), st.booleans())
    def check(profile: InstrProfile, compress: bool) -> None:
        data = raw.write(
            profile,
            version=version,
            width=width,
            byteorder=order,
            compress_names=compress,
        )
        assert detect_magic(data) == (width, order)
        unpadded = version == 8 and bool(profile.kind & ProfileKind.SINGLE_BYTE_COVERAGE)
        # version 7 (clang 13's runtime) writes each binary id unpadded
        unpadded = unpadded or (version == 7 and any(len(b) % 8 for b in profile.binary_ids))
        assert len(data) % 8 == 0 or unpadded
        assert_same(profile, raw.read(data), version=version)

    check()


@pytest.mark.property
@settings(max_examples=60, deadline=None)
@given(instr_profiles(), st.sampled_from(VARIANTS[-4:]))
def test_default_strategy_profiles_fit_raw_v10(
    profile: InstrProfile, variant: tuple[int, int, ByteOrder]
) -> None:
    """The shared default strategy only makes profiles every v10 variant can hold."""
    version, width, order = variant
    data = raw.write(profile, version=version, width=width, byteorder=order)
    assert_same(profile, raw.read(data), version=version)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_files_round_trip_in_their_own_variant(path: Path) -> None:
    data = path.read_bytes()
    profile = raw.read(data)
    magic = detect_magic(data)
    assert magic is not None and profile.version is not None
    width, order = magic
    back = raw.read(raw.write(profile, version=profile.version, width=width, byteorder=order))
    assert_same(profile, back, version=profile.version)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_files_converted_to_big_endian(path: Path) -> None:
    data = path.read_bytes()
    profile = raw.read(data)
    magic = detect_magic(data)
    assert magic is not None and profile.version is not None
    width, _ = magic
    big = raw.write(profile, version=profile.version, width=width, byteorder=">")
    assert detect_magic(big) == (width, ">")
    assert big[:8] == data[:8][::-1]
    assert_same(profile, raw.read(big), version=profile.version)
