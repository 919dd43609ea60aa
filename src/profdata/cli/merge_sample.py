"""``profdata merge --sample``: options, diagnostics and output of a sample merge.

Mirrors ``mergeSampleProfile`` and ``handleExtBinaryWriter`` of
llvm-profdata: the merge itself is :func:`profdata.ops.merge_sample.merge_samples`;
here the options become :class:`SampleMergeOptions` / :class:`SampleOutputOptions`,
per-profile problems are printed as ``FILE: CONTEXT: message``, unreadable
inputs as ``warning: FILE: message`` (or the error, under
``--failure-mode=any``), the writer's warnings follow in LLVM's order, and the
encoded profile is written atomically (or to standard output for ``-o -``).
Options a release did not have are refused with that release's message.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from profdata.atomic import atomic_write_chunks
from profdata.cli._options import LlvmArgumentParser, sample_reading, summary_thresholds
from profdata.cli._output import write_input_failure, write_stdout
from profdata.cli.merge_inputs import merge_inputs
from profdata.ops.merge_inputs import FailureMode, InputFailure, read_remapping

if TYPE_CHECKING:  # the sample readers and writers load only when a sample merge runs
    from profdata.ops.merge_sample import (
        SampleDiagnostic,
        SampleMergeOptions,
        SampleOutputOptions,
    )

LAYOUTS = ("nest", "flat")


def add_arguments(parser: LlvmArgumentParser) -> None:
    """The sample-only options of ``merge`` (the instr path ignores them, as LLVM does)."""
    parser.add_value(
        "--compbinary", dest="output_format", action="store_const", const="compbinary",
        available=parser.knows(lambda r: r.sample_merge_compbinary_option),
        help="write the compact binary sample encoding (LLVM 14/16)",
    )  # fmt: skip
    parser.add_flag("--use-md5", help="ext-binary: MD5 name table")
    parser.add_flag("--compress-all-sections", help="ext-binary: compress every section")
    parser.add_flag("--gen-partial-profile", help="ext-binary: mark the profile as partial")
    parser.add_flag(
        "--split-layout",
        available=parser.knows(lambda r: r.sample_merge_split_layout_option),
        help="ext-binary: profiles with/without inlinees apart (22)",
    )
    parser.add_flag(
        "--drop-profile-symbol-list",
        available=parser.knows(lambda r: r.sample_merge_drop_symbol_list_option),
        help="do not keep the inputs' symbol lists",
    )
    parser.add_argument("--prof-sym-list", default="", help="file of symbols for the symbol list")
    parser.add_value(
        "--convert-sample-profile-layout", default=None, choices=LAYOUTS,
        available=parser.knows(lambda r: r.sample_merge_convert_layout_option),
        help="convert the merged profile to the nest or flat layout (LLVM 17+)",
    )  # fmt: skip
    parser.add_flag(
        "--gen-cs-nested-profile",
        available=parser.knows(lambda r: r.sample_merge_gen_cs_nested_option),
        help="CS profiles: nest the contexts (LLVM 14/16)",
    )
    parser.add_flag("--sample-merge-cold-context", help="CS: merge cold contexts into base")
    parser.add_flag("--sample-trim-cold-context", help="CS: drop cold contexts")
    parser.add_uint(
        "--sample-frame-depth-for-cold-context",
        default=1,
        help="CS: frames kept when merging cold contexts",
    )
    parser.allow_repeats("--sample-frame-depth-for-cold-context")  # cl::ZeroOrMore in 14
    parser.add_uint(
        "--output-size-limit", bits=64,
        available=parser.knows(lambda r: r.sample_merge_output_size_limit_option),
        help="drop the coldest functions until the output fits (bytes, LLVM 17+)",
    )  # fmt: skip


def merge_options(args: argparse.Namespace) -> SampleMergeOptions:
    from profdata.ops.merge_sample import SampleMergeOptions

    layout = args.convert_sample_profile_layout or ("nest" if args.gen_cs_nested_profile else "")
    return SampleMergeOptions(
        release=args.release,
        failure_mode=FailureMode(args.failure_mode),
        remapping=read_remapping(args.remapping_file) if args.remapping_file else {},
        drop_profile_symbol_list=args.drop_profile_symbol_list,
        prof_sym_list=args.prof_sym_list or None,
        merge_cold_context=args.sample_merge_cold_context,
        trim_cold_context=args.sample_trim_cold_context,
        cold_context_frame_depth=args.sample_frame_depth_for_cold_context,
        profile_layout=layout,
        processes=1 if args.num_threads == 1 else 0,
        reading=sample_reading(args),
        thresholds=summary_thresholds(args),
        merged_base_profiles=args.generate_merged_base_profiles,
    )


def output_options(args: argparse.Namespace) -> SampleOutputOptions:
    from profdata.ops.merge_sample import SampleOutputOptions

    return SampleOutputOptions(
        compress_all_sections=args.compress_all_sections,
        use_md5=args.use_md5,
        gen_partial_profile=args.gen_partial_profile,
        split_layout=args.split_layout,
        size_limit=args.output_size_limit or 0,
        contextless=args.profile_summary_contextless,
        vtable_types=args.extbinary_write_vtable_type_prof,
    )


def print_diagnostic(diagnostic: SampleDiagnostic) -> None:
    """One merge diagnostic as llvm-profdata prints it (plus our located detail)."""
    err = sys.stderr
    if isinstance(diagnostic, InputFailure):
        write_input_failure(diagnostic.path, diagnostic.message, diagnostic.error)
    else:
        err.write(diagnostic.text() + "\n")
    err.flush()


def run(args: argparse.Namespace) -> int:
    from profdata.ops import merge_sample as ops

    inputs = merge_inputs(args)
    if inputs is None:
        return 0
    rel = args.release
    options = merge_options(args)
    output_format = args.output_format or ops.default_output_format(rel)
    opts = output_options(args)
    written = None
    if not args.function and not args.no_function:
        written = ops.encode_merged_columns(inputs, options, output_format, opts)
    if written is not None:  # merged and written as columns: no diagnostics, no filter
        data, profile = written
    else:
        result = ops.merge_samples(inputs, options)
        for diagnostic in result.diagnostics:
            print_diagnostic(diagnostic)
        profile = result.profile
        note = ops.filter_sample_functions(profile, args.function, args.no_function)
        if note is not None:
            sys.stderr.write(
                f"{note.removed} of {note.total} functions in the original profile are filtered.\n"
            )
    ops.check_writable(output_format, profile, args.output)
    for warning in ops.writer_warnings(output_format, profile, opts):
        sys.stderr.write(f"warning: {warning}\n")
    if written is None:
        data = ops.encode_sample(profile, output_format, opts, args.output, rel)
    if args.output == "-":
        write_stdout([data])
    else:
        atomic_write_chunks(args.output, [data])
    return 0
