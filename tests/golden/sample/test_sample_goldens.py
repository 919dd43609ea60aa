"""Sample profiles against goldens of the real llvm-profdata 14, 16, 19 and 22.

``make_goldens.py`` recorded, for every input and release, ``merge --sample
--text``, ``merge --sample --binary`` (and the text of that binary read
back) and ``show --sample`` with several option sets.  Here the same
commands run through our CLI (``show``) and ops (``merge``), and every
golden text and binary file is read and written back byte for byte.  Our
stderr may add ``  detail:`` lines; LLVM's lines must all be there.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import ProfdataError
from profdata.formats import sample_binary, sample_text
from profdata.formats.sample_registry import read_sample_bytes
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import (
    SampleMergeOptions,
    check_writable,
    encode_sample,
    merge_samples,
)
from profdata.releases import release
from tests.conftest import CliResult
from tests.golden._cases import Result, as_bytes, release_goldens

HERE = Path(__file__).resolve().parent
RELEASES = (14, 16, 19, 22)
SHOW_OPTIONS = {
    "default": [],
    "all-counts": ["--all-functions", "--counts"],
    "detailed": ["--detailed-summary"],
    "hot": ["--hot-func-list"],
    "topn2": ["--topn=2"],
    "fn-main": ["--function=main"],
    "fn-absent": ["--function=no_such_function"],
    "json": ["--show-format=json"],
    "json-fn": ["--show-format=json", "--function=main"],
    "sec-info": ["--show-sec-info-only"],
}

#: goldens LLVM itself cannot read back into the same file, with the reason
NOT_ROUNDTRIPPABLE = {
    "edge-leaf_location": "the leaf location of a context is not written: two contexts merge",
    "edge-odd_context_numbers": "line -1 is written as 4294967295, which reads back as 0",
    "edge-duplicated_into_base": "the binary format drops the attribute the summary skipped",
}


def goldens(number: int) -> dict[str, dict[str, Result]]:
    return release_goldens(HERE / "expected", number)


def cases(kind: str) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []
    for number in RELEASES:
        for name, results in goldens(number).items():
            out.extend((number, name, case) for case in results if case.startswith(kind))
    return out


def without_detail(stderr: bytes) -> bytes:
    lines = stderr.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith("  detail: ")).encode(
        "utf-8", "surrogateescape"
    )


@pytest.mark.parametrize(("number", "name", "case"), cases("show-"))
def test_show_matches_llvm(
    number: int,
    name: str,
    case: str,
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = goldens(number)[name][case]
    monkeypatch.chdir(HERE)
    options = SHOW_OPTIONS[case.removeprefix("show-")]
    got = run_profdata(
        f"--llvm-release={number}", "show", "--sample", *options, f"inputs/{name}.txt"
    )
    assert got.code == expected["exit"]
    assert got.stdout == as_bytes(expected["stdout"])
    assert without_detail(got.stderr) == as_bytes(expected["stderr"])


#: how each recorded merge case calls the op: (inputs with weights, option fields)
MERGE_CASES: dict[str, tuple[tuple[int, ...], dict[str, object]]] = {
    "merge": ((1,), {}),
    "merge-weighted": ((1, 3), {}),  # positional inputs come before --weighted-input ones
    "merge-flat": ((1,), {"profile_layout": "flat"}),
    "merge-nest": ((1,), {"profile_layout": "nest"}),
    "merge-gen-nested": ((1,), {"profile_layout": "nest"}),
    "merge-cold-merge": ((1,), {"merge_cold_context": True}),
    "merge-cold-trim": ((1,), {"trim_cold_context": True}),
}


def merge_text(number: int, path: Path, case: str = "merge") -> tuple[int, bytes, bytes]:
    """``merge --sample --text [options] FILE -o -`` through the ops, as the CLI runs it."""
    weights, fields = MERGE_CASES[case]
    inputs = [WeightedFile(str(path), w) for w in weights]
    options = SampleMergeOptions(release(number), **fields)  # type: ignore[arg-type]
    try:
        result = merge_samples(inputs, options)
        data = encode_sample(result.profile, "text", release=release(number))
    except ProfdataError as exc:
        return 1, b"", f"error: {exc.headline()}\n".encode("utf-8", "surrogateescape")
    err = "".join(f"{d.text()}\n" for d in result.diagnostics if hasattr(d, "text"))
    return 0, data, err.encode()


@pytest.mark.parametrize(("number", "name", "case"), cases("merge"))
def test_merge_text_matches_llvm(
    number: int, name: str, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = goldens(number)[name][case]
    monkeypatch.chdir(HERE)
    code, out, err = merge_text(number, Path(f"inputs/{name}.txt"), case)
    if isinstance(expected["exit"], int) and expected["exit"] < 0:  # llvm-profdata crashed
        assert code == 1 and b"crashes" in err
        return
    assert code == expected["exit"]
    assert out == as_bytes(expected["stdout"])
    assert err == as_bytes(expected["stderr"])


@pytest.mark.parametrize(("number", "name", "case"), cases("binary"))
def test_binary_matches_llvm(number: int, name: str, case: str) -> None:
    expected = goldens(number)[name]
    source = (HERE / "inputs" / f"{name}.txt").read_bytes()
    rel = release(number)
    if case == "binary-text":
        golden = bytes.fromhex(str(expected["binary"]["stdout"]))
        if expected[case]["exit"] != 0:
            with pytest.raises(ProfdataError) as caught:
                read_sample_bytes(golden, "in.afdo", rel)
            message = str(expected[case]["stderr"]).split(": ", 2)[-1]
            assert f"error: {caught.value.headline()}\n".endswith(message)
            return
        profile = read_sample_bytes(golden, "in.afdo", rel)
        assert sample_text.write(profile) == as_bytes(expected[case]["stdout"])
        return
    if expected[case]["exit"] != 0:
        with pytest.raises(ProfdataError):
            check_writable("binary", read_sample_bytes(source, "in.txt", rel))
        return
    profile = read_sample_bytes(source, "in.txt", rel)
    skip = rel.sample_summary_skips_duplicated_into_base
    assert (
        sample_binary.write(profile, skip_duplicated_into_base=skip).hex()
        == expected[case]["stdout"]
    )


def golden_files(kind: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for number in RELEASES:
        for name, results in goldens(number).items():
            result = results.get(kind)
            if result is not None and result["exit"] == 0:
                out.append((number, name))
    return out


@pytest.mark.parametrize(("number", "name"), golden_files("merge"))
def test_text_roundtrip(number: int, name: str) -> None:
    """Every text file llvm-profdata wrote reads and writes back byte for byte."""
    if name in NOT_ROUNDTRIPPABLE:
        pytest.skip(NOT_ROUNDTRIPPABLE[name])
    data = as_bytes(goldens(number)[name]["merge"]["stdout"])
    if not data:
        pytest.skip("empty output (no function profiles)")
    profile = read_sample_bytes(data, "golden.txt", release(number))
    assert sample_text.write(profile) == data


@pytest.mark.parametrize(("number", "name"), golden_files("binary"))
def test_binary_roundtrip(number: int, name: str) -> None:
    """Every binary file llvm-profdata wrote reads and writes back byte for byte."""
    if name in NOT_ROUNDTRIPPABLE and number >= 16:
        pytest.skip(NOT_ROUNDTRIPPABLE[name])
    if goldens(number)[name]["binary-text"]["exit"] != 0:
        pytest.skip("llvm-profdata cannot read this binary back either")
    data = bytes.fromhex(str(goldens(number)[name]["binary"]["stdout"]))
    profile = read_sample_bytes(data, "golden.afdo", release(number))
    assert profile.format == "binary"
    skip = release(number).sample_summary_skips_duplicated_into_base
    assert sample_binary.write(profile, skip_duplicated_into_base=skip) == data
