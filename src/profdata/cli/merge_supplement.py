"""``profdata merge --supplement-instr-with-sample=SAMPLEFILE``: the CLI side.

Mirrors ``merge_main`` and ``supplementInstrProfile`` of llvm-profdata in
their order of checks: the inputs are collected (missing files fail first),
``--dump-input-file-list`` and the remapping file are handled as in any
merge, then ``--sample``, ``-o -``, the input count and weight are refused
with LLVM's words, the sample profile is read before the instr profile, and
an unusable instr input ends the command (``error: FILE: message``, with
LLVM's note for an unrecognized format) instead of being skipped.  The
adjustment is :func:`profdata.ops.merge_supplement.supplement`; the output is
indexed, or text with ``--text`` (``--binary``/``--extbinary``/``--gcc`` all
write indexed, as llvm-profdata's writer does here).
"""

from __future__ import annotations

import argparse
import math
import re
import sys

from profdata.atomic import atomic_write_chunks
from profdata.cli._options import LlvmArgumentParser, format_hint, sample_reading
from profdata.cli.merge_inputs import merge_inputs
from profdata.errors import FormatError, ProfdataError, UnrecognizedFormatError, UsageError
from profdata.ops.merge_inputs import read_remapping
from profdata.releases import Release

#: what ``strtod`` takes whole: decimal or hexadecimal floats, inf, infinity, nan(...);
#: compiled when first used (by ``re``'s cache), not by every merge's start-up
_C_FLOAT = (
    r"[+-]?(?:"
    r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
    r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?"
    r"|(?i:inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)"
    r")"
)
_C_SPACE = " \t\n\v\f\r"


def c_float(text: str) -> float:
    """A ``cl::opt<float>`` value as ``strtod`` reads it; it must take the whole text.

    Leading white space is skipped, hexadecimal floats, ``inf`` and ``nan``
    are numbers, out-of-range values become infinite, and an empty value is 0
    (``strtod`` stops at once, on the terminator).
    """
    if not text:
        return 0.0
    body = text.lstrip(_C_SPACE)
    if not re.fullmatch(_C_FLOAT, body, re.ASCII):
        raise argparse.ArgumentTypeError(f"'{text}' value invalid for floating point argument!")
    sign = -1.0 if body.startswith("-") else 1.0
    unsigned = body.lstrip("+-").lower()
    if unsigned.startswith("nan"):
        return math.nan
    if unsigned.startswith("0x"):
        try:
            return sign * float.fromhex(unsigned)
        except OverflowError:
            return sign * math.inf
    return float(body)


def add_arguments(parser: LlvmArgumentParser) -> None:
    """The four options of ``merge`` that belong to the supplement mode (none before 12)."""
    known = parser.knows(lambda r: r.merge_supplement_option)
    parser.add_value(
        "--supplement-instr-with-sample", default="", metavar="SAMPLEFILE", available=known,
        help="raise the counters of functions cold in the instr profile but warm or hot "
        "in this sample profile (one instr input; indexed or --text output)",
    )  # fmt: skip
    parser.add_value(
        "--zero-counter-threshold", type=c_float, default=None, available=known,
        help="drop (pseudo-count) a supplemented function whose ratio of zero counters "
        "is above this (default 0.7)",
    )  # fmt: skip
    parser.add_uint(
        "--suppl-min-size-threshold", available=known,
        help="leave functions with fewer counters alone (default 10)",
    )  # fmt: skip
    parser.add_uint(
        "--instr-prof-cold-threshold", available=known,
        help="the instr profile's cold count (default 0: from its summary)",
    )  # fmt: skip


#: the options of this mode and their defaults (``cl::init``)
DEFAULTS = {
    "supplement_instr_with_sample": "",
    "zero_counter_threshold": 0.7,
    "suppl_min_size_threshold": 10,
    "instr_prof_cold_threshold": 0,
}


def wanted(args: argparse.Namespace) -> bool:
    """Whether this merge is a supplement; fills in the defaults."""
    for option, default in DEFAULTS.items():
        value = getattr(args, option)
        if value is None or value == "":
            setattr(args, option, default)
    return bool(args.supplement_instr_with_sample)


def _report_input_error(error: ProfdataError, release: Release) -> int:
    """``exitWithError(E, InstrFilename)``: the error line, LLVM's note, our detail."""
    err = sys.stderr
    error = error.for_release(release)
    err.write(f"error: {error.headline()}\n")
    if isinstance(error, UnrecognizedFormatError):
        err.write(f"note: {format_hint(release)}\n")
    if isinstance(error, FormatError):
        detail = error.locate()
        if detail:
            err.write(f"  detail: {detail}\n")
    err.flush()
    return 1


def run(args: argparse.Namespace) -> int:
    from profdata.cli.merge_instr import print_diagnostic
    from profdata.formats import text as text_format
    from profdata.formats.indexed_write import encode_indexed
    from profdata.formats.sample_registry import open_sample
    from profdata.ops import merge_supplement as ops
    from profdata.ops.merge import INVALID_PROFILE
    from profdata.ops.table_writer import has_duplicate_memop_values

    rel = args.release
    inputs = merge_inputs(args)
    if inputs is None:
        return 0
    if args.remapping_file:
        read_remapping(args.remapping_file)  # read and checked, then unused, as in LLVM
    if args.sample:
        raise UsageError("-supplement-instr-with-sample can only work with -instr. ")
    if args.output == "-":
        raise UsageError("cannot write indexed profdata format to stdout")
    entry = ops.check_single_input(inputs)
    samples = open_sample(args.supplement_instr_with_sample, rel, sample_reading(args))
    try:
        writer = ops.load_instr_input(entry, rel, sink=print_diagnostic)
    except ProfdataError as exc:
        return _report_input_error(exc, rel)
    options = ops.SupplementOptions(
        release=rel,
        min_size_threshold=args.suppl_min_size_threshold,
        zero_counter_threshold=args.zero_counter_threshold,
        instr_cold_threshold=args.instr_prof_cold_threshold,
    )
    result = ops.supplement(writer, samples, options)
    for warning in result.warnings:
        sys.stderr.write(f"warning: {warning.text()}\n")
    text = args.output_format == "text"
    profile = writer.to_profile(sparse=args.sparse and text)
    if text:
        chunks: list[bytes | bytearray | memoryview] = [text_format.write(profile, rel)]
    else:
        chunks = [*encode_indexed(profile, release=rel, sparse=args.sparse)]
    atomic_write_chunks(args.output, chunks)
    if rel.merge_validates_memop_values and has_duplicate_memop_values(profile):
        sys.stderr.write(f"warning: {INVALID_PROFILE}\n")
    return 0
