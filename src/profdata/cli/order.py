"""``profdata order PROFILE``: the function order ``llvm-profdata order`` prints.

LLVM 17 added the subcommand; profdata reproduces the order of releases 19 and
22 byte for byte (:mod:`profdata.ops.order`).  Like llvm-profdata, the output
is opened before the input is read, so an unwritable ``-o`` is reported first;
a missing input is "No such file or directory" without a file name, as
``orderMain`` reports its empty default.  Raw, indexed and text profiles are
read, but not sample or MemProf ones (LLVM's ``InstrProfReader`` neither).

Two deliberate differences: llvm-profdata iterates the records only to fill
its symbol table and stops silently at a malformed one (ordering the traces
with whatever names it had), while profdata refuses such an input with the
located error; and llvm-profdata truncates ``-o FILE`` before failing on a bad
input, while profdata's atomic output leaves an existing file untouched.
"""

from __future__ import annotations

import argparse
import errno
import os

from profdata.cli._options import (
    LlvmArgumentParser,
    command_error,
    positional_count_error,
    uint32,
)
from profdata.cli._output import Output, output_over_input
from profdata.errors import CommandLineError, FileError, WriteError
from profdata.ops.merge import load_path
from profdata.ops.merge_memprof import check_memprof_input
from profdata.ops.order import order_functions, render_order
from profdata.releases import Release


def add_arguments(parser: LlvmArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", metavar="<profdata-file>")
    parser.add_argument("-o", "--output", default="-", help="output file ('-' = stdout)")
    parser.add_argument(
        "--num-test-traces", type=uint32, default=0,
        help="keep aside the last N traces when computing the order and use them to score it",
    )  # fmt: skip


def _check_output(path: str) -> None:
    """Fail on an output llvm-profdata could not open, before any input is read."""
    if path == "-":
        return
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise WriteError(os.strerror(errno.EISDIR), path=path)
    if not os.path.isdir(directory):
        raise WriteError(os.strerror(errno.ENOENT), path=path)


def unavailable(release: Release) -> CommandLineError | None:
    """Releases before 17 have no ``order``: LLVM refuses the command before any option."""
    if release.order_command:
        return None
    return command_error(release, "order")


def run(args: argparse.Namespace) -> int:
    release: Release = args.release
    refusal = unavailable(release)
    if refusal is not None:
        raise refusal
    if len(args.inputs) > 1:
        raise positional_count_error(release, "order", 0, 1, len(args.inputs))
    _check_output(args.output)
    refusal = output_over_input("order", args.output, args.inputs)
    if refusal is not None:
        raise refusal
    if not args.inputs:
        raise FileError(os.strerror(errno.ENOENT))
    profile = load_path(args.inputs[0], release=release)
    check_memprof_input(profile, release, args.inputs[0])
    order = order_functions(profile.traces, args.num_test_traces, release)
    out = Output(args.output)
    out.write(render_order(order, profile.symbols))
    out.close()
    return 0
