"""``profdata show`` for instrumentation profiles.

Accepts every option of ``llvm-profdata show`` (LLVM 22), including the ones
that only apply to sample or MemProf profiles, so scripts parse the same way;
options the selected ``--llvm-release`` did not have are refused with that
release's "Unknown command line argument" wording.  ``--memory``
prints indexed MemProf data as YAML (raw ``.memprofraw`` files are refused); ``--debug-info=BIN``
shows what the binary offers for correlation, as llvm-profdata does.

Extra: ``--show-format=json`` (or ``--json``) prints instrumentation profiles
as JSON (schema in :mod:`profdata.ops.show_json`), where llvm-profdata refuses
them; YAML is refused as llvm-profdata refuses it.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from profdata.cli._options import (
    LlvmArgumentParser,
    positional_count_error,
    sample_reading,
    summary_thresholds,
    uint32,
    uint_list,
)
from profdata.cli._output import Output, output_over_input
from profdata.errors import ProfdataError, UsageError
from profdata.releases import Release

if TYPE_CHECKING:  # the instrumentation show loads only when it runs (not for --sample)
    from profdata.ops.show import ShowOptions, ShowReport

_PROG = "llvm-profdata show"


def add_arguments(parser: LlvmArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", metavar="<profdata-file>")
    parser.add_argument("-o", "--output", default="-", help="output file ('-' = stdout)")
    flag = parser.add_flag
    flag("--all-functions", help="details for each and every function")
    parser.add_argument("--function", default="", help="only functions whose name contains this")
    flag("--counts", help="show counter values for shown functions")
    flag("--ic-targets", help="show indirect call site target values for shown functions")
    flag("--memop-sizes", help="show the profiled sizes of memory intrinsic calls")
    flag(
        "--show-vtables",
        available=parser.knows(lambda r: r.show_vtables_option),
        help="show vtable names for shown functions (LLVM 19+)",
    )
    flag("--text", help="show instr profile data in text dump format")
    parser.add_argument("--topn", type=uint32, default=0, help="list the N hottest functions")
    flag("--detailed-summary", help="show detailed profile summary")
    parser.add_argument(
        "--detailed-summary-cutoffs", type=uint_list, action="append", default=[],
        help="cutoff percentages (times 10000) for the detailed summary",
    )  # fmt: skip
    parser.add_argument(
        "--value-cutoff", type=uint32, default=0,
        help="functions whose maximum count is below this are not printed",
    )  # fmt: skip
    flag("--list-below-cutoff", help="only list the functions below --value-cutoff")
    flag(
        "--covered",
        available=parser.knows(lambda r: r.show_covered_option),
        help="show only the functions that have been executed",
    )
    flag("--showcs", help="show context sensitive counts")
    flag("--hot-func-list", help="list hot functions (instr: LLVM 22+)")
    flag("--binary-ids", help="show binary ids in the profile")
    flag(
        "--profile-version",
        available=parser.knows(lambda r: r.show_profile_version_option),
        help="show profile version (LLVM 16+)",
    )
    flag(
        "--temporal-profile-traces",
        available=parser.knows(lambda r: r.show_temporal_traces_option),
        help="show temporal profile traces (LLVM 17+)",
    )
    flag("--instr", help="instrumentation profile (default)")
    flag("--sample", help="sample profile")
    flag(
        "--memory", available=parser.knows(lambda r: r.show_memory_option),
        help="MemProf memory access profile (indexed: LLVM 20+; raw: refused)",
    )  # fmt: skip
    release = parser.release
    description = release.show_kind_description if release else "Profile kind:"
    parser.add_enum_values("ProfileKind", description, "--instr", "--sample", "--memory")
    formats = parser.knows(lambda r: r.show_format_option)
    parser.add_value(
        "--show-format", choices=("text", "json", "yaml"), default=None, available=formats,
        help="text (default) or json (profdata extra for instr profiles); yaml is refused",
    )  # fmt: skip
    flag("--json", available=formats, help="same as --show-format=json")
    flag("--show-prof-sym-list", help="sample profiles: show the profile symbol list")
    flag("--show-sec-info-only", help="sample profiles: show section information only")
    parser.add_value(
        "--debug-info", default=None, metavar="BINARY",
        available=parser.knows(lambda r: r.correlate_debug_info),
        help="show the profile metadata in this binary's debug info (the profile is not read)",
    )  # fmt: skip
    parser.add_value(
        "--profiled-binary", default=None, help="MemProf: the profiled binary",
        available=parser.knows(lambda r: r.profiled_binary_option),
    )  # fmt: skip
    parser.add_uint(
        "--max-debug-info-correlation-warnings",
        available=parser.knows(lambda r: r.show_correlation_warnings_option),
        help="debug-info correlation warnings limit (LLVM 17+)",
    )


def options_from_args(args: argparse.Namespace) -> ShowOptions:
    from profdata.ops.show import ShowOptions

    cutoffs = tuple(c for chunk in args.detailed_summary_cutoffs for c in chunk)
    return ShowOptions(
        all_functions=args.all_functions,
        function=args.function,
        counts=args.counts,
        ic_targets=args.ic_targets,
        memop_sizes=args.memop_sizes,
        vtables=args.show_vtables,
        text=args.text,
        topn=args.topn,
        detailed_summary=args.detailed_summary,
        cutoffs=cutoffs,
        value_cutoff=args.value_cutoff,
        list_below_cutoff=args.list_below_cutoff,
        covered=args.covered,
        showcs=args.showcs,
        hot_func_list=args.hot_func_list,
        binary_ids=args.binary_ids,
        profile_version=args.profile_version,
        temporal_traces=args.temporal_profile_traces,
        thresholds=summary_thresholds(args),
    )


def _run_sample(args: argparse.Namespace, fmt: str) -> int:
    """``show --sample``: :func:`profdata.ops.show_sample.show_sample_file`."""
    from profdata.ops.show_sample import SampleShowOptions, show_sample_file  # sample-only

    options = SampleShowOptions(
        all_functions=args.all_functions, function=args.function,
        detailed_summary=args.detailed_summary, topn=args.topn,
        hot_func_list=args.hot_func_list, show_prof_sym_list=args.show_prof_sym_list,
        show_sec_info_only=args.show_sec_info_only, show_format=fmt, reading=sample_reading(args),
    )  # fmt: skip
    if options.all_functions and options.function:
        sys.stderr.write("warning: -function argument ignored: showing all functions\n")
    result = show_sample_file(args.inputs[0], options, args.release)
    sys.stderr.write("".join(f"warning: {w}\n" for w in result.warnings))
    out = Output(args.output)
    out.write_all(result.chunks)
    out.close()
    return 0


#: llvm-profdata's stdout buffer (``st_blksize`` of a pipe or a file on Linux)
_LLVM_STDOUT_BUFFER = 4096


def _print_what_llvm_flushed(report: ShowReport) -> None:
    """What llvm-profdata's stdout shows when a read fails after some records.

    It prints each record as it reads it, into a buffered stream, and leaves
    with the error without flushing: only the full buffers written so far
    reach stdout.  A failed show never writes its ``-o`` file (see Output).
    """
    from profdata.ops.show_text import render_streamed_bytes

    text = render_streamed_bytes(report)
    flushed = len(text) - len(text) % _LLVM_STDOUT_BUFFER
    if flushed:
        sys.stdout.flush()
        sys.stdout.buffer.write(text[:flushed])
        sys.stdout.buffer.flush()


def _warn(line: str) -> None:
    sys.stderr.write(f"warning: {line}\n")
    sys.stderr.flush()


def _run_debug_info(args: argparse.Namespace, release: Release) -> int:
    """``showDebugInfoCorrelation``: the binary alone, in text or YAML."""
    from profdata.ops.show_correlation import show_debug_info  # pyelftools on demand

    fmt = "json" if args.json else (args.show_format or "text")
    out = Output(args.output)
    if args.all_functions and args.function:
        sys.stderr.write("warning: -function argument ignored: showing all functions\n")
    if fmt == "json":
        raise UsageError("JSON output is not supported for debug info correlation")
    limit = args.max_debug_info_correlation_warnings
    text = show_debug_info(
        args.debug_info, yaml=fmt == "yaml", symbol_list=args.show_prof_sym_list,
        detailed_summary=args.detailed_summary, max_warnings=5 if limit is None else limit,
        binary_wording=release.correlation_binary_wording,
        sorted_names=release.show_correlation_sorted_names,
        xxh3_names=release.stringmap_xxh3_hash, warn=_warn,
    )  # fmt: skip
    out.write(text)
    out.close()
    return 0


def _run_memory(args: argparse.Namespace, release: Release) -> int:
    """``showMemProfProfile``: indexed MemProf data as YAML (raw .memprofraw is refused)."""
    from profdata.ops.show_memory import show_memory_file

    fmt = "json" if args.json else (args.show_format or "text")
    text = show_memory_file(args.inputs[0], release, fmt)
    out = Output(args.output)
    out.write(text)
    out.close()
    return 0


def run(args: argparse.Namespace) -> int:
    release: Release = args.release
    if args.debug_info:
        return _run_debug_info(args, release)
    if not release.correlate_debug_info and not args.inputs:  # 13: a required positional
        raise positional_count_error(release, "show", 1, 1, 0)
    if args.inputs == [""] and release.correlate_debug_info:  # an empty name is none
        args.inputs = []
    if not args.inputs:
        raise UsageError(
            "the positional argument '<profdata-file>' is required unless "
            "'--debug-info' is provided"
        )
    if len(args.inputs) > 1:
        raise positional_count_error(release, "show", 0, 1, len(args.inputs))
    refusal = output_over_input("show", args.output, args.inputs, same_name=True)
    if refusal is not None:
        raise refusal
    if args.memory:  # after the checks above, which show_main makes before any profile kind
        return _run_memory(args, release)
    fmt = "json" if args.json else (args.show_format or "text")
    if args.sample:
        return _run_sample(args, fmt)
    return _run_instr(args, release, fmt)


def _run_instr(args: argparse.Namespace, release: Release, fmt: str) -> int:
    """``show`` of an instrumentation profile (raw, indexed or text)."""
    from profdata.formats import open_instr
    from profdata.model.instr import InstrProfile
    from profdata.ops.show import collect
    from profdata.ops.show_text import render_text_bytes

    if fmt == "yaml":
        raise UsageError("YAML output is not supported for instr profiles")
    if fmt == "json" and args.text:
        raise UsageError("--text and JSON output cannot be combined")
    options = options_from_args(args)
    if options.all_functions and options.function:
        sys.stderr.write("warning: -function argument ignored: showing all functions\n")
    out = Output(args.output)

    def print_read_part(part: object) -> None:
        if isinstance(part, InstrProfile) and fmt == "text" and out.path is None:
            _print_what_llvm_flushed(collect(part, options, release))

    try:
        profile = open_instr(args.inputs[0], release=release)  # '-': standard input
    except ProfdataError as exc:
        print_read_part(exc.for_release(release).partial)
        raise
    shown = options.all_functions or bool(options.function)  # function blocks are printed
    if options.text or options.temporal_traces or (shown and options.value_kinds()):
        profile.hash_names_meanwhile()  # the value targets' and traces' names (raw: all)
    if profile.format == "indexed":  # only these have a MemProf header to check
        from profdata.ops.merge_memprof import check_memprof_input

        check_memprof_input(profile, release, args.inputs[0])
    try:
        report = collect(profile, options, release)
    except ProfdataError:  # a record read on demand failed (a damaged indexed payload)
        partial, failure = profile.read_so_far()
        if failure is None:
            raise
        print_read_part(partial)
        raise failure.with_path(args.inputs[0]) from None
    if fmt == "json":
        from profdata.ops.show_json import render_json  # the JSON extra only

        out.write(render_json(report))
    else:
        out.write(render_text_bytes(report))
    out.close()
    return 0
