"""The context-less summary of a CS merge that mixes MD5 and string names, against the real
llvm-profdata 14, 16, 19 and 22.

``computeSummaryForProfiles`` summarises CS profiles flattened by leaf function
(``ProfileConverter::flattenProfile``).  From 19 the flat ``SampleProfileMap`` holds a
profile under its ``FunctionId`` hash alone, so the leaf of an MD5 context and the
string name it is the MD5 of are one function, while the contexts themselves stay
apart when any other frame differs.  profdata flattened by name and counted both:
the merged summary (written in the extbinary's summary section) had more functions
and other cutoffs, while the profiles were the same.  Found by ``tools/fuzz_llvm.py``
(stops 50 and 51: an MD5 name table whose ``main`` lost a byte, merged with the string
profile).  ``--convert-sample-profile-layout=flat`` flattens into the same map, CS
contexts and nested inlinees alike.  Before 19 the map compares names (the summary
counts them apart, as profdata does).

The MD5 profile is the golden CS profile with ``main`` renamed, written with
``--use-md5``; its contexts under ``main`` differ from the string profile's, its leaves
``_Z5funcAi``, ``_Z5funcBi`` and ``_Z8funcLeafi`` do not.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.model.sample_map_order import function_id_hash
from profdata.model.sample_summary import release_summary
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import SampleMergeOptions, merge_samples
from profdata.releases import release
from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

INPUTS = Path(__file__).resolve().parents[1] / "golden" / "sample" / "inputs"
CS = INPUTS / "corpus-cs.txt"
NESTED = INPUTS / "corpus-inline.txt"


def _inputs(
    tmp_path: Path,
    rel: int,
    run_profdata: Callable[..., CliResult],
    golden: Path = CS,
    tool: Path | None = None,
) -> list[Path]:
    """The MD5 profile of the golden with ``main`` renamed, and the golden.  The real
    ``tool`` writes it where given; else profdata does (its ``--use-md5`` extbinary is
    the real tool's: ``test_sample_formats_goldens``)."""
    renamed = tmp_path / "renamed.txt"
    renamed.write_text(golden.read_text().replace("main", "mainx"))
    md5 = tmp_path / "renamed.md5.extbinary"
    args = ["merge", "--sample", "--extbinary", "--use-md5", str(renamed), "-o", str(md5)]
    if tool is not None:
        tools.run_tool_ok(tool, args)
    else:
        assert run_profdata(f"--llvm-release={rel}", *args).code == 0
    return [md5, golden]


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_leaves_of_one_hash_are_one_function_from_19(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    inputs = [WeightedFile(str(p)) for p in _inputs(tmp_path, rel, run_profdata)]
    merged = merge_samples(inputs, SampleMergeOptions(release=release(rel))).profile
    leaves = [fs.name for fs in merged.profiles.values()]
    ids = {function_id_hash(name, merged.is_md5) for name in leaves}
    assert len(ids) < len(set(leaves))  # an MD5 leaf and its string meet by hash only
    expected = len(ids) if rel >= 19 else len(set(leaves))
    assert release_summary(merged, release(rel)).num_functions == expected


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_the_merged_summary_is_the_real_tools(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    md5, text = _inputs(tmp_path, rel, run_profdata, tool=tool)
    for fmt in ("--extbinary", "--text"):  # the binary writer takes no CS profile
        args = ["merge", "--sample", fmt, str(md5), str(text), "-o", "@OUT"]
        same, real = tools.compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and same, args
    merged = tmp_path / "merged.extbinary"
    args = ["merge", "--sample", "--extbinary", str(md5), str(text), "-o", str(merged)]
    assert run_profdata(f"--llvm-release={rel}", *args).code == 0
    summary = ["show", "--sample", "--detailed-summary", str(merged)]
    same, real = tools.compare_with_tool(tool, rel, summary, run_profdata, tmp_path)
    assert real.returncode == 0 and same
    # the flat layout is made by the same flattening (16 refuses it for CS input, as ours)
    flat = ["merge", "--sample", "--text", "--convert-sample-profile-layout=flat"]
    same, real = tools.compare_with_tool(
        tool, rel, [*flat, str(md5), str(text), "-o", "@OUT"], run_profdata, tmp_path
    )
    assert same and (real.returncode == 0) == (rel >= 19)


@pytest.mark.parametrize("rel", [19, 22])
def test_a_nested_profile_flattens_by_hash_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """``flattenNestedProfile`` fills the same map: an inlinee of the MD5 profile and the
    string profile's function of that name become one flat profile."""
    tool = llvm_profdata(rel)
    md5, text = _inputs(tmp_path, rel, run_profdata, NESTED, tool)
    for fmt in ("--text", "--extbinary"):
        flat = ["merge", "--sample", fmt, "--convert-sample-profile-layout=flat"]
        args = [*flat, str(md5), str(text), "-o", "@OUT"]
        same, real = tools.compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and same, args
