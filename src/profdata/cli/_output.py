"""Where a command's text goes: stdout or ``-o FILE``, written atomically.

Names are ``str`` with surrogate escapes for undecodable bytes, so output is
encoded with the same error handler to give back the exact bytes of the input.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from profdata.atomic import atomic_write_chunks
from profdata.errors import CommandLineError, FormatError, OutputStreamError
from profdata.model.names import ENCODING, ERRORS
from profdata.pieces import Chunk, flat, write_pieces


class Output:
    """Collects text and writes it once, so a failure never leaves half a file."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path if path not in (None, "-") else None
        self.parts: list[Chunk] = []

    def write(self, text: str | bytes | memoryview) -> None:
        """Text, or bytes already encoded (what a renderer built as bytes hands over)."""
        self.parts.append(text.encode(ENCODING, ERRORS) if isinstance(text, str) else text)

    def write_all(self, chunks: list[Chunk]) -> None:
        """Bytes in pieces (a large dump is hundreds of thousands of them, made as
        they are written)."""
        self.parts.extend(chunks)

    def close(self) -> None:
        """Write the parts in turn (a large text is not joined into one more copy)."""
        if self.path is None:
            write_stdout(self.parts)
        else:
            atomic_write_chunks(self.path, self.parts)


def write_stdout(chunks: list[Chunk]) -> None:
    """The pieces to standard output: straight to its file descriptor, in batches,
    unless it has none (a test capturing it)."""
    try:
        sys.stdout.flush()
        out = sys.stdout.buffer
        out.flush()
        try:
            fd = out.fileno()
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation
            out.writelines(flat(chunks))
            out.flush()
        else:
            write_pieces(fd, chunks)
    except BrokenPipeError:
        raise  # the reader left: main() ends quietly
    except OSError as exc:
        raise OutputStreamError(exc) from exc


def output_over_input(
    command: str, output: str, inputs: Sequence[str], *, same_name: bool = False
) -> CommandLineError | None:
    """The refusal of an output that would replace an input profile.

    ``show`` refuses an output named as its input (``same_name``: the names as typed,
    so ``show -`` printing to stdout too).  LLVM opens the output before it reads, so
    another spelling of the file (``./x``) -- and ``overlap``'s or ``order``'s
    output over an input, which it never checks -- truncate the profile before it is
    read.  A command that prints text never replaces a profile here: those are
    refused with the same line.
    """
    for path in inputs:
        if (same_name and path == output) or (
            "-" not in (path, output) and _same_file(path, output)
        ):
            return CommandLineError(
                f"llvm-profdata {command}: Input file name cannot be the same as the output "
                "file name!"
            )
    return None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one does not exist (yet), or a name with a NUL
        return False


def write_input_failure(path: str, message: str, error: object) -> None:
    """``warning: FILE: message`` for an input a merge could not use, and our located
    detail line when the error knows where the input went wrong."""
    sys.stderr.write(f"warning: {path}: {message}\n")
    if isinstance(error, FormatError):
        detail = error.locate()
        if detail:
            sys.stderr.write(f"  detail: {detail}\n")
