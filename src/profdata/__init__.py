"""profdata: LLVM PGO and coverage profiles in Python, byte-compatible with llvm-profdata.

The public names below are imported on first use (PEP 562), so that
``import profdata.cli`` does not load numpy before the command line has had
a chance to configure it (see :func:`profdata.cli.main`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from profdata.errors import FormatError, ProfdataError
    from profdata.formats import open_instr, read_instr_bytes
    from profdata.formats.sample_registry import open_sample
    from profdata.model import (
        InstrProfile,
        InstrRecord,
        ProfileKind,
        ProfileSummary,
        TemporalTrace,
        ValueData,
        ValueKind,
    )
    from profdata.model.record_table import RecordTable, ValueColumns, record_table
    from profdata.model.sample import FunctionSamples, SampleProfile
    from profdata.ops.export import to_dataframe, to_json
    from profdata.ops.merge_files import merge_files, write_profile
    from profdata.ops.order import order_functions

__version__ = "0.1.0"

#: public name -> the module it comes from
_EXPORTS = {
    "FormatError": "profdata.errors",
    "ProfdataError": "profdata.errors",
    "open_instr": "profdata.formats",
    "read_instr_bytes": "profdata.formats",
    "InstrProfile": "profdata.model",
    "InstrRecord": "profdata.model",
    "ProfileKind": "profdata.model",
    "ProfileSummary": "profdata.model",
    "TemporalTrace": "profdata.model",
    "ValueData": "profdata.model",
    "ValueKind": "profdata.model",
    "RecordTable": "profdata.model.record_table",
    "ValueColumns": "profdata.model.record_table",
    "record_table": "profdata.model.record_table",
    "open_sample": "profdata.formats.sample_registry",
    "SampleProfile": "profdata.model.sample",
    "FunctionSamples": "profdata.model.sample",
    "to_json": "profdata.ops.export",
    "to_dataframe": "profdata.ops.export",
    "merge_files": "profdata.ops.merge_files",
    "write_profile": "profdata.ops.merge_files",
    "order_functions": "profdata.ops.order",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'profdata' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__all__ = [
    "FormatError",
    "FunctionSamples",
    "InstrProfile",
    "InstrRecord",
    "ProfdataError",
    "ProfileKind",
    "ProfileSummary",
    "RecordTable",
    "SampleProfile",
    "TemporalTrace",
    "ValueColumns",
    "ValueData",
    "ValueKind",
    "__version__",
    "merge_files",
    "open_instr",
    "open_sample",
    "order_functions",
    "read_instr_bytes",
    "record_table",
    "to_dataframe",
    "to_json",
    "write_profile",
]
