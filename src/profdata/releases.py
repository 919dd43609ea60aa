"""Every behaviour difference between LLVM releases, in one table.

``--llvm-release=N`` selects the row; formats and operations ask the row a
named question (``release.text_writes_bitmaps``) instead of comparing version
numbers, so adding a release is adding a row.  Releases 14, 16, 19 and 22 were
verified against the real tools; the others are derived from the format
versions each release writes (``shared/spec/README.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_RELEASE = 22

#: The cutoffs ``show --detailed-summary`` used in 14 (verified: the last line reads 99.999).
OLD_SHOW_CUTOFFS: tuple[int, ...] = (800000, 900000, 950000, 990000, 999000, 999900, 999990)


@dataclass(frozen=True)
class Release:
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
    show_format_option: bool  # also --json and --profiled-binary
    show_vtables_option: bool  # --show-vtables
    show_temporal_traces_option: bool  # --temporal-profile-traces
    show_correlation_warnings_option: bool  # --max-debug-info-correlation-warnings
    #: "<PseudoHot>" blocks and pseudo records left out of the summary; before, a counter
    #: of 2**64-1 was an "invalid count" that the summary and the function maxima skipped
    show_pseudo_counts: bool
    show_instr_hot_func_list: bool  # --hot-func-list also lists hot instr functions
    show_indexed_binary_ids_header: bool  # indexed files print "Binary IDs: " even with none
    raw_binary_ids_last_profile_only: bool  # the raw reader keeps one header's ids (<= 16)
    raw_version_mismatch_wording: bool  # unknown raw versions: "raw profile version mismatch"
    show_topn_stable: bool  # --topn ties in reader order (before: libstdc++ heap order)
    # -- merge (instr-indexed.md §7, §9; verified against 14, 16, 19, 22)
    merge_pseudo_counts: bool  # PseudoHot/Warm merge rules; counters clamp at 2**64-3 (14: 2**64-1)
    merge_contexts_merge_kind: bool  # writer contexts merge their flags (14 keeps context 0's)
    merge_validates_memop_values: bool  # "invalid profile created" after writing duplicate sizes
    merge_temporal_traces: bool  # temporal traces and --temporal-profile-* options
    trace_reservoir_fills_first: bool  # fill the reservoir, then sample (else per-trace sampling)
    merge_failure_mode_warn: bool  # --failure-mode=warn exists
    merge_function_filters: bool  # --function / --no-function exist
    merge_keep_vtable_symbols: bool  # --keep-vtable-symbols exists
    merge_write_prev_version: bool  # --write-prev-version exists (writes indexed version 11)
    merge_reads_stdin: bool  # input "-" is standard input (16+: silently an empty input)
    overlap_typo: bool  # "infomation"
    # -- sample profiles (sample-text.md §2; verified on 14, 16, 19, 22)
    sample_text_merges_duplicates: bool  # a repeated header adds up (before: the last one wins)
    sample_text_skips_blank_lines: bool  # lines of spaces only are skipped (before: an error)
    sample_text_flat_marker: bool  # " !Flat" after a top-level profile is accepted
    sample_text_vtables: bool  # "N: vtables T:C ..." type profile lines
    sample_text_metadata_error: bool  # "Cannot parse metadata: " (before: the body-line message)
    #: a body line offset >= 2**16 is an error (before: the function silently ends mid-record)
    sample_binary_illegal_offset_error: bool
    sample_summary_skips_duplicated_into_base: bool  # inlinees with attribute 4 not counted
    sample_cs_hash_md5_frames: bool  # CS map keys hash frames from MD5s (14/16: hash_combine)
    #: CS -> nested conversion drops the folded callee's call target from the caller's body
    #: (before: targets kept and every folded context also kept as a base profile)
    sample_nest_removes_call_targets: bool
    sample_merge_default_extbinary: bool  # merge --sample writes extbinary unless told
    show_sample_missing_function_unnamed: bool  # --function=absent prints "Function: : 0, ..."
    show_sample_internal_count_line: bool  # "Maximum internal block count: 0" (not "block count")


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
        summary_skips_pseudo_records=n >= 15,
        text_single_byte_header=n >= 19,
        text_temporal_block=n >= 19,
        text_loop_entries_header=n >= 22,
        text_bitmaps=n >= 18,
        show_loop_entries_on_level_line=n >= 22,
        show_totals_always=n >= 22,
        show_new_detailed_lines=n >= 22,
        show_old_default_cutoffs=n <= 14,
        show_profile_version_option=n >= 15,
        show_format_option=n >= 15,
        show_vtables_option=n >= 19,
        show_temporal_traces_option=n >= 17,
        show_correlation_warnings_option=n >= 17,
        show_pseudo_counts=n >= 15,
        show_instr_hot_func_list=n >= 22,
        show_indexed_binary_ids_header=n >= 18,
        raw_binary_ids_last_profile_only=n <= 16,
        raw_version_mismatch_wording=n >= 17,
        show_topn_stable=n >= 22,
        merge_pseudo_counts=n >= 15,
        merge_contexts_merge_kind=n >= 15,
        merge_validates_memop_values=n >= 15,
        merge_temporal_traces=n >= 17,
        trace_reservoir_fills_first=n >= 22,
        merge_failure_mode_warn=n >= 18,
        merge_function_filters=n >= 18,
        merge_keep_vtable_symbols=n >= 19,
        merge_write_prev_version=n >= 18,
        merge_reads_stdin=n <= 14,
        overlap_typo=n <= 21,
        sample_text_merges_duplicates=n >= 19,
        sample_text_skips_blank_lines=n >= 19,
        sample_text_flat_marker=n >= 22,
        sample_text_vtables=n >= 22,
        sample_text_metadata_error=n >= 22,
        sample_binary_illegal_offset_error=n >= 22,
        sample_summary_skips_duplicated_into_base=n >= 16,
        sample_cs_hash_md5_frames=n >= 19,
        sample_nest_removes_call_targets=n >= 16,
        sample_merge_default_extbinary=n >= 19,
        show_sample_missing_function_unnamed=n >= 19,
        show_sample_internal_count_line=n >= 22,
    )


SUPPORTED = tuple(range(11, 23))
_TABLE = {n: _row(n) for n in SUPPORTED}


def release(number: int = DEFAULT_RELEASE) -> Release:
    """The row for an LLVM release number (11 to 22)."""
    try:
        return _TABLE[number]
    except KeyError:
        raise ValueError(
            f"unsupported LLVM release {number}; choose one of {SUPPORTED[0]}..{SUPPORTED[-1]}"
        ) from None
