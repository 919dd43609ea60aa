"""``merge`` from Python: profile files in, a merged profile (or its file) out.

:func:`profdata.ops.merge.merge_instr` exposes every knob of the command
line and reports diagnostics one by one; most callers want
``merge_files(paths) -> profile`` and ``write_profile(profile, path)``, with
the same bytes ``profdata merge`` (and so ``llvm-profdata merge``) writes.
Warnings that the command prints (hash mismatches, overflows, unreadable
inputs under ``failure_mode="warn"``) are returned with the profile.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from profdata.atomic import atomic_write_chunks
from profdata.errors import UsageError
from profdata.formats import text as text_format
from profdata.formats.indexed_write import encode_indexed
from profdata.model.instr import InstrProfile
from profdata.ops.merge import Diagnostic, MergeOptions, merge_instr
from profdata.ops.merge_dask import DEFAULT_CHUNK_SIZE, merge_on_dask
from profdata.ops.merge_inputs import FailureMode, WeightedFile
from profdata.releases import Release, release

Input = str | os.PathLike[str] | tuple[int, "str | os.PathLike[str]"]


@dataclass
class Merged:
    """A merged profile and what the merge had to say about its inputs."""

    profile: InstrProfile
    diagnostics: list[Diagnostic]
    failed_inputs: int


def merge_files(
    inputs: Iterable[Input],
    *,
    rel: Release | None = None,
    num_threads: int = 0,
    failure_mode: str = "any",
    function: str = "",
    no_function: str = "",
    remapping: Mapping[str, str] | None = None,
    sparse: bool = False,
    client: Any = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
) -> Merged:
    """Merge profile files (raw, indexed or text; ``(weight, path)`` for a weighted one).

    With a ``dask.distributed.Client``, chunks of ``chunk_size`` inputs are
    merged on its cluster and the chunks' results here
    (:mod:`profdata.ops.merge_dask` says what that gives).  Raises
    :class:`~profdata.errors.MergeError` as the command fails (an unreadable
    input under ``failure_mode="any"``, every input under ``"all"``).
    """
    entries = [
        WeightedFile(os.fspath(item[1]), item[0])
        if isinstance(item, tuple)
        else WeightedFile(os.fspath(item), 1)
        for item in inputs
    ]
    if not entries:
        raise UsageError("no input files specified")
    options = MergeOptions(
        release=rel or release(),
        num_threads=num_threads,
        failure_mode=FailureMode(failure_mode),
        function=function,
        no_function=no_function,
        remapping=dict(remapping or {}),
    )
    if client is not None:
        result = merge_on_dask(entries, options, client, chunk_size=chunk_size)
    else:
        result = merge_instr(entries, options)
    return Merged(result.writer.to_profile(sparse=sparse), result.diagnostics, result.failed_inputs)


def write_profile(
    profile: InstrProfile,
    path: str | os.PathLike[str],
    *,
    text: bool = False,
    rel: Release | None = None,
    sparse: bool = False,
) -> None:
    """Write ``profile`` indexed (the release's version) or as text, atomically."""
    chosen = rel or release()
    if text:
        chunks: list[bytes | bytearray | memoryview] = [text_format.write(profile, chosen)]
    else:
        chunks = [*encode_indexed(profile, release=chosen, sparse=sparse)]
    atomic_write_chunks(os.fspath(path), chunks)


__all__ = ["Merged", "merge_files", "write_profile"]
