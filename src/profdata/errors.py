"""The one exception hierarchy of profdata.

Every error a user can provoke with bad input or bad options is a
:class:`ProfdataError`.  Format errors carry enough context (file, byte
offset or line, field, expected and found) for the CLI to print the same
first line llvm-profdata prints and a second line that locates the fault,
which is what people writing their own profile runtimes need.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from profdata.releases import Release

_MALFORMED = "malformed instrumentation profile data"


def without_detail(message: str) -> str:
    """``message`` as an ``InstrProfError`` rebuilt from its code alone words it:
    "malformed instrumentation profile data" without the ": DETAIL" (13's errors, and
    14-16's merge warning for an input that cannot be opened)."""
    return _MALFORMED if message.startswith(_MALFORMED + ": ") else message


class ProfdataError(Exception):
    """Base class of every error profdata raises on purpose."""

    #: The message llvm-profdata prints for this kind of failure (after ``FILE: ``).
    llvm_message: str = "unknown error"
    #: What a reader that streams records, as llvm-profdata's do, had delivered before
    #: it met the failure: an ``InstrProfile`` (this leaf module cannot name the model),
    #: whose records ``merge`` keeps and ``show`` prints, as llvm-profdata does.  None
    #: when the failure comes first.
    partial: object | None = None
    #: raised where llvm-profdata fails ``InstrProfReader::create`` (a raw file's first
    #: header and its name table), whose message ``merge`` of 14-16 keeps without its
    #: detail (``InstrProfError::take`` returned only the code)
    opening: bool = False

    def __init__(self, detail: str = "", *, path: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.path = path

    def for_release(self, release: Release) -> ProfdataError:
        """Reword for the selected release where llvm-profdata releases word it differently."""
        return self

    def with_path(self, path: str) -> ProfdataError:
        """Attach the input's path if no deeper layer did."""
        if self.path is None:
            self.path = path
        return self

    def headline(self) -> str:
        """llvm-profdata's wording: ``FILE: message``."""
        return f"{self.path}: {self.llvm_message}" if self.path else self.llvm_message

    def __str__(self) -> str:
        return self.headline() + (f": {self.detail}" if self.detail else "")


@dataclass(frozen=True)
class Location:
    """Where in an input a format error was found."""

    offset: int | None = None  # byte offset from the start of the file
    line: int | None = None  # 1-based line number for text formats
    field: str | None = None  # the field being decoded (LLVM's name, snake_case)
    expected: str | None = None
    found: str | None = None

    def describe(self) -> str:
        parts: list[str] = []
        if self.offset is not None:
            parts.append(f"offset {self.offset} (0x{self.offset:x})")
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.field:
            parts.append(f"field {self.field}")
        if self.expected is not None:
            parts.append(f"expected {self.expected}")
        if self.found is not None:
            parts.append(f"found {self.found}")
        return ", ".join(parts)


class FormatError(ProfdataError):
    """Input bytes or text that do not follow the format."""

    llvm_message = "malformed instrumentation profile data"

    def __init__(
        self,
        detail: str = "",
        *,
        path: str | None = None,
        location: Location | None = None,
        llvm_message: str | None = None,
    ) -> None:
        super().__init__(detail, path=path)
        self.location = location or Location()
        if llvm_message is not None:
            self.llvm_message = llvm_message

    def for_release(self, release: Release) -> ProfdataError:
        """llvm-profdata 13 says only "malformed instrumentation profile data"."""
        if not release.instr_error_details:
            self.llvm_message = without_detail(self.llvm_message)
        return self

    def locate(self) -> str:
        """Our second line: what was wrong and exactly where."""
        where = self.location.describe()
        text = self.detail
        if where:
            text = f"{text} ({where})" if text else where
        return f"{self.path}: {text}" if self.path else text


class UnrecognizedFormatError(FormatError):
    """No reader claims the input's first bytes."""

    llvm_message = "unrecognized instrumentation profile encoding format"


class EmptyProfileError(FormatError):
    """An input with no bytes at all (llvm-profdata: ``empty raw profile file``)."""

    llvm_message = "empty raw profile file"


class UnsupportedVersionError(FormatError):
    """A version number the format has never had, or that we refuse (raw v6)."""

    llvm_message = "unsupported instrumentation profile format version"


class RawVersionError(UnsupportedVersionError):
    """A raw version no LLVM release wrote; later releases word it as a mismatch."""

    def for_release(self, release: Release) -> ProfdataError:
        """llvm-profdata 17+ word it as a mismatch with the one version they read."""
        if release.raw_version_mismatch_wording:
            self.llvm_message = (
                "raw profile version mismatch: Profile uses raw profile format version = "
                f"{self.location.found}; expected version = {release.raw_version}\n"
                "PLEASE update this tool to version in the raw profile, or regenerate raw "
                "profile with expected version."
            )
        else:
            self.llvm_message = UnsupportedVersionError.llvm_message
        return self


class RelabelledVersionError(RawVersionError):
    """A raw file that fails as the version its header names but reads as another one.

    llvm-profdata refuses every raw version but its own at the header, so it
    reports such a file as a version mismatch -- except the release whose own
    version the header names: that one reads it with the wrong layout and fails
    as ``as_declared`` did.
    """

    def __init__(
        self, detail: str, *, path: str | None, location: Location, as_declared: FormatError
    ) -> None:
        super().__init__(detail, path=path, location=location)
        self.as_declared = as_declared

    def for_release(self, release: Release) -> ProfdataError:
        if self.location.found == str(release.raw_version):
            return self.as_declared.for_release(release)
        return super().for_release(release)


class UnsupportedHashTypeError(FormatError):
    llvm_message = "unsupported instrumentation profile hash type"


class TruncatedError(FormatError):
    """A field that runs past the end of its section or of the file."""

    llvm_message = "truncated profile data"


class HeaderCorruptError(FormatError):
    """Header counts and sizes that cannot describe the bytes present."""

    llvm_message = "invalid instrumentation profile data (file header is corrupt)"


class MalformedError(FormatError):
    """Bytes present but inconsistent (bad offsets, impossible counts)."""

    llvm_message = "malformed instrumentation profile data"


class _EmptyNameWording(FormatError):
    """An empty name, called a "symbol" name since LLVM 19 (vtable names share the name
    table), a "function" name before; the text reader words its empty targets so too."""

    llvm_message = f"{_MALFORMED}: symbol name is empty"

    def for_release(self, release: Release) -> ProfdataError:
        self.llvm_message = f"{_MALFORMED}: {release.empty_name} is empty"
        return super().for_release(release)


class EmptyNameError(_EmptyNameWording, MalformedError):
    """A name table holding an empty name."""


class TooMuchDataError(FormatError):
    """The header promises more value data than the file holds."""

    llvm_message = "too much profile data"


class DecompressionError(FormatError):
    llvm_message = "failed to uncompress data (zlib)"


class TextSyntaxError(FormatError):
    """A line of a text profile that does not parse."""

    llvm_message = "malformed instrumentation profile data"


class TextEmptyNameError(_EmptyNameWording, TextSyntaxError):
    """An empty value-profile target name in a text profile."""


class SampleDiagnosticError(FormatError):
    """A sample-reader error LLVM reports through ``LLVMContext::diagnose``, which exits at
    once: ``merge --failure-mode=all`` cannot skip the input."""


class SampleTextSyntaxError(TextSyntaxError, SampleDiagnosticError):
    """A sample text line LLVM rejects; LLVM names the line: ``FILE:LINE: message``."""

    llvm_message = "Malformed sample profile data"

    def headline(self) -> str:
        line = self.location.line
        where = f"{self.path}:{line}" if self.path and line else self.path
        return f"{where}: {self.llvm_message}" if where else self.llvm_message


class SampleTruncatedError(TruncatedError, SampleDiagnosticError):
    """A sample binary field that runs past the end (``readNumber``/``readString``)."""

    llvm_message = "Truncated profile data"


class SampleMalformedError(MalformedError, SampleDiagnosticError):
    """A sample binary number too wide for its field (``readNumber``)."""

    llvm_message = "Malformed sample profile data"


class CorrelationError(FormatError):
    """A binary that cannot correlate raw profiles (``unable_to_correlate_profile``); the
    instance's ``llvm_message`` carries LLVM's reason after the category."""

    llvm_message = "unable to correlate profile"


class NotAnObjectError(CorrelationError):
    """A correlation binary that is no object file llvm-profdata (or profdata) reads."""

    llvm_message = "The file was not recognized as a valid object file"


class CorrelationMismatchError(FormatError):
    """A raw profile and its correlation input that do not belong together: the profile
    has its own data and names (``unexpected_correlation_info``), or -- profdata's
    addition, where llvm-profdata silently writes an empty profile -- it has none and
    no binary was given, or the binary's pointer width differs from the profile's."""

    llvm_message = "debug info/binary for correlation is not necessary"


class MergeError(ProfdataError):
    llvm_message = "no profile can be merged"


class UsageError(ProfdataError):
    """Options that do not fit together, or a missing input."""

    llvm_message = "invalid argument"

    def headline(self) -> str:
        return self.detail

    def __str__(self) -> str:
        return self.detail


class FileError(ProfdataError):
    """A file that cannot be opened, read or written; LLVM prints ``FILE: strerror``."""

    def headline(self) -> str:
        return f"{self.path}: {self.detail}" if self.path else self.detail

    def __str__(self) -> str:
        return self.headline()


class CommandLineError(UsageError):
    """Options argparse could not take; printed bare, as ``cl::opt`` prints them."""


class WriteError(FileError):
    """An output that cannot be written (directory missing, permissions)."""


class OutputStreamError(WriteError):
    """Standard output refused the text (a full disk, a device that takes nothing);
    llvm-profdata's stream reports it as ``IO failure on output stream: strerror``."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(f"IO failure on output stream: {cause.strerror or cause}")


class ColumnsDeclined(Exception):
    """A column reader met what only the object reader reads (no error: the caller reads
    the input the usual way, which reports any fault where LLVM does)."""
