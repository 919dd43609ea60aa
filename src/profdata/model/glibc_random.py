"""glibc's ``srand``/``rand``, which ``llvm-profdata merge --memprof-random-hotness`` draws
from: the same seed must give the same profile here as there.

``rand`` is ``random_r`` with the default TYPE_3 state: 31 words seeded by a
Lehmer generator (``16807 * x mod (2**31 - 1)``, Schrage's method on a signed 32-bit
word, as glibc computes it), then an additive feedback generator ``r[i] = r[i-3] + r[i-31]``
(mod 2**32) whose first 310 outputs are discarded; each output is the sum
shifted right by one bit.
"""

from __future__ import annotations

_DEGREE = 31
_SEPARATION = 3
_M32 = 0xFFFFFFFF


class GlibcRandom:
    """One ``srand(seed)`` and the ``rand()`` calls after it."""

    def __init__(self, seed: int) -> None:
        seed &= _M32
        if seed == 0:
            seed = 1  # __srandom_r: a zero seed would stay zero
        state = [seed]
        word = seed - (1 << 32) if seed >> 31 else seed  # int32_t word = seed
        for _ in range(1, _DEGREE):
            hi = abs(word) // 127773 * (1 if word >= 0 else -1)  # C division truncates
            lo = word - hi * 127773
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            state.append(word & _M32)
        self._state = state
        self._front = _SEPARATION  # fptr
        self._rear = 0  # rptr
        for _ in range(10 * _DEGREE):
            self.rand()

    def rand(self) -> int:
        """The next value in ``[0, 2**31)``."""
        state = self._state
        value = (state[self._front] + state[self._rear]) & _M32
        state[self._front] = value
        self._front = (self._front + 1) % _DEGREE
        self._rear = (self._rear + 1) % _DEGREE
        return value >> 1


__all__ = ["GlibcRandom"]
