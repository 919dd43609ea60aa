"""An ext-binary profiles section read in two parts, cut where the function offset table
says a function starts (:func:`profdata.formats.sample_columns.read_profiles`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from profdata import offload as offload_module
from profdata.formats import sample_columns
from profdata.formats.sample_columns import ProfileColumns, read_columns
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from profdata.releases import Release, release
from tests.property.test_sample_column_merge import COUNTS, encode, profiles
from tests.property.test_sample_text_columns import same_columns
from tests.unit.test_offload import count_offloads

ANY_FIXTURE = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every profiles section cut, with a CPU idle for it; records each part read."""
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)
    monkeypatch.setattr(sample_columns, "_SPLIT_BYTES", 0)
    return count_offloads(monkeypatch)


Reader = Callable[[memoryview, str | None, Release], tuple[SampleProfile, Any] | None]


def columns_of(data: bytes, reader: Reader = read_columns) -> ProfileColumns | None:
    read = reader(memoryview(data), None, release(22))
    return None if read is None else read[1]


def columns_whole(data: bytes, reader: Reader = read_columns) -> ProfileColumns | None:
    """The columns read by one process, however large the section."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sample_columns, "_SPLIT_BYTES", 1 << 62)
        return columns_of(data, reader)


@ANY_FIXTURE
@given(profiles(COUNTS).filter(lambda p: len(p.profiles) > 1))
def test_a_section_read_in_parts_is_the_section_read_whole(
    split: list[int], profile: SampleProfile
) -> None:
    for kind in ("extbinary", "compressed", "md5"):
        data = encode(profile, kind)
        whole = columns_whole(data)
        before = len(split)
        parts = columns_of(data)
        assert len(split) == before + 1  # cut (every function table entry is a start)
        assert (whole is None) == (parts is None)
        if whole is not None and parts is not None:
            assert same_columns(whole, parts)


def test_a_wrong_offset_table_leaves_the_section_to_one_read(
    split: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offsets inside functions: the parts do not end where they should (or their walks
    decline), and the whole section is read here."""
    profile = _profile(40)
    data = encode(profile, "extbinary")
    whole = columns_whole(data)
    assert whole is not None
    real = sample_columns._ColumnReader.offset_table

    def off_by_one(self: sample_columns._ColumnReader, cur: object) -> None:
        real(self, cur)  # type: ignore[arg-type]
        assert self.function_starts is not None
        self.function_starts = self.function_starts + 1

    monkeypatch.setattr(sample_columns._ColumnReader, "offset_table", off_by_one)
    parts = columns_of(data)
    assert split and parts is not None and same_columns(whole, parts)


def test_a_child_that_dies_leaves_its_part_to_this_process(
    split: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()
    real = sample_columns._part_of

    def dying(*args: object) -> object:
        if os.getpid() != parent:
            os._exit(9)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sample_columns, "_part_of", dying)
    data = encode(_profile(30), "extbinary")
    whole = columns_whole(data)
    parts = columns_of(data)
    assert split and whole is not None and parts is not None and same_columns(whole, parts)


def test_the_cut_is_the_function_nearest_the_middle() -> None:
    starts = np.array([0, 10, 45, 70, 99], dtype=np.int64)
    assert sample_columns._middle_function(starts, 1000, 1100) is None  # small: not cut
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sample_columns, "_SPLIT_BYTES", 0)
        assert sample_columns._middle_function(starts, 1000, 1100) == 1045
        assert sample_columns._middle_function(starts, 1000, 1080) == 1045
        assert sample_columns._middle_function(starts[:1], 0, 100) is None  # only the first
        assert sample_columns._middle_function(None, 0, 100) is None


def _profile(functions: int) -> SampleProfile:
    profile = SampleProfile()
    for k in range(functions):
        fs = FunctionSamples(SampleContext(f"f{k}"), total_samples=10 * k + 1, head_samples=k)
        for line in range(k % 5 + 1):
            fs.add_body_samples(LineLocation(line, 0), k + line)
        profile.profiles[fs.context] = fs
    return profile


def test_a_second_part_that_declines_leaves_the_section_to_one_read(
    split: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one read decides: here it takes the section (a real decline would decline
    again)."""
    data = encode(_profile(40), "extbinary")
    whole = columns_whole(data)
    monkeypatch.setattr(sample_columns, "_part_of", lambda *args: None)
    parts = columns_of(data)
    assert split and whole is not None and parts is not None and same_columns(whole, parts)


def test_a_line_offset_beyond_16_bits_declines_split_or_not(split: list[int]) -> None:
    profile = _profile(40)
    for fs in profile.profiles.values():
        if fs.total_samples > 200:
            fs.add_body_samples(LineLocation(0x12345, 0), 5)
    data = encode(profile, "extbinary")
    assert columns_whole(data) is None
    assert columns_of(data) is None
    assert split
