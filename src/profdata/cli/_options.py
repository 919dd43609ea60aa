"""llvm-profdata's command-line spellings on top of argparse.

LLVM's ``cl::opt`` accepts ``-name`` as well as ``--name``, ``-name=value``,
``--flag=true|false`` and ``@response-file``; scripts written for
llvm-profdata use all of them, so they are rewritten here into the one
spelling argparse understands before parsing.  Abbreviations are refused, as
LLVM refuses them.
"""

from __future__ import annotations

import argparse
import re
import shlex
from collections.abc import Callable, Container, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from profdata.errors import CommandLineError
from profdata.releases import DEFAULT_RELEASE, Release

if TYPE_CHECKING:
    from profdata.formats.sample_reading import SampleReading
    from profdata.model.summary import SummaryThresholds

#: ``cl::parser<bool>``'s spellings: an empty value (``--sparse=``) is true, ``yes``/``on`` are
#: not accepted
_TRUE = {"", "true", "1", "TRUE", "True"}
_FALSE = {"false", "0", "FALSE", "False"}


#: ``FSDiscriminatorPass`` as ``--fs-discriminator-pass`` spells it, in order
FS_PASSES = ("Base", "Pass1", "Pass2", "Pass3", "PassLast")


def summary_thresholds(args: argparse.Namespace) -> SummaryThresholds:
    """The ``--profile-summary-*`` options, for the hot and cold count thresholds."""
    # imported here: the model package loads numpy (see _unsigned)
    from profdata.model.summary import SummaryThresholds

    hot, cold = args.profile_summary_hot_count, args.profile_summary_cold_count
    return SummaryThresholds(
        args.profile_summary_cutoff_hot,
        args.profile_summary_cutoff_cold,
        None if hot is None else hot & ((1 << 64) - 1),  # 14's int, as uint64_t
        None if cold is None else cold & ((1 << 64) - 1),
    )


def sample_reading(args: argparse.Namespace) -> SampleReading:
    """The sample readers' global options."""
    # imported here: the formats package loads numpy (see _unsigned)
    from profdata.formats.sample_reading import SampleReading

    return SampleReading(
        args.profile_isfs,
        FS_PASSES.index(args.fs_discriminator_pass),
        args.profile_symbol_list_cutoff,
        args.profile_summary_contextless,
    )


def expand_response_files(argv: Sequence[str], depth: int = 0) -> list[str]:
    """Replace every ``@file`` by the words in it (GNU quoting, nested files allowed)."""
    out: list[str] = []
    for arg in argv:
        if arg.startswith("@") and len(arg) > 1 and depth < 20:
            path = Path(arg[1:])
            try:
                text = path.read_text(encoding="utf-8", errors="surrogateescape")
            except OSError:
                out.append(arg)  # LLVM leaves an unreadable @name as a literal argument
                continue
            out.extend(expand_response_files(shlex.split(text, comments=False), depth + 1))
        else:
            out.append(arg)
    return out


def version_line(release: Release | None) -> str:
    """What ``--version`` prints: ours, and the llvm-profdata release we mirror."""
    from profdata import __version__

    number = DEFAULT_RELEASE if release is None else release.number
    return f"profdata {__version__} (llvm-profdata {number} compatible)"


class LlvmArgumentParser(argparse.ArgumentParser):
    """An ArgumentParser that reads LLVM spellings and reports errors as UsageError."""

    def __init__(
        self,
        *args: Any,
        tool: str = "llvm-profdata",
        command: str = "",
        release: Release | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self._bool_options: set[str] = set()
        #: how the tool names itself in usage errors: LLVM 16 and older add the subcommand
        self.tool = tool
        #: the subcommand, whose one-letter value options (:data:`VALUE_LETTERS`) group
        self.command = command
        #: the release whose option set and parser rules apply (None: every option, 22's rules)
        self.release = release
        #: value names of enum options (``-text``, ``-sample``): name -> (option, description)
        self._enum_values: dict[str, tuple[str, str]] = {}
        #: options ``cl`` lets occur more than once even in 14 (``cl::list``, ``cl::ZeroOrMore``)
        self._repeatable: set[str] = set()
        #: a flag's stand-in for ``=false`` where False differs from absent (add_flag)
        self._false_twins: dict[str, str] = {}
        # cl's other help options print everything --help prints here (no hidden options)
        self.add_argument(
            "--help-hidden", "--help-list", "--help-list-hidden",
            action="help", help="the same as --help",
        )  # fmt: skip
        # cl's option printers, which print nothing for a subcommand's options
        for printer in ("--print-options", "--print-all-options"):
            self.add_flag(
                printer,
                help="accepted; llvm-profdata prints nothing for a subcommand's options either",
            )
        # 20+: two options of no subcommand, which every subcommand takes (merge uses them)
        self.add_value(
            "--debug-file-directory", action="append", default=[], metavar="DIR",
            available=self.knows(lambda r: r.correlate_by_build_id),
            help="with --correlate: find each raw input's binary as "
            "DIR/.build-id/xx/rest.debug by its build ID (LLVM 20+)",
        )  # fmt: skip
        self.add_value(
            "--correlate", choices=("", "debug-info", "binary"), default="",
            available=self.knows(lambda r: r.correlate_by_build_id),
            help="correlate raw inputs with the binary their build ID names, by its debug "
            "info or its profile sections (LLVM 20+)",
        )  # fmt: skip
        self.allow_repeats("--debug-file-directory")
        # a libLLVM option and an llvm-profdata one, global, so every subcommand takes them
        # (14-22): how the sample readers take flow-sensitive discriminators
        self.add_flag(
            "--profile-isfs",
            help="read text, binary and compact binary sample profiles as FS-AFDO profiles "
            "(flow-sensitive discriminators)",
        )
        self.add_value(
            "--fs-discriminator-pass", choices=FS_PASSES, default=FS_PASSES[-1],
            help="in FS-AFDO sample profiles, zero the discriminator bits of the passes "
            "after this one (default: keep all)",
        )  # fmt: skip
        self.add_flag(
            "--generate-merged-base-profiles", given_only=True,
            available=self.knows(lambda r: r.number >= 14),  # came with the CS converter
            help="when nesting CS sample profiles, also keep each folded context as (part "
            "of) its function's base profile (default: LLVM 14 yes, later no)",
        )  # fmt: skip
        self.add_uint(
            "--profile-symbol-list-cutoff", bits=64, default=(1 << 64) - 1,
            help="keep only the first N symbols of an ext-binary profile symbol list",
        )  # fmt: skip
        # libLLVM's ProfileSummaryBuilder options (the counts are ReallyHidden in LLVM)
        self.add_flag(
            "--profile-summary-contextless", given_only=True,
            help="summarise sample profiles with their CS contexts merged by function "
            "(=false: one entry a context; default: merged for CS profiles)",
        )  # fmt: skip
        for which, default in (("hot", 990000), ("cold", 999999)):
            self.add_value(
                f"--profile-summary-cutoff-{which}", type=int32, default=default,
                help=f"the summary cutoff whose minimum count is the {which} count threshold "
                f"(default {default})",
            )  # fmt: skip
            as_int = release is not None and release.summary_counts_are_int
            self.add_value(
                f"--profile-summary-{which}-count", type=int32 if as_int else uint64,
                default=None,
                help=f"the {which} count threshold itself, whatever the summary says",
            )  # fmt: skip
        self.add_flag(
            "--extbinary-write-vtable-type-prof",
            available=self.knows(lambda r: r.sample_vtable_types),
            help="the ext-binary sample writer writes vtable type samples (LLVM 22)",
        )
        # cl::ZeroOrMore in 14 (before 15 let every option repeat), unlike the FS ones
        self.allow_repeats(
            "--generate-merged-base-profiles", "--profile-symbol-list-cutoff",
            "--profile-summary-contextless", *(
                f"--profile-summary-{what}"
                for what in ("cutoff-hot", "cutoff-cold", "hot-count", "cold-count")
            ),
        )  # fmt: skip
        # cl's --version is one of its generic options, taken by every subcommand
        self.add_argument(
            "--version",
            action="version",
            version=version_line(release),
            help="print profdata's version and the llvm-profdata release it mirrors",
        )

    def knows(self, feature: Callable[[Release], bool]) -> bool:
        """Whether the selected release has ``feature`` (a parser without one has them all)."""
        return self.release is None or feature(self.release)

    def add_value(
        self, *names: str, available: bool = True, **kwargs: Any
    ) -> argparse.Action | None:
        """``add_argument``, or, when the selected release lacks the option, only its
        default: the word is then unknown to the parser as it was to ``cl``, whatever its
        value (``--covered=0``, ``--output-size-limit=x``)."""
        if available:
            return self.add_argument(*names, **kwargs)
        long_names = [name for name in names if name.startswith("--")]
        dest = kwargs.get("dest") or (long_names or names)[0].lstrip("-").replace("-", "_")
        self.set_defaults(**{dest: kwargs.get("default")})
        return None

    def add_enum_values(self, option: str, description: str, *names: str) -> None:
        """Mark ``names`` (added as flags by the caller) as the value names of one
        ``cl::opt`` enum, which ``cl`` parses apart from other options: a value after
        one (``-text=1``) is refused with the enum's description, and in 14 and older a
        second of them (``-instr -sample``) is a second occurrence of the option."""
        for name in names:
            self._enum_values[name.lstrip("-")] = (option, description)

    def allow_repeats(self, *names: str) -> None:
        """Options that may occur more than once in every release."""
        self._repeatable.update(names)

    def add_flag(
        self,
        *names: str,
        help: str,
        dest: str | None = None,
        available: bool = True,
        given_only: bool = False,
    ) -> None:
        """A boolean option that also accepts ``=true``/``=false`` like ``cl::opt<bool>``
        (``available``: see :meth:`add_value`).  ``given_only``: the value is None
        unless the option is given (a ``cl::init(true)`` of some releases, or a
        ``getNumOccurrences`` test), so ``=false`` is told from absence."""
        action = self.add_value(
            *names, available=available, action="store_true",
            default=None if given_only else False, help=help, dest=dest,
        )  # fmt: skip
        if action is None:
            return
        self._bool_options.update(action.option_strings)
        if given_only:  # =false stores False through a twin no one can spell
            twin = f"{_option('/'.join(action.option_strings))}\0false"
            self.add_argument(twin, action="store_false", dest=action.dest, help=argparse.SUPPRESS)
            for opt in action.option_strings:
                self._false_twins[opt] = twin

    def add_uint(
        self,
        *names: str,
        help: str,
        default: int | None = None,
        bits: int = 32,
        available: bool = True,
    ) -> None:
        """A ``cl::opt<unsigned>`` (``bits=32``) or ``cl::opt<uint64_t>`` (``bits=64``) option.

        ``None`` as the default lets the caller tell an option given from one
        left out (``available``: see :meth:`add_value`).
        """
        parse = uint32 if bits == 32 else uint64
        self.add_value(*names, available=available, type=parse, default=default, help=help)

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(llvm_usage_message(message, self.tool))

    def _long_names(self) -> set[str]:
        names: set[str] = set()
        for action in self._actions:
            for opt in action.option_strings:
                if opt.startswith("--"):
                    names.add(opt[2:])
        return names

    def normalize(self, argv: Sequence[str]) -> list[str]:
        """Rewrite LLVM spellings (``-name``, ``-name=v``, ``--flag=false``) for argparse."""
        long_names = self._long_names()
        out: list[str] = []
        positional_only = False
        occurrences = _Occurrences(self)
        words = iter(argv)
        for arg in words:
            if positional_only or not arg.startswith("-") or arg == "-":
                out.append(arg)
                continue
            if arg == "--":
                positional_only = True
                out.append(arg)
                continue
            body = arg[2:] if arg.startswith("--") else arg[1:]
            name, eq, value = body.partition("=")
            letter = grouped_letter(arg, long_names, VALUE_LETTERS.get(self.command, ""))
            if letter is not None:
                raise grouped_option_error(arg, letter, self.tool)
            action = occurrences.actions.get(_spelled(name))
            if action is None:  # cl calls any unmatched dash word an option (argparse may
                raise self._unknown(arg, body, occurrences.actions)  # take '-x y' for a file)
            occurrences.count(name, action)
            if len(name) == 1 and eq:  # --o=x, -o=x: cl's dashes are free
                out.append(f"-{name}={value}")
                continue
            if not eq and _takes_value(action):
                # cl takes the next word as the value whatever it looks like (-o -x)
                following = next(words, None)
                if following is None:
                    self.error(f"argument {_spelled(name)}: requires a value!")
                out.append(f"{_option('/'.join(action.option_strings))}={following}")
                continue
            if name in long_names:
                opt = "--" + name
                if name in self._enum_values and eq:
                    raise CommandLineError(
                        f"{self._enum_values[name][1]} option: does not allow a value! "
                        f"'{value}' specified."
                    )
                if opt in self._bool_options and eq:
                    if value in _TRUE:
                        out.append(opt)
                    elif value in _FALSE:
                        if opt in self._false_twins:  # a flag whose default may be true
                            out.append(self._false_twins[opt])
                    else:
                        self.error(
                            f"argument {opt}: '{value}' is invalid value for boolean argument! "
                            "Try 0 or 1"
                        )
                    continue
                out.append(opt + (eq + value if eq else ""))
            else:
                out.append(arg)
        return out

    def _unknown(self, arg: str, body: str, known: Iterable[str]) -> CommandLineError:
        """cl's refusal of an unknown option, with the nearest option where the release's
        choice of it is known (:mod:`~profdata.cli.option_suggestion`)."""
        # imported here: the option maps' hashes load numpy, which a good command line skips
        from profdata.cli.option_suggestion import suggestion_line

        message = f"{self.tool}: Unknown command line argument '{arg}'.  Try: '{self.tool} --help'"
        names = [spelled.lstrip("-") for spelled in known]
        line = suggestion_line(self.tool, body, self.command, names, self.release)
        return CommandLineError(message if line is None else f"{message}\n{line}")

    def parse_llvm_args(self, argv: Sequence[str]) -> argparse.Namespace:
        words = self.normalize(expand_response_files(argv))
        if "--" in words:  # argparse cannot intermix across an end-of-options marker
            return self.parse_args(words)
        return self.parse_intermixed_args(words)


def _takes_value(action: argparse.Action) -> bool:
    return action.nargs is None and isinstance(
        action, argparse._StoreAction | argparse._AppendAction
    )


def _spelled(name: str) -> str:
    """``cl``'s ``PrintArg``: one dash before a one-letter name, two before longer ones."""
    return ("-" if len(name) == 1 else "--") + name


class _Occurrences:
    """``cl``'s occurrence rule of 14 and older: an option without ``cl::ZeroOrMore``
    may be given once (``-o a -o b``, ``--sparse --sparse=0`` and ``-text -binary``
    are refused at their second occurrence); 15 lets the last one win."""

    def __init__(self, parser: LlvmArgumentParser) -> None:
        release = parser.release
        self.parser = parser
        self.active = release is not None and not release.cl_repeated_options
        self.seen: set[str] = set()
        twins = set(parser._false_twins.values())
        self.actions = {
            opt: action
            for action in parser._actions
            for opt in action.option_strings
            if opt not in twins
        }

    def count(self, name: str, action: argparse.Action) -> None:
        if not self.active or isinstance(action, argparse._AppendAction):
            return
        spelled = _option("/".join(action.option_strings))
        enum = self.parser._enum_values.get(name)
        key = enum[0] if enum is not None else spelled
        if spelled in self.parser._repeatable:
            return
        if key in self.seen:
            # an enum's value names itself; an alias (-o) errs as the option it names
            reported = "--" + name if enum is not None else spelled
            self.parser.error(f"argument {reported}: may only occur zero or one times!")
        self.seen.add(key)


_UNRECOGNIZED = re.compile(r"unrecognized arguments: (\S+)")
_INVALID_VALUE = re.compile(r"argument (\S+?): invalid \w+ value: '(.*)'")
_INVALID_CHOICE = re.compile(r"argument (\S+?): invalid choice: '(.*?)'")
_ARGUMENT = re.compile(r"argument (\S+?): (.*)")


def _option(aliases: str) -> str:
    """Of ``-j/--num-threads``, the name LLVM reports: an alias errs as the option it names."""
    names = aliases.split("/")
    return next((name for name in names if name.startswith("--")), names[0])


def llvm_usage_message(message: str, tool: str = "llvm-profdata") -> str:
    """argparse's complaint in the words ``cl::ParseCommandLineOptions`` uses."""
    if m := _UNRECOGNIZED.search(message):
        return f"{tool}: Unknown command line argument '{m.group(1)}'.  Try: '{tool} --help'"
    if m := _INVALID_VALUE.search(message):
        return (
            f"{tool}: for the {_option(m.group(1))} option: "
            f"'{m.group(2)}' value invalid for uint argument!"
        )
    if m := _INVALID_CHOICE.search(message):
        return (
            f"{tool}: for the {_option(m.group(1))} option: "
            f"Cannot find option named '{m.group(2)}'!"
        )
    if m := _ARGUMENT.match(message):
        return f"{tool}: for the {_option(m.group(1))} option: {m.group(2)}"
    return f"{tool}: {message}"


#: Each subcommand's one-letter options that take a value, the same in LLVM 14-22
#: (``llvm-profdata CMD --help-list-hidden``; ``-h`` and 14/16's ``-W`` take none).
#: Every command's parser registers exactly these as ``-x`` options (tested).
VALUE_LETTERS = {"merge": "ofrj", "show": "o", "overlap": "o", "order": "o"}


def grouped_letter(arg: str, known: Container[str], letters: str) -> str | None:
    """The one-letter option ``cl::ParseCommandLineOptions`` reads an unknown ``arg`` as a
    group of, when that option takes a value (which a group cannot give it).

    LLVM strips one or two dashes and, when the name (before any ``=``) is no
    option, looks for the longest prefix that is a grouping option; only
    one-letter options group, so that is the first letter.  ``-j2``,
    ``-ofile`` and (releases without it) ``--function=f`` all end this way.
    """
    body = arg[2:] if arg.startswith("--") else arg[1:]
    name = body.partition("=")[0]
    if len(name) < 2 or name in known or body[0] not in letters:
        return None
    return body[0]


def grouped_option_error(arg: str, letter: str, tool: str) -> CommandLineError:
    """LLVM's three lines for ``arg`` read as a group starting with ``-letter``: the
    option's complaint, the unknown argument, and the nearest option -- the letter
    itself, since the failed group leaves just that name to compare."""
    return CommandLineError(
        f"{tool}: for the -{letter} option: may not occur within a group!\n"
        f"{tool}: Unknown command line argument '{arg}'.  Try: '{tool} --help'\n"
        f"{tool}: Did you mean '-{letter}'?"
    )


def cl_tool(release: Release, command: str) -> str:
    """How ``cl`` names the tool in its errors: 16 and older add the subcommand (its own
    parser); 17 and later print ARGV0, ``llvm-profdata`` here."""
    return f"llvm-profdata {command}" if release.cl_errors_name_subcommand else "llvm-profdata"


def command_error(release: Release, word: str | None) -> CommandLineError:
    """llvm-profdata's refusal of a missing (``word`` None) or unknown subcommand: 16 and
    older pick the subcommand by hand and print their usage line, 17 and later leave it
    to ``cl``'s subcommands."""
    if release.cl_errors_name_subcommand:
        what = "No command specified!" if word is None else "Unknown command!"
        return CommandLineError(
            f"llvm-profdata: {what}\nUSAGE: llvm-profdata <merge|show|overlap> [args...]"
        )
    if word is None:
        tool = "llvm-profata" if release.cl_no_subcommand_typo else "llvm-profdata"
        return CommandLineError(
            f"llvm-profdata: No subcommand specified! Run {tool} --help for usage."
        )
    return CommandLineError(
        f"llvm-profdata: Unknown subcommand '{word}'.  Try: 'llvm-profdata --help'"
    )


def positional_count_error(
    release: Release, command: str, least: int, most: int, given: int
) -> CommandLineError:
    """``cl``'s refusal of too few or too many positional arguments."""
    tool = cl_tool(release, command)
    if given < least:
        return CommandLineError(
            f"{tool}: Not enough positional command line arguments specified!\n"
            f"Must specify at least {least} positional argument{'s' if least > 1 else ''}: "
            f"See: {tool} --help"
        )
    return CommandLineError(
        f"{tool}: Too many positional arguments specified!\n"
        f"Can specify at most {most} positional arguments: See: {tool} --help"
    )


def format_hint(release: Release) -> str:
    """LLVM's note after "unrecognized instrumentation profile encoding format" (13 has no
    --memory to suggest)."""
    hint = "Perhaps you forgot to use the --sample or --memory option?"
    return hint if release.show_memory_option else hint.replace(" or --memory", "")


def comma_list(text: str) -> list[str]:
    """A ``cl::CommaSeparated`` value."""
    return [part for part in text.split(",") if part]


def _unsigned(text: str, bits: int, type_name: str = "uint") -> int:
    """A ``cl::opt`` of an unsigned type: ``StringRef::getAsInteger(0)``, the radix sensed
    from a ``0x``/``0X``, ``0b``/``0B``, ``0o`` or ``0`` prefix (``parse_uint``)."""
    # imported here: the formats package loads numpy, which must wait for the command's
    # OPENBLAS_NUM_THREADS (see command_module)
    from profdata.formats._text import parse_uint

    value = parse_uint(text.encode("utf-8", "surrogateescape"), 0, bits)
    if value is None:
        raise argparse.ArgumentTypeError(f"'{text}' value invalid for {type_name} argument!")
    return value


def int32(text: str) -> int:
    """A ``cl::opt<int>`` value: a sign, then the radix rules of :func:`_unsigned`."""
    invalid = argparse.ArgumentTypeError(f"'{text}' value invalid for integer argument!")
    negative = text.startswith("-")
    try:
        magnitude = _unsigned(text[1:] if negative else text, 32, "integer")
    except argparse.ArgumentTypeError:
        raise invalid from None  # named by the whole text, its sign too
    value = -magnitude if negative else magnitude
    if not -(1 << 31) <= value < 1 << 31:
        raise invalid
    return value


def uint32(text: str) -> int:
    """A ``cl::opt<unsigned>`` value."""
    return _unsigned(text, 32)


def uint64(text: str) -> int:
    """A ``cl::opt<uint64_t>`` value (``unsigned long`` on the LP64 Linux builds)."""
    return _unsigned(text, 64, "ulong")


def ullong(text: str) -> int:
    """A ``cl::opt<unsigned long long>`` value (``overlap``'s cutoffs)."""
    return _unsigned(text, 64, "ullong")


def uint_list(text: str) -> list[int]:
    """A ``cl::list<unsigned>`` with ``cl::CommaSeparated``: every piece, empty ones too,
    must be a ``cl::opt<unsigned>`` value, and an error names the piece."""
    return [_unsigned(part, 32) for part in text.split(",")]
