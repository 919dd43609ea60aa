"""``--output-size-limit``: the writer drops the coldest profiles until the output fits.

The exact bytes for chosen limits are compared with llvm-profdata in
``tests/unit/cli/test_merge_sample_cli.py`` (compat); here the invariants of the
pruning loop on the goldens' inputs, for every output format.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from profdata.errors import WriteError
from profdata.formats.sample_registry import open_sample, read_sample_bytes
from profdata.ops.merge_sample import TOO_LARGE, SampleOutputOptions, encode_sample
from profdata.releases import release

INPUTS = Path(__file__).resolve().parents[2] / "golden" / "sample" / "inputs"
R22 = release(22)


@pytest.mark.parametrize("fmt", ["text", "binary", "extbinary"])
@pytest.mark.parametrize("name", ["corpus-inline", "corpus-flat", "llvm-sample-profile"])
def test_pruned_output_fits_and_keeps_the_hottest(fmt: str, name: str) -> None:
    profile = open_sample(INPUTS / f"{name}.txt", R22)
    full = encode_sample(profile, fmt, release=R22)
    hottest = [fs.context for fs in profile.sorted_profiles()]
    pruned = 0
    for limit in range(len(full) // 3, len(full) + 1, max(len(full) // 25, 1)):
        try:
            data = encode_sample(profile, fmt, SampleOutputOptions(size_limit=limit), release=R22)
        except WriteError as exc:
            assert exc.headline() == TOO_LARGE
            continue
        assert len(data) <= limit
        kept = list(read_sample_bytes(data, "p", R22).profiles)
        assert set(kept) == set(hottest[: len(kept)])
        pruned += len(kept) < len(hottest)
        if limit >= len(full):
            assert data == full
    assert pruned  # some limits kept part of the profile
    assert len(profile.profiles) == len(hottest)  # the caller's profile is not pruned


def test_nothing_fits() -> None:
    profile = open_sample(INPUTS / "corpus-flat.txt", R22)
    with pytest.raises(WriteError) as caught:
        encode_sample(profile, "extbinary", SampleOutputOptions(size_limit=1), release=R22)
    assert caught.value.headline() == TOO_LARGE
