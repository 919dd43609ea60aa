"""Where the real LLVM tools of each release are installed.

Debian's ``llvm-N``/``clang-N`` packages put them in ``/usr/lib/llvm-N/bin``;
``PROFDATA_LLVM_PREFIX`` points elsewhere (a prefix holding ``llvm-N/bin``).
Tests ask for a release and skip when it is not installed, so the suite runs
on machines without any LLVM.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

#: Releases whose behaviour was recorded in the golden files and the corpus.
RELEASES = (14, 16, 19, 22)


def llvm_bin(release: int) -> Path:
    prefix = Path(os.environ.get("PROFDATA_LLVM_PREFIX", "/usr/lib"))
    return prefix / f"llvm-{release}" / "bin"


def _executable(path: Path) -> Path | None:
    return path if path.is_file() and os.access(path, os.X_OK) else None


def find_llvm_profdata(release: int) -> Path | None:
    return _executable(llvm_bin(release) / "llvm-profdata")


def find_clang(release: int, cxx: bool = False) -> Path | None:
    return _executable(llvm_bin(release) / ("clang++" if cxx else "clang"))


def installed_releases() -> tuple[int, ...]:
    return tuple(r for r in RELEASES if find_llvm_profdata(r) is not None)


def run_tool(
    tool: Path, args: Sequence[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run a real tool with its output captured; the caller checks the exit status."""
    return subprocess.run([str(tool), *args], cwd=cwd, capture_output=True, timeout=300)
