"""``cl``'s command-line rules, and show's order of checks, against the real tools.

``cl`` rules that argparse does not have:

* until LLVM 14 an option without ``cl::ZeroOrMore`` may occur once: ``-o a -o b``,
  ``--sparse --sparse=0`` or ``-instr -sample`` (two value names of one enum option)
  fail with "may only occur zero or one times!", naming the option (an alias by the
  option it stands for); lists such as ``--weighted-input`` repeat freely.  15 lets the
  last occurrence win;
* the value names of an enum option (``-text``, ``-binary``, ``-instr``, ``-sample``,
  ``-memory``) take no value: ``-text=1`` fails with the enum's description
  ("Format of output profile option: does not allow a value! '1' specified.");
* an option that needs a value takes the next word, ``-x`` included, or fails with
  "requires a value!" when there is none (named as typed: ``-o``, ``--function``).

Each command goes to llvm-profdata of every installed release (13 and 15 included) and
to ``profdata --llvm-release=N``: exit status, stdout, the first line of stderr (14 and
16 add a "Did you mean" line to some; 19 and later name their own path in "Try:", which
is left out) and the written file must be equal.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import REPO, CliResult

pytestmark = pytest.mark.compat

PROFILE = str(REPO / "tests" / "golden" / "programs" / "l22-ir-vp" / "default.proftext")
OUT = "@OUT"
P2, TO_OUT = PROFILE, ("-o", OUT)  # for lines that would not fit
COMMANDS = [
    ["merge", "-o", "first.profdata", PROFILE, "-o", OUT],
    ["merge", "--output=first.profdata", PROFILE, "--output", OUT],
    ["merge", "--sparse", "--sparse=0", PROFILE, "-o", OUT],
    ["merge", "-j", "1", "--num-threads=2", PROFILE, "-o", OUT],
    ["merge", "-instr", "-sample", PROFILE, "-o", OUT],
    ["merge", "-instr", "-instr", PROFILE, "-o", OUT],
    ["merge", "-text", "-binary", PROFILE, "-o", OUT],
    ["merge", "-binary", "--binary", PROFILE, "-o", OUT],
    ["merge", "--failure-mode=any", "--failure-mode=all", PROFILE, "-o", OUT],
    ["merge", f"--weighted-input=2,{PROFILE}", f"--weighted-input=3,{PROFILE}", "-o", OUT],
    ["merge", "-text=1", PROFILE, "-o", OUT],
    ["merge", "-binary=", PROFILE, "-o", OUT],
    ["merge", "-gcc=x", PROFILE, "-o", OUT],
    ["merge", "-instr=1", PROFILE, "-o", OUT],
    ["merge", "-compbinary=0", PROFILE, "-o", OUT],
    ["show", "--counts", "-counts", "--all-functions", PROFILE],
    ["show", "--topn=1", "--topn=2", PROFILE],
    # libLLVM's global options: cl::ZeroOrMore in 14 but for the FS ones
    ["show", "--profile-isfs", "--profile-isfs", PROFILE],
    ["show", "--fs-discriminator-pass=Base", "--fs-discriminator-pass=Pass1", PROFILE],
    ["show", "--generate-merged-base-profiles", "--generate-merged-base-profiles=0", PROFILE],
    ["show", "--profile-symbol-list-cutoff=3", "--profile-symbol-list-cutoff=4", PROFILE],
    ["show", "--profile-summary-cutoff-hot=5", "--profile-summary-cutoff-hot=6", PROFILE],
    ["show", "--profile-summary-cutoff-cold=5", "--profile-summary-cutoff-cold=6", PROFILE],
    ["show", "--profile-summary-hot-count=5", "--profile-summary-hot-count=6", PROFILE],
    ["overlap", "--profile-summary-cold-count=5", "--profile-summary-cold-count=6", PROFILE, P2],
    ["merge", "--profile-summary-contextless", "--profile-summary-contextless=0", PROFILE, *TO_OUT],
    ["show", "--function=main", "--function=foo", PROFILE],
    ["show", "-instr", "-instr", PROFILE],
    [
        "show",
        "--detailed-summary-cutoffs=10",
        "--detailed-summary-cutoffs=20",
        "--detailed-summary",
        PROFILE,
    ],
    ["show", "-instr=1", PROFILE],
    ["show", "-sample=", PROFILE],
    ["show", "-memory=0", PROFILE],
    ["show", "-text=1", PROFILE],
    ["overlap", "--function=main", "--function=foo", PROFILE, PROFILE],
    ["overlap", "-sample", "-instr", PROFILE, PROFILE],
    ["overlap", "-instr=1", PROFILE, PROFILE],
    # a value option takes the next word whatever it is, and needs one
    ["merge", PROFILE, "-o", "-x.profdata", "--sparse"],
    ["show", "--function", "-x", PROFILE],
    ["merge", PROFILE, "-o"],
    ["merge", PROFILE, f"--o={OUT}", "--j=2"],  # a one-letter option takes two dashes too
    ["merge", "-j"],
    ["show", "-function"],
    ["show", "--topn"],
    ["merge", "-failure-mode"],
    # positional counts, and an option the release lacks given a value its parser refuses
    ["show", PROFILE, PROFILE],
    ["overlap", PROFILE],
    ["overlap", PROFILE, PROFILE, PROFILE],
    ["show", "--show-format=bogus", PROFILE],
    # an empty file name: show takes it for none; elsewhere the error has no "FILE: " part
    ["show", ""],
    ["show"],  # 13 requires the positional; 14 and later name --debug-info
    ["show", "--memory", ""],
    ["merge", "", "-o", OUT],
    ["merge", "--weighted-input=2,", "-o", OUT],
    ["merge", "--failure-mode=warn", "", PROFILE, "-o", OUT],
    # an option the release lacks is unknown whatever its value; widths as in LLVM
    ["merge", "--temporal-profile-max-trace-length=x", PROFILE, "-o", OUT],
    [
        "merge",
        "--temporal-profile-trace-reservoir-size=18446744073709551616",
        PROFILE,
        "-o",
        OUT,
    ],
    ["merge", "--max-debug-info-correlation-warnings=4294967296", PROFILE, "-o", OUT],
    ["show", "--max-debug-info-correlation-warnings=-1", PROFILE],
    ["merge", "--sample", "--output-size-limit=x", PROFILE, "-o", OUT],
    ["merge", "--sample", "--convert-sample-profile-layout=bogus", PROFILE, "-o", OUT],
    ["merge", "-j", "4294967296", PROFILE, "-o", OUT],
    ["merge", "--function", "x", PROFILE, "-o", OUT],  # typed apart: cl sees '--function'
    ["merge", "--debug-info", "/nonexistent/binary", PROFILE, "-o", OUT],
    ["show", "--profiled-binary", "/nonexistent/binary", PROFILE],
    ["merge", "--bogus= 3", PROFILE, "-o", OUT],  # argparse took a word with a blank for a file
    ["show", PROFILE, "-1"],
    ["show", "--covered=0", PROFILE],  # a flag the release lacks is unknown even when false
    ["show", "--profile-version=false", PROFILE],
    ["merge", "--keep-vtable-symbols=0", PROFILE, "-o", OUT],
    ["merge", "--write-prev-version=0", PROFILE, "-o", OUT],
    ["merge", "--sample", "--split-layout=0", PROFILE, "-o", OUT],
    ["merge", "--sample", "--gen-cs-nested-profile=0", PROFILE, "-o", OUT],
    [
        "merge",
        "--sample",
        "--sample-frame-depth-for-cold-context=4294967296",
        PROFILE,
        "-o",
        OUT,
    ],
    # show checks its input and --debug-info before it looks at the profile kind
    ["show", "--memory", "--debug-info=/nonexistent/binary"],
    ["show", "--memory", PROFILE, PROFILE],
    ["show", "--memory", PROFILE],
    # no subcommand, an unknown one: 16 and older pick it by hand, 17+ through cl
    [],
    ["bogus", PROFILE],
    # 20+: binaries found by build ID; the options' combinations are refused in this order
    ["merge", "--debuginfod", PROFILE, "-o", OUT],
    ["merge", "--correlate=binary", PROFILE, "-o", OUT],
    ["merge", "--debug-file-directory=/nonexistent", PROFILE, "-o", OUT],
    ["merge", "--debug-file-directory=/x", "--binary-file=/nonexistent/bin", PROFILE, "-o", OUT],
    ["merge", "--debug-info=/nonexistent/bin", "--debuginfod", PROFILE, "-o", OUT],
    ["merge", "--correlate=bogus", PROFILE, "-o", OUT],
    ["merge", "--correlate=", PROFILE, "-o", OUT],
    ["merge", "--correlate=binary", "--debug-file-directory=/x", PROFILE, "-o", OUT],
    ["show", "--correlate=binary", "--debug-file-directory=/x", PROFILE],  # taken, unused
    ["overlap", "--debug-file-directory=/x", PROFILE, PROFILE],
    ["show", "--debuginfod", PROFILE],  # merge's only
    # 20+: --memprof-random-hotness says its seed once per writer context
    ["merge", "--memprof-random-hotness", "--memprof-random-hotness-seed=5", PROFILE, "-o", OUT],
    ["merge", "--memprof-random-hotness-seed=x", PROFILE, "-o", OUT],
    # cl's option printers: accepted, nothing printed for a subcommand's options
    ["show", "--print-options", "--print-all-options", "--counts", PROFILE],
    ["merge", "--print-options=0", PROFILE, "-o", OUT],
    # show refuses an output named as its input before it opens either
    ["show", "-o", "same.proftext", "same.proftext"],
    ["show", "-"],
]


@pytest.mark.parametrize("release", sorted(tools.RELEASES + tools.EXTRA_RELEASES))
def test_repeated_and_valued_options_are_read_as_llvm_reads_them(
    release: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tool = llvm_profdata(release)
    monkeypatch.chdir(tmp_path)  # -o first.profdata, -o -x.profdata
    assert tools.differing(tool, release, COMMANDS, run_profdata, tmp_path, stderr="first") == []
