"""``profdata overlap BASE TEST`` for instrumentation profiles.

Prints what ``llvm-profdata overlap`` of the selected release prints, byte for
byte (:mod:`profdata.ops.overlap`).  All of LLVM's options parse, including
``--sample`` (:mod:`profdata.ops.overlap_sample`) with ``--similarity-cutoff``.

Errors reading an input are reported in llvm-profdata's words
(``error: error in getting profile count sums: MESSAGE``, which names no
file, plus its ``note:`` hint for unrecognized formats), then our located
detail.  An input that goes bad after its first records (a bad data record,
cut value data, bytes after the last raw profile, a bad text record) is what
llvm-profdata's streaming readers had read by then: it silently overlaps those
records and exits 0.  profdata does the same and says on stderr what it
passed over.

When an input's edge sum is 0, llvm-profdata writes "Sum of edge counts for
profile F is 0." to a buffer it never flushes: the line reaches a terminal
but not a pipe or an ``-o`` file (which is left empty).  profdata writes the
same bytes to the output and, when the line would be lost, prints it on
stderr as ``note: Sum of edge counts ...`` so scripts still learn why.

Extra: ``--show-format=json`` prints the result as one JSON document (schema
in :mod:`profdata.ops.overlap_json`).
"""

from __future__ import annotations

import argparse
import sys

from profdata.cli._options import (
    LlvmArgumentParser,
    format_hint,
    positional_count_error,
    sample_reading,
    summary_thresholds,
    ullong,
)
from profdata.cli._output import Output, output_over_input
from profdata.cli.merge_instr import print_diagnostic
from profdata.errors import (
    FileError,
    FormatError,
    ProfdataError,
    UnrecognizedFormatError,
    UsageError,
)
from profdata.model.counters import U64_MAX
from profdata.model.instr import InstrProfile, read_streamed
from profdata.ops.merge import load_path
from profdata.ops.merge_memprof import check_memprof_input
from profdata.ops.overlap import OverlapOptions, overlap_instr, render_text, zero_sum_line
from profdata.ops.overlap_json import render_json
from profdata.releases import Release

TOOL = "llvm-profdata"
_COUNT_SUMS = "error in getting profile count sums"


def add_arguments(parser: LlvmArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", metavar="<base profile file> <test profile file>")
    parser.add_argument("-o", "--output", default="-", help="output file ('-' = stdout)")
    parser.add_flag("--cs", help="for context sensitive PGO counts (IR profiles)")
    parser.add_argument(
        "--function", default="",
        help="function level details for functions whose name contains this",
    )  # fmt: skip
    parser.add_argument(
        "--value-cutoff", type=ullong, default=U64_MAX,
        help="function level details for test functions whose max count is at least this",
    )  # fmt: skip
    parser.add_argument(
        "--similarity-cutoff", type=ullong, default=0,
        help="sample profiles: list functions below this similarity (percent times 10000)",
    )  # fmt: skip
    for kind in ("instr", "sample"):
        parser.add_argument(
            f"--{kind}", dest="profile_kind", action="store_const", const=kind, default="instr",
            help=f"{kind} profiles" + (" (default)" if kind == "instr" else ""),
        )  # fmt: skip
    parser.add_enum_values("ProfileKind", "Profile kind:", "--instr", "--sample")
    parser.add_argument(
        "--show-format", choices=("text", "json"), default="text",
        help="text (llvm-profdata's output, default) or json (profdata extra)",
    )  # fmt: skip


def _positionals(inputs: list[str], release: Release) -> tuple[str, str]:
    if len(inputs) != 2:
        raise positional_count_error(release, "overlap", 2, 2, len(inputs))
    return inputs[0], inputs[1]


def count_sums_error(exc: ProfdataError, release: Release) -> ProfdataError:
    """llvm-profdata's ``error in getting profile count sums: MESSAGE`` for an unreadable input."""
    exc = exc.for_release(release)
    if isinstance(exc, FileError):
        message, detail = exc.detail, exc.headline()
    elif isinstance(exc, FormatError):
        message, detail = exc.llvm_message, exc.locate()
    else:
        message, detail = exc.llvm_message, str(exc)
    if isinstance(exc, UnrecognizedFormatError):
        message = f"{message}\nnote: {format_hint(release)}"
    error = ProfdataError(detail, path=None)
    error.llvm_message = f"{_COUNT_SUMS}: {message}"
    return error


def _read(path: str, release: Release) -> InstrProfile:
    """An input as llvm-profdata overlaps it: in full, or the records read before a bad
    one (LLVM ignores that failure; we say what it was on stderr)."""
    loaded: InstrProfile | ProfdataError
    try:
        loaded = load_path(path, release=release)
    except ProfdataError as exc:
        loaded = exc
    if isinstance(loaded, InstrProfile):
        try:
            check_memprof_input(loaded, release, path)
        except ProfdataError as exc:
            raise count_sums_error(exc, release) from exc
    read, failure = read_streamed(loaded, release)
    if read is None:
        assert failure is not None
        raise count_sums_error(failure, release) from failure
    if failure is not None:
        report_ignored(failure.with_path(path).for_release(release))
    return read


def report_ignored(exc: ProfdataError) -> None:
    """``warning: FILE: MESSAGE`` (and our detail) for a failure llvm-profdata passes over."""
    sys.stderr.write(f"warning: {exc.headline()} (overlapping the records before it)\n")
    if isinstance(exc, FormatError) and (detail := exc.locate()):
        sys.stderr.write(f"  detail: {detail}\n")


def _run_sample(args: argparse.Namespace, base_path: str, test_path: str) -> int:
    """``overlap --sample``: :func:`profdata.ops.overlap_sample.overlap_sample`."""
    from profdata.formats.sample_registry import open_sample
    from profdata.ops.overlap_sample import (
        SampleOverlapOptions,
        overlap_sample,
        render_sample_text,
    )

    if args.show_format == "json":
        raise UsageError("--show-format=json is only supported for instrumentation profiles")
    options = SampleOverlapOptions(
        release=args.release, similarity_cutoff=args.similarity_cutoff,
        value_cutoff=args.value_cutoff, function=args.function,
        thresholds=summary_thresholds(args),
    )  # fmt: skip
    reading = sample_reading(args)
    base = open_sample(base_path, args.release, reading)
    test = open_sample(test_path, args.release, reading)
    result = overlap_sample(base, test, options, base_name=base_path, test_name=test_path)
    out = Output(args.output)
    out.write(render_sample_text(result))
    out.close()
    return 0


def run(args: argparse.Namespace) -> int:
    base_path, test_path = _positionals(args.inputs, args.release)
    refusal = output_over_input("overlap", args.output, [base_path, test_path])
    if refusal is not None:
        raise refusal
    if args.profile_kind == "sample":
        return _run_sample(args, base_path, test_path)
    options = OverlapOptions(
        release=args.release, value_cutoff=args.value_cutoff, function=args.function, cs=args.cs
    )
    base = _read(base_path, args.release)
    test = _read(test_path, args.release)
    out = Output(args.output)
    try:
        result = overlap_instr(
            base, test, options, base_name=base_path, test_name=test_path, sink=print_diagnostic
        )
    except FormatError as exc:  # a lazily read input (indexed) failing on its records
        raise count_sums_error(exc, args.release) from exc
    if args.show_format == "json":
        out.write(render_json(result))
    elif result.zero_sum_profile is None:
        out.write(render_text(result))
    else:
        line = zero_sum_line(result.zero_sum_profile)
        if out.path is None and sys.stdout.isatty():
            out.write(line)
        else:
            sys.stderr.write(f"note: {line}")
    out.close()
    return 0
