"""profdata: LLVM PGO and coverage profiles in Python, byte-compatible with llvm-profdata."""

from profdata.errors import FormatError, ProfdataError
from profdata.formats import open_instr, read_instr_bytes
from profdata.model import (
    InstrProfile,
    InstrRecord,
    ProfileKind,
    ProfileSummary,
    TemporalTrace,
    ValueData,
    ValueKind,
)

__version__ = "0.1.0"

__all__ = [
    "FormatError",
    "InstrProfile",
    "InstrRecord",
    "ProfdataError",
    "ProfileKind",
    "ProfileSummary",
    "TemporalTrace",
    "ValueData",
    "ValueKind",
    "__version__",
    "open_instr",
    "read_instr_bytes",
]
