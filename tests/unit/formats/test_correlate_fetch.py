"""Binaries found by build ID (``--correlate`` with ``--debug-file-directory`` or
``--debuginfod``): the lookup paths, the debuginfod client's cache and servers, and the
refusals of a profile with no or several build IDs.  The end-to-end merges against
llvm-profdata 22 are in ``tests/compat/test_correlate_compat.py``."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from profdata.errors import CorrelationError
from profdata.formats.correlate import CorrelatorKind
from profdata.formats.correlate_fetch import (
    BuildIdFetcher,
    CorrelationsByBuildId,
    build_id_debug_path,
    debuginfod_cache_key,
    debuginfod_fetch,
    debuginfod_headers,
    debuginfod_timeout,
    debuginfod_url_path,
)

BUILD_ID = bytes.fromhex("e20951ace07922fcca87b131a58f755b5f18f236")


def test_debug_path_is_the_build_id_layout() -> None:
    assert build_id_debug_path("/d", BUILD_ID) == (
        "/d/.build-id/e2/0951ace07922fcca87b131a58f755b5f18f236.debug"
    )


def test_cache_key_is_llvms() -> None:
    """The name llvm-profdata 22's debuginfod client gave the cached binary of this build
    ID: ``llvmcache-18188346360978931095`` (the decimal XXH3 of the URL path)."""
    assert debuginfod_url_path(BUILD_ID) == f"buildid/{BUILD_ID.hex()}/debuginfo"
    assert debuginfod_cache_key(debuginfod_url_path(BUILD_ID)) == "18188346360978931095"


def _place(directory: Path, content: bytes) -> Path:
    path = Path(build_id_debug_path(str(directory), BUILD_ID))
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    return path


def test_directories_are_tried_in_order(tmp_path: Path) -> None:
    second = _place(tmp_path / "b", b"second")
    fetcher = BuildIdFetcher((str(tmp_path / "a"), str(tmp_path / "b")))
    assert fetcher.fetch(BUILD_ID) == str(second)
    first = _place(tmp_path / "a", b"first")
    assert fetcher.fetch(BUILD_ID) == str(first)
    assert fetcher.fetch(b"\x01\x02") is None


def test_without_debuginfod_the_cache_is_not_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / f"llvmcache-{debuginfod_cache_key(debuginfod_url_path(BUILD_ID))}").write_bytes(b"x")
    monkeypatch.setenv("DEBUGINFOD_CACHE_PATH", str(cache))
    monkeypatch.delenv("DEBUGINFOD_URLS", raising=False)
    assert BuildIdFetcher((str(tmp_path / "none"),)).fetch(BUILD_ID) is None
    found = BuildIdFetcher((str(tmp_path / "none"),), debuginfod=True).fetch(BUILD_ID)
    assert found == str(cache / "llvmcache-18188346360978931095")


class _Server(http.server.BaseHTTPRequestHandler):
    """404 for everything but ``/good/buildid/<id>/debuginfo``."""

    def do_GET(self) -> None:
        self.server.seen.append((self.path, self.headers.get("X-Token")))  # type: ignore[attr-defined]
        if self.path == f"/good/{debuginfod_url_path(BUILD_ID)}":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"the binary")
        else:
            self.send_response(404)
            self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Any]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Server)
    httpd.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_servers_are_asked_in_order_and_the_answer_cached(
    server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = f"http://127.0.0.1:{server.server_address[1]}"
    headers = tmp_path / "headers"
    headers.write_text("X-Token: abc\r\nnot a header\n\n")
    monkeypatch.setenv("DEBUGINFOD_URLS", f"{base}/bad  {base}/good/")
    monkeypatch.setenv("DEBUGINFOD_CACHE_PATH", str(tmp_path / "cache"))
    monkeypatch.setenv("DEBUGINFOD_HEADERS_FILE", str(headers))
    path = debuginfod_fetch(BUILD_ID)
    assert path == str(tmp_path / "cache" / "llvmcache-18188346360978931095")
    assert Path(path).read_bytes() == b"the binary"
    url = debuginfod_url_path(BUILD_ID)
    assert server.seen == [(f"/bad/{url}", "abc"), (f"/good/{url}", "abc")]
    assert debuginfod_fetch(BUILD_ID) == path  # from the cache: no request
    assert len(server.seen) == 2


def test_no_server_has_it(server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUGINFOD_URLS", f"http://127.0.0.1:{server.server_address[1]}/bad")
    monkeypatch.setenv("DEBUGINFOD_CACHE_PATH", str(tmp_path / "cache"))
    assert debuginfod_fetch(BUILD_ID) is None
    assert not (tmp_path / "cache").exists()


def test_timeout_and_headers_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DEBUGINFOD_TIMEOUT", raising=False)
    assert debuginfod_timeout() == 90.0
    monkeypatch.setenv("DEBUGINFOD_TIMEOUT", " 7 ")
    assert debuginfod_timeout() == 7.0
    monkeypatch.setenv("DEBUGINFOD_TIMEOUT", "soon")
    assert debuginfod_timeout() == 90.0
    monkeypatch.setenv("DEBUGINFOD_HEADERS_FILE", str(tmp_path / "missing"))
    assert debuginfod_headers() == {}


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ([], "unable to correlate profile: unsupported profile binary correlation when "
             "there is no build ID in a profile"),
        ([BUILD_ID, b"\x01"], "unable to correlate profile: unsupported profile binary "
                              "correlation when there are multiple build IDs in a profile"),
        ([BUILD_ID], f"unable to correlate profile: Missing build ID: {BUILD_ID.hex()}"),
    ],
)  # fmt: skip
def test_a_profile_needs_one_build_id_that_names_a_binary(
    tmp_path: Path, ids: list[bytes], message: str
) -> None:
    by_id = CorrelationsByBuildId(BuildIdFetcher((str(tmp_path),)), CorrelatorKind.BINARY)
    with pytest.raises(CorrelationError) as info:
        by_id(ids)
    assert info.value.llvm_message == message
