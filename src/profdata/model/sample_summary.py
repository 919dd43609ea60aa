"""Profile summary of a sample profile (LLVM's ``SampleProfileSummaryBuilder``).

Each body sample is a "block": it goes into the count histogram, the total,
the block count and the maximum; top-level profiles are the functions and
their head samples the function counts.  Inlined instances add their body
samples but are not functions, and an inlinee marked
``ContextDuplicatedIntoBase`` is skipped (its samples are already in its base
profile).  CS profiles are first flattened by leaf function, as
``computeSummaryForProfiles`` does, so ``NumFunctions`` counts distinct leaf
functions.  The cutoff walk is :func:`~profdata.model.summary.detailed_entries`,
shared with instrumentation summaries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from profdata.model.counters import value_counts
from profdata.model.sample import (
    U64,
    ContextAttribute,
    FunctionSamples,
    SampleProfile,
    flatten_contexts,
)
from profdata.model.sample_map_order import flat_key, profile_map_order
from profdata.model.summary import DEFAULT_CUTOFFS, ProfileSummary, detailed_entries
from profdata.releases import Release

_DUPLICATED = int(ContextAttribute.DUPLICATED_INTO_BASE)


def summarize_samples(
    profiles: Iterable[FunctionSamples],
    cutoffs: Sequence[int] = DEFAULT_CUTOFFS,
    *,
    skip_duplicated: bool = True,
) -> ProfileSummary:
    """``addRecord`` for each top-level profile, then ``getSummary``.

    ``skip_duplicated=False`` is LLVM 14, which counts ``ContextDuplicatedIntoBase``
    inlinees too.
    """
    skip = _DUPLICATED if skip_duplicated else 0
    counts: list[int] = []
    num_functions = 0
    max_function_count = 0
    for fs in profiles:
        num_functions += 1
        max_function_count = max(max_function_count, fs.head_samples)
        counts += [
            record.samples for inst in fs.walk(skip) for record in inst.body_samples.values()
        ]
    arr = np.array(counts, dtype=np.uint64)
    total = sum(counts) & U64
    if len(arr):
        values, freqs = value_counts(arr)
        max_count = int(values[-1])
    else:
        values = np.zeros(0, dtype=np.uint64)
        freqs = np.zeros(0, dtype=np.int64)
        max_count = 0
    return ProfileSummary(
        num_functions=num_functions & 0xFFFFFFFF,
        num_counts=len(counts) & 0xFFFFFFFF,
        max_function_count=max_function_count,
        max_count=max_count,
        max_internal_count=0,
        total_count=total,
        detailed=detailed_entries(values, freqs, total, cutoffs),
    )


def summarize_profile(
    profile: SampleProfile,
    cutoffs: Sequence[int] = DEFAULT_CUTOFFS,
    *,
    skip_duplicated: bool = True,
    md5_frames: bool = True,
    string_map: bool = False,
    contextless: bool | None = None,
) -> ProfileSummary:
    """``computeSummaryForProfiles``: CS profiles are summarised context-less, flattened in
    the profile map's iteration order (of two contexts of one function with different
    checksums, the one met first is kept); ``md5_frames`` as in
    :func:`~profdata.model.sample_map_order.profile_map_order`.  LLVM 13 flattens in
    its ``StringMap``'s order (``string_map``).

    ``contextless`` is ``--profile-summary-contextless``: False summarises each
    context as a function of its own; True flattens any profile, which changes
    nothing unless it is CS (merging top-level profiles by name)."""
    profiles: Iterable[FunctionSamples] = profile.profiles.values()
    if profile.is_cs and contextless is not False:
        ordered = profile_map_order(profile, md5_frames, string_map=string_map)
        key = flat_key(profile, md5_frames)
        profiles = flatten_contexts(ordered, string_map, key)
    return summarize_samples(profiles, cutoffs, skip_duplicated=skip_duplicated)


def release_summary(
    profile: SampleProfile, release: Release, contextless: bool | None = None
) -> ProfileSummary:
    """The summary ``release`` computes for ``profile``: which inlinees it skips, and the
    map order its CS flattening meets contexts in (a context whose checksum differs
    from the one met first is left out, so that order decides the counts);
    ``contextless`` as in :func:`summarize_profile`."""
    return summarize_profile(
        profile,
        skip_duplicated=release.sample_summary_skips_duplicated_into_base,
        md5_frames=release.sample_cs_hash_md5_frames,
        string_map=release.sample_string_map_profiles,
        contextless=contextless,
    )
