"""Names hashed in a forked child while the caller goes on (``hash_names_meanwhile``):
what ``show`` prints is what it prints when the names are hashed in its own process."""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata import offload as offload_module
from profdata.cli import main
from profdata.formats import open_instr
from profdata.formats._collector import collector_paused
from profdata.formats.raw_profile import NameTable
from profdata.model import names as model_names
from tests.conftest import REPO

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")

EXAMPLES = REPO / "src" / "profdata" / "examples"


@pytest.fixture
def eager_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any names are worth a child, and a CPU is idle for it."""
    monkeypatch.setattr(model_names, "HASH_MEANWHILE_BYTES", 1)
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)


@pytest.mark.parametrize("name", ["vp.profdata", "vp.profraw"])
def test_symbols_hashed_in_a_child_are_those_hashed_here(
    eager_child: None, forks: list[int], name: str
) -> None:
    here = open_instr(str(EXAMPLES / name)).symbols
    profile = open_instr(str(EXAMPLES / name))
    profile.hash_names_meanwhile()
    assert len(forks) == 1
    assert profile.symbols == here and len(here) > 1
    profile.hash_names_meanwhile()  # hashed already: no second child
    assert len(forks) == 1


def _names_of_profile(name: str) -> Callable[[bool], object]:
    def make(ahead: bool) -> object:
        profile = open_instr(str(EXAMPLES / name))
        if ahead:
            profile.hash_names_meanwhile()
        assert len(profile.symbols) > 1
        return profile

    return make


def _raw_name_section(ahead: bool) -> object:
    table = NameTable([b"\x01".join(b"name%d" % i for i in range(50))])
    if ahead:
        table.hash_meanwhile()
    assert len(table.table()) == 50
    return table


@pytest.mark.parametrize("ahead", [False, True], ids=["hashed here", "hashed in a child"])
@pytest.mark.parametrize(
    "make",
    [_names_of_profile("vp.profdata"), _names_of_profile("vp.profraw"), _raw_name_section],
    ids=["indexed", "raw", "raw name section"],
)
def test_a_profile_is_freed_by_its_last_reference(
    eager_child: None, forks: list[int], make: Callable[[bool], object], ahead: bool
) -> None:
    """No reference cycle keeps a read profile (or a raw profile's name section, which holds
    the names' bytes) alive until the cycle collector runs: a merge drops each input once
    merged, and its memory must go then (16 indexed inputs held until the end took 708 MiB
    instead of 165)."""
    with collector_paused():
        made = make(ahead)
        assert len(forks) == int(ahead)
        freed = weakref.ref(made)
        del made
        assert freed() is None


@pytest.mark.parametrize(
    ("options", "forked"),
    [
        (["--text", "--all-functions"], True),
        (["--all-functions", "--ic-targets"], True),
        (["--all-functions", "--counts"], False),  # no value targets: no symbols
        (["--ic-targets"], False),  # value sites summed up, no function's targets printed
        (["--function=main", "--memop-sizes"], True),
    ],
)
@pytest.mark.parametrize("name", ["vp.profdata", "vp.profraw"])
def test_show_prints_the_same_with_the_names_hashed_in_a_child(
    eager_child: None,
    forks: list[int],
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    options: list[str],
    forked: bool,
    name: str,
) -> None:
    args = ["show", *options, str(EXAMPLES / name), "-o"]
    assert main([*args, str(tmp_path / "child.txt")]) == 0
    hashed_there = list(forks)
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 1)
    assert main([*args, str(tmp_path / "here.txt")]) == 0
    assert bool(hashed_there) == forked
    assert (tmp_path / "child.txt").read_bytes() == (tmp_path / "here.txt").read_bytes()
