"""Indexed files written by a real llvm-profdata, read and written again by profdata.

Every indexed file that a known release R of llvm-profdata wrote -- the
``merge`` outputs of the shared corpus and of ``tests/golden/programs``, and
the goldens of ``tests/golden/indexed`` whose writer is recorded -- is merged
alone by ``profdata --llvm-release=R`` and must come back byte for byte.
That checks the reader and the writer against each other on files neither
of them made, including the orders LLVM never sorts.

Some files cannot come back, and LLVM's own tool does not bring them back
either: their bytes depend on the order in which the original merge first
saw names or hashes, and the reader can only offer the order of the file.
Those are strict xfails whose expected exception names the one kind of
difference allowed (a different name order, or a different order of the
records of one name, with the same records); any other difference fails.
The compat tests run the real tool of release R on the same file and want
profdata's bytes and ``show`` output to be the real tool's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

import profdata
from profdata.formats.indexed_write import write_indexed
from profdata.model.instr import InstrProfile, InstrRecord
from profdata.releases import release
from tests.byte_diff import first_difference
from tests.compat import tools
from tests.conftest import GOLDEN, SHARED, CliResult

CORPUS = SHARED / "corpus"
PROGRAMS = GOLDEN / "programs"
INDEXED = GOLDEN / "indexed"

#: Options of the original merge that decide how the same records are encoded.
WRITER_OPTIONS = (
    "--keep-vtable-symbols",
    "--write-prev-version",
    "--temporal-profile-trace-reservoir-size",
    "--temporal-profile-max-trace-length",
)


class NameOrderChanged(AssertionError):
    """The same records were written, the names in another order."""


class RecordOrderChanged(AssertionError):
    """The same names in the same order; the records of one name in another order."""


class MemProfRefused(AssertionError):
    """profdata refused to write the file because it holds MemProf data."""


NAME_ORDER = (
    "LLVM 14/16 insert names into the on-disk hash table in StringMap order, which depends "
    "on the order the merge first saw them (probe collisions); the reader yields the file's "
    "bucket order instead, so colliding names move (llvm-profdata of that release does the same)"
)
RECORD_ORDER = (
    "the records of one name are written in SmallDenseMap order, which depends on the order "
    "their FuncHashes were inserted; inserted again in file order, two colliding hashes swap "
    "(llvm-profdata of that release does the same)"
)
MEMPROF_DROPPED = (
    "llvm-profdata merge keeps no MemProf records of indexed inputs and writes the section "
    "empty (profdata does the same, see tests/golden/memprof)"
)

#: Files whose round trip is not the identity, by the id of the file LLVM wrote.
ROUND_TRIP_XFAILS: dict[str, tuple[type[AssertionError], str]] = {
    **{
        f"corpus/{name}": (RecordOrderChanged, RECORD_ORDER)
        for name in (
            "cspgo-classify-l14/expected/l14-merge-o.2.profdata",
            "cspgo-classify-l14/expected/l14-merge-o.3.profdata",
            "cspgo-classify-l16/expected/l16-merge-o.2.profdata",
            "cspgo-classify-l16/expected/l16-merge-o.3.profdata",
            "cspgo-classify-l19/expected/l19-merge-o.2.profdata",
            "cspgo-classify-l19/expected/l19-merge-o.3.profdata",
            "cspgo-classify-l22/expected/l22-merge-o.2.profdata",
            "cspgo-classify-l22/expected/l22-merge-o.3.profdata",
            "indexed-cross-release-vpcalls/expected/l16-merge-o.profdata",
        )
    },
    **{
        name: (NameOrderChanged, NAME_ORDER)
        for name in (
            *(
                f"corpus/irpgo-vcalls-cpp-o0-l{release}/expected/l{release}-{check}.profdata"
                for release in (14, 16)
                for check in (
                    "merge-o",
                    "merge-o.2",
                    "merge-o.3",
                    "merge-o.4",
                    "merge-o-weighted-input",
                    "merge-sparse-o",
                )
            ),
            "corpus/large-big-vis-l14/expected/l14-merge-o.profdata",
            "corpus/text-inputs-visible/expected/l14-merge-o.3.profdata",
            "corpus/text-inputs-visible/expected/l16-merge-o.3.profdata",
            "programs/l14-ir-vcalls/default.profdata",
            "programs/l16-ir-vcalls/default.profdata",
            "programs/l16-ir-vcalls/expected/merge-from-text.profdata",
        )
    },
    **{
        f"indexed/{name}.profdata": (AssertionError, MEMPROF_DROPPED)
        for name in ("v12-memprof0", "v13-memprof2", "v13-memprof3")
    },
}

#: Goldens of tests/golden/indexed that no recorded llvm-profdata release wrote.
NOT_TOOL_WRITTEN = {
    "derived_from": "made from another golden by header surgery",
    "llvm-test-inputs": "an LLVM test input; the release that wrote it is not recorded",
}


@dataclass(frozen=True)
class Written:
    """One indexed file, the release of llvm-profdata that wrote it and how."""

    id: str
    path: Path
    release: int
    options: tuple[str, ...]
    #: the id of the file this one is a copy of (itself when it is no copy)
    origin: str


def _writer_options(args: Iterable[str]) -> tuple[str, ...]:
    return tuple(a for a in args if a.split("=", 1)[0] in WRITER_OPTIONS)


def _merge_outputs(root: Path, prefix: str) -> dict[str, Written]:
    """Every indexed ``merge`` output a manifest records, by id (outputs repeat, once each)."""
    found: dict[str, Written] = {}
    for case in json.loads((root / "manifest.json").read_text())["cases"]:
        for check in case["checks"]:
            if check.get("output_kind") != "indexed":
                continue
            entry_id = f"{prefix}/{check['output']}"
            entry = Written(
                entry_id,
                root / check["output"],
                check["llvm"],
                _writer_options(check["args"]),
                entry_id,
            )
            assert found.setdefault(entry_id, entry) == entry, f"{entry_id} written twice"
    return found


def _indexed_goldens(corpus: dict[str, Written]) -> tuple[dict[str, Written], dict[str, str]]:
    """Goldens whose writer is recorded, and the reason each other golden is left out."""
    found: dict[str, Written] = {}
    left_out: dict[str, str] = {}
    for name, info in json.loads((INDEXED / "goldens.json").read_text()).items():
        entry_id = f"indexed/{name}.profdata"
        path = INDEXED / f"{name}.profdata"
        source = str(info.get("source", ""))
        copied = corpus.get(source)
        if "built_by" in info:
            found[entry_id] = Written(entry_id, path, info["llvm"], (), entry_id)
        elif copied is not None:
            found[entry_id] = Written(entry_id, path, copied.release, copied.options, copied.id)
        elif source.startswith("corpus/"):
            left_out[entry_id] = f"a copy of {source}; the corpus recording its writer is absent"
        else:
            kind = "derived_from" if "derived_from" in info else source.split("/", 1)[0]
            left_out[entry_id] = NOT_TOOL_WRITTEN[kind]
    return found, left_out


def _collect() -> tuple[dict[str, Written], dict[str, str]]:
    corpus = _merge_outputs(CORPUS, "corpus") if (CORPUS / "manifest.json").is_file() else {}
    goldens, left_out = _indexed_goldens(corpus)
    return {**corpus, **_merge_outputs(PROGRAMS, "programs"), **goldens}, left_out


WRITTEN, LEFT_OUT = _collect()


def _params(xfails: dict[str, tuple[type[AssertionError], str]]) -> list[Any]:
    params = []
    for entry in WRITTEN.values():
        xfail = xfails.get(entry.origin)
        marks = (
            []
            if xfail is None
            else [pytest.mark.xfail(raises=xfail[0], reason=xfail[1], strict=True)]
        )
        params.append(pytest.param(entry, id=entry.id, marks=marks))
    if not (CORPUS / "manifest.json").is_file():
        params.append(pytest.param(None, id="corpus", marks=pytest.mark.skip(f"no {CORPUS}")))
    return params


#: Reorderings are the real tool's too, so against it only the MemProf refusals fail.
AGREEMENT_XFAILS = {k: v for k, v in ROUND_TRIP_XFAILS.items() if v[0] is MemProfRefused}


# -- comparisons -----------------------------------------------------------------
def _profile_facts(profile: InstrProfile) -> tuple[object, ...]:
    return (
        profile.kind,
        profile.version,
        sorted(profile.binary_ids),
        profile.traces,
        profile.trace_stream_size,
        sorted(profile.vtable_names),
    )


def _by_key(records: Iterable[InstrRecord]) -> dict[tuple[str, int], InstrRecord]:
    return {(rec.name, rec.hash): rec for rec in records}


def _first_unequal(old: list[Any], new: list[Any]) -> int:
    return next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b)


def assert_same_bytes(expected: bytes, got: bytes) -> None:
    """Equal bytes; otherwise say which kind of difference it is, with the first differing byte.

    Only a pure reordering raises :class:`NameOrderChanged` or
    :class:`RecordOrderChanged`; any other difference is a plain failure.
    """
    if got == expected:
        return
    where = first_difference(expected, got)
    old = profdata.read_instr_bytes(expected)
    new = profdata.read_instr_bytes(got)
    if _profile_facts(old) != _profile_facts(new) or _by_key(old) != _by_key(new):
        raise AssertionError(f"the records or the profile header differ; {where}")
    old_names = list(dict.fromkeys(rec.name for rec in old))
    new_names = list(dict.fromkeys(rec.name for rec in new))
    if old_names != new_names:
        at = _first_unequal(old_names, new_names)
        raise NameOrderChanged(f"name {at} is {new_names[at]!r}, not {old_names[at]!r}; {where}")
    old_keys = [(rec.name, rec.hash) for rec in old]
    new_keys = [(rec.name, rec.hash) for rec in new]
    if old_keys != new_keys:
        at = _first_unequal(old_keys, new_keys)
        raise RecordOrderChanged(f"record {at} is {new_keys[at]}, not {old_keys[at]}; {where}")
    raise AssertionError(f"the same records in the same order, other bytes; {where}")


def _merge_with_profdata(
    entry: Written, out: Path, run_profdata: Callable[..., CliResult]
) -> bytes:
    got = run_profdata(
        f"--llvm-release={entry.release}", "merge", *entry.options, "-o", str(out), str(entry.path)
    )
    stderr = got.stderr.decode("utf-8", "replace")
    if got.code != 0 and "MemProf" in stderr:
        raise MemProfRefused(stderr)
    assert got.code == 0, stderr
    return out.read_bytes()


# -- tests -------------------------------------------------------------------------
def test_every_tool_written_indexed_file_is_collected() -> None:
    """No indexed file escapes the round trip silently, and every xfail names a real file."""
    programs = {f"programs/{p.relative_to(PROGRAMS)}" for p in PROGRAMS.rglob("*.profdata")}
    assert programs <= WRITTEN.keys()
    goldens = {f"indexed/{p.name}" for p in INDEXED.glob("*.profdata")}
    assert goldens == {k for k in WRITTEN if k.startswith("indexed/")} | LEFT_OUT.keys()
    if (CORPUS / "manifest.json").is_file():
        corpus = {f"corpus/{p.relative_to(CORPUS)}" for p in CORPUS.glob("*/expected/*.profdata")}
        assert corpus <= WRITTEN.keys()
        origins = {entry.origin for entry in WRITTEN.values()} | WRITTEN.keys()
        assert ROUND_TRIP_XFAILS.keys() <= origins


def test_a_changed_counter_is_not_taken_for_a_reordering() -> None:
    """The xfails above accept only reorderings; a changed value must fail them."""
    original = (PROGRAMS / "l22-ir-vp" / "default.profdata").read_bytes()
    profile = profdata.read_instr_bytes(original)
    first, *rest = profile.records
    counts = first.counts.copy()
    counts[-1] += 1
    changed = InstrProfile(profile.kind, [replace(first, counts=counts), *rest])
    tampered = write_indexed(changed, release=release(22))
    with pytest.raises(AssertionError, match="records or the profile header differ") as caught:
        assert_same_bytes(original, tampered)
    assert not isinstance(caught.value, NameOrderChanged | RecordOrderChanged)


@pytest.mark.parametrize("entry", _params(ROUND_TRIP_XFAILS))
def test_round_trip_is_byte_identical(
    entry: Written, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    ours = _merge_with_profdata(entry, tmp_path / "out.profdata", run_profdata)
    assert_same_bytes(entry.path.read_bytes(), ours)


@pytest.mark.compat
@pytest.mark.slow
@pytest.mark.parametrize("entry", _params(AGREEMENT_XFAILS))
def test_round_trip_equals_the_real_tools(
    entry: Written,
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
) -> None:
    tool = llvm_profdata(entry.release)
    real_out = tmp_path / "real.profdata"
    real = tools.run_tool(tool, ["merge", *entry.options, "-o", str(real_out), str(entry.path)])
    assert real.returncode == 0, real.stderr.decode("utf-8", "replace")
    ours = _merge_with_profdata(entry, tmp_path / "ours.profdata", run_profdata)
    expected = real_out.read_bytes()
    assert ours == expected, first_difference(expected, ours)


@pytest.mark.compat
@pytest.mark.slow
@pytest.mark.parametrize("entry", _params({}))
def test_show_counts_equals_the_real_tools(
    entry: Written,
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
) -> None:
    args = ["show", "--all-functions", "--counts", str(entry.path)]
    real = tools.run_tool(llvm_profdata(entry.release), args)
    got = run_profdata(f"--llvm-release={entry.release}", *args)
    assert got.code == real.returncode, got.stderr.decode("utf-8", "replace")
    assert got.text == real.stdout.decode("utf-8", "surrogateescape")
