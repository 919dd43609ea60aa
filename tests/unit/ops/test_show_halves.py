"""``show`` output rendered in two halves (the second by a forked child) is the output of one.

A large profile's records are rendered a chunk at a time, and from
``_SPLIT_CHUNKS`` chunks on the second half of them by a forked process
(``ops/show_text._render_items``).  Here the golden programs' profiles (raw,
indexed and text, every instrumentation mode of 14-22) are shown with chunks
of two records, so every option set is cut into halves, both made in this
process one after the other -- and once through a real fork -- and must print
what a single pass prints.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar
from unittest import mock

import pytest

from profdata import offload
from profdata.formats import open_instr
from profdata.ops import show_text
from profdata.ops.show import ShowOptions
from profdata.ops.show_text import show_instr
from profdata.releases import release
from tests.conftest import GOLDEN

T = TypeVar("T")
U = TypeVar("U")

OPTIONS = {
    "all-counts": ShowOptions(all_functions=True, counts=True),
    "text": ShowOptions(all_functions=True, text=True),
    "values": ShowOptions(all_functions=True, ic_targets=True, memop_sizes=True, vtables=True),
    "below-cutoff": ShowOptions(all_functions=True, value_cutoff=10, list_below_cutoff=True),
    "covered": ShowOptions(covered=True),
    "topn-detailed": ShowOptions(all_functions=True, topn=3, detailed_summary=True),
}


def _profiles() -> list[Path]:
    programs = GOLDEN / "programs"
    return sorted(p for p in programs.glob("l*/default.prof*") if p.suffix != ".json")


def _in_turn(here: Callable[[], T], there: Callable[[], U]) -> tuple[T, U]:
    return here(), there()


@pytest.mark.parametrize("name", sorted(OPTIONS))
@pytest.mark.parametrize("path", _profiles(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_halves_print_what_one_pass_prints(path: Path, name: str) -> None:
    rel = release(int(path.parent.name[1:3]))
    options = OPTIONS[name]
    whole = show_instr(open_instr(path), options, rel)
    with (
        mock.patch.object(show_text, "_CHUNK", 2),
        mock.patch.object(show_text, "_SPLIT_CHUNKS", 2),
        mock.patch.object(show_text, "in_two", _in_turn),
    ):
        assert show_instr(open_instr(path), options, rel) == whole


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
def test_the_second_half_rendered_in_a_forked_process(
    monkeypatch: pytest.MonkeyPatch, forks: list[int], child_must_answer: None
) -> None:
    path = GOLDEN / "programs" / "l22-ir-vp" / "default.profdata"
    if not path.exists():
        pytest.skip("no golden profile")
    options = OPTIONS["values"]
    whole = show_instr(open_instr(path), options, release(22))
    monkeypatch.setattr(show_text, "_CHUNK", 2)
    monkeypatch.setattr(show_text, "_SPLIT_CHUNKS", 2)
    monkeypatch.setattr(offload, "may_fork", lambda: True)
    assert show_instr(open_instr(path), options, release(22)) == whole
    assert len(forks) == 1
