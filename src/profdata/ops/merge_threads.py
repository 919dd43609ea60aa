"""llvm-profdata's split of a merge into writer contexts, as a deterministic plan.

``llvm-profdata merge`` loads input ``i`` into writer context ``i mod T`` and
then folds the contexts pairwise (``instr-indexed.md`` §7.4).  The split
changes output bytes: it decides which record a value site meets first (tie
order), the first-seen order of names (LLVM 14/16 hash-table layout), which
context's random generator samples temporal traces, and, in LLVM 14, which
variant flags survive.  We replay the split instead of running it, so the
bytes never depend on our own scheduling.

``T`` is ``--num-threads`` when given (LLVM's ``-j``, replayed exactly).
Otherwise LLVM uses ``min(hardware threads, (N + 1) // 2)``; we fix the
hardware thread count at :data:`LLVM_DEFAULT_HARDWARE_THREADS` instead of
asking the machine, so the default output is the same everywhere.  Two is
what the machine that recorded the reference corpus reported (checked on its
merges of three and four inputs); on a machine with more cores the real tool
may order ties differently from us, and ``-j`` pins both tools to one answer.
"""

from __future__ import annotations

#: ``hardware_concurrency().compute_thread_count()`` assumed for the default split.
LLVM_DEFAULT_HARDWARE_THREADS = 2


def context_count(num_inputs: int, num_threads: int = 0) -> int:
    """How many writer contexts LLVM uses for ``num_inputs`` inputs and ``-j num_threads``."""
    if num_threads > 0:
        return num_threads
    return max(1, min(LLVM_DEFAULT_HARDWARE_THREADS, (num_inputs + 1) // 2))


def context_of(input_index: int, contexts: int) -> int:
    """The context input ``input_index`` is loaded into (round robin)."""
    return input_index % contexts


def merge_schedule(contexts: int) -> list[tuple[int, int]]:
    """``(destination, source)`` context merges in LLVM's order; all end in context 0.

    Merges of one round touch disjoint contexts, so running them in list
    order gives the same result as LLVM running them concurrently.
    """
    steps: list[tuple[int, int]] = []
    if contexts < 2:
        return steps
    mid, end = contexts // 2, contexts
    while mid > 0:
        steps.extend((i, i + mid) for i in range(mid))
        if end & 1:
            steps.append((0, end - 1))
        end, mid = mid, mid // 2
    return steps
