"""Profile metadata from DWARF: ``DwarfInstrProfCorrelator`` of LLVM 14 to 22.

With ``-mllvm -profile-correlate=debug-info`` (LLVM 14 to 17: ``-debug-info-correlate``)
clang leaves the data and names sections out of the binary and describes each
function's counters in its debug info instead: a ``DW_TAG_variable`` named
``__profc_*`` inside the function's ``DW_TAG_subprogram``, located at the
counters, with ``DW_TAG_LLVM_annotation`` children "Function Name", "CFG Hash"
and "Num Counters".  This module walks the DIEs in LLVM's order (every unit,
every DIE in order) with pyelftools and applies LLVM's tests and warnings, so
the probes and their order are the ones llvm-profdata builds its data records
from.  Split DWARF (``.dwo`` units) is not followed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from elftools.dwarf.dwarf_expr import DWARFExprParser

from profdata.formats.correlate_data import CorrelationWarnings, Probe

COUNTERS_VAR_PREFIX = b"__profc_"  # getInstrProfCountersVarPrefix()
FUNCTION_NAME_ATTRIBUTE = b"Function Name"  # InstrProfCorrelator::FunctionNameAttributeName
CFG_HASH_ATTRIBUTE = b"CFG Hash"  # InstrProfCorrelator::CFGHashAttributeName
NUM_COUNTERS_ATTRIBUTE = b"Num Counters"  # InstrProfCorrelator::NumCountersAttributeName
DW_TAG_LLVM_ANNOTATION = 0x6000
_STRING_FORMS = frozenset(
    ("DW_FORM_string", "DW_FORM_strp", "DW_FORM_line_strp", "DW_FORM_strx", "DW_FORM_strx1",
     "DW_FORM_strx2", "DW_FORM_strx3", "DW_FORM_strx4", "DW_FORM_GNU_str_index",
     "DW_FORM_strp_sup", "DW_FORM_GNU_strp_alt")
)  # fmt: skip
_CONSTANT_FORMS = frozenset(
    ("DW_FORM_data1", "DW_FORM_data2", "DW_FORM_data4", "DW_FORM_data8", "DW_FORM_udata",
     "DW_FORM_implicit_const")
)  # fmt: skip
_EXPR_FORMS = frozenset(
    ("DW_FORM_exprloc", "DW_FORM_block", "DW_FORM_block1", "DW_FORM_block2", "DW_FORM_block4")
)

DIE = Any  # elftools.dwarf.die.DIE (pyelftools has no type annotations)


def dwarf_probes(
    dwarf: Any,
    counters: tuple[int, int],
    warnings: CorrelationWarnings,
    *,
    locations: bool = False,
) -> list[Probe]:
    """Every well-formed probe in DIE order (``correlateProfileDataImpl``).

    ``counters`` is the ``[start, end)`` address range of ``__llvm_prf_cnts``;
    probes outside it are dropped with LLVM's warning.  ``locations`` also
    resolves linkage name, declaration file and line (what ``dumpYaml`` shows).
    """
    probes: list[Probe] = []
    for cu in dwarf.iter_CUs():
        addresses = _Addresses(dwarf, cu)
        files: Callable[[int], bytes | None] | None = None
        if locations:
            files = _FileNames(dwarf, cu)
        for die in cu.iter_DIEs():
            if not _is_probe_die(die):
                continue
            probe = _probe(die, addresses, counters, warnings)
            if probe is None:
                continue
            if files is not None:
                probe = _with_location(probe, die.get_parent(), files)
            probes.append(probe)
    return probes


def _is_probe_die(die: DIE) -> bool:
    """``isDIEOfProbe``: a ``__profc_`` variable with children inside a subprogram."""
    if die.is_null() or die.tag != "DW_TAG_variable" or not die.has_children:
        return False
    parent = die.get_parent()
    if parent is None or parent.tag != "DW_TAG_subprogram":
        return False
    name = _string(die.attributes.get("DW_AT_name"))
    return name is not None and name.startswith(COUNTERS_VAR_PREFIX)


def _annotations(die: DIE) -> Iterator[tuple[bytes, Any]]:
    for child in die.iter_children():
        if child.tag not in (DW_TAG_LLVM_ANNOTATION, "DW_TAG_LLVM_annotation"):
            continue
        name = _string(child.attributes.get("DW_AT_name"))
        value = child.attributes.get("DW_AT_const_value")
        if name is None or value is None:
            continue
        yield name, value


def _probe(
    die: DIE, addresses: _Addresses, counters: tuple[int, int], warnings: CorrelationWarnings
) -> Probe | None:
    function_name: bytes | None = None
    cfg_hash: int | None = None
    num_counters: int | None = None
    for name, value in _annotations(die):
        if name == FUNCTION_NAME_ATTRIBUTE:
            function_name = _string(value)
        elif name == CFG_HASH_ATTRIBUTE:
            cfg_hash = _unsigned(value)
        elif name == NUM_COUNTERS_ATTRIBUTE:
            num_counters = _unsigned(value)
    counter_ptr = addresses.location(die)
    function_ptr = addresses.low_pc(die.get_parent())
    if function_ptr is None and counter_ptr is None:
        return None  # dead-stripped
    if function_name is None or cfg_hash is None or counter_ptr is None or num_counters is None:
        warnings.add(
            f"Incomplete DIE for function {_opt(function_name)}: CFGHash={_opt(cfg_hash)}"
            f"  CounterPtr={_opt(counter_ptr)}  NumCounters={_opt(num_counters)}"
        )
        return None
    start, end = counters
    shown_name = function_name.decode("utf-8", "surrogateescape")
    if not start <= counter_ptr < end:
        warnings.add(
            f"CounterPtr out of range for function {shown_name}: "
            f"Actual=0x{counter_ptr & 0xFFFFFFFF:x} "
            f"Expected=[0x{start & 0xFFFFFFFF:x}, 0x{end & 0xFFFFFFFF:x})"
        )
        return None
    if function_ptr is None:
        warnings.add(f"Could not find address of function {shown_name}")
    return Probe(
        function_name=function_name,
        cfg_hash=cfg_hash,
        counter_offset=counter_ptr - start,
        num_counters=num_counters & 0xFFFFFFFF,
        function_pointer=function_ptr or 0,
    )


def _string(attr: Any) -> bytes | None:
    """``getAsCString``: the bytes of a string-form attribute, else None."""
    if attr is None or attr.form not in _STRING_FORMS or not isinstance(attr.value, bytes):
        return None
    return bytes(attr.value)


def _opt(value: bytes | int | None) -> str:
    """``raw_ostream << std::optional``: the value, or ``None``."""
    if value is None:
        return "None"
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def _unsigned(value: Any) -> int | None:
    """``getAsUnsignedConstant``: unsigned constant forms only."""
    if value is None:
        return None
    if value.form in _CONSTANT_FORMS and isinstance(value.value, int) and value.value >= 0:
        return int(value.value) & 0xFFFFFFFFFFFFFFFF
    return None


class _Addresses:
    """Addresses of one unit's DIEs: ``DW_OP_addr``/``DW_OP_addrx`` locations and low_pc."""

    def __init__(self, dwarf: Any, cu: Any) -> None:
        self.dwarf = dwarf
        self.cu = cu
        self.parser = DWARFExprParser(cu.structs)

    def location(self, die: DIE) -> int | None:
        """``getLocation``: the first address operand of the location expression."""
        attr = die.attributes.get("DW_AT_location")
        if attr is None or attr.form not in _EXPR_FORMS:
            return None
        for op in self.parser.parse_expr(attr.value):
            if op.op_name == "DW_OP_addr":
                return int(op.args[0])
            if op.op_name in ("DW_OP_addrx", "DW_OP_GNU_addr_index"):
                return int(self.dwarf.get_addr(self.cu, op.args[0]))
        return None

    def low_pc(self, die: DIE) -> int | None:
        """``toAddress(find(DW_AT_low_pc))`` (pyelftools resolves ``addrx`` forms)."""
        attr = die.attributes.get("DW_AT_low_pc")
        if attr is None or not isinstance(attr.value, int):
            return None
        return int(attr.value)


def _find_recursively(die: DIE, names: tuple[str, ...]) -> Any:
    """``DWARFDie::findRecursively``: the DIE, then its abstract origin / specification."""
    seen: set[int] = set()
    todo = [die]
    while todo:
        current = todo.pop(0)
        if current.offset in seen:
            continue
        seen.add(current.offset)
        for name in names:
            if name in current.attributes:
                return current.attributes[name]
        for link in ("DW_AT_abstract_origin", "DW_AT_specification"):
            if link in current.attributes:
                todo.append(current.get_DIE_from_attribute(link))
    return None


def _with_location(probe: Probe, function: DIE, files: Callable[[int], bytes | None]) -> Probe:
    linkage_name = _string(
        _find_recursively(function, ("DW_AT_linkage_name", "DW_AT_MIPS_linkage_name"))
    )
    if linkage_name is None:
        linkage_name = _string(_find_recursively(function, ("DW_AT_name",)))
    decl_file = _unsigned(_find_recursively(function, ("DW_AT_decl_file",)))
    file = files(decl_file) if decl_file is not None else None
    line = _unsigned(_find_recursively(function, ("DW_AT_decl_line",))) or None
    return replace(probe, linkage_name=linkage_name, file=file, line=line)


class _FileNames:
    """``getFileNameByIndex(..., RelativeFilePath)`` over one unit's line table."""

    def __init__(self, dwarf: Any, cu: Any) -> None:
        self.program = dwarf.line_program_for_CU(cu)

    def __call__(self, index: int) -> bytes | None:
        program = self.program
        if program is None:
            return None
        header = program.header
        entries = header.file_entry
        dirs = header.include_directory
        if header.version >= 5:
            entry = entries[index] if 0 <= index < len(entries) else None
        else:
            entry = entries[index - 1] if 0 < index <= len(entries) else None
        if entry is None:
            return None
        name = entry.name if isinstance(entry.name, bytes) else None
        if name is None:
            return None
        if name.startswith(b"/"):
            return name
        directory = b""
        dir_index = entry.dir_index
        if header.version >= 5:
            if dir_index != 0 and dir_index < len(dirs):
                directory = dirs[dir_index]
        elif 0 < dir_index <= len(dirs):
            directory = dirs[dir_index - 1]
        if not isinstance(directory, bytes):
            directory = b""
        return posixpath.join(directory, name) if directory else name
