"""Running random-profile commands through the real llvm-profdata and through profdata.

``sample_random`` and ``instr_random`` make profiles from a seed and list the
command lines to compare (``@OUT`` is the output file); this runs them, each
in a fresh ``python -m profdata``, and names the ones whose exit status, stdout
or written file differ.  A failed llvm-profdata leaves an empty output file,
profdata none (outputs are written atomically); the two count as the same.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.compat import tools

#: (real tool, release, seed, scratch folder) -> command lines
Commands = Callable[[Path, int, int, Path], list[list[str]]]
U64 = (1 << 64) - 1


def random_count(rng: random.Random) -> int:
    """A count as the generators draw them: often 0 or small, sometimes at 2**64 - 1 - k
    (sums saturate), otherwise of any width up to 10**12."""
    roll = rng.random()
    if roll < 0.06:
        return U64 - rng.randrange(4)
    if roll < 0.2:
        return 0
    if roll < 0.55:
        return rng.randrange(1, 10)
    return rng.randrange(1, 10 ** rng.randrange(2, 13))


def _run(cmd: list[str], out: Path) -> tuple[int, bytes, bytes | None, str]:
    out.unlink(missing_ok=True)
    got = subprocess.run([c.replace("@OUT", str(out)) for c in cmd], capture_output=True,
                         timeout=120, check=False)  # fmt: skip
    kept = out.exists() and (got.returncode == 0 or out.stat().st_size > 0)
    written = out.read_bytes() if kept else None
    return got.returncode, got.stdout, written, got.stderr.decode(errors="replace")


def differences(commands: Commands, release: int, seed: int, scratch: Path) -> list[str]:
    """Each command of ``seed`` whose exit, stdout or output file differs."""
    tool = tools.find_llvm_profdata(release)
    if tool is None:
        sys.exit(f"llvm-profdata {release} is not installed in {tools.llvm_bin(release)}")
    ours = [sys.executable, "-m", "profdata", f"--llvm-release={release}"]
    found = []
    for cmd in commands(tool, release, seed, scratch):
        theirs = _run([str(tool), *cmd], scratch / "theirs.out")
        mine = _run([*ours, *cmd], scratch / "ours.out")
        if theirs[:3] != mine[:3]:
            found.append(
                f"seed {seed} llvm {release}: {' '.join(cmd)}: exit {theirs[0]}/{mine[0]}, "
                f"stdout same {theirs[1] == mine[1]}, output same {theirs[2] == mine[2]}; "
                f"llvm: {theirs[3].strip()[:200]!r} ours: {mine[3].strip()[:200]!r}"
            )
    return found


def main(description: str, commands: Commands) -> int:
    """``--seeds N --first K --llvm R ...``: print every difference; exit 1 if any."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--llvm", type=int, action="append", help="releases (default 22)")
    a = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for release in a.llvm or [22]:
            for seed in range(a.first, a.first + a.seeds):
                for line in differences(commands, release, seed, Path(tmp)):
                    bad += 1
                    print(line, flush=True)
    print(f"{bad} differences")
    return 1 if bad else 0
