"""Two raw functions at one address: the indirect-call targets of that address are named as
``InstrProfSymtab`` names them, against the real llvm-profdata 14, 16, 19 and 22.

``finalizeSymtab`` sorts the (FunctionPointer, NameRef) pairs, in file order, with
``llvm::sort(AddrToMD5Map, less_first())`` -- libstdc++'s introsort, compared by address
alone -- and ``getFunctionHashFromAddress`` takes the first pair of an address.  Past
16 pairs that is not the first in file order, which profdata took.  A compiler's own
runtime gives no such file (each instrumented function's counters keep the linker's
identical code folding from merging it with another); the case here is damage, one
record's FunctionPointer overwritten with another's (``tools/fuzz_llvm.py``, stop 51: 14's
``overlap`` said "IndirectCall profile overlap 93.667%" where profdata said 74.667%).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from profdata.formats import read_instr_bytes
from profdata.formats._binary import ByteReader
from profdata.formats.raw import ProfileReader
from profdata.formats.raw_call_targets import function_addresses
from profdata.formats.raw_layout import detect_magic
from profdata.model.cxx_algo import STABLE_UP_TO
from profdata.model.kinds import ValueKind
from tests.compat.tools import differing
from tests.conftest import CliResult


class _Run:
    """A raw run's data records: where each FunctionPointer lies, and its value."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        view = memoryview(data)
        magic = detect_magic(view[:8])
        assert magic is not None
        reader = ProfileReader(ByteReader(view, order=magic[1]), 0, magic[0], first=True)
        layout = reader.layout
        records = np.frombuffer(
            data, layout.data_dtype, reader.header.num_data, reader.regions["data"].start
        )
        self.pointers = records["function_pointer"].astype(np.uint64)
        self.refs = records["name_ref"].astype(np.uint64)
        self.word = "<Q" if records["function_pointer"].dtype.itemsize == 8 else "<I"
        first = reader.regions["data"].start + layout.data_offset("function_pointer")
        self.at = [first + i * layout.data_size for i in range(len(records))]

    def sharing(self, moved: int, onto: int) -> bytes:
        """Record ``moved`` at record ``onto``'s address."""
        out = bytearray(self.data)
        struct.pack_into(self.word, out, self.at[moved], int(self.pointers[onto]))
        return bytes(out)

    def picked(self, moved: int, onto: int) -> int:
        """The NameRef profdata maps the shared address to."""
        pointers = self.pointers.copy()
        pointers[moved] = pointers[onto]
        addresses, refs = function_addresses(pointers, self.refs, pointers != 0)
        return int(refs[int(np.searchsorted(addresses, pointers[onto]))])

    def telling_pairs(self, count: int) -> Iterator[tuple[int, int]]:
        """(moved, onto) pairs, ``onto`` an indirect-call target, where the sort's pick is
        not the first record in file order: the cases that tell the two apart."""
        profile = read_instr_bytes(self.data, "run.profraw")
        targets = {
            vd.value
            for rec in profile.records
            for site in rec.value_sites.get(ValueKind.INDIRECT_CALL_TARGET, [])
            for vd in site
        }
        found = 0
        for onto in (i for i, ref in enumerate(self.refs.tolist()) if ref in targets):
            for moved in range(len(self.refs) - 1, -1, -1):
                if moved == onto or not self.pointers[moved]:
                    continue
                if self.picked(moved, onto) != int(self.refs[min(moved, onto)]):
                    yield moved, onto
                    found += 1
                    break
            if found == count:
                return


def _raw(corpus_dir: Path, case: str, name: str) -> _Run:
    path = corpus_dir / case / name
    if not path.is_file():
        pytest.skip(f"{path} is not in this corpus")
    return _Run(path.read_bytes())


def test_up_to_16_pairs_the_first_in_file_order_is_kept() -> None:
    """An insertion sort is stable: at most 16 pairs keep file order, however they lie."""
    rng = np.random.default_rng(7)
    for size in range(2, STABLE_UP_TO + 1):
        pointers = rng.integers(1, 4, size).astype(np.uint64) * np.uint64(16)
        refs = np.arange(100, 100 + size, dtype=np.uint64)
        addresses, picked = function_addresses(pointers, refs, pointers != 0)
        assert addresses.tolist() == sorted(set(pointers.tolist()))
        firsts = [int(refs[pointers.tolist().index(a)]) for a in addresses.tolist()]
        assert picked.tolist() == firsts


def test_shared_addresses_with_one_name_need_no_sort() -> None:
    pointers = np.array([48, 16, 32, 16, 0, 48] * 5, dtype=np.uint64)
    refs = pointers * np.uint64(3) + np.uint64(1)
    addresses, picked = function_addresses(pointers, refs, pointers != 0)
    assert addresses.tolist() == [16, 32, 48]
    assert picked.tolist() == [49, 97, 145]


def test_past_16_pairs_the_sort_may_put_a_later_record_first(corpus_dir: Path) -> None:
    """The corpus's C++ run (29 records with an address): ``std::sort`` leaves record 13's
    pair before record 0's at either one's address (held against the real tools below)."""
    run = _raw(corpus_dir, "irpgo-vcalls-cpp-o0-l22", "run1.profraw")
    assert int(np.count_nonzero(run.pointers)) > STABLE_UP_TO
    assert run.picked(0, 13) == int(run.refs[13]) != int(run.refs[0])
    assert run.picked(13, 0) == int(run.refs[13])


def _commands(path: Path, whole: Path) -> list[list[str]]:
    return [
        ["show", "--all-functions", "--ic-targets", str(path)],
        ["merge", "-o", "@OUT", str(path)],
        ["overlap", str(whole), str(path)],
    ]


@pytest.mark.parametrize(
    ("rel", "case", "name", "pairs"),
    [
        (14, "irpgo-vcalls-cpp-o0-l14", "run1.profraw", 4),
        (16, "irpgo-vcalls-cpp-o0-l16", "run1.profraw", 4),
        (19, "irpgo-vcalls-cpp-o0-l19", "run1.profraw", 4),
        (22, "irpgo-vcalls-cpp-o0-l22", "run1.profraw", 4),
        (14, "large-big-vis-l14", "large.profraw", 3),
        (16, "large-big-vis-l14", "large.profraw", 2),
        (22, "large-big-vis-l22", "large.profraw", 3),
    ],
)
def test_targets_of_a_shared_address_as_the_real_tool(
    rel: int,
    case: str,
    name: str,
    pairs: int,
    tmp_path: Path,
    corpus_dir: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """``show --ic-targets``, ``merge`` (the indexed bytes) and ``overlap`` with the whole
    run, for pairs whose pick is not the first in file order (29 records with an address
    in the C++ run, 3,001 in the large one, where the pick comes out of partitions)."""
    run = _raw(corpus_dir, case, name)
    whole = tmp_path / "whole.profraw"
    whole.write_bytes(run.data)
    telling = list(run.telling_pairs(pairs))
    assert len(telling) == pairs
    found = []
    for moved, onto in telling:
        path = tmp_path / f"shared-{moved}-{onto}.profraw"
        path.write_bytes(run.sharing(moved, onto))
        found += differing(llvm_profdata(rel), rel, _commands(path, whole), run_profdata, tmp_path)
    assert not found
