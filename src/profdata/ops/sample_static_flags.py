"""The static flags of LLVM's sample profile readers, as a merge of several inputs sees them.

``llvm-profdata merge --sample`` compares ``FunctionSamples::ProfileIsProbeBased``
and ``ProfileIsCS`` -- static members that each reader leaves behind -- across
inputs to refuse mixes, and the writer reads ``ProfileIsPreInlined`` when it
writes the summary section's flags.  Which reader sets what decides which mixes
merge and which flags the output carries, so both merges (record by record
and in columns) follow the readers here.
"""

from __future__ import annotations

from collections.abc import Collection

from profdata.formats.sample_fs import ASSUMING_FORMATS
from profdata.model.sample import SampleProfile
from profdata.releases import Release

__all__ = ["static_flag", "static_fs_flag", "static_preinlined_flag", "static_probe_flag"]


def static_probe_flag(profile: SampleProfile, current: bool) -> bool:
    """``FunctionSamples::ProfileIsProbeBased`` once ``profile`` was read: as
    :func:`static_flag`, except that the ext-binary reader sets it to the profile's own
    value, false too, from a function metadata section that is not empty (a CS profile's
    holds its attributes: a plain CS profile after a probe-based one is refused; a plain
    profile without metadata keeps the flag set, 13-22 alike)."""
    if profile.format == "extbinary" and profile.probe_flag_read:
        return profile.is_probe_based
    return static_flag(profile, current, profile.is_probe_based)


def static_flag(
    profile: SampleProfile, current: bool, own: bool, setters: Collection[str] = ("text",)
) -> bool:
    """A ``FunctionSamples`` static flag once ``profile`` was read: the readers of the
    ``setters`` formats (the text reader) set it to the profile's own value, the
    ext-binary reader only ever sets it (a plain ext-binary profile after a probe-based
    or CS one leaves it set: merged with function hash mismatches, not refused), the
    other readers leave it (13-22 alike)."""
    if profile.format in setters:
        return own
    if profile.format == "extbinary":
        return current or own
    return current


def static_preinlined_flag(profile: SampleProfile, current: bool, release: Release) -> bool:
    """``FunctionSamples::ProfileIsPreInlined`` (14: ``ProfileIsCSNested``), which the
    writer reads, once ``profile`` was read: :func:`static_flag`, except that 14's
    ext-binary reader clears it when the file's summary has flag 16 (it assigns its own
    member, which nothing set)."""
    clears = release.sample_nested_flag_clears and profile.format == "extbinary"
    if clears and profile.nested_flag_read:
        return False
    return static_flag(profile, current, profile.is_preinlined)


def static_fs_flag(profile: SampleProfile, current: bool) -> bool:
    """``FunctionSamples::ProfileIsFS`` once ``profile`` was read: :func:`static_flag`
    with the text, binary and compact binary readers setting it to ``--profile-isfs``
    (false without it: an FS ext-binary input followed by a text one is written
    without the FS flag); the GCC reader leaves it."""
    return static_flag(profile, current, profile.is_fs, ASSUMING_FORMATS)
