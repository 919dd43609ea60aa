"""What a correlator finds in a binary, and how the raw reader uses it.

LLVM's ``InstrProfCorrelator`` after ``correlateProfileData``: data records
and names rebuilt from a binary (:mod:`profdata.formats.correlate` reads
ELF/DWARF with pyelftools; this module needs neither, so reading ordinary raw
profiles never imports them).  :func:`correlated_sections` is the raw
reader's hook, ``RawInstrProfReader::readHeader`` with a correlator: the
profile must carry no data and names of its own, and its records become the
correlator's, with counter pointers relative to the counters section (the
counter delta stays 0 from record to record).

profdata's addition: a lightweight profile read without a correlator, which
llvm-profdata silently reads as empty, and a binary of the other pointer
width, which llvm-profdata silently ignores, are errors that say what is
missing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from profdata.errors import CorrelationMismatchError, EmptyNameError, Location, ProfdataError
from profdata.formats._binary import ByteReader
from profdata.formats._names import holds_empty_name, read_names_as_llvm
from profdata.formats.raw_layout import RawHeader, RawLayout
from profdata.formats.raw_profile import NameTable
from profdata.model.kinds import ProfileKind

U64s = npt.NDArray[np.uint64]
#: the DWARF annotation whose value is a function's PGO name
FUNCTION_NAME_FIELD = "Function Name"


class CorrelatorKind(enum.Enum):
    """``ProfCorrelatorKind``: where the binary keeps the profile metadata."""

    DEBUG_INFO = "debug-info"  # merge --debug-info: DWARF
    BINARY = "binary"  # merge --binary-file: __llvm_covdata / __llvm_covnames


@dataclass(frozen=True)
class Probe:
    """One function's profile metadata as the binary describes it.

    LLVM's ``InstrProfCorrelator::Probe`` of a DWARF ``__profc_`` variable (what
    ``show --debug-info --show-format=yaml`` lists) plus the function address
    its data record keeps.
    """

    function_name: bytes  # the PGO name (``file;name`` for local functions)
    cfg_hash: int
    counter_offset: int  # from the start of ``__llvm_prf_cnts``, in pointer width
    num_counters: int
    function_pointer: int  # DW_AT_low_pc (0 if unknown)
    linkage_name: bytes | None = None  # the subprogram's linkage (else short) name
    file: bytes | None = None  # DW_AT_decl_file as a path relative to the compile dir
    line: int | None = None  # DW_AT_decl_line (None for 0)


@dataclass
class CorrelationWarnings:
    """LLVM's ``--max-debug-info-correlation-warnings`` rule: the first ``limit`` warnings
    (all of them for 0), then -- for debug info -- one line saying how many were left out.

    ``sink`` receives each shown line as it happens (llvm-profdata prints them at
    once, so they come before an error that ends the correlation).
    """

    limit: int = 5
    sink: Callable[[str], None] | None = None
    shown: list[str] = field(default_factory=list)
    suppressed: int = 0

    def add(self, message: str) -> None:
        if self.limit == 0 or len(self.shown) < self.limit:
            self.shown.append(message)
            if self.sink is not None:
                self.sink(message)
        else:
            self.suppressed += 1

    def finish(self) -> None:
        """The closing "Suppressed N additional warnings" line, if any were left out."""
        if self.suppressed:
            self.add_summary(f"Suppressed {self.suppressed} additional warnings")

    def add_summary(self, message: str) -> None:
        self.shown.append(message)
        if self.sink is not None:
            self.sink(message)

    def lines(self) -> list[str]:
        """What llvm-profdata printed after ``warning: ``, in order."""
        return list(self.shown)


@dataclass(frozen=True)
class EncodedNames:
    """A binary's name section as ``BinaryInstrProfCorrelator`` keeps it: copied, not decoded.

    LLVM decodes it when each raw profile is read with the correlator (the reader's
    ``createSymtab``), so a damaged section fails every such input, named by that
    input's path, and not the binary; :meth:`decode` is that read.
    """

    blob: bytes
    at: int  # the section's offset in the binary
    section: str  # its name, for the located error

    def decode(self, binary: str, profile: str | None) -> NameTable:
        """The names as ``readAndDecodeStrings`` reads them; an error names ``profile``
        (the input being read), with the place in ``binary`` in its detail (or names
        ``binary`` when no profile is read)."""
        cur = ByteReader(self.blob, path=binary, base=self.at)
        try:
            return NameTable(read_names_as_llvm(cur, 0, len(self.blob), self.section))
        except ProfdataError as exc:
            if profile is not None:
                exc.detail = f"in {binary}: {exc.detail}"
                exc.path = profile
            raise


@dataclass(eq=False)
class Correlation:
    """A correlator after ``correlateProfileData``: data-record columns and names.

    Records are in LLVM's order with later probes of an already seen counter
    offset dropped (``addDataProbe``).  Counter offsets are relative to the
    start of ``__llvm_prf_cnts``, which is where the raw profile's counters
    section starts.
    """

    path: str
    kind: CorrelatorKind
    width: int  # pointer width of the binary (4 or 8)
    name_refs: U64s
    func_hashes: U64s
    counter_offsets: U64s
    function_pointers: U64s
    num_counters: npt.NDArray[np.uint32]
    names: NameTable | EncodedNames  # the second for a binary's own name section
    counters_section_size: int
    warnings: CorrelationWarnings = field(default_factory=CorrelationWarnings)
    binary_wording: bool = True  # LLVM 18+'s words for unexpected correlation info

    def __len__(self) -> int:
        return len(self.name_refs)

    @property
    def symbol_names(self) -> list[bytes]:
        """Every name of the names string in its order, repeats kept
        (``InstrProfSymtab::create`` inserts them in this order)."""
        return [name for payload in self.name_table().payloads() for name in payload.split(b"\x01")]

    def name_table(self, profile: str | None = None) -> NameTable:
        """The names as the raw profile at ``profile`` reads them (``createSymtab``), or
        as ``show`` of the binary alone does (``profile`` None): an error names the file
        being read, as LLVM's does.  A binary's own section is decoded here; names from
        debug info fail here if one is empty (LLVM joins them into a chunk when it
        correlates, and only decoding that chunk finds the empty one)."""
        names = self.names
        if isinstance(names, EncodedNames):
            return names.decode(self.path, profile)
        if any(map(holds_empty_name, names.payloads())):
            raise EmptyNameError(
                f"a profile annotation of {self.path} gives an empty function name"
                if profile is not None
                else "a profile annotation gives an empty function name",
                path=profile if profile is not None else self.path,
                location=Location(field=FUNCTION_NAME_FIELD, found="''"),
            )
        return names

    def data_records(self, layout: RawLayout) -> npt.NDArray[np.void]:
        """The records as the profile's ``__llvm_profile_data`` array: no values, no bitmap."""
        data = np.zeros(len(self), dtype=layout.data_dtype)
        data["name_ref"] = self.name_refs
        data["func_hash"] = self.func_hashes
        data["counter_ptr"] = self.counter_offsets
        data["function_pointer"] = self.function_pointers
        data["num_counters"] = self.num_counters
        return data


#: what the raw reader correlates with: one binary's correlation (``--binary-file``,
#: ``--debug-info``), or what gives the correlation of the binary a profile's build IDs
#: name (``--correlate``, :mod:`profdata.formats.correlate_fetch`)
CorrelationSource = Correlation | Callable[[Sequence[bytes]], Correlation]


def correlated_sections(
    cur: ByteReader,
    start: int,
    layout: RawLayout,
    header: RawHeader,
    correlation: Correlation | None,
    *,
    by_flag: bool = False,
) -> tuple[npt.NDArray[np.void], NameTable]:
    """The data records and names of one raw profile read with ``correlation``.

    Raises :class:`~profdata.errors.CorrelationMismatchError` when the profile
    carries its own data or names (LLVM: ``unexpected_correlation_info``), and,
    where llvm-profdata would silently read nothing, when it is lightweight
    but no correlator was given or the binary's pointer width differs.  With
    ``by_flag`` (releases up to 17, whose reader checked the header's flag, not
    its sizes, and only asserted them to be 0) the profile's own data and names
    are passed over: the binary's are read, and the counters where the header
    puts them, with its counter delta.
    """
    fields = layout.header_fields
    num_data_at = start + 8 * fields.index("num_data")
    if correlation is None:
        debug_info = bool(header.kind & ProfileKind.DEBUG_INFO_CORRELATE)
        option = (
            "--debug-info=BINARY" if debug_info else "--binary-file=BINARY or --debug-info=BINARY"
        )
        mode = (
            "-profile-correlate=debug-info"
            if debug_info
            else "-profile-correlate=binary (or, front-end instrumentation, =debug-info)"
        )
        cur.fail(
            CorrelationMismatchError,
            f"the profile was written by a program built with {mode}: its data records and "
            "names are in that binary, which llvm-profdata would silently ignore "
            f"(read as an empty profile); pass {option}",
            field="header.num_data",
            expected="data records, or a correlation binary",
            found=f"0 data records and {header.num_counters} counters",
            at=num_data_at,
            llvm_message=(
                "lightweight raw profile: its data and names are in the binary; "
                f"merge it with {option}"
            ),
        )
    own = {
        "num_data": header.num_data,
        "names_size": header.names_size,
        "counters_delta": header.counters_delta,
        "names_delta": header.names_delta,
    }
    for name, value in own.items():
        if value and not by_flag:
            cur.fail(
                CorrelationMismatchError,
                f"{correlation.path} was given for correlation, but the profile has its own "
                f"data and names (header.{name} is not 0)",
                field=f"header.{name}",
                expected="0 (a lightweight profile)",
                found=str(value),
                at=start + 8 * fields.index(name),
                llvm_message=None
                if correlation.binary_wording
                else "debug info for correlation is not necessary",
            )
    if correlation.width != layout.width:
        cur.fail(
            CorrelationMismatchError,
            f"{correlation.path} is a {8 * correlation.width}-bit binary but the profile "
            f"is {8 * layout.width}-bit, so it cannot come from that binary "
            "(llvm-profdata would silently read an empty profile)",
            field="header.magic",
            expected=f"a {8 * correlation.width}-bit raw profile",
            found=f"a {8 * layout.width}-bit raw profile",
            at=start,
            llvm_message=f"{correlation.path} does not match the profile's pointer width",
        )
    return correlation.data_records(layout), correlation.name_table(cur.path)
