"""``profdata`` command line: argv -> API calls -> stdout/stderr/exit code.

Each subcommand is a module with ``add_arguments(parser)`` and
``run(args) -> int``.  Errors are printed the way llvm-profdata prints them
(``error: FILE: message``) followed by one line of our own that locates the
fault; exit status 1; ``--traceback`` shows the stack for bug reports.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

from profdata import releases
from profdata.cli import _options
from profdata.errors import (
    CommandLineError,
    FileError,
    FormatError,
    OutputStreamError,
    ProfdataError,
    UnrecognizedFormatError,
    UsageError,
)
from profdata.fork_policy import waiting_here
from profdata.heap import keep_freed_memory

if TYPE_CHECKING:
    from profdata.cli._output import Output

#: subcommand -> its module, imported when the command runs: ``show`` on a big
#: profile should not pay for loading merge's writers and thread pools first
COMMANDS: dict[str, str] = {
    "show": "profdata.cli.show",
    "merge": "profdata.cli.merge",
    "overlap": "profdata.cli.overlap",
    "order": "profdata.cli.order",
}


def command_module(name: str) -> ModuleType | None:
    """The module of subcommand ``name`` (None for an unknown command)."""
    module = COMMANDS.get(name)
    if module is None:
        return None
    # Nothing here calls BLAS, but OpenBLAS starts a thread per core when numpy is
    # imported, which costs more than reading a small profile; a user's setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    return importlib.import_module(module)


def __getattr__(name: str) -> Any:
    if name == "Output":
        from profdata.cli._output import Output

        return Output
    raise AttributeError(f"module 'profdata.cli' has no attribute {name!r}")


PROG = "llvm-profdata"
USAGE = """OVERVIEW: LLVM profile data tools (profdata)

USAGE: profdata [--llvm-release=N] <command> [args...]

Commands:
  merge    Merge profiles (raw, indexed, text) into one indexed or text profile
  order    Print a function order that reduces startup page faults (temporal profiling)
  overlap  Show the overlap of two instrumentation profiles (program and function level)
  show     Show profile data

Global options:
  --llvm-release=N  mirror the behaviour of llvm-profdata of LLVM release N (11-22, default 22)
  --traceback       print the Python stack on errors
"""


def _split_globals(argv: list[str]) -> tuple[list[str], int, bool]:
    """Pull ``--llvm-release=N`` and ``--traceback`` out of argv, wherever they stand."""
    rel = os.environ.get("PROFDATA_LLVM_RELEASE")
    tb = False
    rest: list[str] = []
    it = iter(argv)
    for arg in it:
        stripped = arg.lstrip("-")
        if arg.startswith("-") and stripped.startswith("llvm-release"):
            _, eq, value = stripped.partition("=")
            rel = value if eq else next(it, "")
        elif arg in ("--traceback", "-traceback"):
            tb = True
        else:
            rest.append(arg)
    try:
        number = int(rel) if rel else releases.DEFAULT_RELEASE
        releases.release(number)
    except ValueError as exc:
        raise UsageError(f"--llvm-release: {exc}") from None
    return rest, number, tb


def report(exc: ProfdataError, release: releases.Release | None = None) -> None:
    """llvm-profdata's error line (and the note ``exitWithError`` adds to an
    instrumentation input no reader recognizes), then our located detail."""
    if isinstance(exc, CommandLineError):
        print(exc.headline(), file=sys.stderr)
        return
    print(f"error: {exc.headline()}", file=sys.stderr)
    if (
        release is not None
        and isinstance(exc, UnrecognizedFormatError)
        and exc.llvm_message == UnrecognizedFormatError.llvm_message  # not a sample one
    ):
        print(f"note: {_options.format_hint(release)}", file=sys.stderr)
    if isinstance(exc, FormatError):
        detail = exc.locate()
        if detail:
            print(f"  detail: {detail}", file=sys.stderr)
    elif exc.detail and not isinstance(exc, UsageError | FileError):
        print(f"  detail: {exc.detail}", file=sys.stderr)


def _print_traceback() -> None:
    """The exception's traceback (``--traceback``), with :mod:`traceback` imported
    only then: 3 ms of every command's start-up otherwise."""
    import traceback

    traceback.print_exc()


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    tb = "--traceback" in args_in
    number = releases.DEFAULT_RELEASE
    try:
        args_in = _options.expand_response_files(args_in)
        rest, number, tb = _split_globals(args_in)
        if rest and rest[0] in ("-h", "--help", "-help"):
            sys.stdout.write(USAGE)
            return 0
        if not rest:
            raise _options.command_error(releases.release(number), None)
        if rest[0] in ("--version", "-version"):
            print(_options.version_line(releases.release(number)))
            return 0
        rel = releases.release(number)
        command = command_module(rest[0])
        if command is None:
            raise _options.command_error(rel, rest[0])
        refusal = getattr(command, "unavailable", None)
        if refusal is not None and (error := refusal(rel)) is not None:
            raise error
        parser = _options.LlvmArgumentParser(
            prog=f"{PROG} {rest[0]}",
            tool=_options.cl_tool(rel, rest[0]),
            command=rest[0],
            release=rel,
        )
        command.add_arguments(parser)
        args = parser.parse_llvm_args(rest[1:])
        args.release = releases.release(number)
        keep_freed_memory()
        code: int = command.run(args)
        return code
    except ProfdataError as exc:
        if tb:
            _print_traceback()
        rel = releases.release(number)
        report(exc.for_release(rel), rel)
        return 1
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)  # stdout holds its own copy now
        return READER_LEFT
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # a write to the standard streams failed (a full disk)
        if tb:
            _print_traceback()
        with contextlib.suppress(OSError):
            if exc.filename is None:
                report(OutputStreamError(exc))
            else:  # files are opened through FileError; this one slipped past
                report(FileError(exc.strerror or str(exc), path=str(exc.filename)))
        return 1
    except RecursionError:
        if tb:
            _print_traceback()
        print(
            "error: the profile nests deeper than profdata can follow "
            f"(more than {sys.getrecursionlimit()} levels of Python recursion)",
            file=sys.stderr,
        )
        return 1
    except MemoryError:  # e.g. a small compressed section that inflates to gigabytes
        if tb:
            _print_traceback()
        print("error: out of memory: the input holds more than profdata can hold", file=sys.stderr)
        return 1


#: the status of a command whose reader left (``show | head``): the shell's for a process
#: killed by SIGPIPE, which is how llvm-profdata ends there; :func:`leave` ends so too
READER_LEFT = 128 + 13


#: the command's thread: sample profiles nest inlined call sites to any depth, and their
#: readers, writers and printers recurse as LLVM's do; llvm-profdata follows thousands
#: of levels on its 8 MiB stack, Python's default recursion limit stops at 1000
DEEP_STACK = 256 << 20
DEEP_RECURSION = 100_000


def run_with_deep_stack(argv: Sequence[str] | None = None) -> int:
    """:func:`main` in a thread with a large stack and recursion limit (or, where no such
    thread can start, in this one).  Ctrl-C reaches the main thread only; it is passed on
    to the command as a ``KeyboardInterrupt``, so its clean-up (temporary outputs) runs."""
    result: list[int] = []
    finished = threading.Event()

    def command() -> None:
        try:
            result.append(main(argv))
        except KeyboardInterrupt:  # arrived before main() or after it returned
            result.append(130)
        except SystemExit as exc:  # argparse's --help (0); a thread would swallow it
            result.append(exit_status(exc))
        finally:
            finished.set()

    try:
        previous = threading.stack_size(DEEP_STACK)
    except (ValueError, RuntimeError):
        return main(argv)
    worker = threading.Thread(target=command, name="profdata")
    started = True
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, DEEP_RECURSION))
    with _interrupts_noted() as interrupts, waiting_here():
        try:
            worker.start()
        except KeyboardInterrupt:  # SIGINT not noted (see below): the thread runs now
            interrupts.set()
        except RuntimeError:  # no memory for the stack
            started = False
        finally:
            threading.stack_size(previous)
        # Thread.join interrupted by Ctrl-C can take a running thread for finished: the
        # main thread waits on an event instead, and hands every Ctrl-C on
        while started:
            try:
                if finished.wait(0.1):
                    break
            except KeyboardInterrupt:
                interrupts.set()
            if interrupts.is_set() and worker.ident is not None:
                interrupts.clear()
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(worker.ident), ctypes.py_object(KeyboardInterrupt)
                )
    if not started:
        sys.setrecursionlimit(limit)
        return main(argv)
    worker.join()
    sys.setrecursionlimit(limit)
    return result[0] if result else 1


@contextlib.contextmanager
def _interrupts_noted() -> Iterator[threading.Event]:
    """Ctrl-C as an event the main thread looks at, not an exception: raised in the main
    thread it could land anywhere, even between starting the command and waiting for it,
    and be lost.  Where SIGINT is not Python's (ignored in the background, or another
    handler) or this is not the main thread, it stays as it was and is never set."""
    noted = threading.Event()
    installed = False
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        with contextlib.suppress(ValueError):  # not the main thread
            signal.signal(signal.SIGINT, lambda _signum, _frame: noted.set())
            installed = True
    try:
        yield noted
    finally:
        if installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def exit_status(exc: SystemExit) -> int:
    """The process status ``sys.exit`` would give ``exc``: a message is printed and is 1."""
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or 0
    print(exc.code, file=sys.stderr)
    return 1


def console_main() -> None:
    # names and lines quoted in messages are bytes held as surrogate escapes: write those
    # bytes back as they were, as llvm-profdata prints them (not as "\udcXX")
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")
    # a Dask client wants the main thread (its signal handlers); instr merges never nest
    if any(arg.startswith("--dask") for arg in sys.argv[1:]):
        sys.exit(main())
    leave(run_with_deep_stack())


def leave(code: int) -> NoReturn:
    """End the process without the interpreter's tear-down (killed by SIGPIPE when the
    reader of standard output left, as llvm-profdata is).

    The tear-down frees every object one at a time: after a merge of 128
    runs of a 100,000-function program that took 0.16 s (measured), all of it
    after the output was complete.  By now outputs are written, closed and
    renamed, and nothing registers exit handlers outside the Dask path (which
    exits normally); the standard streams are flushed here instead.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # the reader left; the stream was closed
            code = code or READER_LEFT
        except OSError as exc:  # what print() left in the buffer met a full disk
            # a failed command has said why already (often this very write, retried here)
            if stream is sys.stdout and not code:
                code = 1
                with contextlib.suppress(OSError, ValueError):
                    report(OutputStreamError(exc))
                    sys.stderr.flush()
    sigpipe = getattr(signal, "SIGPIPE", None)  # POSIX only
    if code == READER_LEFT and sigpipe is not None:
        # Python ignores SIGPIPE (hence BrokenPipeError); restored, it ends the process as
        # it ends llvm-profdata, so a caller sees the same death (-13 from subprocess)
        signal.signal(sigpipe, signal.SIG_DFL)
        os.kill(os.getpid(), sigpipe)
    os._exit(code)


__all__ = [
    "COMMANDS", "READER_LEFT", "Output", "command_module", "exit_status", "leave", "main",
    "run_with_deep_stack",
]  # fmt: skip
