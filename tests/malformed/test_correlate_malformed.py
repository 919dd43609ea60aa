"""Broken correlation inputs: located errors, never a traceback.

The binaries and raw profiles are the correlation goldens
(``tests/golden/correlate``, real clang builds).  What llvm-profdata prints
for damaged binaries is checked in ``tests/golden/test_correlate.py``; here
the errors profdata adds where llvm-profdata silently reads an empty profile,
and the located details of bad binaries.
"""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.errors import (
    CorrelationError,
    CorrelationMismatchError,
    MalformedError,
    NotAnObjectError,
    ProfdataError,
)
from profdata.formats import raw
from profdata.formats.correlate import CorrelatorKind, load_correlation, load_probes
from profdata.formats.correlate_data import Correlation
from tests.conftest import GOLDEN

HERE = GOLDEN / "correlate"
PLAIN_RAW = GOLDEN / "programs" / "l22-ir-branches" / "default.profraw"
NUM_DATA_AT = 24  # header.num_data: the fourth header word


def _correlation(name: str) -> Correlation:
    kind = CorrelatorKind.BINARY if name.endswith("-bin") else CorrelatorKind.DEBUG_INFO
    return load_correlation(HERE / name, kind)


def _profile(name: str) -> bytes:
    return (HERE / f"{name}.1.profraw").read_bytes()


@pytest.mark.parametrize(
    ("name", "option"),
    [("l22-ir-dbg", "--debug-info=BINARY"), ("l22-ir-bin", "--binary-file=BINARY"),
     ("l14-ir-dbg", "--debug-info=BINARY")],
)  # fmt: skip
def test_lightweight_profile_without_binary_says_what_is_missing(name: str, option: str) -> None:
    """llvm-profdata reads these as empty profiles; profdata names the missing binary."""
    with pytest.raises(CorrelationMismatchError) as info:
        raw.read(_profile(name), f"{name}.1.profraw")
    error = info.value
    assert option in error.llvm_message
    assert error.location.offset == NUM_DATA_AT
    assert error.location.field == "header.num_data"
    assert error.location.found is not None and "0 data records" in error.location.found
    assert error.headline().startswith(f"{name}.1.profraw: lightweight raw profile")


def test_binary_given_for_ordinary_profile() -> None:
    """``unexpected_correlation_info``, located at the header field that has data."""
    with pytest.raises(CorrelationMismatchError) as info:
        raw.read(PLAIN_RAW.read_bytes(), str(PLAIN_RAW), correlation=_correlation("l22-ir-dbg"))
    error = info.value
    assert error.llvm_message == "debug info/binary for correlation is not necessary"
    assert error.location.field == "header.num_data"
    assert error.location.offset == NUM_DATA_AT


@pytest.mark.parametrize(
    ("profile", "binary", "found"),
    [("l22-ir32-dbg", "l22-ir-dbg", "a 32-bit raw profile"),
     ("l22-ir-bin", "l22-ir32-bin", "a 64-bit raw profile")],
)  # fmt: skip
def test_binary_of_other_pointer_width(profile: str, binary: str, found: str) -> None:
    """llvm-profdata drops a correlator of the other width and reads nothing; profdata says so."""
    with pytest.raises(CorrelationMismatchError) as info:
        raw.read(_profile(profile), "p.profraw", correlation=_correlation(binary))
    assert info.value.location.offset == 0
    assert info.value.location.field == "header.magic"
    assert info.value.location.found == found


def test_counter_offset_outside_the_counters_is_malformed() -> None:
    """A correlated record is checked like a record of the file (``readRawCounts``)."""
    correlation = _correlation("l22-ir-bin")
    offsets = correlation.counter_offsets.copy()
    offsets[1] = np.uint64(0x1000)
    bad = dataclasses.replace(correlation, counter_offsets=offsets)
    with pytest.raises(MalformedError) as info:
        raw.read(_profile("l22-ir-bin"), "p.profraw", correlation=bad)
    assert info.value.llvm_message == (
        "malformed instrumentation profile data: counter offset 4096 is greater than the "
        "maximum counter offset 71"
    )
    assert info.value.location.field == "data[1].counter_ptr"


def test_not_an_elf_file() -> None:
    source = HERE / "prog.c"
    with pytest.raises(NotAnObjectError) as info:
        load_correlation(source, CorrelatorKind.DEBUG_INFO)
    error = info.value
    assert error.headline() == f"{source}: The file was not recognized as a valid object file"
    assert error.location.offset == 0
    assert error.location.field == "e_ident"
    assert error.location.found == source.read_bytes()[:4].hex(" ")


def test_missing_binary_is_a_file_error() -> None:
    with pytest.raises(ProfdataError, match="No such file or directory"):
        load_correlation(HERE / "absent", CorrelatorKind.BINARY)


@pytest.mark.parametrize("keep", [64, 20000, 60000])
def test_truncated_binary_names_the_section(keep: int, tmp_path: Path) -> None:
    cut = tmp_path / "cut"
    cut.write_bytes((HERE / "l22-ir-dbg").read_bytes()[:keep])
    with pytest.raises(NotAnObjectError) as info:
        load_correlation(cut, CorrelatorKind.DEBUG_INFO)
    assert info.value.llvm_message == (
        "section header table goes past the end of the file: e_shoff = 0x14958"
    )
    assert info.value.location.field == "e_shoff"
    assert info.value.location.offset == 0x28


def test_section_past_the_end_is_located(tmp_path: Path) -> None:
    data = bytearray((HERE / "l22-ir-bin").read_bytes())
    cut = tmp_path / "cut"
    cut.write_bytes(bytes(data[:-2000]) + bytes(2000))  # keep the section headers, lose bytes
    whole = tmp_path / "whole"
    whole.write_bytes(bytes(data))
    assert len(load_correlation(whole, CorrelatorKind.BINARY)) == 4
    cut.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(NotAnObjectError):
        load_correlation(cut, CorrelatorKind.BINARY)


def test_missing_section_wording_of_old_releases(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged"
    damaged.write_bytes(
        (HERE / "l14-ir-dbg").read_bytes().replace(b"__llvm_prf_cnts", b"__llvm_prf_cntX")
    )
    with pytest.raises(CorrelationError) as info:
        load_correlation(damaged, CorrelatorKind.DEBUG_INFO, binary_wording=False)
    assert info.value.llvm_message == (
        "unable to correlate profile: could not find counter section (__llvm_prf_cnts)"
    )
    assert info.value.location.expected == "a section named __llvm_prf_cnts"


_BINARIES = {name: (HERE / name).read_bytes() for name in ("l22-ir-dbg", "l22-ir-bin")}


@pytest.mark.property
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(_BINARIES)),
    flips=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)),
                   min_size=1, max_size=16),
)  # fmt: skip
def test_damaged_binary_gives_correlation_or_error(
    name: str, flips: list[tuple[float, int]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Any damaged binary: a correlation or a ProfdataError, never another exception."""
    data = bytearray(_BINARIES[name])
    for where, value in flips:
        data[int(where * len(data))] = value
    path = tmp_path_factory.mktemp("damaged") / name
    path.write_bytes(bytes(data))
    kind = CorrelatorKind.BINARY if name.endswith("-bin") else CorrelatorKind.DEBUG_INFO
    for load in (lambda: load_correlation(path, kind), lambda: load_probes(path)):
        with contextlib.suppress(ProfdataError):
            load()
