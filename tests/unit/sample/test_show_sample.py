"""``show --sample`` printers: JSON quoting, hot-list columns, symbol list, refusals."""

from __future__ import annotations

import pytest

from profdata.errors import UsageError
from profdata.formats import sample_text
from profdata.model.names import name_str
from profdata.model.sample import SampleProfile
from profdata.ops.formatted_columns import FormattedColumns
from profdata.ops.show_sample import (
    NO_SYMBOL_LIST_WARNING,
    SEC_INFO_WARNING,
    SampleShowOptions,
    _columns,
    dump_json,
    show_sample,
    show_sample_bytes,
)
from profdata.ops.show_sample_columns import quote_json as _quote
from profdata.releases import release

R22 = release(22)
FLAT = b"main:184019:0\n 4: 534\n 9: 2064 _Z3bari:1471 _Z3fooi:631\n 10: inl:1000\n  1: 1000\n"


def profile() -> SampleProfile:
    return sample_text.read(FLAT, "f.txt", R22)


def test_json_quoting_is_llvm_json() -> None:
    assert _quote('a"b\\c') == '"a\\"b\\\\c"'
    assert _quote("\t\n\r\b\x7f") == '"\\t\\n\\r\\u0008\x7f"'
    assert _quote(name_str(b"f\xc3\xa9\xff")) == '"f\u00e9\ufffd"'


def test_json_layout() -> None:
    out = dump_json(profile())
    assert out.startswith('[\n  {\n    "name": "main",\n    "total": 184019,\n    "head": 0,\n')
    assert '"callsites": [\n      {\n        "line": 10,\n        "samples": [\n' in out
    assert out.endswith("  }\n]\n")
    assert dump_json(SampleProfile()) == "[]\n"


def _row(cells: list[str]) -> str:
    out = FormattedColumns()
    _columns(out, cells)
    return out.text()


def test_hot_list_columns_pad_to_llvm_offsets() -> None:
    assert _row(["Total sample (%)", "Max sample", "Entry sample", "Function name"]) == (
        " Total sample (%)       Max sample        Entry sample    Function name\n"
    )
    wide = _row(["1" * 30, "2", "3", "f"])
    assert wide.startswith(" " + "1" * 30 + " 2") and wide.endswith("3               f\n")


def test_hot_list_of_flat_profile() -> None:
    out = show_sample(profile(), SampleShowOptions(hot_func_list=True), R22).text
    tail = out.split("}\n")[-1]
    assert tail.splitlines()[0] == (
        "1 out of 1 functions with profile (100.00%) are considered hot functions "
        "(max sample >= 534)."
    )
    assert tail.splitlines()[-1] == " 184019 (100.00%)       2064              534             main"


def test_symbol_list_is_sorted_and_text_has_none() -> None:
    prof = profile()
    shown = show_sample(prof, SampleShowOptions(show_prof_sym_list=True), R22)
    assert shown.warnings == [NO_SYMBOL_LIST_WARNING]
    prof.symbol_list = ("foo", "bar", "_z")
    shown = show_sample(prof, SampleShowOptions(show_prof_sym_list=True), R22)
    assert shown.text.endswith("======== Dump profile symbol list ========\n_z\nbar\nfoo\n")


def test_refusals_and_section_info_warning() -> None:
    with pytest.raises(UsageError, match="YAML output is not supported for sample profiles"):
        show_sample_bytes(FLAT, "f.txt", SampleShowOptions(show_format="yaml"), R22)
    with pytest.raises(UsageError, match="only when all functions are to be printed"):
        show_sample(profile(), SampleShowOptions(function="main", show_format="json"), R22)
    shown = show_sample_bytes(FLAT, "f.txt", SampleShowOptions(show_sec_info_only=True), R22)
    assert (shown.text, shown.warnings) == ("", [SEC_INFO_WARNING])


def test_function_filter_per_release() -> None:
    prof = profile()
    absent = SampleShowOptions(function="nope")
    assert show_sample(prof, absent, R22).text.startswith("Function: : 0, 0, 0 sampled lines\n")
    old = show_sample(prof, absent, release(16)).text
    assert old.startswith("Function: nope: 0, 0, 0 sampled lines\n")


def test_detailed_summary_lines_per_release() -> None:
    options = SampleShowOptions(detailed_summary=True)
    new = show_sample(profile(), options, R22).text
    assert "Maximum internal block count: 0\n" in new
    assert "1 blocks (33.33%) with count >= 2064 account for 1% of the total counts.\n" in new
    old = show_sample(profile(), options, release(19)).text
    assert "Maximum block count: 2064\n" in old
    assert "1 blocks with count >= 2064 account for 1 percentage of the total counts.\n" in old
