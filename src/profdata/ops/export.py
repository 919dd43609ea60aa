"""Instrumentation profiles as JSON documents and pandas data frames (the Python API).

Tool authors mostly want one of two things from a profile: everything about
it as plain data (:func:`to_json`: the ``show --show-format=json
--all-functions`` document, so the schema is the one README documents and the
CLI prints), or a table to filter, join and plot (:func:`to_dataframe`: one
row per record, built from the reader's counter columns without creating a
Python object per function, so a 100k-function profile is a few numpy
reductions).  pandas is optional: it is imported only here, when asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from profdata.errors import UsageError
from profdata.model.instr import InstrProfile, RecordColumns
from profdata.model.kinds import ValueKind
from profdata.model.record_table import record_table
from profdata.ops.show import ShowOptions, collect
from profdata.ops.show_json import to_document
from profdata.releases import Release, release

if TYPE_CHECKING:
    import pandas as pd

Ints = npt.NDArray[np.int64]

#: the frame's columns, in order
COLUMNS = (
    "name",
    "hash",
    "num_counters",
    "entry_count",
    "max_count",
    "total_count",
    "nonzero_counters",
)


def to_json(profile: InstrProfile, rel: Release | None = None) -> dict[str, Any]:
    """The ``show --show-format=json --all-functions`` document of ``profile``.

    Every record with its counters, bitmap and value sites (targets named from
    the profile's symbol table), the profile summary and the header facts.
    """
    options = ShowOptions(all_functions=True, counts=True)
    return to_document(collect(profile, options, rel or release()))


def to_dataframe(profile: InstrProfile, *, value_sites: bool = False) -> pd.DataFrame:
    """One row per record, in reader order: see :data:`COLUMNS`.

    ``entry_count`` is the first counter (the function entry count for IR
    profiles; 0 for a record without counters); ``total_count`` wraps at 2**64
    like LLVM's sums.  With ``value_sites`` the frame also has the number of
    indirect-call and memop sites and of profiled values per record (this
    decodes every record's value data).
    """
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise UsageError("to_dataframe needs pandas: pip install 'profdata[pandas]'") from exc
    cols = profile.columns()
    frame = pd.DataFrame(_columns(cols), columns=list(COLUMNS))
    if value_sites:
        for key, values in _site_columns(profile).items():
            frame[key] = values
    return frame


def _columns(cols: RecordColumns) -> dict[str, Any]:
    lengths = cols.lengths
    counts = cols.counts.astype(np.uint64, copy=False)
    starts = cols.starts
    has = lengths > 0
    first = np.zeros(len(lengths), dtype=np.uint64)
    maxima = np.zeros(len(lengths), dtype=np.uint64)
    totals = np.zeros(len(lengths), dtype=np.uint64)
    nonzero = np.zeros(len(lengths), dtype=np.int64)
    if bool(has.any()):
        at = starts[has]
        first[has] = counts[at]
        maxima[has] = np.maximum.reduceat(counts, at)
        with np.errstate(over="ignore"):
            totals[has] = np.add.reduceat(counts, at)
        nonzero[has] = np.add.reduceat((counts != 0).astype(np.int64), at)
    return {
        "name": cols.names,
        "hash": cols.hashes.astype(np.uint64),
        "num_counters": lengths.astype(np.int64),
        "entry_count": first,
        "max_count": maxima,
        "total_count": totals,
        "nonzero_counters": nonzero,
    }


def _site_columns(profile: InstrProfile) -> dict[str, Ints]:
    """Sites per kind and profiled values per record, from the flat value columns."""
    vals = record_table(profile).values
    count = len(profile.columns())
    row_values = np.add.reduceat(vals.site_lengths, _row_starts(vals.row_sites))
    out: dict[str, Ints] = {}
    for key, kind in (
        ("indirect_call_sites", ValueKind.INDIRECT_CALL_TARGET),
        ("memop_sites", ValueKind.MEMOP_SIZE),
    ):
        mine = vals.row_kind == int(kind)
        out[key] = np.bincount(
            vals.row_record[mine], weights=vals.row_sites[mine], minlength=count
        ).astype(np.int64)
    rows = vals.row_sites > 0
    out["profiled_values"] = np.bincount(
        vals.row_record[rows], weights=row_values, minlength=count
    ).astype(np.int64)
    return out


def _row_starts(row_sites: Ints) -> Ints:
    """Each row's first site, for rows that have any (``reduceat`` needs non-empty runs)."""
    starts = np.cumsum(row_sites) - row_sites
    return starts[row_sites > 0]


__all__ = ["COLUMNS", "to_dataframe", "to_json"]
