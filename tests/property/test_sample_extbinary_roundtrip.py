"""Round trips of the extensible binary sample format on generated profiles.

Profiles come from the text/binary round-trip strategies, limited to what
the ext-binary reader accepts (line offsets of bodies and context frames fit
16 bits) and keeps (attributes only in CS or pre-inlined profiles; the split
layout writes every CS context as index 0, so it is tried on non-CS profiles
only, as LLVM itself cannot read those files back).  Every writer option is
drawn; the bytes written again from what was read are the same bytes.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from profdata.formats import sample_extbinary_write
from profdata.formats.sample_extbinary_write import ExtBinaryWriteOptions
from profdata.formats.sample_registry import read_sample_bytes
from profdata.model.names import md5_hash
from profdata.model.sample import (
    LineLocation,
    SampleContext,
    SampleContextFrame,
    SampleProfile,
)
from profdata.releases import release
from tests.property.test_sample_roundtrip import profiles

pytestmark = pytest.mark.property

R22 = release(22)


def readable(profile: SampleProfile) -> SampleProfile:
    """Frame line offsets cut to 16 bits; attributes dropped where the format has none."""
    out = SampleProfile(
        is_cs=profile.is_cs,
        is_probe_based=profile.is_probe_based,
        is_preinlined=profile.is_preinlined,
    )
    for context, fs in profile.profiles.items():
        if context.frames:
            frames = [
                SampleContextFrame(
                    f.function,
                    LineLocation(f.location.line_offset & 0xFFFF, f.location.discriminator),
                )
                for f in context.frames
            ]
            context = SampleContext.of_frames(frames)
            fs.context = context
        assume(context not in out.profiles)
        if not (profile.is_cs or profile.is_preinlined):
            for inner in fs.walk():
                inner.attributes = 0
        out.profiles[context] = fs
    return out


def ext_options(split: bool) -> st.SearchStrategy[ExtBinaryWriteOptions]:
    return st.builds(
        ExtBinaryWriteOptions,
        compress_all_sections=st.booleans(),
        partial=st.booleans(),
        split_layout=st.just(False) if not split else st.booleans(),
    )


ANY_PROFILE = st.one_of(
    profiles(binary=True),
    profiles(binary=True, probe=True),
    profiles(cs=True, binary=True),
    profiles(cs=True, probe=True, binary=True),
)


@settings(max_examples=80, deadline=None)
@given(ANY_PROFILE, st.data())
def test_extbinary_roundtrip(generated: SampleProfile, data: st.DataObject) -> None:
    profile = readable(generated)
    assume(profile.profiles)  # an empty FuncMetadata section cannot say "probe-based"
    options = data.draw(ext_options(split=not profile.is_cs))
    written = sample_extbinary_write.write(profile, options)
    back = read_sample_bytes(written, "p.extbin", R22)
    assert back.format == "extbinary"
    assert back.profiles == profile.profiles
    assert (back.is_cs, back.is_probe_based, back.is_partial) == (
        profile.is_cs,
        profile.is_probe_based,
        options.partial,
    )
    # the map order (FuncMetadata, CS summary) follows insertion order, which the file
    # does not keep: the reader's profiles put back in the generated order
    in_order = replace(back, profiles={c: back.profiles[c] for c in profile.profiles})
    assert sample_extbinary_write.write(in_order, options) == written


@settings(max_examples=40, deadline=None)
@given(st.one_of(profiles(binary=True), profiles(binary=True, probe=True)))
def test_md5_names_read_back_as_their_hashes(generated: SampleProfile) -> None:
    profile = readable(generated)
    written = sample_extbinary_write.write(profile, ExtBinaryWriteOptions(use_md5=True))
    back = read_sample_bytes(written, "p.extbin", R22)
    assert back.is_md5
    assert set(back.profiles) == {SampleContext(str(md5_hash(c.name))) for c in profile.profiles}
    totals = sorted(fs.total_samples for fs in back.profiles.values())
    assert totals == sorted(fs.total_samples for fs in profile.profiles.values())
    again = sample_extbinary_write.write(back, ExtBinaryWriteOptions(use_md5=True))
    assert read_sample_bytes(again, "q.extbin", R22).profiles == back.profiles
