"""Extensible binary sample profiles against goldens of the real llvm-profdata 14/16/19/22.

``make_goldens.py`` recorded, per input and release, ``merge --sample
--extbinary`` with each option set of ``EXTBIN_CASES`` (the file's bytes),
``show --sample --show-sec-info-only`` of every file written, and for some
of them the text merge, ``show --all-functions --counts`` and a second
``merge --extbinary`` of the file.  Here the same merges run through the ops
and must give the same bytes; LLVM's files are read back and shown, and a
re-merge of each gives LLVM's bytes again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from profdata.errors import ProfdataError
from profdata.formats.sample_registry import read_sample_bytes
from profdata.model.sample import SampleProfile
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import (
    SampleMergeOptions,
    SampleOutputOptions,
    check_writable,
    encode_sample,
    merge_samples,
    writer_warnings,
)
from profdata.ops.show_sample import SampleShowOptions, show_sample_bytes
from profdata.releases import release
from tests.golden._cases import Result, as_bytes, release_goldens

HERE = Path(__file__).resolve().parent
RELEASES = (14, 16, 19, 22)
SYMLIST = str(HERE / "inputs" / "symlist.list")
READS = ("-sec", "-text", "-show", "-remerge")

#: the options of each recorded case (make_goldens.EXTBIN_CASES)
CASE_OPTIONS: dict[str, tuple[SampleOutputOptions, bool]] = {
    "default": (SampleOutputOptions(), False),
    "compress": (SampleOutputOptions(compress_all_sections=True), False),
    "md5": (SampleOutputOptions(use_md5=True), False),
    "partial": (SampleOutputOptions(gen_partial_profile=True), False),
    "symlist": (SampleOutputOptions(), True),
    "all": (
        SampleOutputOptions(compress_all_sections=True, use_md5=True, gen_partial_profile=True),
        True,
    ),
    "split": (SampleOutputOptions(split_layout=True), False),
    "split-all": (
        SampleOutputOptions(split_layout=True, compress_all_sections=True, use_md5=True),
        False,
    ),
}


def goldens(number: int) -> dict[str, dict[str, Result]]:
    return release_goldens(HERE / "expected", number)


def cases(suffix: str) -> list[tuple[int, str, str]]:
    """(release, input, case) of every ``extbin-<case><suffix>`` golden."""
    out: list[tuple[int, str, str]] = []
    for number in RELEASES:
        for name, results in goldens(number).items():
            for key in results:
                if not key.startswith("extbin-"):
                    continue
                case = key.removeprefix("extbin-")
                if suffix:
                    if case.endswith(suffix):
                        out.append((number, name, case.removesuffix(suffix)))
                elif not case.endswith(READS):
                    out.append((number, name, case))
    return out


def golden_file(number: int, name: str, case: str) -> bytes:
    return bytes.fromhex(str(goldens(number)[name][f"extbin-{case}"]["stdout"]))


def llvm_message(stderr: object) -> str:
    """The text after ``error: FILE: `` of LLVM's last error line."""
    assert isinstance(stderr, str)
    line = [ln for ln in stderr.splitlines() if ln.startswith("error: ")][-1]
    return line.rsplit(": ", 1)[-1]


@pytest.mark.parametrize(("number", "name", "case"), cases(""))
def test_extbinary_write_matches_llvm(number: int, name: str, case: str) -> None:
    """``merge --sample --extbinary [options] INPUT`` gives LLVM's bytes (or its error)."""
    expected = goldens(number)[name][f"extbin-{case}"]
    rel = release(number)
    opts, symlist = CASE_OPTIONS[case]
    merge_options = SampleMergeOptions(rel, prof_sym_list=SYMLIST if symlist else None)
    path = str(HERE / "inputs" / f"{name}.txt")
    try:
        merged = merge_samples([WeightedFile(path)], merge_options).profile
        check_writable("extbinary", merged, "out.extbin")
        data = encode_sample(merged, "extbinary", opts, "out.extbin", rel)
    except ProfdataError as exc:
        assert expected["exit"] != 0, f"we refused: {exc}"
        assert exc.headline().endswith(llvm_message(expected["stderr"]))
        return
    assert expected["exit"] == 0, f"LLVM refused: {expected['stderr']}"
    assert writer_warnings("extbinary", merged, opts) == []
    assert data.hex() == expected["stdout"]


@pytest.mark.parametrize(("number", "name", "case"), cases("-sec"))
def test_section_info_matches_llvm(number: int, name: str, case: str) -> None:
    expected = goldens(number)[name][f"extbin-{case}-sec"]
    options = SampleShowOptions(show_sec_info_only=True)
    shown = show_sample_bytes(golden_file(number, name, case), "f", options, release(number))
    assert shown.text == as_bytes(expected["stdout"]).decode("utf-8", "surrogateescape")


def read_golden(number: int, name: str, case: str, key: str) -> SampleProfile | None:
    """LLVM's file read back, or (when LLVM could not read it either) the same refusal."""
    expected = goldens(number)[name][f"extbin-{case}-{key}"]
    data = golden_file(number, name, case)
    try:
        return read_sample_bytes(data, "f.extbin", release(number))
    except ProfdataError as exc:
        assert expected["exit"] != 0, f"we refused: {exc}"
        assert exc.headline().endswith(llvm_message(expected["stderr"]))
        return None


@pytest.mark.parametrize(("number", "name", "case"), cases("-text"))
def test_extbinary_to_text_matches_llvm(number: int, name: str, case: str) -> None:
    expected = goldens(number)[name][f"extbin-{case}-text"]
    profile = read_golden(number, name, case, "text")
    if profile is None:
        return
    rel = release(number)
    merged = merge_samples([WeightedFile("f.extbin")], SampleMergeOptions(rel), [profile]).profile
    assert encode_sample(merged, "text", release=rel) == as_bytes(expected["stdout"])
    warned = "".join(
        f"warning: {w}\n" for w in writer_warnings("text", merged, SampleOutputOptions())
    )
    assert warned == expected["stderr"]


@pytest.mark.parametrize(("number", "name", "case"), cases("-show"))
def test_extbinary_show_matches_llvm(number: int, name: str, case: str) -> None:
    expected = goldens(number)[name][f"extbin-{case}-show"]
    rel = release(number)
    data = golden_file(number, name, case)
    options = SampleShowOptions(all_functions=True)
    try:
        shown = show_sample_bytes(data, "f.extbin", options, rel)
    except ProfdataError as exc:
        assert expected["exit"] != 0
        assert exc.headline().endswith(llvm_message(expected["stderr"]))
        return
    assert expected["exit"] == 0
    assert shown.text == as_bytes(expected["stdout"]).decode("utf-8", "surrogateescape")


@pytest.mark.parametrize(("number", "name", "case"), cases("-remerge"))
def test_extbinary_remerge_matches_llvm(number: int, name: str, case: str) -> None:
    """LLVM's file -> model -> ext-binary is the file LLVM writes from it, byte for byte."""
    expected = goldens(number)[name][f"extbin-{case}-remerge"]
    rel = release(number)
    profile = read_sample_bytes(golden_file(number, name, case), "f.extbin", rel)
    assert profile.format == "extbinary"
    merged = merge_samples([WeightedFile("f.extbin")], SampleMergeOptions(rel), [profile]).profile
    assert encode_sample(merged, "extbinary", release=rel).hex() == expected["stdout"]
