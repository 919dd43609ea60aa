"""The "Did you mean" line under an unknown option (``cli/option_suggestion.py``).

The expected lines were printed by the real llvm-profdata 19 and 22 for the same
arguments; ``tests/compat/test_option_suggestion_compat.py`` compares many more with
the installed tools.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.cli import main
from profdata.cli.option_suggestion import DECLARED, edit_distance, map_order
from profdata.releases import release

TIES = "Q" * 60  # as far from every name as from any other: the map's first option wins


@pytest.mark.parametrize(
    ("rel", "command", "arg", "line"),
    [
        (22, "merge", "--sprase", "--sparse"),
        (22, "merge", "-x", "-h"),
        (22, "merge", "--weighted-input2=3", "--weighted-input=3"),
        (22, "merge", "--num-thread=2", "--num-threads=2"),
        # 'k' is one edit from -h, -f, -r, -j and -o; -h takes no value, so it is
        # compared with all of 'k=2', and -r comes first of the rest in 22's map
        (22, "merge", "--k=2", "--r=2"),
        (22, "merge", "--extbinar=1", "--extbinary"),  # an enum's value name takes no value
        (22, "merge", "--versio", "--instr"),  # --version is not in the subcommand's map
        (22, "merge", "--print-afterr", "--print-options"),  # nor are libLLVM's options
        (22, "merge", f"--{TIES}", "--print-options"),
        (22, "show", f"--{TIES}", "--binary-ids"),
        (22, "order", "--" + "Q" * 12, "-h"),
        (22, "order", "--" + "Q" * 13, "--print-options"),
        (22, "overlap", "--similarity=5", "--similarity-cutoff=5"),
        (19, "merge", f"--{TIES}", "--sample-merge-cold-context"),
        (19, "merge", "--ccf", "--gcc"),  # two edits from -f too; gcc's option comes first
        (19, "order", "--QQQQQ", "--help"),
        (19, "show", "--topm=3", "--topn=3"),
        (19, "show", "--textt", "--text"),
    ],
)
def test_the_real_tools_suggestion(rel: int, command: str, arg: str, line: str) -> None:
    err = io.StringIO()
    with redirect_stderr(err):
        code = main([f"--llvm-release={rel}", command, arg, "a.profdata", "b.profdata"])
    assert code == 1
    assert err.getvalue().splitlines() == [
        f"llvm-profdata: Unknown command line argument '{arg}'.  Try: 'llvm-profdata --help'",
        f"llvm-profdata: Did you mean '{line}'?",
    ]


@pytest.mark.parametrize("rel", [14, 16])
def test_no_line_where_the_map_is_libllvms(rel: int) -> None:
    """Up to 16 the nearest option is sought among every option libLLVM registers (16
    says '--sparse' here), in an order not known here: no line rather than a guess."""
    err = io.StringIO()
    with redirect_stderr(err):
        assert main([f"--llvm-release={rel}", "merge", "--sprase", "a.profdata"]) == 1
    assert err.getvalue() == (
        "llvm-profdata merge: Unknown command line argument '--sprase'.  "
        "Try: 'llvm-profdata merge --help'\n"
    )


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [("", "", 0), ("sparse", "sprase", 2), ("kitten", "sitting", 3), ("", "abc", 3),
     ("h", "QQQQ", 4), ("print-options", "Q" * 13, 13)],
)  # fmt: skip
def test_edit_distance(a: str, b: str, distance: int) -> None:
    assert edit_distance(a.encode(), b.encode()) == distance
    assert edit_distance(b.encode(), a.encode()) == distance


def test_the_two_maps_iterate_apart() -> None:
    """The order subcommand's keys, as 19's StringMap and 22's DenseMap hand them out
    (the real tools' ties above tell them apart: help first in 19, print-options in 22)."""
    keys = [name for o in DECLARED if "order" in o.commands for name in o.names]
    assert keys[0] == "output" and keys[-1] == "h"
    in_19 = [keys[i] for i in map_order(keys, release(19))]
    in_22 = [keys[i] for i in map_order(keys, release(22))]
    assert sorted(in_19) == sorted(in_22) == sorted(keys)
    assert in_19[0] == "help" and in_22[0] == "print-options"
    assert in_22.index("h") < in_22.index("help")  # 22's tie among -h, -o and --help


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
@pytest.mark.parametrize("arg", ["-hq", "--hxyz", "--hot-func-list"])
def test_a_word_starting_with_h_is_refused(rel: int, arg: str) -> None:
    """LLVM reads an unknown word starting with ``h`` as a group that opens with ``-h``
    and prints its help (exit 0), unless the word is one of libLLVM's ~2,000 options,
    which it takes and ignores (``--hot-cold-split``).  profdata knows only
    llvm-profdata's options, so it cannot tell the two apart; a refusal (exit 1) is the
    answer that never lets a build go on without the profile it asked for."""
    err = io.StringIO()
    with redirect_stderr(err):
        assert main([f"--llvm-release={rel}", "merge", arg, "a.profdata"]) == 1
    assert f"Unknown command line argument '{arg}'." in err.getvalue()


def _table_distance(a: bytes, b: bytes) -> int:
    """The textbook table, the reference for the bit-parallel one."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=90), st.binary(max_size=90))
def test_edit_distance_is_the_tables(a: bytes, b: bytes) -> None:
    assert edit_distance(a, b) == _table_distance(a, b)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab-", max_size=70), st.text(alphabet="ab-", max_size=70))
def test_edit_distance_of_near_strings_is_the_tables(a: str, b: str) -> None:
    assert edit_distance(a.encode(), b.encode()) == _table_distance(a.encode(), b.encode())


def test_a_long_unknown_argument() -> None:
    """300 kB pasted as an option: every name is as far from it as its length allows,
    so the map's first option is named (22's merge: --print-options), found without a
    table of the argument's length by the name's for each name."""
    err = io.StringIO()
    with redirect_stderr(err):
        assert main(["merge", "--" + "Q" * 300_000, "a.profdata"]) == 1
    assert err.getvalue().endswith("llvm-profdata: Did you mean '--print-options'?\n")
