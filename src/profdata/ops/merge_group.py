"""The binary every input of a fast merge comes from, and inputs read as runs of it.

:class:`~profdata.ops.merge_fast.FastMerge` makes the :class:`Group` of its
first input -- a raw run's layout, an indexed profile's, or a text profile's
records (:mod:`profdata.formats.table_shapes`) -- and reads each later input
as a run of that shape (:func:`read_group_run`): mapped whole, compared with
the shape and taken as arrays.  An input that does not read so is loaded in
full (:func:`read_loaded`), and the merge decides what becomes of it.  Kept
apart from the merge itself, which only needs a group's arrays and names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

from profdata.errors import FileError, ProfdataError
from profdata.formats import map_file
from profdata.formats.raw_columns import RawRun, RawShape, read_run, shape_of
from profdata.formats.raw_layout import sniff
from profdata.model.instr import InstrProfile
from profdata.model.names import md5_array, name_bytes
from profdata.ops.merge import DENSEMAP_TOMBSTONE_KEY
from profdata.releases import Release

if TYPE_CHECKING:  # the indexed and text sides are imported when such an input comes
    from profdata.formats.indexed_runs import IndexedShape
    from profdata.formats.table_shapes import TableShape

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
#: what the inputs of a group share: raw runs, indexed or text profiles of one binary
Shape: TypeAlias = "RawShape | IndexedShape | TableShape"
Loaded = InstrProfile | ProfdataError
Loader = Callable[[str], InstrProfile]


class Group:
    """The binary every fast input comes from, and what the merge derives from it once.

    Its names, and the name hashes that follow from them, are made on first
    use: that hashes every name (0.08-0.14 s for 100k), which a worker
    process of :meth:`FastMerge.split` never needs, so the workers are
    started before it.  Whether the group holds (no two records share name
    and function hash) is told first from the hashes the file states (a raw
    profile's NameRefs, an indexed profile's item key hashes:
    ``shape.quick_refs``), and again from the names when their hashes differ
    from those (see :meth:`sure`).
    """

    def __init__(self, shape: Shape, remapping: Mapping[str, str]) -> None:
        self.shape = shape
        self.remapping = remapping or None
        lengths = shape.lengths
        self.counter_starts: Ints = np.cumsum(lengths) - lengths  # each record's first counter

    @property
    def names(self) -> list[str]:
        """Each record's name, remapped."""
        return self._named[0]

    @property
    def name_hashes(self) -> U64s:
        """The MD5 of each record's name as merged (the NameRef unless renamed or nameless)."""
        return self._named[1]

    @cached_property
    def _named(self) -> tuple[list[str], U64s]:
        shape, remap = self.shape, self.remapping
        names = [remap.get(n, n) for n in shape.names] if remap else shape.names
        name_hashes = shape.name_refs.copy()
        if remap:  # renamed, or "" where the file has no name: hashed from the name used
            pairs = zip(names, shape.names, strict=True)
            redo = [i for i, (n, o) in enumerate(pairs) if not n or n != o]
        else:
            redo = [i for i, n in enumerate(names) if not n] if "" in names else []
        if redo:
            name_hashes[redo] = md5_array([name_bytes(names[i]) for i in redo])
        return names, name_hashes

    @cached_property
    def record_index(self) -> dict[tuple[str, int], int]:
        """Each record's position by (name, function hash): where a text input's go."""
        keys = zip(self.names, self.shape.hashes.tolist(), strict=True)
        return {key: index for index, key in enumerate(keys)}

    def plausible(self) -> bool:
        """False if two records surely share name and function hash (the record-by-record
        merge folds those); told without the names unless they are remapped.

        Equal stated hashes are equal names (or an MD5 collision, which only
        ever says no), so a pair twice among them is one among the names; the
        converse fails only where a stated hash is not its name's MD5 (records
        without a name, all hashed as "", or a hand-made indexed file) or
        names are remapped onto one another.
        """
        hashes = self.shape.quick_refs if self.remapping is None else self.name_hashes
        return not has_pair_twice(hashes, self.shape.hashes)

    def sure(self) -> bool:
        """Whether the group holds, from the names (made now if not yet)."""
        if self.remapping or np.array_equal(self.name_hashes, self.shape.quick_refs):
            return True  # :meth:`plausible` looked at these very hashes
        return not has_pair_twice(self.name_hashes, self.shape.hashes)


def has_pair_twice(name_hashes: U64s, hashes: U64s) -> bool:
    """Whether two records share name and function hash, told by their name hashes (MD5
    collisions only ever make this say yes, which takes the safe, record-by-record way)."""
    if len(hashes) < 2:
        return False
    names = np.sort(name_hashes)
    if not bool(np.any(names[1:] == names[:-1])):
        return False  # no name twice (one sort of one key, not a lexsort of two)
    order = np.lexsort((hashes, name_hashes))
    a, b = name_hashes[order], hashes[order]
    return bool(np.any((a[1:] == a[:-1]) & (b[1:] == b[:-1])))


# -- files -------------------------------------------------------------------------
def shape_of_input(
    view: memoryview, profile: InstrProfile, release: Release
) -> tuple[Shape, RawRun] | None:
    """A profile's shape (raw or indexed), and the profile read as its first run (as
    ``release`` reads it); None also where a function hash is one of ``DenseMap``'s
    reserved keys (the long way warns about those)."""
    shaped: tuple[Shape, RawRun] | None = None
    if profile.format == "raw":
        shaped = shape_of(view, profile)
    elif profile.format == "indexed":
        from profdata.formats.indexed_runs import indexed_shape

        shaped = indexed_shape(view, release=release)
    elif profile.format == "text":
        from profdata.formats.table_shapes import table_shape

        shaped = table_shape(profile)
    if shaped is None or bool(np.any(shaped[0].hashes >= np.uint64(DENSEMAP_TOMBSTONE_KEY))):
        return None
    return shaped


def looks_raw(path: str) -> bool:
    """Whether the file starts as a raw profile does (what it holds is checked on reading)."""
    if path == "-":
        return False
    try:
        with open(path, "rb") as file:
            return sniff(file.read(8))
    except OSError:
        return False


def read_group_run(view: memoryview, shape: Shape, path: str, release: Release) -> RawRun | None:
    """The input as a run of ``shape``; a raw run's header words are the shape's, an indexed
    one is read as ``release`` reads it."""
    if isinstance(shape, RawShape):
        return read_run(view, shape)
    from profdata.formats.indexed_runs import IndexedShape, read_indexed_run

    if not isinstance(shape, IndexedShape):
        return None  # nothing reads as a text's run: other texts cross onto it
    return read_indexed_run(view, shape, path, release)


def map_input(path: str) -> memoryview | None:
    """The file's bytes, memory-mapped; None if it cannot be (the full read says why)."""
    if path == "-":
        return None
    try:
        return map_file(path, populate=True)  # every page is read: map them all at once
    except FileError:
        return None


def read_loaded(load: Loader, path: str) -> Loaded:
    try:
        return load(path)
    except ProfdataError as exc:
        return exc


__all__ = [
    "Group", "Loaded", "Loader", "Shape", "has_pair_twice", "looks_raw", "map_input",
    "read_group_run", "read_loaded", "shape_of_input",
]  # fmt: skip
