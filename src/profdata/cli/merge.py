"""``profdata merge``: every option, and the choice of merge.

Instrumentation merges run in :mod:`profdata.cli.merge_instr` (imported only
for them), sample merges in :mod:`profdata.cli.merge_sample`, and
``--supplement-instr-with-sample`` in :mod:`profdata.cli.merge_supplement`.
Options a release did not have are refused with that release's message.
"""

from __future__ import annotations

import argparse

from profdata.cli import merge_sample, merge_supplement
from profdata.cli._options import LlvmArgumentParser
from profdata.errors import UsageError
from profdata.ops.merge_inputs import FailureMode

HINT = "Make sure that all profile data to be merged is generated from the same binary."
#: The indexed version ``--write-prev-version`` writes (``IndexedInstrProf::Version11``).
PREV_INDEXED_VERSION = 11


def add_arguments(parser: LlvmArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", help="input profiles or directories")
    parser.add_argument("-o", "--output", default="-", help="output file ('-' = stdout)")
    parser.add_argument(
        "--weighted-input", action="append", default=[], metavar="W,FILE",
        help="an input with a weight",
    )  # fmt: skip
    parser.add_argument(
        "-f", "--input-files", default=None, metavar="FILE",
        help="file listing inputs, one '[W,]FILE' per line",
    )  # fmt: skip
    parser.add_argument(
        "-r", "--remapping-file", default=None, metavar="FILE",
        help="symbol remapping file: 'old_symbol new_symbol' per line",
    )  # fmt: skip
    parser.add_flag("--dump-input-file-list", help="print the weighted input list and stop")
    parser.add_flag("--instr", help="instrumentation profile (default)")
    parser.add_flag("--sample", help="sample profile")
    parser.add_enum_values("ProfileKind", "Profile kind:", "--instr", "--sample")
    formats = ("binary", "extbinary", "text", "gcc")
    for fmt in formats:
        parser.add_argument(
            f"--{fmt}", dest="output_format", action="store_const", const=fmt,
            help=f"write the {fmt} encoding",
        )  # fmt: skip
    enum_values = [f"--{fmt}" for fmt in (*formats, "compbinary")]  # merge_sample: compbinary
    parser.add_enum_values("OutputFormat", "Format of output profile", *enum_values)
    parser.add_flag("--sparse", help="drop functions whose counters are all zero")
    parser.add_uint(
        "-j", "--num-threads", default=0,
        help="LLVM writer contexts to replay (default: LLVM's choice for 2 threads)",
    )  # fmt: skip
    warn_mode = parser.knows(lambda r: r.merge_failure_mode_warn)
    parser.add_argument(
        "--failure-mode", default="any",
        choices=[m.value for m in FailureMode if m != FailureMode.WARN or warn_mode],
        help="fail if any / all inputs are invalid, or only warn",
    )  # fmt: skip
    filters = parser.knows(lambda r: r.merge_function_filters)
    parser.add_value(
        "--function", available=filters, default="", help="keep only functions matching regex"
    )
    parser.add_value(
        "--no-function", available=filters, default="", help="drop functions matching regex"
    )
    temporal = parser.knows(lambda r: r.merge_temporal_traces)
    parser.add_uint(
        "--temporal-profile-trace-reservoir-size", bits=64, available=temporal,
        help="maximum number of stored temporal profile traces (default: 100)",
    )  # fmt: skip
    parser.add_uint(
        "--temporal-profile-max-trace-length", bits=64, available=temporal,
        help="maximum length of one temporal profile trace (default: 10000)",
    )  # fmt: skip
    parser.add_flag(
        "--keep-vtable-symbols",
        available=parser.knows(lambda r: r.merge_keep_vtable_symbols),
        help="keep vtable names in the output",
    )
    parser.add_flag(
        "--write-prev-version",
        available=parser.knows(lambda r: r.merge_write_prev_version),
        help="write indexed version 11 (LLVM 18+)",
    )
    versions = parser.release.memprof_write_versions if parser.release else (2, 3)
    parser.add_value(  # an enum named by digits: only the exact text matches ("03" does not)
        "--memprof-version", default=None, available=len(versions) > 1,
        choices=[str(v) for v in versions],
        help="MemProf version of the written section (22: 2, 3 (default), 4; 19: 0-3)",
    )  # fmt: skip
    parser.add_flag(
        "--memprof-full-schema", available=2 in versions,
        help="write every MemInfoBlock field (LLVM 19+)",
    )  # fmt: skip
    hotness = parser.knows(lambda r: r.memprof_random_hotness)
    parser.add_flag(
        "--memprof-random-hotness", available=hotness,
        help="make each MemProf allocation context cold or not cold at random, with "
        "glibc's rand() as LLVM does (a testing aid; LLVM 20+)",
    )  # fmt: skip
    parser.add_uint(
        "--memprof-random-hotness-seed", default=0, available=hotness,
        help="the seed of --memprof-random-hotness (0: the time; printed on stderr)",
    )  # fmt: skip
    parser.add_value(
        "--profiled-binary", default="",
        available=parser.knows(lambda r: r.profiled_binary_option),
        help="the binary of raw MemProf inputs (accepted; .memprofraw inputs are refused)",
    )  # fmt: skip
    add_correlation_arguments(parser)
    parser.add_argument(
        "--dask", default="", metavar="SCHEDULER",
        help="profdata extra: merge chunks of the inputs on a Dask cluster (a scheduler "
        "address, or local[:WORKERS] for one on this machine)",
    )  # fmt: skip
    parser.add_argument(
        "--dask-chunk-size", type=int, default=None, metavar="N",
        help="profdata extra: inputs per Dask task (default 64)",
    )  # fmt: skip
    parser.allow_repeats("--dask", "--dask-chunk-size")  # ours: no release's rules apply
    merge_sample.add_arguments(parser)
    merge_supplement.add_arguments(parser)


def add_correlation_arguments(parser: LlvmArgumentParser) -> None:
    """``--debug-info`` / ``--binary-file``: the binary of lightweight raw profiles."""
    parser.add_value(
        "--debug-info", default="", metavar="BINARY",
        available=parser.knows(lambda r: r.correlate_debug_info),
        help="correlate lightweight raw profiles with this binary's debug info (LLVM 14+)",
    )  # fmt: skip
    parser.add_value(
        "--binary-file", default="", metavar="BINARY",
        available=parser.knows(lambda r: r.merge_binary_file_option),
        help="correlate lightweight raw profiles with this unstripped binary (LLVM 18+)",
    )  # fmt: skip
    parser.add_uint(
        "--max-debug-info-correlation-warnings",
        available=parser.knows(lambda r: r.show_correlation_warnings_option),
        help="correlation warnings to print (0 = no limit; default 5; LLVM 17+)",
    )
    parser.add_flag(
        "--debuginfod",
        available=parser.knows(lambda r: r.correlate_by_build_id),
        help="with --correlate: after the directories, ask the debuginfod cache and the "
        "servers of DEBUGINFOD_URLS for the binary (LLVM 20+)",
    )


def run(args: argparse.Namespace) -> int:
    supplement = merge_supplement.wanted(args)
    if args.dask and (supplement or args.sample):
        raise UsageError("--dask merges instrumentation profiles only")
    if supplement:
        return merge_supplement.run(args)
    if args.sample:
        return merge_sample.run(args)
    from profdata.cli import merge_instr  # instrumentation only: sample merges skip its imports

    return merge_instr.run(args)
