"""``show --debug-info=BIN``: what a binary's debug info offers for correlation.

Mirrors ``showDebugInfoCorrelation`` of llvm-profdata 14 to 22, which looks at
the binary alone (a profile named on the command line is not read): the
probes as YAML with ``--show-format=yaml``, else the sorted function names
(``--show-prof-sym-list``), the counters section size (``--detailed-summary``)
and the number of functions found.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from profdata.formats.correlate import CorrelatorKind, load_correlation, load_probes
from profdata.formats.correlate_yaml import dump_probes_yaml
from profdata.model.llvm_containers import stringmap_order
from profdata.model.names import name_str


def show_debug_info(
    path: str | os.PathLike[str],
    *,
    yaml: bool = False,
    symbol_list: bool = False,
    detailed_summary: bool = False,
    max_warnings: int = 5,
    binary_wording: bool = True,
    sorted_names: bool = True,
    xxh3_names: bool = True,
    warn: Callable[[str], None] | None = None,
) -> str:
    """The output of ``show --debug-info=path`` (raises ``CorrelationError``);
    ``warn`` receives the correlator's warnings as they happen.

    ``sorted_names``: LLVM 19+ list names sorted, before in the iteration
    order of the symbol table's ``StringMap`` (hashed with xxh3 if
    ``xxh3_names``, else djbHash).
    """
    if yaml:
        probes, _ = load_probes(
            path, max_warnings=max_warnings, binary_wording=binary_wording, warn=warn
        )
        return dump_probes_yaml(probes)
    correlation = load_correlation(
        path,
        CorrelatorKind.DEBUG_INFO,
        max_warnings=max_warnings,
        binary_wording=binary_wording,
        warn=warn,
    )
    correlation.name_table()  # fails on an empty name, as LLVM's symbol table does
    lines: list[str] = []
    if symbol_list:
        names = correlation.symbol_names
        if sorted_names:
            lines += [name_str(n) for n in sorted(set(names))]
        else:
            lines += [name_str(names[i]) for i in stringmap_order(names, xxh3=xxh3_names)]
    if detailed_summary:
        lines.append(f"Counters section size: 0x{correlation.counters_section_size:x} bytes")
    lines.append(f"Found {len(correlation)} functions")
    return "".join(f"{line}\n" for line in lines)
