"""``show --sample --function=NAME`` of an ext-binary profile without reading every function.

llvm-profdata reads the whole profile and then prints one function
(``showSampleProfile``); on a large ext-binary file most of our time went
into building functions nobody prints.  For the options whose output
depends only on that function, the summary section and the symbol list,
:func:`profdata.formats.sample_extbinary.read_named` builds just the named
function (still checking the others, since a fault in any of them is
llvm-profdata's error) and the same :func:`profdata.ops.show_sample.show_sample`
prints it.  Anything else (``--hot-func-list``/``--topn``, which rank every
function; JSON; other formats; files with any fault) takes the full read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from profdata.errors import ProfdataError
from profdata.formats.sample_extbinary import read_named
from profdata.formats.sample_registry import detect
from profdata.model.names import md5_hash
from profdata.releases import Release

if TYPE_CHECKING:
    from profdata.ops.show_sample import SampleShowOptions, SampleShowOutput


def takes_named_read(options: SampleShowOptions) -> bool:
    """Whether the output needs no function but the one named by ``--function``."""
    return bool(
        options.function
        and not options.all_functions
        and options.show_format == "text"
        and not options.show_sec_info_only
        and not options.hot_func_list
        and not options.topn
    )


def show_named_bytes(
    view: memoryview, path: str | None, options: SampleShowOptions, release: Release
) -> SampleShowOutput | None:
    """``show_sample_bytes`` for one named function of an ext-binary profile; ``None``
    when the full read must be taken (the caller then reads everything)."""
    if not takes_named_read(options):
        return None
    try:
        if detect(view, release, path).name != "extbinary":
            return None
    except ProfdataError:
        return None
    # The plain name, and its MD5 decimal string under which MD5 profiles list it.
    wanted = (options.function, str(md5_hash(options.function)))
    profile = read_named(view, path, release, wanted)
    if profile is None:
        return None
    from profdata.ops.show_sample import show_sample  # show_sample routes through here

    return show_sample(profile, options, release)
