"""The command line's allocator settings (:mod:`profdata.heap`)."""

from __future__ import annotations

import platform

import pytest

from profdata import heap


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_glibc_takes_the_settings_every_time() -> None:
    assert heap.keep_freed_memory()
    assert heap.keep_freed_memory()  # a second command in one process


def test_without_mallopt_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another C library (musl, macOS): no ``mallopt`` symbol, and the command goes on."""
    import ctypes

    class NoMallopt:
        def __init__(self, name: object) -> None:
            del name

        def __getattr__(self, name: str) -> object:
            raise AttributeError(name)

    monkeypatch.setattr(ctypes, "CDLL", NoMallopt)
    assert not heap.keep_freed_memory()
