"""The inputs of ``profdata merge``, whichever merge runs (instrumentation, sample,
supplement): collected in llvm-profdata's order, or listed and the command done."""

from __future__ import annotations

import argparse
import sys

from profdata.errors import UsageError
from profdata.ops.merge_inputs import WeightedFile, collect

PROG = "llvm-profdata merge"


def merge_inputs(args: argparse.Namespace) -> list[WeightedFile] | None:
    """Positional files and directories, ``--weighted-input`` and ``-f`` files; ``None``
    once ``--dump-input-file-list`` has printed them (nothing is merged then)."""
    inputs = collect(args.inputs, args.weighted_input, args.input_files)
    if not inputs:
        raise UsageError(f"no input files specified. See {PROG} -help")
    if args.dump_input_file_list:
        sys.stdout.write("".join(f"{entry.weight},{entry.path}\n" for entry in inputs))
        return None
    return inputs


__all__ = ["PROG", "merge_inputs"]
