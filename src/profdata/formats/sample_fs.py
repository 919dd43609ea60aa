"""Flow-sensitive discriminators as LLVM's sample readers take them: ``--profile-isfs``
and ``--fs-discriminator-pass``.

An FS-AFDO profile packs the discriminators of several compiler passes into one
32-bit discriminator: 8 bits of the base discriminator, then 6 bits per pass.
``llvm-profdata`` reads such a profile "as of" a pass
(``--fs-discriminator-pass``, every pass by default): each reader zeroes the
discriminator bits beyond that pass (``getDiscriminatorMask``) in body lines and
call sites as it reads them, so lines that differ only in later passes' bits
are summed.  It does that only for a profile it takes as FS: an ext-binary one
whose summary section says so, or -- with the hidden libLLVM option
``--profile-isfs`` -- a text, binary or compact binary one (their readers set
``ProfileIsFS`` to the option, false without it; the GCC reader never does).
What a reader takes also lands in ``FunctionSamples::ProfileIsFS``, the static
flag the ext-binary writer reads (see
:func:`profdata.ops.sample_static_flags.static_fs_flag`).

Masking after the read gives what masking while reading gives (sums are
order-free); a text profile's summary, which LLVM computes after the read, is
computed again.
"""

from __future__ import annotations

from profdata.model.sample import FunctionSamples, LineLocation, SampleProfile, SampleRecord

__all__ = ["ALL_BITS", "ASSUMING_FORMATS", "LAST_PASS", "discriminator_mask", "mask_discriminators"]

LAST_PASS = 4  # ``FSDiscriminatorPass::PassLast``; 0 is ``Base``
_BASE_BITS = 8  # BaseDiscriminatorBitWidth
_PASS_BITS = 6  # FSDiscriminatorBitWidth
ALL_BITS = 0xFFFFFFFF
#: the readers whose ``readImpl`` sets ``ProfileIsFS`` from ``--profile-isfs``
ASSUMING_FORMATS = frozenset({"text", "binary", "compbinary"})


def discriminator_mask(last_pass: int) -> int:
    """``getN1Bits(getFSPassBitEnd(pass))``: the discriminator bits up to the pass."""
    end = _BASE_BITS + last_pass * _PASS_BITS - 1
    return ALL_BITS if end >= 31 else (1 << (end + 1)) - 1


def mask_discriminators(profile: SampleProfile, mask: int) -> None:
    """Zero the discriminator bits outside ``mask`` in every function of ``profile``."""
    for fs in profile.profiles.values():
        _mask(fs, mask)


def _mask(fs: FunctionSamples, mask: int) -> None:
    """Zero the discriminator bits outside ``mask`` everywhere below ``fs``, summing
    the lines and call sites that then meet (``addBodySamples``, and one callee
    profile per name and site, as ``functionSamplesAt(Loc)[Name]`` gives back)."""
    body: dict[LineLocation, SampleRecord] = {}
    for loc, record in fs.body_samples.items():
        key = LineLocation(loc.line_offset, loc.discriminator & mask)
        into = body.get(key)
        if into is None:
            body[key] = record
        else:
            into.merge(record)
    sites: dict[LineLocation, dict[str, FunctionSamples]] = {}
    for loc, callees in fs.callsite_samples.items():
        key = LineLocation(loc.line_offset, loc.discriminator & mask)
        mine = sites.setdefault(key, {})
        for name, callee in callees.items():
            _mask(callee, mask)
            target = mine.get(name)
            if target is None:
                mine[name] = callee
            else:
                target.merge(callee)
    fs.body_samples = body
    fs.callsite_samples = sites
