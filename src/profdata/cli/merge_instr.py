"""``profdata merge`` of instrumentation profiles.

Collects the inputs in llvm-profdata's order, merges them with
:func:`profdata.ops.merge.merge_instr`, prints its diagnostics with
llvm-profdata's words (``FILE: FUNC: message``, ``warning: FILE: message``),
and writes the result atomically: indexed by default, text with ``--text``,
standard output for ``-o -``.  A module of its own (the options are
:mod:`profdata.cli.merge`'s) so that sample merges do not import the
instrumentation readers, merges and the indexed writer.

``-j N`` replays LLVM's split into ``N`` writer contexts (it changes the
bytes exactly as it does for llvm-profdata); without it the split is LLVM's
default for a two-thread machine (:mod:`profdata.ops.merge_threads`), so the
output never depends on where the command runs.  How the work is spread
over processes (raw profiles of one binary, one process per idle CPU, each owning
some writer contexts) is separate from ``-j`` and never changes the output.
"""

from __future__ import annotations

import argparse
import sys
import time

from profdata.atomic import atomic_write_chunks
from profdata.cli._output import write_input_failure
from profdata.cli.merge import HINT, PREV_INDEXED_VERSION
from profdata.cli.merge_inputs import merge_inputs
from profdata.errors import MalformedError, UsageError
from profdata.formats._collector import collector_paused
from profdata.formats.indexed_write import encode_indexed
from profdata.model.instr import InstrProfile
from profdata.ops.merge import (
    INVALID_PROFILE,
    ContextWarning,
    Diagnostic,
    Loader,
    MergeOptions,
    MergeResult,
    RecordWarning,
    merge_instr,
)
from profdata.ops.merge_inputs import (
    FailureMode,
    FilterNote,
    InputFailure,
    WeightedFile,
    read_remapping,
)
from profdata.ops.merge_threads import context_count
from profdata.ops.shared_fill import fill_in_two
from profdata.ops.table_writer import has_duplicate_memop_values


def _warn(line: str) -> None:
    sys.stderr.write(f"warning: {line}\n")


def _correlating_loader(args: argparse.Namespace) -> Loader | None:
    """``mergeInstrProfile``'s correlator: one binary loaded before any input is read, or
    (``--correlate``) a fetcher that finds each raw input's binary by its build ID."""
    rel = args.release
    limit = args.max_debug_info_correlation_warnings
    directories = tuple(args.debug_file_directory)
    by_id = args.debuginfod or bool(directories)
    if not args.debug_info:
        if args.binary_file and by_id:
            raise UsageError(
                "Expected only one of -binary-file, -debuginfod or -debug-file-directory"
            )
    elif args.binary_file or by_id:
        more = ", -debuginfod or -debug-file-directory" if rel.correlate_by_build_id else ""
        raise UsageError(f"Expected only one of -debug-info, -binary-file{more}")
    if not args.debug_info and not args.binary_file and not by_id and not args.correlate:
        return None
    from profdata.formats.correlate import CorrelatorKind, load_correlation, read_correlated

    if args.debug_info or args.binary_file:
        kind = CorrelatorKind.DEBUG_INFO if args.debug_info else CorrelatorKind.BINARY
        correlation = load_correlation(
            args.debug_info or args.binary_file, kind,
            max_warnings=5 if limit is None else limit,
            binary_wording=rel.correlation_binary_wording,
            warn=_warn,
        )  # fmt: skip
        return lambda path: read_correlated(path, correlation, rel)
    if not by_id:
        raise UsageError(
            "Expected --debuginfod or --debug-file-directory when --correlate is provided"
        )
    if not args.correlate:
        given = "--debuginfod" if args.debuginfod else "--debug-file-directory"
        raise UsageError(f"Expected --correlate when {given} is provided")
    from profdata.formats.correlate_fetch import BuildIdFetcher, CorrelationsByBuildId

    by_build_id = CorrelationsByBuildId(
        BuildIdFetcher(directories, debuginfod=args.debuginfod),
        CorrelatorKind.DEBUG_INFO if args.correlate == "debug-info" else CorrelatorKind.BINARY,
        binary_wording=rel.correlation_binary_wording,
        warn=_warn,
    )
    return lambda path: read_correlated(path, by_build_id, rel)


def print_diagnostic(diagnostic: Diagnostic) -> None:
    """One diagnostic as llvm-profdata prints it (plus our located detail for bad inputs)."""
    err = sys.stderr
    if isinstance(diagnostic, RecordWarning):
        err.write(f"{diagnostic.source}: {diagnostic.function}: {diagnostic.kind.value}\n")
        if diagnostic.first_time and diagnostic.kind.wants_hint:
            err.write(HINT + "\n")
    elif isinstance(diagnostic, ContextWarning):
        err.write(f"warning: {diagnostic.kind.value}\n")
    elif isinstance(diagnostic, InputFailure):
        write_input_failure(diagnostic.path, diagnostic.message, diagnostic.error)
    elif isinstance(diagnostic, FilterNote):
        err.write(
            f"{diagnostic.removed} of {diagnostic.total} functions "
            "in the original profile are filtered.\n"
        )
    err.flush()


def _options(args: argparse.Namespace) -> MergeOptions:
    remapping = read_remapping(args.remapping_file) if args.remapping_file else {}
    reservoir = args.temporal_profile_trace_reservoir_size
    max_length = args.temporal_profile_max_trace_length
    return MergeOptions(
        release=args.release,
        num_threads=args.num_threads,
        failure_mode=FailureMode(args.failure_mode),
        trace_reservoir_size=100 if reservoir is None else reservoir,
        max_trace_length=10000 if max_length is None else max_length,
        keep_vtable_symbols=args.keep_vtable_symbols,
        remapping=remapping,
        function=args.function,
        no_function=args.no_function,
        random_hotness_seed=_hotness_seed(args),
        # one rand() sequence over the inputs in order: no loading in other processes
        processes=1 if args.memprof_random_hotness else 0,
    )


def _hotness_seed(args: argparse.Namespace) -> int | None:
    """``--memprof-random-hotness``'s seed (0: the time, as ``std::time(nullptr)``)."""
    if not args.memprof_random_hotness:
        return None
    return args.memprof_random_hotness_seed or int(time.time()) & 0xFFFFFFFF


def _encode(
    args: argparse.Namespace, merged: InstrProfile, sparse: InstrProfile
) -> list[bytes | bytearray | memoryview]:
    """The output's bytes, as chunks written one after the other."""
    if args.output_format == "text":
        from profdata.formats import text as text_format

        text = text_format.merge_text(sparse, args.release)
        if text is None:  # a written record has no name
            _warn(f"{MalformedError.llvm_message}: {args.release.empty_name} is empty")
            return [text_format.format_header(sparse.kind, args.release).encode()]
        return [text]
    version = PREV_INDEXED_VERSION if args.write_prev_version else None
    chunks: list[bytes | bytearray | memoryview] = []
    chunks += encode_indexed(
        merged, release=args.release, version=version, sparse=args.sparse,
        memprof_version=None if args.memprof_version is None else int(args.memprof_version),
        memprof_full_schema=args.memprof_full_schema, fill_in_two=fill_in_two,
    )  # fmt: skip
    return chunks


def run(args: argparse.Namespace) -> int:
    """``merge`` of instrumentation profiles (the ``run`` of :mod:`profdata.cli.merge`)."""
    inputs = merge_inputs(args)
    if inputs is None:
        return 0
    options = _options(args)
    if args.output_format == "gcc":
        raise UsageError("unknown format is specified")
    load = _correlating_loader(args)
    if options.random_hotness_seed is not None:  # each writer context's constructor says it
        for _ in range(context_count(len(inputs), options.num_threads)):
            sys.stderr.write(f"random hotness seed = {options.random_hotness_seed}\n")
    if args.dask:
        if load is not None:
            raise UsageError("--dask does not take --debug-info, --binary-file or --correlate")
        if options.random_hotness_seed is not None:
            raise UsageError("--dask does not take --memprof-random-hotness")
        _write(args, _merge_on_dask(args, inputs, options))
        return 0
    # the merge makes arrays and a few large lists of names, and no cycles: the collector
    # would only scan them (a tenth of the encoding's time)
    with collector_paused():
        if load is not None:
            result = merge_instr(inputs, options, load=load, sink=print_diagnostic)
        else:
            result = merge_instr(inputs, options, sink=print_diagnostic)
        _write(args, result)
    return 0


def _write(args: argparse.Namespace, result: MergeResult) -> None:
    writer = result.writer
    text = args.output_format == "text"
    merged = writer.to_profile()
    # only the text writer takes a profile without the all-zero names: the indexed writer
    # drops them itself, after they shaped LLVM's order
    written = writer.to_profile(sparse=True) if text and args.sparse else merged
    to_stdout = args.output == "-"
    if to_stdout and not text and sys.stdout.isatty():
        raise UsageError("cannot write a non-text format profile to the terminal")
    chunks = _encode(args, merged, written)
    if to_stdout:
        sys.stdout.flush()
        for chunk in chunks:
            sys.stdout.buffer.write(chunk)
        sys.stdout.buffer.flush()
    else:
        atomic_write_chunks(args.output, chunks)
    if args.release.merge_validates_memop_values and _has_invalid(written):
        sys.stderr.write(f"warning: {INVALID_PROFILE}\n")


def _merge_on_dask(
    args: argparse.Namespace, inputs: list[WeightedFile], options: MergeOptions
) -> MergeResult:
    """``--dask``: the merge of :mod:`profdata.ops.merge_dask` on the named cluster."""
    from profdata.ops.merge_dask import DEFAULT_CHUNK_SIZE, connect, merge_on_dask

    chunk = DEFAULT_CHUNK_SIZE if args.dask_chunk_size is None else args.dask_chunk_size
    connection = connect(args.dask)
    try:
        return merge_on_dask(
            inputs, options, connection.client, chunk_size=chunk, sink=print_diagnostic
        )
    finally:
        connection.close()


def _has_invalid(profile: InstrProfile) -> bool:
    return has_duplicate_memop_values(profile)
