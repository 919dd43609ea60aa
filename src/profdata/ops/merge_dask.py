"""``merge`` of a fleet's profiles on a Dask cluster: chunks on the workers, then one merge here.

One machine merges a few hundred raw profiles a second (:mod:`profdata.ops.merge_fast`);
thousands of large ones from a fleet are better spread over many.  The
inputs are cut into chunks of consecutive inputs; each Dask worker merges a
chunk exactly as ``profdata merge`` would (same release, ``-j``, weights,
remapping, trace reservoir) into an indexed profile held in memory, and this
process merges those partial profiles, in chunk order, into the result.

So the result is, by construction, what ``llvm-profdata merge`` of the
selected release writes for the chunks' merged profiles (each chunk merged
by ``llvm-profdata merge``, then those files merged).  Counter sums are
those of one flat merge; what can differ from a flat merge is what LLVM's
merge itself makes order-dependent: a value site that outgrows 255 values
(each merge keeps the 255 largest), a counter that saturates, and the
temporal-trace reservoir (sampled per chunk, then again).

Workers read the input paths themselves, so the files must be visible to
them under the same paths (a shared file system).  Unreadable inputs are
reported per input as usual, and ``--failure-mode`` is decided over all the
inputs at the end; ``--function``/``--no-function`` filter the final result
only, and a remapping applies once, in the chunks.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from profdata.errors import MergeError, UsageError
from profdata.formats.indexed_write import encode_indexed
from profdata.ops.merge import (
    Diagnostic,
    MergeOptions,
    MergeResult,
    RecordWarning,
    Reporter,
    merge_instr,
)
from profdata.ops.merge_inputs import FailureMode, InputFailure, WeightedFile

#: inputs per chunk when the caller does not say: a chunk's fixed cost (reading the
#: first profile's shape, encoding the partial profile) is then a small share of it
DEFAULT_CHUNK_SIZE = 64


@dataclass(frozen=True)
class ChunkResult:
    """What a worker sends back: the chunk's merged profile and its diagnostics."""

    data: bytes  # indexed profile; empty when no input of the chunk could be merged
    diagnostics: list[Diagnostic]
    failed: int


def merge_chunk(entries: Sequence[WeightedFile], options: MergeOptions) -> ChunkResult:
    """Merge one chunk (runs on a worker): every input failure is only noted here, as
    ``--failure-mode`` is decided over all the inputs."""
    chunk_options = replace(
        options, failure_mode=FailureMode.WARN, function="", no_function="", processes=1
    )
    result = merge_instr(list(entries), chunk_options)
    if result.failed_inputs == len(entries):
        return ChunkResult(b"", result.diagnostics, result.failed_inputs)
    data = b"".join(encode_indexed(result.writer.to_profile(), release=options.release))
    return ChunkResult(data, result.diagnostics, result.failed_inputs)


def chunk_label(index: int, first: int, last: int) -> str:
    """How a chunk's merged profile is named in warnings of the final merge."""
    return f"<dask chunk {index + 1}: inputs {first + 1}-{last + 1}>"


def merge_on_dask(
    inputs: Sequence[WeightedFile],
    options: MergeOptions,
    client: Any,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    sink: Any = None,
) -> MergeResult:
    """``merge_instr`` of ``inputs`` with the chunks merged on ``client``'s cluster (a
    ``dask.distributed.Client``); raises :class:`~profdata.errors.MergeError` as the
    command fails.  Diagnostics are emitted to ``sink`` once all chunks are in:
    the chunks' warnings in input order, the final merge's, then the failed inputs."""
    if chunk_size < 1:
        raise UsageError(f"the Dask chunk size must be at least 1, not {chunk_size}")
    if any(entry.path == "-" for entry in inputs):
        raise UsageError("standard input cannot be merged on a Dask cluster")
    bounds = [(lo, min(lo + chunk_size, len(inputs))) for lo in range(0, len(inputs), chunk_size)]
    chunks = [list(inputs[lo:hi]) for lo, hi in bounds]
    futures = client.map(merge_chunk, chunks, options=options, pure=False)
    results: list[ChunkResult] = client.gather(futures)
    for future in futures:  # the cluster may close next: it keeps nothing for us
        future.release()

    reporter = Reporter(sink)
    failures: list[InputFailure] = []
    for result in results:
        for diagnostic in result.diagnostics:
            if isinstance(diagnostic, InputFailure):
                failures.append(diagnostic)
            else:
                _replay(reporter, diagnostic)
    failed = sum(result.failed for result in results)
    merged = [(index, result) for index, result in enumerate(results) if result.data]
    final_options = replace(options, remapping={}, failure_mode=FailureMode.ANY)
    with tempfile.TemporaryDirectory(prefix="profdata-dask-") as scratch:
        labels: dict[str, str] = {}
        parts = []
        for index, result in merged:
            path = os.path.join(scratch, f"chunk-{index + 1:06d}.profdata")
            with open(path, "wb") as out:
                out.write(result.data)
            lo, hi = bounds[index]
            labels[path] = chunk_label(index, lo, hi - 1)
            parts.append(WeightedFile(path, 1))
        writer = None
        if parts:
            final = merge_instr(parts, final_options)
            writer = final.writer
            for diagnostic in final.diagnostics:
                if isinstance(diagnostic, RecordWarning) and diagnostic.source in labels:
                    diagnostic = replace(diagnostic, source=labels[diagnostic.source])
                _replay(reporter, diagnostic)
    for failure in failures:
        reporter.emit(failure)
    mode = options.failure_mode
    if (failed == len(inputs) and mode is FailureMode.ALL) or (failed and mode is FailureMode.ANY):
        raise MergeError(f"{failed} of {len(inputs)} inputs could not be merged")
    if writer is None:  # every input failed, and --failure-mode=warn
        writer = merge_instr([], final_options).writer
    return MergeResult(writer, reporter.diagnostics, failed)


def _replay(reporter: Reporter, diagnostic: Diagnostic) -> None:
    """Emit a diagnostic made elsewhere; the hint of a record warning goes with the
    first warning of its kind in the whole merge."""
    if isinstance(diagnostic, RecordWarning):
        diagnostic = replace(diagnostic, first_time=reporter.first_time(diagnostic.kind))
    reporter.emit(diagnostic)


@dataclass
class Connection:
    """A client of a Dask cluster, and the cluster when it is our own (closed with it)."""

    client: Any
    cluster: Any = None

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def connect(where: str) -> Connection:
    """The cluster of ``--dask=WHERE``: ``local[:WORKERS]`` starts one on this machine,
    anything else is a scheduler's address.  Raises
    :class:`~profdata.errors.UsageError` without dask or a reachable scheduler."""
    try:
        from dask.distributed import Client
    except ImportError as exc:
        raise UsageError(
            f"--dask needs the dask[distributed] package ({exc}); pip install 'profdata[dask]'"
        ) from None
    if where == "local" or where.startswith("local:"):
        workers = where.partition(":")[2]
        if workers and not workers.isdigit():
            raise UsageError(f"--dask=local:N takes a number of workers, not {workers!r}")
        client = local_client(int(workers) if workers else None)
        return Connection(client, client.cluster)
    try:
        return Connection(Client(where, timeout="30s"))  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler {where}: {exc}") from None


def local_client(workers: int | None = None) -> Any:
    """A ``dask.distributed.Client`` of a cluster on this machine (one single-threaded
    worker process per CPU, or ``workers``)."""
    import logging

    from dask.distributed import Client, LocalCluster

    # a cluster of our own: its workers' comings and goings are no news to the user
    logging.getLogger("distributed").setLevel(logging.ERROR)
    count = workers or os.cpu_count() or 1
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=count, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    return Client(cluster)  # type: ignore[no-untyped-call]


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "ChunkResult",
    "Connection",
    "connect",
    "local_client",
    "merge_chunk",
    "merge_on_dask",
]
