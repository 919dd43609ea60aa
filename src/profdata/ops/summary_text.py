"""``ProfileSummary::printDetailedSummary``, which ``show`` prints for instrumentation and
sample profiles alike."""

from __future__ import annotations

import numpy as np

from profdata.model.summary import ProfileSummary
from profdata.releases import Release

__all__ = ["detailed_summary_text"]


def detailed_summary_text(summary: ProfileSummary, release: Release) -> str:
    """``ProfileSummary::printDetailedSummary``; its percentages are float (32-bit) math."""
    lines = ["Detailed summary:\n"]
    total = np.float32(summary.num_counts)
    for entry in summary.detailed:
        cutoff = f"{float(np.float32(entry.cutoff) / np.float32(1_000_000) * np.float32(100)):.6g}"
        if release.show_new_detailed_lines:
            share = (
                float(np.float32(100) * np.float32(entry.num_counts) / total)
                if summary.num_counts
                else 0.0
            )
            lines.append(
                f"{entry.num_counts} blocks ({share:.2f}%) with count >= {entry.min_count} "
                f"account for {cutoff}% of the total counts.\n"
            )
        else:
            lines.append(
                f"{entry.num_counts} blocks with count >= {entry.min_count} "
                f"account for {cutoff} percentage of the total counts.\n"
            )
    return "".join(lines)
