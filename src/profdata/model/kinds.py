"""Variant flags and value kinds shared by the raw, indexed and text formats.

The flag bits live in the high 32 bits of the version word of raw and indexed
files (LLVM's ``VARIANT_MASK_*`` in InstrProfData.inc); text files spell them as
``:ir``-style header lines.  Keeping them as one IntFlag lets every format
translate with a shift instead of a per-format table.
"""

from __future__ import annotations

from enum import IntEnum, IntFlag

VARIANT_SHIFT = 32


class ProfileKind(IntFlag):
    """Variant flags, as the high half of the version word (bit n → 1 << (n - 32))."""

    FRONTEND = 0
    LOOP_ENTRIES = 1 << (55 - 32)  # VARIANT_MASK_INSTR_LOOP_ENTRIES (LLVM 22)
    IR = 1 << (56 - 32)  # VARIANT_MASK_IR_PROF
    CS = 1 << (57 - 32)  # VARIANT_MASK_CSIR_PROF
    ENTRY_FIRST = 1 << (58 - 32)  # VARIANT_MASK_INSTR_ENTRY
    DEBUG_INFO_CORRELATE = 1 << (59 - 32)  # VARIANT_MASK_DBG_CORRELATE
    SINGLE_BYTE_COVERAGE = 1 << (60 - 32)  # VARIANT_MASK_BYTE_COVERAGE
    FUNCTION_ENTRY_ONLY = 1 << (61 - 32)  # VARIANT_MASK_FUNCTION_ENTRY_ONLY
    MEMPROF = 1 << (62 - 32)  # VARIANT_MASK_MEMPROF
    TEMPORAL = 1 << (63 - 32)  # VARIANT_MASK_TEMPORAL_PROF

    @classmethod
    def from_version_word(cls, word: int) -> ProfileKind:
        return cls((word >> VARIANT_SHIFT) & 0xFFFFFFFF)

    def version_word(self, version: int) -> int:
        return (int(self) << VARIANT_SHIFT) | version

    @property
    def is_ir(self) -> bool:
        return bool(self & ProfileKind.IR)

    @property
    def is_cs(self) -> bool:
        return bool(self & ProfileKind.CS)


class ValueKind(IntEnum):
    """Value-profile kinds (``IPVK_*``); the number is the on-disk kind."""

    INDIRECT_CALL_TARGET = 0  # IPVK_IndirectCallTarget
    MEMOP_SIZE = 1  # IPVK_MemOPSize
    VTABLE_TARGET = 2  # IPVK_VTableTarget (LLVM 19+)

    @property
    def llvm_name(self) -> str:
        return _LLVM_NAMES[self]

    @property
    def targets_are_names(self) -> bool:
        """Kinds whose values are MD5 name hashes rather than plain numbers."""
        return self is not ValueKind.MEMOP_SIZE


_LLVM_NAMES = {
    ValueKind.INDIRECT_CALL_TARGET: "IPVK_IndirectCallTarget",
    ValueKind.MEMOP_SIZE: "IPVK_MemOPSize",
    ValueKind.VTABLE_TARGET: "IPVK_VTableTarget",
}

#: The bit of FuncHash that marks a context-sensitive IR record.
CS_HASH_BIT = 1 << 60
