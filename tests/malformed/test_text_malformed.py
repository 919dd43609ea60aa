"""Bad text instrumentation profiles: LLVM 22's first error line, our line/field, never a crash.

The LLVM wording of every hand-made case is read from the goldens the real
llvm-profdata 22 produced (``tests/golden/text/expected/l22/*.err``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.errors import (
    FormatError,
    HeaderCorruptError,
    TextEmptyNameError,
    TextSyntaxError,
    TruncatedError,
)
from profdata.formats import text

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "text"
INPUTS = GOLDEN / "inputs"
LLVM22 = GOLDEN / "expected" / "l22"
CORPUS = Path("/work/shared/corpus")

#: input -> (error class, line of the fault, field); the message is LLVM 22's from the golden.
CASES: dict[str, tuple[type[FormatError], int, str]] = {
    "err_hash_bad": (TextSyntaxError, 2, "func_hash"),
    "err_hash_missing": (TruncatedError, 2, "func_hash"),
    "err_hash_09": (TextSyntaxError, 2, "func_hash"),
    "err_hash_0O": (TextSyntaxError, 2, "func_hash"),
    "err_hash_0x": (TextSyntaxError, 2, "func_hash"),
    "err_hash_overflow": (TextSyntaxError, 2, "func_hash"),
    "err_nc_missing": (TruncatedError, 3, "num_counters"),
    "err_nc_zero": (TextSyntaxError, 3, "num_counters"),
    "err_nc_neg": (TextSyntaxError, 3, "num_counters"),
    "err_nc_hex": (TextSyntaxError, 3, "num_counters"),
    "err_count_missing": (TruncatedError, 5, "counter"),
    "err_count_overflow": (TextSyntaxError, 4, "counter"),
    "err_count_space": (TextSyntaxError, 4, "counter"),
    "err_count_trailing_space": (TextSyntaxError, 4, "counter"),
    "err_count_plus": (TextSyntaxError, 4, "counter"),
    "err_comment_indent": (TextSyntaxError, 4, "counter"),
    "err_lone_cr": (TextSyntaxError, 4, "counter"),
    "err_digits_name": (TextSyntaxError, 5, "num_value_kinds"),
    "err_dollar_name": (TextSyntaxError, 5, "num_bitmap_bytes"),
    "err_colon_first": (HeaderCorruptError, 1, "header"),
    "err_nvk_zero": (TextSyntaxError, 5, "num_value_kinds"),
    "err_nvk_4": (TextSyntaxError, 5, "num_value_kinds"),
    "err_nvk_u32over": (TruncatedError, 6, "func_hash"),
    "err_vk_bad": (TextSyntaxError, 6, "value_kind"),
    "err_vk_text": (TextSyntaxError, 6, "value_kind"),
    "err_vk_trunc": (TruncatedError, 6, "value_kind"),
    "err_nsites_trunc": (TruncatedError, 7, "num_value_sites"),
    "err_nsites_bad": (TextSyntaxError, 7, "num_value_sites"),
    "err_nsites_u32over": (TextSyntaxError, 7, "num_value_sites"),
    "err_nvd_trunc": (TruncatedError, 8, "num_value_data"),
    "err_nvd_bad": (TextSyntaxError, 8, "num_value_data"),
    "err_vd_trunc": (TruncatedError, 10, "value_data"),
    "err_vd_nocolon": (TextSyntaxError, 9, "value_data.count"),
    "err_vd_emptyname": (TextEmptyNameError, 9, "value_data.value"),
    "err_vd_vt_emptyname": (TextEmptyNameError, 9, "value_data.value"),
    "err_vd_badcount": (TextSyntaxError, 9, "value_data.count"),
    "err_vd_memop_bad": (TextSyntaxError, 9, "value_data.value"),
    "err_vd_memop_hex": (TextSyntaxError, 9, "value_data.value"),
    "err_bm_bad": (TextSyntaxError, 5, "num_bitmap_bytes"),
    "err_bm_trunc": (TruncatedError, 7, "bitmap_byte"),
    "err_bm_byte_bad": (TextSyntaxError, 6, "bitmap_byte"),
    "err_bm_byte_text": (TextSyntaxError, 6, "bitmap_byte"),
    "err_hdr_bad": (HeaderCorruptError, 1, "header"),
    "err_hdr_colon_only": (HeaderCorruptError, 1, "header"),
    "err_hdr_space": (HeaderCorruptError, 1, "header"),
    "err_hdr_trailing": (HeaderCorruptError, 1, "header"),
    "err_tmp_eof1": (TruncatedError, 2, "num_traces"),
    "err_tmp_eof2": (TruncatedError, 3, "trace_stream_size"),
    "err_tmp_eof3": (TruncatedError, 4, "trace_weight"),
    "err_tmp_eof4": (TruncatedError, 5, "trace_function_names"),
    "err_tmp_bad1": (TextSyntaxError, 2, "num_traces"),
    "err_tmp_bad2": (TextSyntaxError, 3, "trace_stream_size"),
    "err_tmp_bad3": (TextSyntaxError, 4, "trace_weight"),
    "err_tmp_u32over": (TextSyntaxError, 2, "num_traces"),
    "llvm19-vp-malform": (TextSyntaxError, 39, "value_data.count"),
    "llvm19-extra-word": (TruncatedError, 3, "num_counters"),
    "llvm19-invalid-count-later": (TextSyntaxError, 4, "counter"),
    "llvm19-no-counts": (TextSyntaxError, 3, "num_counters"),
    "llvm11-vp-truncate": (TruncatedError, 37, "num_value_data"),
}


def test_every_rejected_golden_has_a_case() -> None:
    rejected = {p.stem for p in LLVM22.glob("err_*.err")}
    assert rejected <= set(CASES)
    assert {s for s in CASES if s.startswith("err_")} == rejected


@pytest.mark.parametrize("stem", sorted(CASES))
def test_error_class_message_and_location(stem: str) -> None:
    error, line, field = CASES[stem]
    data = (INPUTS / f"{stem}.proftext").read_bytes()
    with pytest.raises(FormatError) as info:
        text.read(memoryview(data), f"{stem}.proftext")
    exc = info.value
    assert type(exc) is error
    assert exc.llvm_message == (LLVM22 / f"{stem}.err").read_text().rstrip("\n")
    assert (exc.location.line, exc.location.field) == (line, field)
    assert exc.location.offset is not None
    line_start = data[: exc.location.offset].count(b"\n") + 1
    assert line_start == line or (error is TruncatedError and line_start == line - 1)
    assert exc.headline() == f"{stem}.proftext: {exc.llvm_message}"
    assert f"line {line}" in exc.locate()


def test_found_and_expected_are_reported() -> None:
    with pytest.raises(TextSyntaxError) as info:
        text.read(memoryview(b"f\n1\n2\n7\n12x\n"), "t.proftext")
    loc = info.value.location
    assert (loc.line, loc.field, loc.expected, loc.found) == (5, "counter", "decimal u64", "'12x'")
    assert str(info.value).startswith(
        "t.proftext: malformed instrumentation profile data: count is invalid"
    )


def corpus_bad_text_inputs() -> list[tuple[str, str]]:
    """(input, LLVM 22's message) from the corpus checks on its bad .proftext inputs."""
    manifest = CORPUS / "manifest.json"
    if not manifest.exists():
        return []
    found = {}
    for case in json.loads(manifest.read_text())["cases"]:
        for check in case["checks"]:
            args = check["args"]
            if check["llvm"] != 22 or check["exit"] != 1 or args[0] != "show":
                continue
            src = args[-1]
            if not src.endswith(".proftext"):
                continue
            stderr = (CORPUS / check["stdout"]).with_suffix(".stderr").read_text()
            match = re.match(rf"error: {re.escape(src)}: (.*)", stderr)
            assert match, stderr
            found[src] = match.group(1)
    return sorted(found.items())


@pytest.mark.parametrize(("src", "message"), corpus_bad_text_inputs())
def test_corpus_bad_inputs(src: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        text.read(memoryview((CORPUS / src).read_bytes()), src)
    assert info.value.llvm_message == message


GOOD_INPUTS = sorted(
    p for p in INPUTS.glob("*.proftext") if (GOLDEN / "expected" / "l22" / p.name).exists()
)


def _read_or_format_error(data: bytes) -> None:
    try:
        text.read(memoryview(data), None)
    except FormatError as exc:
        assert exc.llvm_message
        assert exc.location.line is not None


@pytest.mark.parametrize("src", GOOD_INPUTS, ids=lambda p: p.stem)
def test_every_truncation_is_a_profile_or_a_format_error(src: Path) -> None:
    data = src.read_bytes()
    for end in range(len(data) + 1):
        _read_or_format_error(data[:end])


@pytest.mark.property
@settings(max_examples=300, deadline=None)
@given(
    src=st.sampled_from(GOOD_INPUTS),
    flips=st.lists(
        st.tuples(st.integers(min_value=0), st.integers(0, 255)), min_size=1, max_size=4
    ),
)
def test_byte_flips_give_a_profile_or_a_format_error(
    src: Path, flips: list[tuple[int, int]]
) -> None:
    data = bytearray(src.read_bytes())
    if not data:
        return
    for pos, byte in flips:
        data[pos % len(data)] = byte
    _read_or_format_error(bytes(data))


@pytest.mark.property
@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_a_profile_or_a_format_error(data: bytes) -> None:
    _read_or_format_error(data)
