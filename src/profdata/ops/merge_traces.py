"""Temporal profile traces in a merge: truncation, and LLVM's reservoir sampling, replayed.

``InstrProfWriter`` keeps at most ``--temporal-profile-trace-reservoir-size``
traces and counts every trace it has seen (the *stream size*).  Beyond the
reservoir it samples with a ``std::mt19937`` seeded with its default seed
(5489) and ``std::uniform_int_distribution``, so the kept traces are a fixed
function of the inputs: replaying the generator and libstdc++'s distribution
(the Debian builds use libstdc++) gives LLVM's bytes instead of a different
random sample.  Each writer context has its own generator.

The algorithm changed between releases (``Release.trace_reservoir_fills_first``):

* 17..21: every trace is offered on its own; once the stream size reaches the
  reservoir size a trace replaces slot ``uniform(0, stream_size)`` if that slot
  exists.  A source that was itself sampled (stream size above the reservoir)
  is merged by drawing the slots it would have replaced, then a shuffled
  sample of its traces fills them.
* 22: traces are appended until the reservoir is full; the rest of the source
  is shuffled and offered to slots ``uniform(0, I)`` for ``I`` from the number
  of kept traces up to the *source's* stream size, and the stream sizes add
  up.  A raw input (stream size 1) arriving after the reservoir is full is
  therefore dropped without drawing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from profdata.model.instr import TemporalTrace

_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_MT_N = 624
_MT_M = 397


@cache
def _seeded(seed: int) -> tuple[int, ...]:
    """The generator's state right after ``seed(seed)``."""
    state = [seed & _M32]
    for i in range(1, _MT_N):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + i) & _M32)
    return tuple(state)


class MT19937:
    """``std::mt19937`` with ``seed()``'s default 5489: 32-bit outputs, one per call.

    Every writer context owns one, and ``-j N`` makes N contexts whether or not
    they ever sample a trace, so the state is only laid out on the first draw.
    """

    def __init__(self, seed: int = 5489) -> None:
        self._seed = seed
        self._state: list[int] = []
        self._index = _MT_N

    def _twist(self) -> None:
        if not self._state:
            self._state = list(_seeded(self._seed))
        mt = self._state
        for i in range(_MT_N):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % _MT_N] & 0x7FFFFFFF)
            value = mt[(i + _MT_M) % _MT_N] ^ (y >> 1)
            if y & 1:
                value ^= 0x9908B0DF
            mt[i] = value
        self._index = 0

    def __call__(self) -> int:
        if self._index >= _MT_N:
            self._twist()
        y = self._state[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & _M32


def uniform_int(rng: MT19937, low: int, high: int) -> int:
    """libstdc++'s ``std::uniform_int_distribution<uint64_t>(low, high)(rng)`` for a 32-bit rng.

    Ranges below 2**32 use Lemire's nearly-divisionless reduction (libstdc++
    since GCC 11), larger ones the recursive upscaling loop.
    """
    span = (high - low) & _M64
    if span < _M32:
        bound = span + 1
        product = rng() * bound
        if product & _M32 < bound:
            threshold = ((1 << 32) - bound) % bound
            while product & _M32 < threshold:
                product = rng() * bound
        return low + (product >> 32)
    if span == _M32:
        return low + rng()
    while True:
        upper = ((1 << 32) * uniform_int(rng, 0, span >> 32)) & _M64
        result = (upper + rng()) & _M64
        if result <= span and result >= upper:
            return (low + result) & _M64


def llvm_shuffle(items: list[TemporalTrace], rng: MT19937) -> None:
    """``llvm::shuffle``: for each position, swap with ``rng() % remaining`` ahead."""
    size = len(items)
    for first in range(len(items) - 1):
        offset = rng() % size
        if offset:
            items[first], items[first + offset] = items[first + offset], items[first]
        size -= 1


@dataclass
class TraceReservoir:
    """``InstrProfWriter``'s temporal traces of one writer context."""

    reservoir_size: int = 100  # --temporal-profile-trace-reservoir-size
    max_length: int = 10000  # --temporal-profile-max-trace-length
    fills_first: bool = True  # Release.trace_reservoir_fills_first
    traces: list[TemporalTrace] = field(default_factory=list)
    stream_size: int = 0
    rng: MT19937 = field(default_factory=MT19937)

    def add_traces(self, source: Sequence[TemporalTrace], source_stream_size: int) -> None:
        """``addTemporalProfileTraces``: truncate, drop empty traces, then sample."""
        src = [self._truncated(t) for t in source]
        src = [t for t in src if t.function_hashes]
        if self.fills_first:
            self._add_filling_first(src, source_stream_size)
        else:
            self._add_sampled(src, source_stream_size)

    def _truncated(self, trace: TemporalTrace) -> TemporalTrace:
        if len(trace.function_hashes) <= self.max_length:
            return trace
        return TemporalTrace(trace.weight, trace.function_hashes[: self.max_length])

    # -- LLVM 22 ------------------------------------------------------------------
    def _add_filling_first(self, src: list[TemporalTrace], source_stream_size: int) -> None:
        del self.traces[self.reservoir_size :]
        if not src:
            return
        taken = 0
        while len(self.traces) < self.reservoir_size and taken < len(src):
            self.traces.append(src[taken])
            taken += 1
        rest = src[taken:]
        llvm_shuffle(rest, self.rng)
        position = len(self.traces)
        used = 0
        while position < source_stream_size and used < len(rest):
            slot = uniform_int(self.rng, 0, position)
            if slot < len(self.traces):
                self.traces[slot] = rest[used]
                used += 1
            position += 1
        self.stream_size = (self.stream_size + source_stream_size) & _M64

    # -- LLVM 17..21 ---------------------------------------------------------------
    def _add_one(self, trace: TemporalTrace) -> None:
        if self.stream_size < self.reservoir_size:
            self.traces.append(trace)
        else:
            slot = uniform_int(self.rng, 0, self.stream_size)
            if slot < len(self.traces):
                self.traces[slot] = trace
        self.stream_size += 1

    def _add_sampled(self, src: list[TemporalTrace], source_stream_size: int) -> None:
        dest_sampled = self.stream_size > self.reservoir_size
        src_sampled = source_stream_size > self.reservoir_size
        if not dest_sampled and src_sampled:
            self.traces, src = src, self.traces
            self.stream_size, source_stream_size = source_stream_size, self.stream_size
            src_sampled = dest_sampled
        if not src_sampled:
            for trace in src:
                self._add_one(trace)
            return
        slots: dict[int, None] = {}
        for _ in range(source_stream_size):
            slot = uniform_int(self.rng, 0, self.stream_size)
            if slot < len(self.traces):
                slots.setdefault(slot)
            self.stream_size += 1
        llvm_shuffle(src, self.rng)
        for slot, trace in zip(slots, src, strict=False):
            self.traces[slot] = trace
