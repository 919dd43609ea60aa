"""Correlators and the raw reader's correlation hook, on the real golden builds.

What llvm-profdata writes from these files is checked in
``tests/golden/test_correlate.py``; here the pieces: the two correlators agree
on one program, every record's name is in the names, and a correlated
profile equals the ordinary raw profile the raw writer makes of it.
"""

from __future__ import annotations

import numpy as np
import pytest

from profdata.formats import raw
from profdata.formats.correlate import CorrelatorKind, load_correlation, load_probes
from profdata.formats.correlate_data import Correlation
from profdata.formats.raw_layout import detect_magic
from profdata.model.names import md5_hash
from tests.conftest import GOLDEN

HERE = GOLDEN / "correlate"
BUILDS = ["l22-ir-dbg", "l22-ir-bin", "l22-fe-dbg", "l22-fe-bin", "l22-ir32-dbg",
          "l22-ir32-bin", "l19-ir-dbg", "l19-ir-bin", "l14-ir-dbg"]  # fmt: skip


def _load(name: str) -> Correlation:
    kind = CorrelatorKind.BINARY if name.endswith("-bin") else CorrelatorKind.DEBUG_INFO
    return load_correlation(HERE / name, kind)


@pytest.mark.parametrize("prefix", ["l22-ir", "l22-fe", "l22-ir32", "l19-ir"])
def test_debug_info_and_binary_correlators_agree(prefix: str) -> None:
    """One program, built twice: the same records whichever way the metadata is kept."""
    dwarf, binary = _load(f"{prefix}-dbg"), _load(f"{prefix}-bin")
    assert dwarf.name_table().table() == binary.name_table().table()
    for column in ("name_refs", "func_hashes", "counter_offsets", "num_counters"):
        assert np.array_equal(getattr(dwarf, column), getattr(binary, column)), column
    assert (dwarf.width, binary.width) == ((4, 4) if "32" in prefix else (8, 8))
    assert dwarf.counters_section_size == binary.counters_section_size


@pytest.mark.parametrize("name", BUILDS)
def test_every_record_is_named(name: str) -> None:
    correlation = _load(name)
    table = correlation.name_table().table()
    assert len(correlation) == 4
    for ref in correlation.name_refs.tolist():
        assert md5_hash(table[ref]) == ref
    assert len(set(correlation.counter_offsets.tolist())) == len(correlation)


@pytest.mark.parametrize("name", BUILDS)
def test_correlated_profile_equals_its_ordinary_raw_form(name: str) -> None:
    data = (HERE / f"{name}.2.profraw").read_bytes()
    magic = detect_magic(data[:8])
    assert magic is not None
    profile = raw.read(data, "p.profraw", correlation=_load(name))
    assert sum(int(r.counts.sum()) for r in profile.records) > 0
    version = int.from_bytes(data[8:12], "little")
    ordinary = raw.read(raw.write(profile, version=version, width=magic[0]))
    assert ordinary.kind == profile.kind
    assert [(r.name, r.hash, r.counts.tolist()) for r in ordinary.records] == [
        (r.name, r.hash, r.counts.tolist()) for r in profile.records
    ]


def test_yaml_probes_are_the_records_before_deduplication() -> None:
    probes, warnings = load_probes(HERE / "l22-ir-dbg")
    correlation = _load("l22-ir-dbg")
    assert warnings.lines() == []
    assert [p.counter_offset for p in probes] == correlation.counter_offsets.tolist()
    assert [md5_hash(p.function_name.decode()) for p in probes] == correlation.name_refs.tolist()
    assert {p.file for p in probes} == {b"prog.c"}
    assert [p.linkage_name for p in probes if p.function_name.startswith(b"prog.c;")] == [b"square"]
