"""``profdata merge`` for instrumentation profiles.

Reads raw, indexed and text inputs in llvm-profdata's order, merges them with
:class:`profdata.ops.merge.InstrProfWriter`, reports problems with the same
words and exit status as llvm-profdata of the selected release, and writes
the result atomically (text with ``--text``, else indexed).
"""

from __future__ import annotations

import argparse
import re
import sys

from profdata.atomic import atomic_write_bytes
from profdata.cli._options import LlvmArgumentParser
from profdata.errors import EmptyProfileError, MergeError, ProfdataError, UsageError
from profdata.formats import open_instr
from profdata.formats import text as text_format
from profdata.model.instr import InstrProfile
from profdata.model.names import ENCODING, ERRORS
from profdata.ops.merge import InstrProfWriter, MergeWarning, WarningKind
from profdata.ops.merge_inputs import WeightedFile, collect

_HINT = "Make sure that all profile data to be merged is generated from the same binary."
_HINTED = {
    WarningKind.HASH_MISMATCH,
    WarningKind.COUNT_MISMATCH,
    WarningKind.VALUE_SITE_COUNT_MISMATCH,
}


def add_arguments(parser: LlvmArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", help="input profiles or directories")
    parser.add_argument("-o", "--output", default="-", help="output file ('-' = stdout)")
    parser.add_argument(
        "--weighted-input", "-w", action="append", default=[], metavar="W,FILE",
        help="an input with a weight",
    )  # fmt: skip
    parser.add_argument(
        "-f", "--input-files", action="append", default=[], metavar="FILE",
        help="file listing inputs, one 'W,FILE' or 'FILE' per line",
    )  # fmt: skip
    parser.add_flag("--dump-input-file-list", help="print the weighted input list and stop")
    parser.add_flag("--instr", help="instrumentation profile (default)")
    parser.add_flag("--sample", help="sample profile")
    parser.add_flag("--text", help="write the text format")
    parser.add_flag("--binary", help="write the indexed (binary) format (default)")
    parser.add_flag("--sparse", help="drop functions whose counters are all zero")
    parser.add_argument("-j", "--num-threads", type=int, default=0, help="worker count")
    parser.add_argument(
        "--failure-mode", choices=("any", "all", "warn"), default="any",
        help="fail if any / all inputs are invalid, or only warn",
    )  # fmt: skip
    parser.add_argument("--function", default="", help="keep only functions matching regex")
    parser.add_argument("--no-function", default="", help="drop functions matching regex")


def _check_release_options(args: argparse.Namespace) -> None:
    if args.failure_mode == "warn" and args.release.number < 19:
        raise UsageError(
            "llvm-profdata merge: for the --failure-mode option: Cannot find option named 'warn'!"
        )


def _print_warning(warning: MergeWarning, hinted: set[WarningKind]) -> None:
    parts = [p for p in (warning.source, warning.function) if p]
    sys.stderr.write(": ".join([*parts, warning.kind.value]) + "\n")
    if warning.kind in _HINTED and warning.kind not in hinted:
        sys.stderr.write(_HINT + "\n")
    hinted.add(warning.kind)


def _filtered(profile: InstrProfile, keep: str, drop: str) -> InstrProfile:
    if not keep and not drop:
        return profile
    keep_re = re.compile(keep) if keep else None
    drop_re = re.compile(drop) if drop else None
    records = [
        rec
        for rec in profile.records
        if (keep_re is None or keep_re.search(rec.name))
        and (drop_re is None or not drop_re.search(rec.name))
    ]
    return InstrProfile(
        kind=profile.kind,
        records=records,
        format=profile.format,
        version=profile.version,
        binary_ids=profile.binary_ids,
        traces=profile.traces,
        trace_stream_size=profile.trace_stream_size,
        vtable_names=profile.vtable_names,
        symbols=profile.symbols,
        explicit_frontend=profile.explicit_frontend,
    )


def merge_inputs(inputs: list[WeightedFile], args: argparse.Namespace) -> InstrProfWriter:
    writer = InstrProfWriter()
    errors = 0
    hinted: set[WarningKind] = set()
    for entry in inputs:
        try:
            profile = open_instr(entry.path)
        except EmptyProfileError:
            continue  # llvm-profdata skips empty inputs silently
        except ProfdataError as exc:
            errors += 1
            sys.stderr.write(f"warning: {exc.headline()}\n")
            continue
        profile = _filtered(profile, args.function, args.no_function)
        before = len(writer.warnings)
        reason = writer.add_profile(profile, entry.weight, entry.path)
        if reason is not None:
            errors += 1
            sys.stderr.write(f"warning: {entry.path}: {reason}\n")
            continue
        for warning in writer.warnings[before:]:
            _print_warning(warning, hinted)
    if inputs and (
        (errors == len(inputs) and args.failure_mode != "warn")
        or (errors and args.failure_mode == "any")
    ):
        raise MergeError("")
    return writer


def run(args: argparse.Namespace) -> int:
    _check_release_options(args)
    if args.sample:
        raise UsageError("llvm-profdata merge: sample profiles are not supported yet")
    inputs = collect(args.inputs, args.weighted_input, args.input_files)
    if args.dump_input_file_list:
        for entry in inputs:
            sys.stdout.write(f"{entry.weight},{entry.path}\n")
        return 0
    if not inputs:
        raise UsageError("llvm-profdata merge: no input files specified. See llvm-profdata merge -help")
    writer = merge_inputs(inputs, args)
    profile = writer.to_profile(sparse=args.sparse)
    if args.text:
        data = text_format.write(profile, args.release).encode(ENCODING, ERRORS)
    else:
        from profdata.formats.indexed_write import write_indexed

        data = write_indexed(writer, release=args.release, sparse=args.sparse)
    if args.output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        atomic_write_bytes(args.output, data)
    return 0
