"""``show --sample``'s dump printed from columns is the object printer's, byte for byte.

``ops/show_sample_columns.py`` claims to print what ``print_function`` prints
for every profile it takes, and to decline (``None``) whatever the object
readers would read differently: a function, callee, body line or call target
repeated in one file, MD5 names, CS and probe profiles, LLVM 13.  Both paths
run on the same bytes here: random profiles written in every format, texts
with repeated lines, and binary files holding a function twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from profdata.errors import ProfdataError
from profdata.formats import sample_text
from profdata.formats.sample_column_order import ColumnOrder
from profdata.formats.sample_extbinary_write import ExtBinaryWriteOptions
from profdata.formats.sample_extbinary_write import write as write_extbinary
from profdata.formats.sample_registry import read_sample_bytes
from profdata.formats.sample_text_columns import read_text_columns
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from profdata.ops.show_sample import (
    SampleShowOptions,
    show_columns_bytes,
    show_sample,
)
from profdata.releases import release
from tests.property.test_sample_column_merge import (
    COUNTS,
    HUGE,
    cs_profiles,
    encode,
    profiles,
    twice_in_one_binary,
)

pytestmark = pytest.mark.property

FORMATS = ("extbinary", "md5", "compressed", "binary", "text")
OPTIONS = st.builds(
    SampleShowOptions,
    all_functions=st.booleans(),
    detailed_summary=st.booleans(),
    show_prof_sym_list=st.booleans(),
    hot_func_list=st.booleans(),
    topn=st.sampled_from([0, 0, 1, 3]),
    show_format=st.sampled_from(["text", "text", "json"]),
)


def encoded(profile: SampleProfile, kind: str) -> bytes:
    return sample_text.write(profile) if kind == "text" else encode(profile, kind)


def both_ways(
    data: bytes, options: SampleShowOptions, number: int
) -> tuple[str, list[str], str | None, list[str]]:
    """The object path's stdout and warnings, and the column path's (None: declined)."""
    rel = release(number)
    view = memoryview(data)
    by_columns = show_columns_bytes(view, "in", options, rel)
    try:
        by_objects = show_sample(read_sample_bytes(view, "in", rel), options, rel)
    except ProfdataError as error:  # an empty text: the object reader's error
        assert by_columns is None
        return str(error), [], None, []
    if by_columns is None:
        return by_objects.text, by_objects.warnings, None, []
    return by_objects.text, by_objects.warnings, by_columns.text, by_columns.warnings


@settings(max_examples=300, deadline=None)
@given(
    profile=profiles(HUGE),
    kind=st.sampled_from(FORMATS),
    options=OPTIONS,
    number=st.sampled_from([13, 14, 16, 19, 22]),
)
def test_column_dump_is_the_object_dump(
    profile: SampleProfile, kind: str, options: SampleShowOptions, number: int
) -> None:
    data = encoded(profile, kind)
    text, warnings, columns_text, columns_warnings = both_ways(data, options, number)
    declines = (
        number == 13
        or kind == "md5"
        or (not profile.profiles and kind != "binary")  # no profile section, empty text
        or (kind == "text" and read_text_columns(memoryview(data), None, release(number)) is None)
    )  # fmt: skip
    event("declined" if columns_text is None else "printed from columns")
    assert (columns_text is None) == declines
    if columns_text is not None:
        assert columns_text == text
        assert columns_warnings == warnings


@settings(max_examples=60, deadline=None)
@given(probe=st.booleans(), number=st.sampled_from([14, 22]), data=st.data())
def test_cs_profiles_take_the_object_path(probe: bool, number: int, data: st.DataObject) -> None:
    profile = data.draw(cs_profiles(COUNTS, probe))
    by_columns = show_columns_bytes(
        memoryview(write_extbinary(profile, ExtBinaryWriteOptions())),
        "in",
        SampleShowOptions(),
        release(number),
    )
    assert by_columns is None


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(profile=profiles(COUNTS))
def test_a_function_twice_in_a_binary_file_declines(tmp_path: Path, profile: SampleProfile) -> None:
    """SPF_Binary files may hold a function twice (the reader sums them)."""
    data = twice_in_one_binary(profile)
    text, _, columns_text, _ = both_ways(data, SampleShowOptions(), 22)
    assert columns_text is None if profile.profiles else columns_text == text


#: one-line changes to a small text profile, each a repeat the text reader sums
REPEATS = {
    "body line twice": b"main:30:2\n 1: 5\n 2: 7\n 1: 9\n",
    "discriminated line twice": b"main:30:2\n 1.3: 5\n 1.3: 9\n",
    "callee twice at one site": b"main:30:2\n 1: 5\n 2: foo:10\n  1: 3\n 2: foo:4\n  1: 2\n",
    "nested callee twice": b"main:9:1\n 2: foo:8\n  3: bar:2\n   1: 1\n  3: bar:2\n   1: 1\n",
}


@pytest.mark.parametrize("name", sorted(REPEATS))
def test_repeats_in_a_text_profile_decline(name: str) -> None:
    data = REPEATS[name]
    assert read_text_columns(memoryview(data), None, release(22)) is not None
    text, _, columns_text, _ = both_ways(data, SampleShowOptions(), 22)
    assert columns_text is None
    assert text.startswith("Function: main: ")


#: distinct names, lines and sites: printed from columns, as the object printer does
ORDERED = (
    b"zeta:10:1\n 1: 1\n"
    b"main:30:2\n 9: 1\n 1.3: 5 b:7 a:7 c:9\n 1: 4\n 2: foo:10\n  1: 3\n"
    b" 2: bar:4\n  1: 2\n 1.1: baz:1\n  4: qux:1\n   1: 1\n"
    b"alpha:10:0\n"
)


#: ``llvm-profdata show --sample`` of ORDERED, the same in releases 14, 16, 19 and 22
ORDERED_SHOWN = (
    "Function: main: 30, 2, 3 sampled lines\n"
    "Samples collected in the function's body {\n"
    "  1: 4\n"
    "  1.3: 5, calls: c:9 a:7 b:7\n"
    "  9: 1\n"
    "}\n"
    "Samples collected in inlined callsites {\n"
    "  1.1: inlined callee: baz: 1, 0, 0 sampled lines\n"
    "    No samples collected in the function's body\n"
    "    Samples collected in inlined callsites {\n"
    "      4: inlined callee: qux: 1, 0, 1 sampled lines\n"
    "        Samples collected in the function's body {\n"
    "          1: 1\n"
    "        }\n"
    "        No inlined callsites in this function\n"
    "    }\n"
    "  2: inlined callee: bar: 4, 0, 1 sampled lines\n"
    "    Samples collected in the function's body {\n"
    "      1: 2\n"
    "    }\n"
    "    No inlined callsites in this function\n"
    "  2: inlined callee: foo: 10, 0, 1 sampled lines\n"
    "    Samples collected in the function's body {\n"
    "      1: 3\n"
    "    }\n"
    "    No inlined callsites in this function\n"
    "}\n"
    "Function: alpha: 10, 0, 0 sampled lines\n"
    "No samples collected in the function's body\n"
    "No inlined callsites in this function\n"
    "Function: zeta: 10, 1, 1 sampled lines\n"
    "Samples collected in the function's body {\n"
    "  1: 1\n"
    "}\n"
    "No inlined callsites in this function\n"
)


@pytest.mark.parametrize("number", [14, 16, 19, 22])
def test_order_of_functions_lines_targets_and_callees(number: int) -> None:
    text, _, columns_text, _ = both_ways(ORDERED, SampleShowOptions(), number)
    assert columns_text == text == ORDERED_SHOWN


def tied_profile() -> SampleProfile:
    """Forty functions of two totals, all hot: the hot list orders each tie as the
    reader's hash map iterates (and --topn cuts inside a tie)."""
    profile = SampleProfile()
    for i in range(40):
        fs = FunctionSamples(SampleContext(f"f{i}"), 7 if i % 3 else 5, i % 4)
        fs.record_at(LineLocation(1, 0)).samples = 5
        if i % 5 == 0:
            callee = FunctionSamples(SampleContext("g"), 3, 0)
            callee.record_at(LineLocation(2, 1)).samples = 9
            fs.function_samples_at(LineLocation(1, 0))["g"] = callee
        profile.profiles[fs.context] = fs
    return profile


@pytest.mark.parametrize("kind", ["extbinary", "binary"])
@pytest.mark.parametrize("topn", [0, 13])
@pytest.mark.parametrize("number", [14, 22])
def test_hot_list_ties_in_map_order(kind: str, topn: int, number: int) -> None:
    data = encoded(tied_profile(), kind)
    options = SampleShowOptions(hot_func_list=True, topn=topn)
    text, _, columns_text, _ = both_ways(data, options, number)
    assert columns_text == text
    hot = text[text.index("40 out of 40 functions") :].splitlines()[3:]
    assert len(hot) == (topn or 40)
    assert [line.split()[0] for line in hot[:3]] == ["7", "7", "7"]
    assert sorted(line.split()[-1] for line in hot) != [line.split()[-1] for line in hot]


@pytest.mark.parametrize("number", [16, 22])
def test_symbol_list_follows_the_column_dump(number: int) -> None:
    fs = FunctionSamples(SampleContext("main"), 5, 1)
    fs.record_at(LineLocation(1, 0)).samples = 5
    profile = SampleProfile(profiles={fs.context: fs}, symbol_list=("zed", "main", "cold"))
    data = write_extbinary(profile)
    options = SampleShowOptions(show_prof_sym_list=True, detailed_summary=True)
    text, warnings, columns_text, columns_warnings = both_ways(data, options, number)
    assert columns_text == text
    assert columns_warnings == warnings == []
    listed = text[text.index("======== Dump profile symbol list ========\n") :].splitlines()
    assert listed[1:4] == ["cold", "main", "zed"]


@st.composite
def nested_texts(draw: st.DrawFn) -> bytes:
    """Text profiles whose callees nest up to five levels, several at one caller."""
    out: list[str] = []

    def node(indent: int, depth: int) -> None:
        pad = " " * indent
        for line in sorted(draw(st.sets(st.integers(1, 4), max_size=2))):
            out.append(f"{pad}{line}: {draw(st.integers(1, 9))}")
        if depth < 5:
            for site in draw(st.lists(st.integers(10, 13), unique=True, max_size=3)):
                out.append(f"{pad}{site}: {draw(st.sampled_from('abc'))}:{draw(COUNTS)}")
                node(indent + 1, depth + 1)

    for name in draw(st.lists(st.sampled_from(["main", "f", "g"]), unique=True, min_size=1)):
        out.append(f"{name}:{draw(COUNTS)}:{draw(st.integers(0, 9))}")
        node(1, 1)
    return ("\n".join(out) + "\n").encode()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=nested_texts())
def test_print_order_is_the_depth_first_walk_of_the_callees(data: bytes) -> None:
    """The nodes' print order, worked out a depth at a time, is the walk node by node:
    each top-level profile in order, each node followed by its callees' subtrees."""
    read = read_text_columns(memoryview(data), None, release(22))
    assert read is not None
    order = ColumnOrder(read[1])
    assert order.ordered()

    def walk(tops: list[int]) -> list[int]:
        out: list[int] = []
        stack = tops[::-1]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(order.children[node]))
        return out

    assert order.preorder().tolist() == walk(order.top)
    # some of the top-level profiles, in another order (as the ext-binary writer asks)
    some = order.top[::-2]
    assert order.preorder(some).tolist() == walk(some)
    parents = read[1].node_parent.tolist()
    depths = [0] * len(parents)
    for node, parent in enumerate(parents):
        depths[node] = 0 if parent < 0 else depths[parent] + 1
    assert order.depths.tolist() == depths
