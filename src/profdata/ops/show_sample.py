"""``llvm-profdata show --sample``: the function dump, JSON, summary and hot list.

Mirrors ``showSampleProfile`` (``shared/spec/show-output.md`` §2) and the
printers it calls: ``FunctionSamples::print`` for the dump (the CFG checksum
line of probe profiles included), ``dumpFunctionProfileJson`` for JSON,
``ProfileSummary::printSummary``/``printDetailedSummary`` over the summary
the reader reports (stored in binary files, computed for text), and
``showHotFunctionList``, whose rows of equal TotalSamples keep the iteration
order of the reader's ``std::unordered_map``.  ``--counts`` and
``--detailed-summary-cutoffs`` have no effect on sample profiles, as in LLVM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from profdata.errors import ProfdataError, UsageError
from profdata.formats._files import input_bytes
from profdata.formats.sample_extbinary import read_named
from profdata.formats.sample_reading import AS_STORED, SampleReading
from profdata.formats.sample_registry import SampleFormat, detect, read_sample_bytes
from profdata.model.names import ENCODING, ERRORS, md5_hash, name_bytes
from profdata.model.sample import (
    FunctionSamples,
    SampleContext,
    SampleProfile,
    as_release_names,
    md5_function_ids,
    name_key,
    sorted_by_name,
    spelled,
)
from profdata.model.sample_map_order import release_map_order
from profdata.model.summary import ProfileSummary
from profdata.ops.formatted_columns import FormattedColumns
from profdata.ops.show_sample_columns import ColumnDump, quote_json, read_for_dump
from profdata.ops.summary_text import detailed_summary_text
from profdata.pieces import Chunk, Stream, joined
from profdata.releases import Release

HOT_FUNC_CUTOFF = 990000
SEC_INFO_WARNING = (
    "-show-sec-info-only is only supported for sample profile in extbinary format "
    "and is ignored for other formats."
)
NO_SYMBOL_LIST_WARNING = (
    "the profile has no profile symbol list (only extbinary profiles carry one); "
    "llvm-profdata crashes here"
)
JSON_NEEDS_ALL = "the JSON format is supported only when all functions are to be printed"
YAML_UNSUPPORTED = "YAML output is not supported for sample profiles"


@dataclass(frozen=True)
class SampleShowOptions:
    """The ``show`` options that change sample output."""

    all_functions: bool = False
    function: str = ""
    detailed_summary: bool = False
    topn: int = 0
    hot_func_list: bool = False
    show_prof_sym_list: bool = False
    show_sec_info_only: bool = False
    show_format: str = "text"  # "text" | "json" | "yaml"
    #: the readers' global options (``--profile-isfs``, ...)
    reading: SampleReading = AS_STORED


class SampleShowOutput:
    """What ``show`` prints: stdout text, and warnings for stderr (without ``warning: ``).

    The column dump renders bytes (hundreds of megabytes for a large profile) as
    pieces to write in turn: they are kept as ``chunks``, joined into ``data`` or
    decoded into ``text`` only if someone asks."""

    __slots__ = ("_chunks", "_text", "warnings")

    def __init__(
        self,
        text: str = "",
        warnings: list[str] | None = None,
        *,
        chunks: list[Chunk] | None = None,
    ) -> None:
        self._text: str | None = text if chunks is None else None
        self._chunks = chunks
        self.warnings: list[str] = [] if warnings is None else warnings

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.data.decode(ENCODING, ERRORS)
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text, self._chunks = value, None

    @property
    def chunks(self) -> list[Chunk]:
        """The text as bytes, in pieces to write one after the other (a
        :class:`~profdata.pieces.Stream` among them is taken once: whoever takes the
        chunks writes them, or asks for :attr:`data` instead)."""
        if self._chunks is None:
            self._chunks = [self.text.encode(ENCODING, ERRORS)]
        return self._chunks

    @property
    def data(self) -> bytes:
        """The text as the bytes to print."""
        chunks = self.chunks
        if len(chunks) != 1 or not isinstance(chunks[0], bytes):
            self._chunks = chunks = [joined(chunks)]
        data = chunks[0]
        assert isinstance(data, bytes)
        return data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SampleShowOutput):
            return NotImplemented
        return self.data == other.data and self.warnings == other.warnings

    def __repr__(self) -> str:
        return f"SampleShowOutput(text={self.text!r}, warnings={self.warnings!r})"


def show_sample_bytes(
    data: bytes | memoryview, path: str | None, options: SampleShowOptions, release: Release
) -> SampleShowOutput:
    """``showSampleProfile`` on a file's bytes, format detected as LLVM detects it."""
    if options.show_format == "yaml":
        raise UsageError(YAML_UNSUPPORTED)
    view = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
    if options.show_sec_info_only:
        fmt: SampleFormat = detect(view, release, path)
        if fmt.section_info is None:
            return SampleShowOutput(warnings=[SEC_INFO_WARNING])
        return SampleShowOutput(text=fmt.section_info(view, path, release))
    if options.reading.changes_nothing:  # else the masks need the profile's objects
        named = show_named_bytes(view, path, options, release)
        if named is not None:
            return named
        from_columns = show_columns_bytes(view, path, options, release)
        if from_columns is not None:
            return from_columns
    profile = read_sample_bytes(view, path, release, options.reading)
    return show_sample(profile, options, release)


def show_columns_bytes(
    view: memoryview, path: str | None, options: SampleShowOptions, release: Release
) -> SampleShowOutput | None:
    """The dump of every function, as text or JSON, printed from columns
    (:mod:`~profdata.ops.show_sample_columns`);
    ``None`` when the object path must print it.  The summary and symbol list come
    from the same read; a hot list ranks functions in the reader's map order and
    a text profile's summary is computed from objects: those take the object path."""
    if options.show_format not in ("text", "json") or (
        options.function and not options.all_functions
    ):
        return None
    read = read_for_dump(view, path, release)
    if read is None:
        return None
    profile, cols = read
    topn = options.topn if release.show_sample_topn else 0
    hot_list = options.hot_func_list or topn
    dump = ColumnDump(cols)
    if not dump.ordered():
        return None
    if profile.format == "text" and (options.detailed_summary or hot_list):
        profile.summary = dump.summary()  # what the text reader computes
    result = SampleShowOutput()
    dumped = dump.json() if options.show_format == "json" else dump.text()
    out: list[str] = []
    _append_tail(out, result, profile, replace(options, hot_func_list=False, topn=0), release)
    if hot_list:
        rows, nodes = dump.hot_rows(release)
        out.append(
            hot_list_text(
                [HotRow(*row) for row in rows],
                lambda i: dump.entry_samples(nodes[i]),
                profile.summary or ProfileSummary(),
                topn,
            )
        )
    chunks: list[Chunk] = [Stream(dumped), "".join(out).encode(ENCODING, ERRORS)]
    return SampleShowOutput(warnings=result.warnings, chunks=chunks)


def takes_named_read(options: SampleShowOptions) -> bool:
    """Whether the output needs no function but the one named by ``--function``
    (``--hot-func-list``/``--topn`` rank every function; JSON dumps them all)."""
    return bool(
        options.function
        and not options.all_functions
        and options.show_format == "text"
        and not options.show_sec_info_only
        and not options.hot_func_list
        and not options.topn
    )


def show_named_bytes(
    view: memoryview, path: str | None, options: SampleShowOptions, release: Release
) -> SampleShowOutput | None:
    """``show --function=NAME`` of an ext-binary profile without building every function;
    ``None`` when the full read must be taken.

    llvm-profdata reads the whole profile and then prints one function; on a
    large file most of the work would build functions nobody prints.
    :func:`~profdata.formats.sample_extbinary.read_named` builds just the named
    one (still checking the others, since a fault in any of them is
    llvm-profdata's error) and gives up on anything unusual; the summary
    section and the symbol list it reads in full.
    """
    if not takes_named_read(options):
        return None
    try:
        if detect(view, release, path).name != "extbinary":
            return None
    except ProfdataError:
        return None
    # The plain name, and its MD5 decimal string under which MD5 profiles list it.
    wanted = (options.function, str(md5_hash(options.function)))
    profile = read_named(view, path, release, wanted)
    if profile is None:
        return None
    return show_sample(profile, options, release)


def show_sample_file(path: str, options: SampleShowOptions, release: Release) -> SampleShowOutput:
    """``show --sample FILE`` (``-``: standard input)."""
    return show_sample_bytes(input_bytes(path), path, options, release)


def show_sample(
    profile: SampleProfile, options: SampleShowOptions, release: Release
) -> SampleShowOutput:
    """The output of ``show --sample`` for a profile already read."""
    result = SampleShowOutput()
    out: list[str] = []
    as_json = options.show_format == "json"
    named = profile
    profile = as_release_names(profile, release)
    if options.all_functions or not options.function:
        if as_json:
            out.append(dump_json(profile))
        else:
            # 13's dump walks its StringMap; 14 and later sort (sortFuncProfiles)
            string_map = release.sample_string_map_profiles
            if string_map:
                functions = release_map_order(profile, release)
            else:
                functions = profile.sorted_profiles()
            for fs in functions:
                out.append(f"Function: {spelled(fs.context, string_map)}: ")
                print_function(out, fs, 0, profile.is_md5)
    else:
        if as_json:
            raise UsageError(JSON_NEEDS_ALL)
        out.append(_dump_named(named, options.function, release))
    _append_tail(out, result, profile, options, release)
    result.text = "".join(out)
    return result


def _append_tail(
    out: list[str],
    result: SampleShowOutput,
    profile: SampleProfile,
    options: SampleShowOptions,
    release: Release,
) -> None:
    """What follows the dump: the symbol list, the summaries, the hot function list."""
    if options.show_prof_sym_list:
        if profile.symbol_list is None:
            result.warnings.append(NO_SYMBOL_LIST_WARNING)
        else:
            out.append("======== Dump profile symbol list ========\n")
            out.extend(f"{s}\n" for s in sorted(profile.symbol_list, key=name_bytes))
    summary = profile.summary or ProfileSummary()
    if options.detailed_summary:
        out.append(_render_summary(summary, release))
        out.append(detailed_summary_text(summary, release))
    topn = options.topn if release.show_sample_topn else 0  # 13: --topn is instr only
    if options.hot_func_list or topn:
        out.append(hot_function_list(profile, summary, topn, release))


def _dump_named(profile: SampleProfile, function: str, release: Release) -> str:
    """``--function=NAME``: the exact (context-less) name; LLVM 19+ converts it for MD5."""
    out: list[str] = []
    if release.show_sample_missing_function_unnamed:
        key = str(md5_hash(function)) if profile.is_md5 else function
        fs = profile.profiles.get(SampleContext(key))
        label = str(fs.context) if fs is not None else ""
    else:
        fs = profile.profiles.get(SampleContext(function))
        label = function
    out.append(f"Function: {label}: ")
    md5 = md5_function_ids(profile, release)
    print_function(out, fs or FunctionSamples(SampleContext("")), 0, md5)
    return "".join(out)


def print_function(out: list[str], fs: FunctionSamples, indent: int, md5: bool = False) -> None:
    """``FunctionSamples::print``; ``md5``: names are MD5 values, which ``FunctionId``
    orders as numbers (call targets tied on count, callees at one location)."""
    if fs.function_hash:
        out.append(f"CFG checksum {fs.function_hash}\n")
    body = fs.body_samples
    pad = " " * indent
    inner = " " * (indent + 2)
    out.append(f"{fs.total_samples}, {fs.head_samples}, {len(body)} sampled lines\n{pad}")
    types = fs.type_samples
    if body:
        out.append("Samples collected in the function's body {\n")
        for loc, record in sorted(body.items()):
            if record.call_targets:
                calls = "".join([f" {n}:{c}" for n, c in record.sorted_call_targets(md5)])
                out.append(f"{inner}{loc}: {record.samples}, calls:{calls}\n")
            else:
                out.append(f"{inner}{loc}: {record.samples}\n")
            if types and loc in types:
                out.append(inner + _type_counts(loc, types[loc], md5))
        out.append(pad + "}\n")
    else:
        out.append("No samples collected in the function's body\n")
    out.append(pad)
    if fs.callsite_samples:
        out.append("Samples collected in inlined callsites {\n")
        for loc, callees in sorted(fs.callsite_samples.items()):
            for _, callee in sorted_by_name(callees, md5):
                # the inlinee's own name, "" where only its metadata made it
                out.append(f"{inner}{loc}: inlined callee: {callee.context.name}: ")
                print_function(out, callee, indent + 4, md5)
            if types and loc in types:
                out.append(inner + _type_counts(loc, types[loc], md5))
        out.append(pad + "}\n")
    else:
        out.append("No inlined callsites in this function\n")


def _type_counts(loc: object, types: dict[str, int], md5: bool) -> str:
    """``printTypeCountMap`` (LLVM 22); an empty map prints nothing after the indent."""
    if not types:
        return ""
    pairs = "".join(f"{n}:{types[n]} " for n in sorted(types, key=lambda n: name_key(n, md5)))
    return f"{loc}: vtables: {pairs}\n"


# -- JSON --------------------------------------------------------------------------
class _JsonWriter:
    """``json::OStream`` with indent 2 over the objects of ``dumpFunctionProfileJson``,
    written straight to text; member order and empty-member omission are LLVM's."""

    def __init__(self, md5: bool) -> None:
        self.md5 = md5
        self.out: list[str] = []
        self.quoted: dict[str, str] = {}

    def quote(self, name: str) -> str:
        quoted = self.quoted.get(name)
        if quoted is None:
            quoted = self.quoted[name] = quote_json(name)
        return quoted

    def function(self, fs: FunctionSamples, indent: int, top_level: bool) -> None:
        """The object of ``fs`` from its ``{`` to its ``}``, the first line already indented."""
        out = self.out
        quote = self.quote
        a, b, c = " " * (indent + 2), " " * (indent + 4), " " * (indent + 6)
        d, e = " " * (indent + 8), " " * (indent + 10)
        out.append(f'{{\n{a}"name": {quote(fs.name)},\n{a}"total": {fs.total_samples}')
        if top_level:
            out.append(f',\n{a}"head": {fs.head_samples}')
        if fs.body_samples:
            out.append(f',\n{a}"body": [')
            sep = "\n"
            for (line, disc), record in sorted(fs.body_samples.items()):
                where = f'{line},\n{c}"discriminator": {disc}' if disc else line
                out.append(f'{sep}{b}{{\n{c}"line": {where},\n{c}"samples": {record.samples}')
                if record.call_targets:
                    calls = ",".join(
                        [
                            f'\n{d}{{\n{e}"function": {quote(n)},\n{e}"samples": {count}\n{d}}}'
                            for n, count in record.sorted_call_targets(self.md5)
                        ]
                    )
                    out.append(f',\n{c}"calls": [{calls}\n{c}]')
                out.append(f"\n{b}}}")
                sep = ",\n"
            out.append(f"\n{a}]")
        if fs.callsite_samples:
            out.append(f',\n{a}"callsites": [')
            sep = "\n"
            for (line, disc), callee in fs.sorted_callsites(self.md5):
                where = f'{line},\n{c}"discriminator": {disc}' if disc else line
                out.append(f'{sep}{b}{{\n{c}"line": {where},\n{c}"samples": [\n{d}')
                self.function(callee, indent + 8, False)
                out.append(f"\n{c}]\n{b}}}")
                sep = ",\n"
            out.append(f"\n{a}]")
        out.append("\n" + " " * indent + "}")


def dump_json(profile: SampleProfile) -> str:
    """``SampleProfileReader::dumpJson`` (LLVM 16+)."""
    functions = profile.sorted_profiles()
    if not functions:
        return "[]\n"
    writer = _JsonWriter(profile.is_md5)
    out = writer.out
    out.append("[")
    sep = "\n  "
    for fs in functions:
        out.append(sep)
        writer.function(fs, 2, True)
        sep = ",\n  "
    out.append("\n]\n")
    return "".join(out)


# -- summaries ------------------------------------------------------------------------
def _render_summary(summary: ProfileSummary, release: Release) -> str:
    """``ProfileSummary::printSummary``."""
    if release.show_sample_internal_count_line:
        block = f"Maximum internal block count: {summary.max_internal_count}\n"
    else:
        block = f"Maximum block count: {summary.max_count}\n"
    return (
        f"Total functions: {summary.num_functions}\n"
        f"Maximum function count: {summary.max_function_count}\n"
        f"{block}"
        f"Total number of blocks: {summary.num_counts}\n"
        f"Total count: {summary.total_count}\n"
    )


def _percent(part: float) -> str:
    """``format("%.2f%%")``, with glibc's spelling of NaN."""
    if part != part:
        return "-nan%"
    return f"{part:.2f}%"


def hot_function_list(
    profile: SampleProfile, summary: ProfileSummary, topn: int, release: Release
) -> str:
    """``showHotFunctionList``: functions whose largest body sample reaches the 99% count."""
    ordered = release_map_order(profile, release, profile.is_md5)
    string_map = release.sample_string_map_profiles
    rows = [
        HotRow(spelled(fs.context, string_map), fs.total_samples, fs.max_body_sample())
        for fs in ordered
    ]
    return hot_list_text(
        rows, lambda i: ordered[i].head_samples_estimate(profile.is_cs), summary, topn
    )


@dataclass(frozen=True, slots=True)
class HotRow:
    """What the hot list needs of one function: its printed name, TotalSamples and its
    largest body sample (inlinees included)."""

    name: str
    total: int
    max_sample: int


def hot_list_text(
    rows: list[HotRow], estimate: Callable[[int], int], summary: ProfileSummary, topn: int
) -> str:
    """The hot list of ``rows`` (the reader's map order, which orders equal totals);
    ``estimate(i)``: the entry samples of ``rows[i]``, asked for printed rows only."""
    threshold = 0
    for entry in summary.detailed:
        if entry.cutoff == HOT_FUNC_CUTOFF:
            threshold = entry.min_count
            break
    total_all = sum(row.total for row in rows) & ((1 << 64) - 1)
    hot = [i for i, row in enumerate(rows) if row.max_sample >= threshold]
    hot.sort(key=lambda i: -rows[i].total)
    hot_total = sum(rows[i].total for i in hot) & ((1 << 64) - 1)
    count = len(rows)
    share = hot_total / total_all * 100 if total_all else 0.0
    func_share = len(hot) / count * 100 if count else float("nan")
    out = FormattedColumns()
    out.write(
        f"{len(hot)} out of {count} functions with profile ({_percent(func_share)}) "
        f"are considered hot functions (max sample >= {threshold}).\n"
    )
    out.write(
        f"{hot_total} out of {total_all} profile counts ({_percent(share)}) "
        "are from hot functions.\n"
    )
    _columns(out, ["Total sample (%)", "Max sample", "Entry sample", "Function name"])
    for i in hot[:topn] if topn else hot:
        row = rows[i]
        percent = row.total * 100.0 / total_all if total_all else 0.0
        cells = [f"{row.total} ({_percent(percent)})", str(row.max_sample), str(estimate(i))]
        _columns(out, [*cells, row.name])
    return out.text()


_COLUMNS = (0, 24, 42, 58)


def _columns(out: FormattedColumns, cells: list[str]) -> None:
    """A row: ``PadToColumn`` before every cell (at least one space)."""
    out.row(_COLUMNS, cells)
