"""Every behaviour difference between LLVM releases, in one table.

``--llvm-release=N`` selects the row; formats and operations ask the row a
named question (``release.text_writes_bitmaps``) instead of comparing version
numbers, so adding a release is adding a row.  Releases 14, 16, 19 and 22 were
verified against the real tools, and so were 13 and 15 (Debian bookworm's llvm-13
and llvm-15: instrumentation profiles, the supplement mode and the sample
formats); the others are derived from the format versions each release writes
(``shared/spec/README.md``).
"""

from __future__ import annotations

from typing import NamedTuple

DEFAULT_RELEASE = 22

#: The cutoffs ``show --detailed-summary`` used in 14 (verified: the last line reads 99.999).
OLD_SHOW_CUTOFFS: tuple[int, ...] = (800000, 900000, 950000, 990000, 999000, 999900, 999990)


#: one row per release: a named tuple, made in a third of the time a dataclass of a hundred
#: fields takes (1.5 against 4.5 ms, paid by every command)
class Release(NamedTuple):
    number: int
    raw_version: int  # the only raw version this release's llvm-profdata reads
    indexed_version: int  # what its `merge` writes
    max_value_kind: int  # IPVK_Last
    # -- indexed writer ordering (instr-indexed.md §6.4, §6.5)
    sorted_name_insertion: bool
    densemap_mix_hash: bool  # splitmix-style DenseMap<uint64> hash instead of x*37
    stringmap_xxh3_hash: bool  # StringMap hashes keys with xxh3_64bits instead of djbHash
    summary_skips_pseudo_records: bool  # else LLVM 14's rule: skip counters == 2**64-1
    # -- text writer (instr-text.md §5.4)
    text_single_byte_header: bool
    text_temporal_block: bool
    text_loop_entries_header: bool
    text_bitmaps: bool
    # -- show (show-output.md §1.5)
    show_loop_entries_on_level_line: bool
    show_totals_always: bool  # Total number of blocks / Total count after the maxima
    show_new_detailed_lines: bool  # "N blocks (X%) with count >= M account for P% ..."
    show_old_default_cutoffs: bool
    show_profile_version_option: bool
    show_format_option: bool  # also --json
    profiled_binary_option: bool  # show/merge --profiled-binary (15: before --show-format)
    show_covered_option: bool  # --covered
    show_memory_option: bool  # --memory (and the "--sample or --memory" format hint)
    show_vtables_option: bool  # --show-vtables
    show_temporal_traces_option: bool  # --temporal-profile-traces
    show_correlation_warnings_option: bool  # --max-debug-info-correlation-warnings
    #: "<PseudoHot>" blocks and pseudo records left out of the summary; before, a counter
    #: of 2**64-1 was an "invalid count" that the summary and the function maxima skipped
    show_pseudo_counts: bool
    show_instr_hot_func_list: bool  # --hot-func-list also lists hot instr functions
    show_indexed_binary_ids_header: bool  # indexed files print "Binary IDs: " even with none
    raw_binary_ids_last_profile_only: bool  # the raw reader keeps one header's ids (<= 16)
    #: the raw reader parses the binary-id entries only when asked (``readBinaryIds``:
    #: show --binary-ids, a merge after the input's records), not in ``readHeader`` (14 and
    #: 16 verified, 19 parses them in the header; 17 and 18 assumed as 19)
    raw_binary_ids_on_demand: bool
    #: the version-word bits the raw reader knows as variant flags; it ignores the others
    #: of the top byte (and bit 55).  13 knows bits 56-58 (IR, CSIR, entry first; 59-63
    #: verified ignored), 14 adds 59-61 (debug-info correlation, byte coverage, function
    #: entry only), 15 62 (MemProf), 17 63 (temporal: 14 and 16 verified to read it as no
    #: flag, and each function's first counter as no timestamp; 19 verified to know it),
    #: 20 55 (loop entries)
    raw_variant_bits: int
    #: a binary id of length 0 is an empty id (14, 15 verified), not malformed (16)
    raw_binary_id_may_be_empty: bool
    #: a raw header with VARIANT_MASK_DBG_CORRELATE needs ``--debug-info``, whatever it
    #: holds, and one without it refuses ``--debug-info``; with both, the binary's records
    #: are read whatever the header's sizes (14, 15, 16 verified); 19 (verified) goes by
    #: the sizes instead; 17 assumed as 16, 18 (binary correlation) as 19
    raw_correlate_flag_needs_debug_info: bool
    #: a VNamesSize whose wrapped sums end the vtable names before they start decodes no
    #: name (19 verified: ``readAndDecodeStrings`` runs while its pointer is below that end);
    #: 22 (verified) decodes the bytes from the section's start on, as far as they go, which
    #: depends on memory past the file; 20 and 21 assumed as 19
    raw_reversed_vnames_empty: bool
    #: merge reads each input's binary ids, for indexed v9+ which holds them (14 and 15
    #: verified not to: a bad entry fails neither)
    merge_reads_binary_ids: bool
    #: usage errors start "llvm-profdata merge:" (the subcommand's own cl parser, <= 16)
    cl_errors_name_subcommand: bool
    #: "No subcommand specified! Run llvm-profata --help" (17-19; the typo was fixed in 20)
    cl_no_subcommand_typo: bool
    #: an option may occur twice, the last one winning (14 and older: "may only occur zero
    #: or one times!", unless the option is a list)
    cl_repeated_options: bool
    #: a subcommand's options live in a ``DenseMap<StringRef, Option *>`` (22; a
    #: ``StringMap`` before): the order "Did you mean" breaks ties in
    cl_options_densemap: bool
    #: the description ``cl`` names show's -instr/-sample/-memory enum by in its errors
    show_kind_description: str
    raw_version_mismatch_wording: bool  # unknown raw versions: "raw profile version mismatch"
    #: what ``GET_VERSION`` keeps of a raw or indexed header's version word: up to 16 every
    #: bit but the top 8 (``VARIANT_MASKS_ALL``), so a stray bit 32-55 is an unsupported
    #: version; later the low 32 bits (16 and 19 verified, 17 and 18 assumed)
    version_mask: int
    empty_name: str  # what an empty name in a name table is called: "... name is empty"
    #: "malformed instrumentation profile data: WHY" (13: no WHY; its errors had no text)
    instr_error_details: bool
    show_topn_stable: bool  # --topn ties in reader order (before: libstdc++ heap order)
    # -- merge (instr-indexed.md §7, §9; verified against 13, 14, 15, 16, 19, 22)
    merge_pseudo_counts: bool  # PseudoHot/Warm rules; counters clamp at 2**64-3 (<= 15: 2**64-1)
    merge_contexts_merge_kind: bool  # writer contexts merge their flags (14/15 keep context 0's)
    #: an input without :entry_first keeps the flag of earlier ones (13: the last input's flag)
    merge_kind_keeps_entry_first: bool
    #: a text profile without :ir or :fe merges with either kind (13: it is front-end)
    merge_headerless_text_any_kind: bool
    merge_validates_memop_values: bool  # "invalid profile created" after writing duplicate sizes
    merge_temporal_traces: bool  # temporal traces and --temporal-profile-* options
    #: the variant flags (``ProfileKind`` member names) ``InstrProfWriter::writeImpl`` puts in
    #: an indexed file's version word: the kinds the release knows; a flag of a newer
    #: release read from an input is dropped (verified 13: a v7 file with
    #: SINGLE_BYTE_COVERAGE is written without it)
    indexed_written_kinds: frozenset[str]
    order_command: bool  # the order subcommand (balanced partitioning of temporal traces)
    order_split_sorts: bool  # each bisection sorts its nodes (before: std::nth_element order)
    trace_reservoir_fills_first: bool  # fill the reservoir, then sample (else per-trace sampling)
    merge_failure_mode_warn: bool  # --failure-mode=warn exists
    #: merge counts a raw input with a counter above 2**56 as failed (its records still
    #: merged): "excessively large counter value suggests corrupted profile data: N"
    #: (PR 69513, 2023-10, so 18 on; verified 16: no, 19 and 22: yes)
    merge_large_counter_check: bool
    #: merge's warning for an input whose reader cannot be created keeps the message's
    #: detail ("malformed instrumentation profile data: symbol name is empty"; 19 verified);
    #: before (14 and 16 verified, 17 and 18 assumed as 19) the message without it
    merge_open_error_details: bool
    #: ``sortByTargetValues`` (merge and overlap of value sites) is ``llvm::sort`` of a
    #: vector, libstdc++'s unstable introsort, where it was a stable ``std::list::sort``:
    #: equal values (unknown call targets, all 0) pair in another order past 16 per site
    #: (verified 14, 16: stable; 19, 22: introsort; the vector came in 2024, so 19 on)
    value_sort_introsort: bool
    merge_function_filters: bool  # --function / --no-function exist
    merge_keep_vtable_symbols: bool  # --keep-vtable-symbols exists
    merge_write_prev_version: bool  # --write-prev-version exists (writes indexed version 11)
    merge_reads_stdin: bool  # input "-" is standard input (16+: silently an empty input)
    # -- merge --supplement-instr-with-sample (ops/merge_supplement.py; verified 13 to 16, 19, 22)
    merge_supplement_option: bool  # the option exists (LLVM's test inputs for it date from 12)
    #: the sample profile is flattened, static names matched, warm/hot told apart and counters
    #: never scaled down (before: top-level head samples, all counters -1; 15 verified)
    supplement_flattens_samples: bool
    pgo_name_semicolon_delimiter: bool  # local PGO names are "file;name" (before: "file:name")
    #: the flattened samples are a StringMap (16: a DenseMap<StringRef> hashed by hash_value;
    #: only the order of the "Static function" warnings depends on it; 17 assumed like 16)
    supplement_flat_map_stringmap: bool
    # -- raw profile correlation (formats/correlate.py; verified on 14, 16, 19, 22)
    correlate_debug_info: bool  # merge/show --debug-info exist
    merge_binary_file_option: bool  # merge --binary-file (binary correlation) exists
    #: correlation errors in the words of binary correlation ("could not find section (X)",
    #: "... data metadata in correlated file", "debug info/binary ..."); before: debug info only
    correlation_binary_wording: bool
    #: ``--correlate=KIND`` with ``--debug-file-directory`` (every subcommand takes both)
    #: or merge's ``--debuginfod``: lightweight profiles' binaries found by build ID; and
    #: --debug-info with --binary-file is "Expected only one of -debug-info, -binary-file,
    #: -debuginfod or -debug-file-directory" (LLVM 20, PR 106606; 20 and 21 unverified)
    correlate_by_build_id: bool
    show_correlation_sorted_names: bool  # show --debug-info names sorted (14/16: StringMap order)
    overlap_typo: bool  # "infomation"
    # -- sample profiles (sample-text.md §2; verified on 14, 15, 16, 19, 22)
    sample_text_merges_duplicates: bool  # a repeated header adds up (before: the last one wins)
    sample_text_skips_blank_lines: bool  # lines of spaces only are skipped (before: an error)
    sample_text_flat_marker: bool  # " !Flat" after a top-level profile is accepted
    sample_text_nested_metadata: bool  # "!CFGChecksum" in inlinees (13: top level only)
    #: 13's sample layer: profiles in a ``StringMap`` keyed by the name with its context
    #: (iterated in its hash order, written by TotalSamples then that name descending), CS
    #: contexts as ``[...]`` strings in the name table, six ext-binary sections (no CS name
    #: table), FuncMetadata of top-level profiles only, text metadata at the top level only
    sample_string_map_profiles: bool
    #: vtable type samples: text "N: vtables T:C ..." lines, the ext-binary summary flag
    #: HasVTableTypeProf (older releases ignore the bit) and the writer option
    sample_vtable_types: bool
    sample_text_metadata_error: bool  # "Cannot parse metadata: " (before: the body-line message)
    #: a body line offset >= 2**16 is an error (before: the function silently ends mid-record)
    sample_binary_illegal_offset_error: bool
    #: inlinees with attribute 4 (ContextDuplicatedIntoBase) are not counted (verified 14: no;
    #: 15, 16, 19, 22: yes)
    sample_summary_skips_duplicated_into_base: bool
    sample_cs_hash_md5_frames: bool  # CS map keys hash frames from MD5s (14/16: hash_combine)
    #: CS -> nested conversion drops the folded callee's call target from the caller's body
    #: (before: targets kept and every folded context also kept as a base profile)
    sample_nest_removes_call_targets: bool
    #: --sample-frame-depth-for-cold-context is honoured (before: every cold context merges
    #: into its function's base profile whatever the option says)
    sample_cold_context_frame_depth: bool
    sample_merge_default_extbinary: bool  # merge --sample writes extbinary unless told
    sample_merge_compbinary_option: bool  # merge --compbinary exists (compact binary output)
    sample_compact_binary_readable: bool  # compact binary input (later: unrecognized format)
    sample_merge_drop_symbol_list_option: bool  # --drop-profile-symbol-list exists
    sample_merge_output_size_limit_option: bool  # --output-size-limit exists
    #: --convert-sample-profile-layout=nest|flat exists (before: --gen-cs-nested-profile)
    sample_merge_convert_layout_option: bool
    sample_merge_gen_cs_nested_option: bool  # --gen-cs-nested-profile exists (14 to 16)
    sample_merge_split_layout_option: bool  # --split-layout exists (ext-binary, text " !Flat")
    #: summary flag 16 is IsPreInlined, shown "preInlined" (14: IsCSNested, "context-nested")
    sample_preinlined_flag: bool
    #: 14's ext-binary reader answers flag 16 with ``ProfileIsCSNested = ProfileIsCSNested``
    #: (its own member, never set): the static flag an earlier text input set is cleared
    sample_nested_flag_clears: bool
    #: ``readStringIndex`` reads a ``uint32_t`` (17+: ``size_t``): a wider index is malformed
    sample_name_index_bits: int
    #: ``--profile-summary-hot-count``/``-cold-count`` are ``cl::opt<int>`` (15: ``uint64_t``)
    summary_counts_are_int: bool
    #: MD5 names are hash values (``FunctionId``): sorted as numbers, hashed as themselves
    #: (before: decimal strings, sorted, hashed and --use-md5 hashed again like any name)
    sample_md5_function_ids: bool
    #: a repeated top-level profile in a binary file adds up (before: it replaces the first)
    sample_binary_duplicates_merge: bool
    #: llvm-profdata (no module) steps over an ext-binary FuncOffsetTable without reading
    #: it, wherever it claims to be (14/16 read its entries; 17/18 untested, taken as 16)
    sample_skips_func_offset_table: bool
    show_sample_missing_function_unnamed: bool  # --function=absent prints "Function: : 0, ..."
    show_sample_topn: bool  # --topn lists the hottest sample functions (13: instr only)
    show_sample_internal_count_line: bool  # "Maximum internal block count: 0" (not "block count")
    # -- MemProf in indexed profiles (formats/memprof.py; verified on 16, 19, 22)
    memprof_read_versions: tuple[int, ...]  # (0,): V0 only, with no version word (<= 17)
    memprof_write_versions: tuple[int, ...]  # what --memprof-version accepts
    memprof_default_version: int  # what merge writes without --memprof-version
    #: fields of MIBEntryDef.inc (16: the six access densities, 15 verified without them;
    #: 19+: the access histogram)
    memprof_mib_fields: int
    memprof_blake3_frame_ids: bool  # frames keyed by BLAKE3 (before: Frame::hash())
    memprof_show_indexed: bool  # show --memory reads indexed profiles (before: raw only)
    #: show --memory errors print the file and the message on two lines (15-19; 14: "F: msg")
    memprof_show_split_errors: bool
    memprof_yaml_input: bool  # merge reads MemProf YAML
    #: merge --memprof-random-hotness[-seed]: glibc rand() makes each allocation context
    #: cold or not cold (a testing aid, LLVM 20, PR 113998)
    memprof_random_hotness: bool


def _memprof_versions(n: int) -> tuple[int, ...]:
    """MemProf versions by release: V1 in 18, V2/V3 in 19, V0/V1 gone in 20, V4 in 21."""
    if n <= 17:
        return (0,)
    if n <= 19:
        return (0, 1) if n == 18 else (0, 1, 2, 3)
    return (2, 3) if n == 20 else (2, 3, 4)


def _raw_variant_bits(n: int) -> int:
    bits = 0x07 << 56  # IR, CSIR, entry first
    for since, bit in ((14, 59), (14, 60), (14, 61), (15, 62), (17, 63), (20, 55)):
        if n >= since:
            bits |= 1 << bit
    return bits


def _written_kinds(n: int) -> frozenset[str]:
    """Block coverage and entry-only in 14, MemProf in 15, temporal in 17, loop entries in 22."""
    kinds = {"IR", "CS", "ENTRY_FIRST"}
    if n >= 14:
        kinds |= {"SINGLE_BYTE_COVERAGE", "FUNCTION_ENTRY_ONLY"}
    if n >= 15:
        kinds.add("MEMPROF")
    if n >= 17:
        kinds.add("TEMPORAL")
    if n >= 22:
        kinds.add("LOOP_ENTRIES")
    return frozenset(kinds)


def _row(n: int) -> Release:
    raw = 5 if n <= 12 else 7 if n == 13 else 8 if n <= 17 else 9 if n == 18 else 10
    indexed = {11: 6, 12: 7, 13: 7, 14: 7, 15: 8, 16: 9, 17: 10, 18: 11}.get(
        n, 12 if n <= 21 else 13
    )
    return Release(
        number=n,
        raw_version=raw,
        indexed_version=indexed,
        max_value_kind=1 if n <= 17 else 2,
        sorted_name_insertion=n >= 19,
        densemap_mix_hash=n >= 19,
        stringmap_xxh3_hash=n >= 17,
        summary_skips_pseudo_records=n >= 16,
        text_single_byte_header=n >= 19,
        text_temporal_block=n >= 19,
        text_loop_entries_header=n >= 22,
        text_bitmaps=n >= 18,
        show_loop_entries_on_level_line=n >= 22,
        show_totals_always=n >= 22,
        show_new_detailed_lines=n >= 22,
        show_old_default_cutoffs=n <= 14,
        show_profile_version_option=n >= 16,
        show_format_option=n >= 16,
        profiled_binary_option=n >= 15,
        show_covered_option=n >= 14,
        show_memory_option=n >= 14,
        show_vtables_option=n >= 19,
        show_temporal_traces_option=n >= 17,
        show_correlation_warnings_option=n >= 17,
        show_pseudo_counts=n >= 16,
        show_instr_hot_func_list=n >= 22,
        show_indexed_binary_ids_header=n >= 18,
        raw_binary_ids_last_profile_only=n <= 16,
        raw_binary_ids_on_demand=n <= 16,
        raw_binary_id_may_be_empty=n <= 15,
        raw_variant_bits=_raw_variant_bits(n),
        raw_correlate_flag_needs_debug_info=14 <= n <= 17,
        raw_reversed_vnames_empty=n <= 21,
        merge_reads_binary_ids=n >= 16,
        cl_errors_name_subcommand=n <= 16,
        cl_no_subcommand_typo=17 <= n <= 19,
        cl_repeated_options=n >= 15,
        cl_options_densemap=n >= 22,
        show_kind_description="Profile kind supported by show:" if n >= 17 else "Profile kind:",
        raw_version_mismatch_wording=n >= 17,
        version_mask=0x00FFFFFFFFFFFFFF if n <= 16 else 0xFFFFFFFF,
        empty_name="symbol name" if n >= 19 else "function name",
        instr_error_details=n >= 14,
        show_topn_stable=n >= 22,
        merge_pseudo_counts=n >= 16,
        merge_contexts_merge_kind=n >= 16,
        merge_kind_keeps_entry_first=n >= 14,
        merge_headerless_text_any_kind=n >= 14,
        merge_validates_memop_values=n >= 15,
        merge_temporal_traces=n >= 17,
        indexed_written_kinds=_written_kinds(n),
        order_command=n >= 17,
        order_split_sorts=n >= 20,  # verified 19: no, 22: yes; 20 and 21 assumed
        trace_reservoir_fills_first=n >= 22,
        merge_failure_mode_warn=n >= 18,
        merge_large_counter_check=n >= 18,
        merge_open_error_details=n >= 17,
        value_sort_introsort=n >= 19,
        merge_function_filters=n >= 18,
        merge_keep_vtable_symbols=n >= 19,
        merge_write_prev_version=n >= 18,
        merge_reads_stdin=n <= 14,
        merge_supplement_option=n >= 12,
        supplement_flattens_samples=n >= 16,
        pgo_name_semicolon_delimiter=n >= 18,
        supplement_flat_map_stringmap=n >= 18,
        correlate_debug_info=n >= 14,
        merge_binary_file_option=n >= 18,
        correlation_binary_wording=n >= 18,
        correlate_by_build_id=n >= 20,
        show_correlation_sorted_names=n >= 19,
        overlap_typo=n <= 21,
        sample_text_merges_duplicates=n >= 19,
        sample_text_skips_blank_lines=n >= 19,
        sample_text_flat_marker=n >= 22,
        sample_text_nested_metadata=n >= 14,
        sample_string_map_profiles=n <= 13,
        sample_vtable_types=n >= 22,
        sample_text_metadata_error=n >= 22,
        sample_binary_illegal_offset_error=n >= 22,
        sample_summary_skips_duplicated_into_base=n >= 15,
        sample_cs_hash_md5_frames=n >= 19,
        sample_nest_removes_call_targets=n >= 15,
        sample_cold_context_frame_depth=n >= 17,
        sample_merge_default_extbinary=n >= 19,
        sample_merge_compbinary_option=n <= 16,
        sample_compact_binary_readable=n <= 16,
        sample_merge_drop_symbol_list_option=n >= 16,
        sample_merge_output_size_limit_option=n >= 17,
        sample_merge_convert_layout_option=n >= 17,
        sample_merge_gen_cs_nested_option=14 <= n <= 16,
        sample_merge_split_layout_option=n >= 20,
        sample_preinlined_flag=n >= 15,
        sample_nested_flag_clears=n == 14,
        sample_name_index_bits=32 if n <= 16 else 64,
        summary_counts_are_int=n <= 14,
        sample_md5_function_ids=n >= 18,
        sample_binary_duplicates_merge=n >= 17,
        sample_skips_func_offset_table=n >= 19,
        show_sample_missing_function_unnamed=n >= 19,
        show_sample_topn=n >= 14,
        show_sample_internal_count_line=n >= 22,
        memprof_read_versions=_memprof_versions(n),
        memprof_write_versions=_memprof_versions(n),
        memprof_default_version=0 if n <= 19 else 3,
        memprof_mib_fields=27 if n >= 19 else 25 if n >= 16 else 19,
        memprof_blake3_frame_ids=n >= 20,
        memprof_show_indexed=n >= 20,
        memprof_show_split_errors=15 <= n < 20,
        memprof_yaml_input=n >= 20,
        memprof_random_hotness=n >= 20,
    )


SUPPORTED = tuple(range(11, 23))
_TABLE: dict[int, Release] = {}  # the rows asked for (a command asks for one or two)


def release(number: int = DEFAULT_RELEASE) -> Release:
    """The row for an LLVM release number (11 to 22)."""
    row = _TABLE.get(number)
    if row is None:
        if number not in SUPPORTED:
            raise ValueError(
                f"unsupported LLVM release {number}; choose one of {SUPPORTED[0]}..{SUPPORTED[-1]}"
            )
        row = _TABLE[number] = _row(number)
    return row
