"""An ``SPF_Binary`` profiles section read in two parts, cut where a function is guessed to
start (:mod:`profdata.formats.sample_binary_cut`): the guess is checked by the read, so
every guess, right or wrong, reads as the whole section does."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata import offload as offload_module
from profdata.formats import sample_binary, sample_binary_cut, sample_columns
from profdata.formats._binary import ByteReader
from profdata.formats._uleb import decode_run
from profdata.formats.sample_columns import ProfileColumns, read_binary_columns
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from tests.property.test_sample_text_columns import same_columns
from tests.unit.sample import test_sample_columns_split as split_test
from tests.unit.test_offload import count_offloads

ANY_FIXTURE = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every profiles section cut if a start is found, with a CPU idle for the second
    part; records each part read by a child."""
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)
    monkeypatch.setattr(sample_columns, "_SPLIT_BYTES", 0)
    return count_offloads(monkeypatch)


def _profile(functions: int, seed: int) -> SampleProfile:
    """Functions with body lines, call targets and inlined callees two levels deep, and
    counts of every size (as a real profile's: many small, some of 40 bits)."""
    rng = random.Random(seed)
    names = [f"_Z4f{k}v" for k in range(functions)]

    def count() -> int:
        return rng.choice([rng.randint(0, 20), rng.randint(0, 5000), rng.getrandbits(40)])

    def fill(fs: FunctionSamples, depth: int) -> None:
        for line in range(rng.randint(0, 6)):
            loc = LineLocation(line * rng.randint(1, 3), rng.choice([0, 0, 1, 7]))
            fs.add_body_samples(loc, count())
            for _ in range(rng.randint(0, 2)):
                fs.add_called_target_samples(loc, rng.choice(names), count())
        if depth < 2:
            for site in range(rng.randint(0, 3)):
                callee = fs.callee_at(LineLocation(site + 1, rng.choice([0, 3])), rng.choice(names))
                callee.add_total_samples(count())
                fill(callee, depth + 1)

    profile = SampleProfile()
    for name in names:
        fs = FunctionSamples(SampleContext(name), total_samples=count(), head_samples=count())
        fill(fs, 0)
        profile.profiles[fs.context] = fs
    return profile


def _columns(data: bytes) -> ProfileColumns | None:
    return split_test.columns_of(data, read_binary_columns)


def _whole(data: bytes) -> ProfileColumns | None:
    return split_test.columns_whole(data, read_binary_columns)


def _section(data: bytes) -> tuple[ByteReader, int]:
    """The profiles section (as a reader at its start) and the name table's size."""
    cur = ByteReader(memoryview(data))
    sample_binary.read_magic(cur, sample_binary.SPF_BINARY)
    sample_binary.read_summary(cur)
    return cur, len(sample_binary.read_name_table(cur))


def _function_starts(data: bytes) -> list[int]:
    """Where each top-level function starts (from the section's start), by the one read."""
    cur, _ = _section(data)
    run = decode_run(cur.data, cur.pos, cur.end)
    walk = sample_columns._Positions(run.numbers)
    i, tops = 0, []
    while i < len(run.array):
        walk.parents.append(-1)
        walk.starts.append(i)
        tops.append(i)
        i = walk.body(i + 2, -1)
    raw = np.frombuffer(data, np.uint8, count=cur.end - cur.pos, offset=cur.pos)
    number_at = np.concatenate(([0], np.flatnonzero(raw < 0x80)[:-1] + 1))
    starts: list[int] = number_at[tops].tolist()
    return starts


@pytest.mark.parametrize("seed", range(6))
def test_the_guess_is_a_function_start_near_the_middle(seed: int) -> None:
    data = sample_binary.write(_profile(300, seed))
    cur, names = _section(data)
    cut = sample_binary_cut.guessed_cut(cur.data, cur.pos, cur.end, names)
    starts = _function_starts(data)
    size = cur.end - cur.pos
    assert cut in starts
    after = [s for s in starts if s >= size // 2]
    # the fourth function read from the first number that reads on: a read from inside a
    # function falls in step within the functions passed over
    assert cut in after[: sample_binary_cut._SKIPPED + 1]


def test_a_section_cut_at_the_guess_reads_as_the_whole(split: list[int]) -> None:
    data = sample_binary.write(_profile(300, 7))
    whole = _whole(data)
    parts = _columns(data)
    assert split == [1]  # the second part was read by a child
    assert whole is not None and parts is not None and same_columns(whole, parts)


@ANY_FIXTURE
@given(seed=st.integers(0, 1 << 30), functions=st.integers(1, 60), wrong=st.integers(-40, 40))
def test_any_cut_reads_as_the_whole(
    split: list[int], monkeypatch: pytest.MonkeyPatch, seed: int, functions: int, wrong: int
) -> None:
    """A guess moved by a few bytes (inside a number, inside a function, past the end):
    the parts decline or the first does not end at the cut, and the section is read whole
    here; a guess moved onto another start reads in parts."""
    data = sample_binary.write(_profile(functions, seed))
    whole = _whole(data)
    real = sample_binary_cut.guessed_cut

    def moved(data: bytes, start: int, end: int, names: int) -> int | None:
        cut = real(data, start, end, names)
        return None if cut is None else cut + wrong

    monkeypatch.setattr(sample_columns, "guessed_cut", moved)
    parts = _columns(data)
    assert whole is not None and parts is not None and same_columns(whole, parts)


def test_functions_in_another_order_are_not_cut(split: list[int]) -> None:
    """LLVM writes functions by total samples, the largest first; a profile written in
    another order (by another tool) gives no guess, and is read in one process."""
    profile = _profile(300, 3)
    data = sample_binary.write(profile)
    cur, names = _section(data)
    starts = [*_function_starts(data), cur.end - cur.pos]
    section = bytes(cur.data[cur.pos : cur.end])
    pieces = [section[a:b] for a, b in itertools.pairwise(starts)]
    reordered = data[: cur.pos] + b"".join(reversed(pieces))
    cur, names = _section(reordered)
    assert sample_binary_cut.guessed_cut(cur.data, cur.pos, cur.end, names) is None
    parts, whole = _columns(reordered), _whole(data)
    assert split == [] and parts is not None and whole is not None
    assert sorted(parts.node_total.tolist()) == sorted(whole.node_total.tolist())


def test_a_misaligned_start_that_reads_on_is_refused() -> None:
    """An inlined callee's call site (offset, discriminator, name, total, body) reads like
    a function (head, name, total, body) from its discriminator on, and what follows it
    can read on to the end; the totals out of order give it away."""
    values = [
        0, 1, 500, 0, 1,  # f1: head 0, name 1, total 500, no records, one call site:
        4, 0, 2, 90, 0, 0,  # at 4.0 name 2 (total 90, nothing in it)
        7, 0, 400, 0, 0,  # f0: head 7, name 0, total 400, no records or call sites
        7, 2, 300, 0, 0,  # f2: total 300
    ]  # fmt: skip
    probe = sample_binary_cut._Probe(values, 3)
    assert probe.functions(0) is None  # needs 8 functions
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sample_binary_cut, "_FUNCTIONS", 3)
        assert probe.functions(0) == [0, 11, 16]
        # from the call site's discriminator: a "function" of total 90, then 400
        assert probe.functions(6) is None
        assert probe.functions(1) is None  # 500 is no name


def test_the_guesses_stop_at_their_budget() -> None:
    """Every record and call site the tries read counts, those of failed tries too: past
    the budget there is no guess (a profile read whole), however far the tries got."""
    data = sample_binary.write(_profile(300, 7))
    cur, names = _section(data)
    spent: list[int] = []
    real = sample_binary_cut._Probe.spend

    def counted(self: sample_binary_cut._Probe, steps: int) -> None:
        spent.append(steps)
        real(self, steps)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sample_binary_cut._Probe, "spend", counted)
        cut = sample_binary_cut.guessed_cut(cur.data, cur.pos, cur.end, names)
        needed = sum(spent)
        assert cut is not None and needed < sample_binary_cut._BUDGET
        patch.setattr(sample_binary_cut, "_BUDGET", needed - 1)
        assert sample_binary_cut.guessed_cut(cur.data, cur.pos, cur.end, names) is None
        patch.setattr(sample_binary_cut, "_BUDGET", needed)
        assert sample_binary_cut.guessed_cut(cur.data, cur.pos, cur.end, names) == cut
