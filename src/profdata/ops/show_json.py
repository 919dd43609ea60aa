"""``profdata show --show-format=json`` for instrumentation profiles (a profdata extra).

llvm-profdata refuses JSON for instrumentation profiles ("JSON output is not
supported for instr profiles"); profdata renders the same
:class:`~profdata.ops.show.ShowReport` the text output comes from, so every
filter (``--all-functions``, ``--function``, ``--showcs``, ``--value-cutoff``,
``--list-below-cutoff``, ``--covered``, ``--topn``, ``--hot-func-list``)
selects exactly what the text would show.  The document is one JSON object,
ASCII only (names with non-ASCII or undecodable bytes use ``\\u`` escapes;
undecodable bytes appear as lone surrogates U+DC80-U+DCFF), integers exact
(hashes and counters can exceed 2**53: read them with a big-integer-aware
parser).  Schema ``profdata.show.instr/1`` (stable; additions only):

``schema``
    ``"profdata.show.instr/1"``.
``llvm_release``
    the ``--llvm-release`` whose rules decided filtering and summary.
``profile``
    ``{"format": "raw"|"indexed"|"text", "version": int|null (format version,
    low 32 bits; null for text), "reader_version": int (what
    --profile-version prints), "level": "IR"|"Front-end", "flags": [str]
    (set variant flags: "ir", "cs", "entry_first", "instrument_loop_entries",
    "single_byte_coverage", "function_entry_only", "debug_info_correlate",
    "memprof", "temporal"), "binary_ids": [hex str]}``.
``functions``
    the shown records in reader order (``--all-functions`` / ``--function``;
    none otherwise), each ``{"name", "hash": int, "cs": bool, "pseudo":
    null|"hot"|"warm", "max_count": int, "sum": int (wraps at 2**64 like
    LLVM's), "counts": [int], "bitmap": [int], "value_sites": {kind: [site]}}``
    where kind is ``"indirect_call_target"``, ``"memop_size"`` or
    ``"vtable_target"`` (only kinds with sites), a site is a list of
    ``{"value": int, "count": int}`` and target kinds add ``"target": str|null``
    (the name from the reader's symbol table, null when unknown).  Counters
    and value sites are always included; ``--counts`` and friends only matter
    for text.
``below_cutoff``
    ``--list-below-cutoff``: ``[{"name", "hash", "max_count", "sum"}]`` in
    reader order; otherwise null.
``covered``
    ``--covered``: names of records with a non-zero counter; otherwise null.
``summary``
    null with ``--covered``; else ``{"num_functions", "num_counts",
    "max_function_count", "max_count", "max_internal_count", "total_count",
    "detailed": [{"cutoff", "min_count", "num_counts"}]}``; ``detailed`` is
    filled when ``--detailed-summary``, ``--detailed-summary-cutoffs`` or the
    hot list asked for cutoffs.
``value_cutoff``
    ``{"cutoff", "below", "at_or_above"}`` when ``--value-cutoff`` > 0, else null.
``top_functions``
    ``--topn``: ``[{"name", "max_count"}]`` hottest first; otherwise null.
``hot_functions``
    ``--hot-func-list`` (releases whose llvm-profdata lists hot instr
    functions): ``{"threshold", "functions": [{"name", "max_count"}]}``; else null.
``value_site_stats``
    per kind requested with ``--ic-targets`` / ``--show-vtables`` /
    ``--memop-sizes`` while at least one function is shown: ``{"num_sites",
    "num_sites_with_values", "num_values", "histogram": {"<k>": sites with k
    values}}``; else null.
``temporal_traces``
    ``--temporal-profile-traces``: ``{"stream_size", "traces": [{"weight",
    "functions": [{"hash": int, "name": str|null}]}]}``; else null.
"""

from __future__ import annotations

import json
from typing import Any

from profdata.model.instr import PSEUDO_HOT, InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.summary import ProfileSummary
from profdata.ops.show import ItemKind, ShowReport, ValueSiteStats, profile_version

SCHEMA = "profdata.show.instr/1"

_FLAG_NAMES = (
    (ProfileKind.IR, "ir"),
    (ProfileKind.CS, "cs"),
    (ProfileKind.ENTRY_FIRST, "entry_first"),
    (ProfileKind.LOOP_ENTRIES, "instrument_loop_entries"),
    (ProfileKind.SINGLE_BYTE_COVERAGE, "single_byte_coverage"),
    (ProfileKind.FUNCTION_ENTRY_ONLY, "function_entry_only"),
    (ProfileKind.DEBUG_INFO_CORRELATE, "debug_info_correlate"),
    (ProfileKind.MEMPROF, "memprof"),
    (ProfileKind.TEMPORAL, "temporal"),
)

_KIND_KEYS = {
    ValueKind.INDIRECT_CALL_TARGET: "indirect_call_target",
    ValueKind.MEMOP_SIZE: "memop_size",
    ValueKind.VTABLE_TARGET: "vtable_target",
}


def render_json(report: ShowReport) -> str:
    """The report as one JSON document (schema in the module docstring), newline-terminated."""
    return json.dumps(to_document(report)) + "\n"


def to_document(report: ShowReport) -> dict[str, Any]:
    opts = report.options
    profile = report.profile
    symbols = profile.symbols
    functions: list[dict[str, Any]] = []
    below: list[dict[str, Any]] = []
    covered: list[str] = []
    for kind, index in report.items():
        rec = report.records[index]
        if kind is ItemKind.BELOW_CUTOFF:
            below.append(
                {
                    "name": rec.name,
                    "hash": rec.hash,
                    "max_count": report.max_count(index),
                    "sum": report.sum_count(index),
                }
            )
        elif kind is ItemKind.COVERED:
            covered.append(rec.name)
        else:
            functions.append(
                _function(rec, kind, report.max_count(index), report.sum_count(index), symbols)
            )
    summary = report.summary
    value_cutoff = None
    if opts.value_cutoff > 0 and summary is not None:
        value_cutoff = {
            "cutoff": opts.value_cutoff,
            "below": report.num_below_cutoff,
            "at_or_above": summary.num_functions - report.num_below_cutoff,
        }
    hot = None
    if report.hot_threshold is not None:
        hot = {"threshold": report.hot_threshold, "functions": _named_counts(report.hot)}
    stats = None
    if report.num_shown and report.site_stats:
        stats = {_KIND_KEYS[k]: _stats(s) for k, s in report.site_stats.items()}
    return {
        "schema": SCHEMA,
        "llvm_release": report.release.number,
        "profile": _profile(profile),
        "functions": functions,
        "below_cutoff": below if opts.list_below_cutoff else None,
        "covered": covered if opts.covered else None,
        "summary": _summary(summary) if summary is not None else None,
        "value_cutoff": value_cutoff,
        "top_functions": _named_counts(report.top) if opts.topn else None,
        "hot_functions": hot,
        "value_site_stats": stats,
        "temporal_traces": _traces(profile) if opts.temporal_traces else None,
    }


def _profile(profile: InstrProfile) -> dict[str, Any]:
    kind = profile.kind
    return {
        "format": profile.format,
        "version": None if profile.version is None else profile.version & 0xFFFFFFFF,
        "reader_version": profile_version(profile),
        "level": "IR" if kind.is_ir else "Front-end",
        "flags": [name for flag, name in _FLAG_NAMES if kind & flag],
        "binary_ids": [bid.hex() for bid in profile.binary_ids],
    }


def _function(
    rec: InstrRecord, kind: ItemKind, max_count: int, sum_count: int, symbols: dict[int, str]
) -> dict[str, Any]:
    pseudo = None
    if kind is ItemKind.PSEUDO:
        pseudo = "hot" if int(rec.counts[0]) == PSEUDO_HOT else "warm"
    sites: dict[str, Any] = {}
    for vkind, kind_sites in rec.sites_by_kind().items():
        if vkind.targets_are_names:
            sites[_KIND_KEYS[vkind]] = [
                [{"value": v, "target": symbols.get(v), "count": c} for v, c in site]
                for site in kind_sites
            ]
        else:
            sites[_KIND_KEYS[vkind]] = [
                [{"value": v, "count": c} for v, c in site] for site in kind_sites
            ]
    return {
        "name": rec.name,
        "hash": rec.hash,
        "cs": rec.is_cs,
        "pseudo": pseudo,
        "max_count": max_count,
        "sum": sum_count,
        "counts": rec.counts.tolist(),
        "bitmap": list(rec.bitmap),
        "value_sites": sites,
    }


def _summary(summary: ProfileSummary) -> dict[str, Any]:
    return {
        "num_functions": summary.num_functions,
        "num_counts": summary.num_counts,
        "max_function_count": summary.max_function_count,
        "max_count": summary.max_count,
        "max_internal_count": summary.max_internal_count,
        "total_count": summary.total_count,
        "detailed": [
            {"cutoff": e.cutoff, "min_count": e.min_count, "num_counts": e.num_counts}
            for e in summary.detailed
        ],
    }


def _stats(stats: ValueSiteStats) -> dict[str, Any]:
    return {
        "num_sites": stats.num_sites,
        "num_sites_with_values": stats.num_sites_with_values,
        "num_values": stats.num_values,
        "histogram": {str(k + 1): n for k, n in enumerate(stats.histogram) if n},
    }


def _named_counts(pairs: list[tuple[str, int]]) -> list[dict[str, Any]]:
    return [{"name": name, "max_count": count} for name, count in pairs]


def _traces(profile: InstrProfile) -> dict[str, Any]:
    symbols = profile.symbols
    return {
        "stream_size": profile.trace_stream_size,
        "traces": [
            {
                "weight": trace.weight,
                "functions": [{"hash": h, "name": symbols.get(h)} for h in trace.function_hashes],
            }
            for trace in profile.traces
        ],
    }
