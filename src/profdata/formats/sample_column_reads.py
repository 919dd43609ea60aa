"""Any sample profile a column reader takes, read into :class:`ProfileColumns`.

The column readers live in two modules (the binary walk in
``sample_columns``, the text scan in ``sample_text_columns``, which builds on
the first); ``merge --sample`` and ``show --sample`` both pick one by the
detected format, so the choice is made here once.
"""

from __future__ import annotations

from collections.abc import Callable

from profdata.errors import ProfdataError
from profdata.formats.sample_columns import ProfileColumns, read_binary_columns, read_columns
from profdata.formats.sample_registry import detect
from profdata.formats.sample_text_columns import read_text_columns
from profdata.model.sample import SampleProfile
from profdata.releases import Release

ColumnRead = tuple[SampleProfile, ProfileColumns | None]

COLUMN_READERS: dict[str, Callable[[memoryview, str | None, Release], ColumnRead | None]] = {
    "extbinary": read_columns,
    "binary": read_binary_columns,
    "text": read_text_columns,
}


def read_sample_columns(view: memoryview, path: str | None, release: Release) -> ColumnRead | None:
    """The profile's flags and other sections, and its function profiles as columns
    (``None`` columns: an ext-binary profile without profiles); ``None`` when the
    format has no column reader or the reader declines (the object reader decides)."""
    try:
        reader = COLUMN_READERS.get(detect(view, release, path).name)
    except ProfdataError:
        return None
    return None if reader is None else reader(view, path, release)


__all__ = ["COLUMN_READERS", "ColumnRead", "read_sample_columns"]
