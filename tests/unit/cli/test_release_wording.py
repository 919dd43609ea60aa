"""Release-specific wording of raw-profile problems, checked against the shared corpus.

llvm-profdata 17+ call an unknown raw version a "mismatch" with the one they
read, 14 calls it unsupported; 14 and 16 report only the binary ids of the
last profile in a file that holds several.  Expected texts are the real
tools' (``shared/corpus``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult


@pytest.mark.parametrize(
    ("release", "file", "wording"),
    [
        (14, "l14-version-99.profraw", b"unsupported instrumentation profile format version"),
        (
            22,
            "l22-version-99.profraw",
            b"raw profile version mismatch: Profile uses raw profile format version = 99; "
            b"expected version = 10",
        ),
    ],
)
def test_unknown_raw_version_wording(
    corpus_dir: Path,
    run_profdata: Callable[..., CliResult],
    release: int,
    file: str,
    wording: bytes,
) -> None:
    path = corpus_dir / "bad-inputs-vis" / file
    result = run_profdata(f"--llvm-release={release}", "show", str(path))
    assert result.code == 1
    first = result.stderr.splitlines()[0]
    assert first == b"error: " + str(path).encode() + b": " + wording
    assert b"offset 8 (0x8), field header.version" in result.stderr


@pytest.mark.parametrize(
    ("case", "release"),
    [
        ("shlib-score-l14", 14),
        ("shlib-score-l14", 16),
        ("shlib-score-l16", 14),
        ("shlib-score-l16", 16),
        ("shlib-score-l19", 19),
        ("shlib-score-l22", 22),
    ],
)
def test_binary_ids_of_concatenated_raw_profiles(
    corpus_dir: Path, run_profdata: Callable[..., CliResult], case: str, release: int
) -> None:
    expected = corpus_dir / case / "expected" / f"l{release}-show-binary-ids.stdout"
    result = run_profdata(
        f"--llvm-release={release}", "show", "--binary-ids", str(corpus_dir / case / "both.profraw")
    )
    assert result.code == 0
    assert result.stdout == expected.read_bytes()
