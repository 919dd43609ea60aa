"""LLVM's ``cl`` reads an unknown ``-xyz`` as grouped one-letter options.

The expected texts are what llvm-profdata 14 and 22 print (recorded by hand
from the installed tools; ``tests/compat/test_option_groups_compat.py`` runs
the real tools on more cases).
"""

from __future__ import annotations

import argparse

import pytest

from profdata.cli import COMMANDS, command_module, main
from profdata.cli._options import VALUE_LETTERS, LlvmArgumentParser, grouped_letter


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_parser_has_llvms_value_letters(command: str) -> None:
    parser = LlvmArgumentParser(prog=command)
    module = command_module(command)
    assert module is not None
    module.add_arguments(parser)
    letters = [
        opt[1]
        for action in parser._actions
        if action.nargs != 0  # flags and -h take no value
        for opt in action.option_strings
        if len(opt) == 2 and opt[1] != "-"
    ]
    assert sorted(letters) == sorted(VALUE_LETTERS[command])


@pytest.mark.parametrize(
    ("arg", "letter"),
    [
        ("-j2", "j"), ("--j2", "j"), ("-ofile", "o"), ("--onlylistbelow", "o"),
        ("-rr", "r"), ("--function=f", "f"), ("-j2=3", "j"),
        ("-j", None), ("-j=2", None), ("--output=x", None), ("--num-threads=2", None),
        ("-x2", None), ("-10", None), ("--bogus", None), ("-", None),
    ],
)  # fmt: skip
def test_grouped_letter(arg: str, letter: str | None) -> None:
    """``known``: the long names of the release (here without ``--function``)."""
    assert grouped_letter(arg, {"output", "num-threads"}, "ofrj") == letter


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def test_merge_j2_is_refused_as_llvm_profdata_22_refuses_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "merge", "-j2", "-o", "out", "in.profraw") == (
        1,
        "llvm-profdata: for the -j option: may not occur within a group!\n"
        "llvm-profdata: Unknown command line argument '-j2'.  Try: 'llvm-profdata --help'\n"
        "llvm-profdata: Did you mean '-j'?\n",
    )


def test_an_option_the_release_lacks_groups_there(capsys: pytest.CaptureFixture[str]) -> None:
    """LLVM 14 has no ``--function``, so its ``cl`` reads it as ``-f`` + ``unction``."""
    assert run(capsys, "--llvm-release=14", "merge", "--function=geo", "in.profraw") == (
        1,
        "llvm-profdata merge: for the -f option: may not occur within a group!\n"
        "llvm-profdata merge: Unknown command line argument '--function=geo'.  "
        "Try: 'llvm-profdata merge --help'\n"
        "llvm-profdata merge: Did you mean '-f'?\n",
    )


def test_order_before_17_is_an_unknown_command_whatever_the_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "--llvm-release=16", "order", "-oo", "x") == (
        1,
        "llvm-profdata: Unknown command!\nUSAGE: llvm-profdata <merge|show|overlap> [args...]\n",
    )


def test_spelled_out_values_still_parse() -> None:
    parser = LlvmArgumentParser(prog="merge", command="merge")
    module = command_module("merge")
    assert module is not None
    module.add_arguments(parser)
    for argv in (["-j", "2", "x"], ["-j=2", "x"], ["--num-threads=2", "x"]):
        args: argparse.Namespace = parser.parse_llvm_args(argv)
        assert args.num_threads == 2
