"""Format-neutral data: records, value sites, summaries.  numpy + stdlib only."""

from profdata.model.instr import (
    PSEUDO_HOT,
    PSEUDO_WARM,
    InstrProfile,
    InstrRecord,
    TemporalTrace,
    ValueData,
    ValueSite,
)
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind
from profdata.model.summary import ProfileSummary, SummaryEntry

__all__ = [
    "CS_HASH_BIT",
    "PSEUDO_HOT",
    "PSEUDO_WARM",
    "InstrProfile",
    "InstrRecord",
    "ProfileKind",
    "ProfileSummary",
    "SummaryEntry",
    "TemporalTrace",
    "ValueData",
    "ValueKind",
    "ValueSite",
]
