"""Pausing Python's cyclic garbage collector while a reader builds a profile.

A sample profile is hundreds of thousands of small dicts and records, none
of them in a cycle; with the collector running, reading spent as long in
collections of the growing heap as in decoding.  Pauses nest and may come
from several threads: the collector is switched back on when the last one
ends, and only if it was on when the first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_state = {"depth": 0, "was_enabled": 0}


@contextmanager
def collector_paused() -> Iterator[None]:
    with _lock:
        if _state["depth"] == 0:
            _state["was_enabled"] = int(gc.isenabled())
            gc.disable()
        _state["depth"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["depth"] -= 1
            if _state["depth"] == 0 and _state["was_enabled"]:
                # Straight into the oldest generation: scanning them young would be a full
                # pass over the profile, and they hold no cycles to find.
                gc.freeze()
                gc.unfreeze()
                gc.enable()
