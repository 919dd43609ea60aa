"""Correlation binaries found by the profile's build ID (``merge --correlate=KIND`` with
``--debug-file-directory=DIR`` or ``--debuginfod``, LLVM 20+).

A fleet's lightweight raw profiles come from many builds; naming one binary per
merge (``--binary-file``) does not scale, so LLVM 20 lets the reader look the
binary up by the build ID the profile carries.  ``object::BuildIDFetcher``
tries ``DIR/.build-id/xx/rest.debug`` (the ID's first byte in hex, then the
rest) in each directory given, or in ``/usr/lib/debug`` when none is;
``--debuginfod`` (``DebuginfodFetcher``) then asks the debuginfod client, which
looks in its cache (``llvmcache-<key>`` files) and then fetches
``buildid/<id>/debuginfo`` from each server of ``DEBUGINFOD_URLS`` into that
cache.  Every raw profile read this way is correlated with the binary its one
build ID names -- a profile that is not lightweight too, which then fails as it
does with ``--binary-file`` -- and a profile with no build ID, or several, fails.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from profdata.atomic import atomic_write_bytes
from profdata.errors import CorrelationError, Location
from profdata.formats.correlate import CorrelatorKind, load_correlation
from profdata.formats.correlate_data import Correlation
from profdata.model.xxh3 import xxh3_64bits

#: where ``BuildIDFetcher`` looks when no --debug-file-directory is given
DEFAULT_DEBUG_DIRECTORY = "/usr/lib/debug"
_UNABLE = CorrelationError.llvm_message


def build_id_debug_path(directory: str, build_id: bytes) -> str:
    """``DIR/.build-id/xx/rest.debug`` for a build ID (lower-case hex)."""
    hexed = build_id.hex()
    return os.path.join(directory, ".build-id", hexed[:2], hexed[2:] + ".debug")


@dataclass(frozen=True)
class BuildIdFetcher:
    """``object::BuildIDFetcher`` over ``directories``, and with ``debuginfod`` the
    debuginfod client after them (``DebuginfodFetcher``)."""

    directories: tuple[str, ...]
    debuginfod: bool = False

    def fetch(self, build_id: bytes) -> str | None:
        for directory in self.directories or (DEFAULT_DEBUG_DIRECTORY,):
            path = build_id_debug_path(directory, build_id)
            if os.path.exists(path):
                return path
        return debuginfod_fetch(build_id) if self.debuginfod else None


# -- the debuginfod client -----------------------------------------------------------
def debuginfod_url_path(build_id: bytes) -> str:
    return f"buildid/{build_id.hex()}/debuginfo"


def debuginfod_cache_key(url_path: str) -> str:
    """``getDebuginfodCacheKey``: the decimal XXH3 of the URL path."""
    return str(xxh3_64bits(url_path.encode()))


def debuginfod_cache_directory() -> str:
    """``DEBUGINFOD_CACHE_PATH``, else ``llvm-debuginfod/client`` in the user's cache
    directory (``XDG_CACHE_HOME``, else ``~/.cache``)."""
    explicit = os.environ.get("DEBUGINFOD_CACHE_PATH")
    if explicit is not None:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return os.path.join(base, "llvm-debuginfod", "client")


def debuginfod_timeout() -> float:
    """``DEBUGINFOD_TIMEOUT`` seconds (an integer), else 90."""
    text = os.environ.get("DEBUGINFOD_TIMEOUT", "").strip()
    return float(int(text)) if text.lstrip("-").isdigit() else 90.0


def debuginfod_headers() -> dict[str, str]:
    """``Name: value`` lines of the file ``DEBUGINFOD_HEADERS_FILE`` names (others are
    skipped; LLVM warns about those that are not blank)."""
    name = os.environ.get("DEBUGINFOD_HEADERS_FILE")
    if not name:
        return {}
    try:
        text = Path(name).read_text(errors="replace")
    except OSError:
        return {}
    headers: dict[str, str] = {}
    for line in text.split("\n"):
        key, colon, value = line.rstrip("\r").partition(":")
        if colon and key and value and " " not in key:
            headers[key] = value.strip()
    return headers


def debuginfod_fetch(build_id: bytes) -> str | None:
    """``getCachedOrDownloadDebuginfo``: the cached file, else the first server's answer
    (HTTP 200) stored in the cache; None if no server has it or one cannot be asked."""
    url_path = debuginfod_url_path(build_id)
    cache = os.path.join(
        debuginfod_cache_directory(), "llvmcache-" + debuginfod_cache_key(url_path)
    )
    if os.path.exists(cache):
        return cache
    headers = debuginfod_headers()
    for server in os.environ.get("DEBUGINFOD_URLS", "").split(" "):
        if not server:
            continue
        request = urllib.request.Request(server.rstrip("/") + "/" + url_path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=debuginfod_timeout()) as answer:
                if answer.status != 200:
                    continue
                body = answer.read()
        except urllib.error.HTTPError:
            continue  # another status: the next server
        except (OSError, ValueError):
            return None  # LLVM gives up on a request that fails outright
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        atomic_write_bytes(cache, body)
        return cache
    return None


# -- one correlation per binary ----------------------------------------------------------
@dataclass
class CorrelationsByBuildId:
    """What the raw reader calls with a profile's build IDs to get its correlation
    (``InstrProfCorrelator::get`` with a fetcher, then ``correlateProfileData(0)``).

    LLVM correlates the binary again for every input; a binary is read once here and
    its warnings are printed again for each input that uses it, as LLVM prints them.
    """

    fetcher: BuildIdFetcher
    kind: CorrelatorKind
    binary_wording: bool = True
    warn: Callable[[str], None] | None = None
    _loaded: dict[str, tuple[Correlation, list[str]]] = field(default_factory=dict)

    def __call__(self, build_ids: Sequence[bytes]) -> Correlation:
        if len(build_ids) != 1:
            how = "there is no build ID" if not build_ids else "there are multiple build IDs"
            raise CorrelationError(
                "a profile correlated by build ID must carry exactly one",
                location=Location(
                    field="binary_ids", expected="one build ID", found=str(len(build_ids))
                ),
                llvm_message=f"{_UNABLE}: unsupported profile binary correlation when {how} "
                "in a profile",
            )
        build_id = build_ids[0]
        path = self.fetcher.fetch(build_id)
        if path is None:
            where = ", ".join(self.fetcher.directories or (DEFAULT_DEBUG_DIRECTORY,))
            raise CorrelationError(
                f"no binary with this build ID under {where}"
                + (
                    ", in the debuginfod cache or on its servers" if self.fetcher.debuginfod else ""
                ),
                location=Location(
                    field="binary_ids[0]",
                    expected=build_id_debug_path("DIR", build_id),
                    found="no such file",
                ),
                llvm_message=f"{_UNABLE}: Missing build ID: {build_id.hex()}",
            )
        loaded = self._loaded.get(path)
        if loaded is None:
            lines: list[str] = []
            correlation = load_correlation(
                path, self.kind, max_warnings=0, binary_wording=self.binary_wording,
                warn=lines.append,
            )  # fmt: skip
            loaded = self._loaded[path] = (correlation, lines)
        if self.warn is not None:
            for line in loaded[1]:
                self.warn(line)
        return loaded[0]


__all__ = [
    "DEFAULT_DEBUG_DIRECTORY",
    "BuildIdFetcher",
    "CorrelationsByBuildId",
    "build_id_debug_path",
    "debuginfod_cache_directory",
    "debuginfod_cache_key",
    "debuginfod_fetch",
    "debuginfod_url_path",
]
