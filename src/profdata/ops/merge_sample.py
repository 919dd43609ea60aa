"""``llvm-profdata merge --sample``: merge weighted sample profiles, then encode them.

Mirrors ``mergeSampleProfile``: each input is read (format detected per
file), its profiles are visited in reader order and merged into one map with
``FunctionSamples::merge`` and the input's weight (a fresh entry takes the
first profile's context, checksum and attributes; a checksum mismatch or a
saturated counter is reported as ``FILE: CONTEXT: message`` and the merge
goes on).  Probe-based and non-probe, CS and non-CS inputs cannot be mixed.

An unreadable input stops the merge under ``--failure-mode=any`` and is a
warning under ``all``/``warn``, except errors LLVM reports through its
diagnostic handler (text syntax, truncated binary data), which exit at once in
every mode.  ``-r`` renames through :func:`remap_samples`, which like LLVM's
``remapSamples`` keeps no checksum or attributes.

The result is written by :func:`encode_sample` with the format's writer;
options that only the extensible binary format honours produce LLVM's
warnings for other formats (:func:`writer_warnings`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from profdata.errors import (
    ProfdataError,
    SampleDiagnosticError,
    UsageError,
    WriteError,
)
from profdata.formats import sample_binary, sample_compact, sample_extbinary_write, sample_text
from profdata.formats._collector import collector_paused
from profdata.formats._files import map_file
from profdata.formats.sample_column_order import ColumnOrder
from profdata.formats.sample_column_write import write_binary, write_extbinary, write_text
from profdata.formats.sample_reading import AS_STORED, SampleReading
from profdata.formats.sample_registry import open_sample
from profdata.model.names import md5_hash
from profdata.model.sample import (
    FunctionSamples,
    SampleContext,
    SampleError,
    SampleProfile,
    as_release_names,
    md5_function_ids,
)
from profdata.model.sample_layout import (
    NestOptions,
    cold_count_threshold,
    flatten_profile,
    nest_contexts,
    trim_cold_contexts,
)
from profdata.model.sample_map_order import merge_map_key, release_map_order
from profdata.model.summary import DEFAULT_THRESHOLDS, SummaryThresholds
from profdata.ops.merge_inputs import (
    FailureMode,
    FilterNote,
    InputFailure,
    WeightedFile,
    filter_regex,
)
from profdata.ops.merge_sample_columns import input_as_columns, merge_as_columns, merge_columns
from profdata.ops.sample_static_flags import (
    static_flag,
    static_fs_flag,
    static_preinlined_flag,
    static_probe_flag,
)
from profdata.pieces import Stream
from profdata.releases import Release
from profdata.releases import release as default_release

UNWRITABLE = "Profile encoding format unsupported for writing operations"
PROBE_MISMATCH = "cannot merge probe-based profile with non-probe-based profile"
CS_MISMATCH = "cannot merge CS profile with non-CS profile"
MIXED_CONTEXTS_13 = (
    "a GCC profile merged into a CS profile: llvm-profdata 13 gives its functions the empty "
    "context and writes them as '[]' (use --llvm-release=14 or later)"
)
COLD_MERGE_WITHOUT_CONTEXT = (
    "--sample-merge-cold-context needs calling contexts: this profile has cold functions "
    "without one (llvm-profdata crashes on it)"
)
TOO_LARGE = "Too much profile data"  # sampleprof_error::too_large
SYMBOL_LIST_LOST = (
    "Profile Symbol list is not empty but the output format is not ExtBinary format. "
    "The list will be lost in the output. "
)


@dataclass(frozen=True)
class SampleRecordWarning:
    """A profile that merged with a problem; LLVM prints ``FILE: CONTEXT: message``."""

    source: str
    context: str
    message: str

    def text(self) -> str:
        return f"{self.source}: {self.context}: {self.message}"


SampleDiagnostic = SampleRecordWarning | InputFailure


@dataclass(frozen=True)
class SampleMergeOptions:
    """What changes a sample merge (``merge_main`` options for ``--sample``)."""

    release: Release
    failure_mode: FailureMode = FailureMode.ANY
    #: ``-r``: old name -> new name (``SymbolRemapper``)
    remapping: Mapping[str, str] = field(default_factory=dict)
    drop_profile_symbol_list: bool = False
    #: ``--prof-sym-list=FILE``: symbols added to the output's profile symbol list
    prof_sym_list: str | None = None
    #: CS only: ``--sample-merge-cold-context`` / ``--sample-trim-cold-context``
    merge_cold_context: bool = False
    trim_cold_context: bool = False
    cold_context_frame_depth: int = 1  # --sample-frame-depth-for-cold-context
    #: ``--convert-sample-profile-layout`` ("flat" or "nest"; LLVM 17+) or "nest" for
    #: ``--gen-cs-nested-profile`` (14/16)
    profile_layout: str = ""
    #: processes reading the inputs of a column merge: 1 this one only, 0 one more when
    #: a CPU is idle (``-j 1`` asks for one)
    processes: int = 0
    #: the readers' global options (``--profile-isfs``, ...)
    reading: SampleReading = AS_STORED
    #: the cold threshold of the cold-context options (--profile-summary-cutoff-cold, ...)
    thresholds: SummaryThresholds = DEFAULT_THRESHOLDS
    #: --generate-merged-base-profiles (None: the release's default)
    merged_base_profiles: bool | None = None


@dataclass
class SampleMergeResult:
    profile: SampleProfile
    diagnostics: list[SampleDiagnostic] = field(default_factory=list)


def remap_samples(fs: FunctionSamples, remapping: Mapping[str, str]) -> FunctionSamples:
    """``remapSamples``: a copy with every name renamed; checksum and attributes are dropped."""

    def rename(name: str) -> str:
        return remapping.get(name) or name

    out = FunctionSamples(SampleContext(rename(fs.name)))
    out.add_total_samples(fs.total_samples)
    out.add_head_samples(fs.head_samples)
    for loc, record in fs.body_samples.items():
        out.add_body_samples(loc, record.samples)
        for called, count in record.call_targets.items():
            out.add_called_target_samples(loc, rename(called), count)
    for loc, callees in fs.callsite_samples.items():
        mine = out.function_samples_at(loc)
        for callee in callees.values():
            renamed = remap_samples(callee, remapping)
            target = mine.get(renamed.name)
            if target is None:
                target = mine[renamed.name] = FunctionSamples(SampleContext(""))
            target.merge(renamed)
    return out


def read_symbol_list(path: str) -> list[str]:
    """``populateProfileSymbolList``: one symbol per line, trimmed, empty lines dropped."""
    text = bytes(map_file(path)).decode("utf-8", "surrogateescape")
    symbols = (line.strip(" \t\n\v\f\r") for line in text.split("\n") if line)
    return [s for s in symbols if s]


def merge_samples(
    inputs: Sequence[WeightedFile],
    options: SampleMergeOptions,
    profiles: Iterable[SampleProfile | None] | None = None,
) -> SampleMergeResult:
    """Merge the inputs in order; ``profiles`` may supply already-read inputs (tests).

    The merged map grows by small acyclic objects only; the cyclic collector would
    rescan it over and over, so it waits until the merge is done.
    """
    with collector_paused():
        return _merge_all(inputs, options, profiles)


def _merge_all(
    inputs: Sequence[WeightedFile],
    options: SampleMergeOptions,
    profiles: Iterable[SampleProfile | None] | None,
) -> SampleMergeResult:
    release = options.release
    if profiles is None and not options.remapping and options.reading.changes_nothing:
        summed = merge_columns(inputs, release, options.processes)
        if summed is not None:
            kept = set() if options.drop_profile_symbol_list else summed[1]
            return _finish(summed[0], kept, options)
    merged = SampleProfile(format="merged")
    result = SampleMergeResult(merged)
    target = merged.profiles
    probe_based: bool | None = None
    is_cs: bool | None = None
    #: ``FunctionSamples::ProfileIsProbeBased`` and ``ProfileIsCS``: static, false at start
    probe_flag = cs_flag = False
    symbols: set[str] = set()
    #: the map's key (:func:`merge_map_key`) -> the context that first brought it
    first_of_key: dict[object, SampleContext] = {}
    string_map = release.sample_string_map_profiles
    gcc_read = False
    preread = list(profiles) if profiles is not None else None
    for position, entry in enumerate(inputs):
        given = preread[position] if preread is not None else None
        try:
            profile = (
                given if given is not None else open_sample(entry.path, release, options.reading)
            )
        except SampleDiagnosticError:
            raise
        except ProfdataError as exc:
            if options.failure_mode is FailureMode.ANY:
                raise
            result.diagnostics.append(InputFailure(entry.path, _message(exc), exc))
            continue
        probe_flag = static_probe_flag(profile, probe_flag)
        if probe_based is not None and probe_based != probe_flag:
            raise UsageError(PROBE_MISMATCH)
        probe_based = probe_flag
        cs_flag = static_flag(profile, cs_flag, profile.is_cs)
        if is_cs is not None and is_cs != cs_flag:
            raise UsageError(CS_MISMATCH)
        is_cs = cs_flag
        gcc_read = gcc_read or profile.format == "gcc"
        # ``FunctionSamples::ProfileIsPreInlined``, which the writer reads: a text input sets
        # it to its own value, an ext-binary one only sets it
        merged.is_preinlined = static_preinlined_flag(profile, merged.is_preinlined, release)
        merged.is_fs = static_fs_flag(profile, merged.is_fs)
        merged.is_md5 = merged.is_md5 or profile.is_md5
        md5_ids = md5_function_ids(profile, release)
        #: a profile read here is ours: merging it at weight 1 into nothing is taking it
        movable = given is None and entry.weight == 1
        success = SampleError.SUCCESS
        for fs in release_map_order(profile, release, md5_ids):
            source = remap_samples(fs, options.remapping) if options.remapping else fs
            context = source.context
            key = merge_map_key(context, release, profile.is_md5, profile.is_cs)
            context = first_of_key.setdefault(key, context)  # the first context of a key
            into = target.get(context)
            if into is None:
                if movable:
                    target[context] = source
                    continue
                into = target[context] = FunctionSamples(SampleContext(""))
            outcome = into.merge(source, entry.weight)
            if outcome is not success:
                result.diagnostics.append(
                    SampleRecordWarning(entry.path, str(source.context), outcome.value)
                )
        if not options.drop_profile_symbol_list and profile.symbol_list is not None:
            symbols.update(profile.symbol_list)
    merged.is_probe_based = bool(probe_based)
    merged.is_cs = bool(is_cs)
    if merged.is_cs and string_map and gcc_read:
        raise UsageError(MIXED_CONTEXTS_13)
    finished = _finish(merged, symbols, options)
    finished.diagnostics = result.diagnostics
    return finished


def _finish(
    merged: SampleProfile, symbols: set[str], options: SampleMergeOptions
) -> SampleMergeResult:
    """The symbol list (the inputs' and ``--prof-sym-list``'s), then the layout."""
    if options.prof_sym_list:
        symbols.update(read_symbol_list(options.prof_sym_list))
    merged.symbol_list = tuple(symbols) if symbols else None
    return SampleMergeResult(convert_layout(merged, options))


def convert_layout(profile: SampleProfile, options: SampleMergeOptions) -> SampleProfile:
    """Cold-context trimming, then the layout conversion, as ``mergeSampleProfile`` orders them."""
    release = options.release
    md5 = release.sample_cs_hash_md5_frames
    if options.merge_cold_context or options.trim_cold_context:
        string_map = release.sample_string_map_profiles
        threshold = cold_count_threshold(
            profile, release, options.thresholds, options.reading.contextless
        )
        if threshold is None:
            raise UsageError(
                f"the merged summary has no cutoff at or above {options.thresholds.cutoff_cold} "
                "(llvm-profdata aborts: Desired percentile exceeds the maximum cutoff)"
            )
        if options.merge_cold_context and any(
            not fs.context.frames and fs.total_samples < threshold
            for fs in profile.profiles.values()
        ):
            raise UsageError(COLD_MERGE_WITHOUT_CONTEXT)
        trim_cold_contexts(
            profile,
            threshold,
            trim=options.trim_cold_context,
            merge=options.merge_cold_context,
            frame_depth=options.cold_context_frame_depth
            if release.sample_cold_context_frame_depth
            else 1,
            md5_frames=md5,
            string_map=string_map,
        )
    if options.profile_layout == "flat":
        return flatten_profile(profile, md5)
    if options.profile_layout == "nest" and profile.is_cs:
        modern = release.sample_nest_removes_call_targets
        merged = options.merged_base_profiles
        nest = NestOptions(
            md5_names=md5,
            remove_call_targets=modern,
            merged_base_profiles=not modern if merged is None else merged,
            mark_duplicated=modern,
        )
        return nest_contexts(profile, nest)
    return profile


def filter_sample_functions(profile: SampleProfile, keep: str, drop: str) -> FilterNote | None:
    """``filterFunctions`` on the merged map: contexts as text; MD5 profiles also match
    the MD5 of the pattern itself."""
    if not keep and not drop:
        return None
    keep_re, drop_re = filter_regex(keep), filter_regex(drop)
    keep_md5, drop_md5 = str(md5_hash(keep)), str(md5_hash(drop))
    md5 = profile.is_md5
    total = len(profile.profiles)
    for context in list(profile.profiles):
        name = str(context)
        if (drop_re is not None and (drop_re.search(name) or (md5 and name == drop_md5))) or (
            keep_re is not None and not (keep_re.search(name) or (md5 and name == keep_md5))
        ):
            del profile.profiles[context]
    return FilterNote(total - len(profile.profiles), total)


def _message(exc: ProfdataError) -> str:
    """The text after ``warning: FILE: `` (LLVM's error-code message)."""
    headline = exc.headline()
    prefix = f"{exc.path}: " if exc.path else ""
    return headline[len(prefix) :] if prefix and headline.startswith(prefix) else headline


# -- writing ---------------------------------------------------------------------
@dataclass(frozen=True)
class SampleOutputOptions:
    """Writer settings; the ext-binary ones only warn for other formats, as in LLVM."""

    compress_all_sections: bool = False
    use_md5: bool = False
    gen_partial_profile: bool = False
    split_layout: bool = False  # LLVM 22; with --text it marks flat profiles " !Flat"
    size_limit: int = 0  # --output-size-limit: drop the coldest profiles until it fits
    #: --profile-summary-contextless, which the writers' summary follows (None: not given)
    contextless: bool | None = None
    #: --extbinary-write-vtable-type-prof (LLVM 22; the ext-binary writer only)
    vtable_types: bool = False


def writer_warnings(
    output_format: str, profile: SampleProfile, opts: SampleOutputOptions
) -> list[str]:
    """``handleExtBinaryWriter``'s warnings, in its order (text after ``warning: ``)."""
    if output_format == "extbinary":
        return []
    warnings: list[str] = []
    if opts.split_layout and output_format == "binary":
        warnings.append("-split-layout is ignored. Specify -extbinary to enable it")
    if profile.symbol_list:
        warnings.append(SYMBOL_LIST_LOST)
    if opts.compress_all_sections:
        warnings.append("-compress-all-section is ignored. Specify -extbinary to enable it")
    if opts.use_md5:
        warnings.append("-use-md5 is ignored. Specify -extbinary to enable it")
    if opts.gen_partial_profile:
        warnings.append("-gen-partial-profile is ignored. Specify -extbinary to enable it")
    return warnings


def check_writable(output_format: str, profile: SampleProfile, output: str = "-") -> None:
    """``SampleProfileWriter::create``'s refusal, ``error: OUTPUT: ...`` (before any warning)."""
    refused = output_format == "gcc"
    if output_format in ("binary", "compbinary"):
        refused = sample_binary.check_writable(profile) is not None
    if refused:
        raise WriteError(UNWRITABLE, path=output)


def encode_sample(
    profile: SampleProfile,
    output_format: str,
    opts: SampleOutputOptions | None = None,
    output: str = "-",
    release: Release | None = None,
) -> bytes:
    """The bytes of ``profile`` in ``output_format``; ``writeWithSizeLimit`` with a limit.

    With ``size_limit`` the profile is written, and while it is too big, the
    coldest profiles (``sortFuncProfiles`` order, from the end) are dropped,
    ``round(n * (limit/size)**2)`` kept, at least one dropped per round, as
    ``DefaultFunctionPruningStrategy`` does; the map order of the remaining
    profiles is the original one (erasing keeps an unordered_map's order).
    """
    options = opts or SampleOutputOptions()
    rel = release or default_release()
    check_writable(output_format, profile, output)
    limit = options.size_limit
    if not limit:
        return _encode_once(profile, output_format, options, rel, None)
    order = release_map_order(profile, rel, md5_function_ids(profile, rel))
    current = replace(profile, profiles=dict(profile.profiles))
    coldest_last = [fs.context for fs in profile.sorted_profiles()]
    while True:
        kept = [fs for fs in order if fs.context in current.profiles]
        data = _encode_once(current, output_format, options, rel, kept)
        if len(data) <= limit:
            return data
        count = len(current.profiles)
        ratio = limit / len(data)
        new_size = math.floor(count * ratio * ratio + 0.5)
        remove = max(count - new_size, 1)
        for context in coldest_last[len(coldest_last) - remove :]:
            del current.profiles[context]
        del coldest_last[len(coldest_last) - remove :]
        if not current.profiles:
            raise WriteError(TOO_LARGE)


def extbinary_options(
    options: SampleOutputOptions, rel: Release
) -> sample_extbinary_write.ExtBinaryWriteOptions:
    """The ext-binary writer's settings: the command's options and ``rel``'s behaviour
    (the summary's inlinee rule, how CS contexts and MD5 names hash and flag)."""
    return sample_extbinary_write.ExtBinaryWriteOptions(
        compress_all_sections=options.compress_all_sections,
        use_md5=options.use_md5,
        partial=options.gen_partial_profile,
        split_layout=options.split_layout,
        skip_duplicated_into_base=rel.sample_summary_skips_duplicated_into_base,
        md5_frames=rel.sample_cs_hash_md5_frames,
        md5_function_ids=rel.sample_md5_function_ids,
        string_map_profiles=rel.sample_string_map_profiles,
        contextless=options.contextless,
        vtable_types=options.vtable_types,
    )


def _encode_once(
    profile: SampleProfile,
    output_format: str,
    options: SampleOutputOptions,
    rel: Release,
    map_order: list[FunctionSamples] | None,
) -> bytes:
    profile = as_release_names(profile, rel)
    if output_format == "text":
        text = sample_text.TextWriteOptions(
            options.split_layout, string_map_profiles=rel.sample_string_map_profiles
        )
        return sample_text.write(profile, text)
    skip = rel.sample_summary_skips_duplicated_into_base
    if output_format == "binary":
        return sample_binary.write(
            profile,
            skip_duplicated_into_base=skip,
            md5_names=profile.is_md5,
            by_string_map_key=rel.sample_string_map_profiles,
            contextless=options.contextless,
        )
    if output_format == "extbinary":
        return sample_extbinary_write.write(profile, extbinary_options(options, rel), map_order)
    if output_format == "compbinary":
        return sample_compact.write(profile, rel, options.contextless)
    raise UsageError(f"writing --{output_format} sample profiles is not supported by profdata yet")


def encode_merged_columns(
    inputs: Sequence[WeightedFile],
    options: SampleMergeOptions,
    output_format: str,
    out: SampleOutputOptions,
) -> tuple[bytes | Stream, SampleProfile] | None:
    """The output of ``merge --sample`` written straight from the merged columns (text
    as a stream of pieces to write as they come), and the merged profile's flags and
    symbol list (for the writer's warnings); ``None`` when the merge or the writer
    needs objects.

    Taken for text, binary and ext-binary output of plain profiles when nothing but
    the merge runs: no remapping, symbol list file, cold-context or layout option,
    size limit (the caller leaves out ``--function``/``--no-function``), and not in
    LLVM 13; not for MD5 names, nor pre-inlined profiles written as ext-binary
    (their attributes are metadata).
    """
    release = options.release
    if (
        output_format not in ("text", "binary", "extbinary")
        or options.remapping
        or options.prof_sym_list
        or options.merge_cold_context
        or options.trim_cold_context
        or options.profile_layout
        or out.size_limit
        or out.contextless is False
        or out.vtable_types
        or release.sample_string_map_profiles
        or not options.reading.changes_nothing
    ):
        return None
    with collector_paused():
        # one input is its own merge, unless it repeats a key (the merge sums those)
        summed = input_as_columns(inputs[0], release) if len(inputs) == 1 else None
        order = None if summed is None else ColumnOrder(summed[1])
        if summed is None or order is None or not order.ordered():
            summed = merge_as_columns(inputs, release, options.processes)
            if summed is None:
                return None
            order = ColumnOrder(summed[1])
            if not order.ordered():
                return None
        merged, _, symbols = summed
        if merged.is_md5 or (merged.is_preinlined and output_format == "extbinary"):
            return None
        if symbols and not options.drop_profile_symbol_list:
            merged.symbol_list = tuple(symbols)
        if output_format == "text":
            return write_text(order, out.split_layout), merged
        if output_format == "binary":
            return write_binary(order), merged
        return write_extbinary(order, merged, extbinary_options(out, release)), merged


def default_output_format(release: Release) -> str:
    """``merge --sample``'s default encoding (``sample-binary.md`` §1.1)."""
    return "extbinary" if release.sample_merge_default_extbinary else "binary"
