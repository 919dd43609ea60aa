"""LLVM command-line spellings are accepted and misuse is reported in cl::opt's words."""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

import pytest

from profdata.cli import main
from profdata.cli._options import (
    LlvmArgumentParser,
    expand_response_files,
    llvm_usage_message,
    uint64,
)
from profdata.errors import CommandLineError


def make_parser() -> LlvmArgumentParser:
    parser = LlvmArgumentParser(prog="llvm-profdata show")
    parser.add_flag("--all-functions", help="")
    parser.add_argument("--topn", type=int, default=0)
    parser.add_argument("-o", "--output", default="-")
    parser.add_argument("inputs", nargs="*")
    return parser


@pytest.mark.parametrize(
    "argv",
    [
        ["-all-functions", "-topn=3", "-o", "out", "a"],
        ["--all-functions", "--topn", "3", "--output=out", "a"],
        ["-all-functions=true", "-topn", "3", "-output", "out", "a"],
        ["--all-functions=1", "--topn=3", "-o=out", "a"],
    ],
)
def test_llvm_spellings_parse_alike(argv: list[str]) -> None:
    args = make_parser().parse_llvm_args(argv)
    assert (args.all_functions, args.topn, args.output, args.inputs) == (True, 3, "out", ["a"])


def test_false_boolean_leaves_the_flag_off() -> None:
    args = make_parser().parse_llvm_args(["--all-functions=false", "a"])
    assert args.all_functions is False


def test_abbreviations_are_refused() -> None:
    with pytest.raises(CommandLineError) as info:
        make_parser().parse_llvm_args(["--all-fun", "a"])
    assert str(info.value) == (
        "llvm-profdata: Unknown command line argument '--all-fun'.  Try: 'llvm-profdata --help'"
    )


def test_bad_boolean_value() -> None:
    with pytest.raises(CommandLineError, match="'maybe' is invalid value for boolean argument"):
        make_parser().parse_llvm_args(["--all-functions=maybe"])


def test_bad_integer_value_names_the_option() -> None:
    assert llvm_usage_message("argument --topn: invalid int value: 'abc'") == (
        "llvm-profdata: for the --topn option: 'abc' value invalid for uint argument!"
    )


def test_response_files_expand_recursively(tmp_path: Path) -> None:
    inner = tmp_path / "inner.rsp"
    inner.write_text("'b c.profraw' -o out\n")
    outer = tmp_path / "outer.rsp"
    outer.write_text(f"--all-functions @{inner}\n")
    assert expand_response_files([f"@{outer}", "x"]) == [
        "--all-functions", "b c.profraw", "-o", "out", "x",
    ]  # fmt: skip


def test_unreadable_response_file_stays_literal(tmp_path: Path) -> None:
    assert expand_response_files([f"@{tmp_path / 'missing'}"]) == [f"@{tmp_path / 'missing'}"]


def test_double_dash_ends_options() -> None:
    args = make_parser().parse_llvm_args(["--", "-weird-name.profraw"])
    assert args.inputs == ["-weird-name.profraw"]


@pytest.mark.parametrize(
    ("release", "expected"),
    [
        (14, b"llvm-profdata merge: for the --num-threads option: 'x' value invalid"),
        (16, b"llvm-profdata merge: for the --num-threads option: 'x' value invalid"),
        (19, b"llvm-profdata: for the --num-threads option: 'x' value invalid"),
        (22, b"llvm-profdata: for the --num-threads option: 'x' value invalid"),
    ],
)
def test_usage_errors_in_each_release_words(release: int, expected: bytes) -> None:
    """As the real tools print them: 14/16 name the subcommand, and an alias (-j) errs
    under the option it stands for."""
    for spelling in (["-j", "x"], ["--num-threads=x"]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main([f"--llvm-release={release}", "merge", *spelling, "in.profraw"])
        assert code == 1
        assert err.getvalue().encode().startswith(expected)


@pytest.mark.parametrize(
    ("text", "value"),
    [("12", 12), ("0x1f", 31), ("0X1F", 31), ("010", 8), ("0b11", 3), ("0o17", 15), ("0", 0)],
)
def test_unsigned_values_sense_the_radix_as_llvm(text: str, value: int) -> None:
    """``cl::opt<unsigned>`` parses with ``getAsInteger(0)`` (checked against llvm-profdata 22)."""
    assert uint64(text) == value


@pytest.mark.parametrize("text", ["08", "0x", "1_0", "-1", "\u0663", "", "18446744073709551616"])
def test_unsigned_values_llvm_refuses(text: str) -> None:
    # cl::opt<uint64_t> is cl::opt<unsigned long> on the LP64 builds, and says so
    with pytest.raises(argparse.ArgumentTypeError, match="value invalid for ulong argument"):
        uint64(text)
