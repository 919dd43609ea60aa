"""MemProf in ``llvm-profdata merge``: what the writer carries and the options.

LLVM's ``loadInput`` takes MemProf data only from raw ``.memprofraw`` inputs
(not supported here) and, in LLVM 20+, MemProf YAML; an indexed input
contributes its flags (so the output has a MemProf section) but not its
MemProf records, and the section is then written empty.  Records of one
function from several inputs are merged as ``IndexedMemProfRecord::merge``
does: the allocation sites are appended, the call sites of the first kept (but
see :func:`add_input_memprof` for what LLVM 22 really keeps).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from profdata.errors import (
    FormatError,
    ProfdataError,
)
from profdata.formats import open_instr
from profdata.formats.memprof_magic import MEMPROF_RAW_MAGIC, is_memprof_raw, is_memprof_yaml
from profdata.model.counters import U64_MAX
from profdata.model.instr import InstrProfile
from profdata.releases import Release

# the MemProf model and readers are imported where MemProf data comes: every merge passes
# each input through here, and most inputs hold none
if TYPE_CHECKING:
    from profdata.model.glibc_random import GlibcRandom
    from profdata.model.memprof import AllocSite, MemProfData


def add_input_memprof(
    dest: MemProfData, incoming: MemProfData, hotness: GlibcRandom | None = None
) -> None:
    """``InstrProfWriter::addMemProfData`` of LLVM 22, quirk included.

    Into an empty writer the input's frames, call stacks and records are
    moved.  Into a writer that already has frames, LLVM's loop returns as soon
    as one frame is added or found equal (``if (addMemProfFrame(...)) return
    false``): only the input's first frame is taken, nothing else.
    """
    if incoming.is_empty():
        return
    if dest.frames:
        for fid, frame in incoming.frames.items():
            existing = dest.frames.setdefault(fid, frame)
            if existing == frame:
                return
    else:
        dest.frames.update(incoming.frames)
    if dest.call_stacks:
        for cs_id, stack in incoming.call_stacks.items():
            if dest.call_stacks.setdefault(cs_id, stack) == stack:
                return
    else:
        dest.call_stacks.update(incoming.call_stacks)
    _add_records(dest, incoming, hotness)


def merge_writer_memprof(
    dest: MemProfData, src: MemProfData, hotness: GlibcRandom | None = None
) -> None:
    """``mergeRecordsFromWriter``: frames and call stacks by id (a conflicting id stops
    the merge), then every record, a repeated GUID appending its allocation sites."""
    for fid, frame in src.frames.items():
        if dest.frames.setdefault(fid, frame) != frame:
            return
    for cs_id, stack in src.call_stacks.items():
        if dest.call_stacks.setdefault(cs_id, stack) != stack:
            return
    _add_records(dest, src, hotness)


def _add_records(
    dest: MemProfData, incoming: MemProfData, hotness: GlibcRandom | None = None
) -> None:
    """``addMemProfRecord`` for each record (``IndexedMemProfRecord::merge``); with
    ``hotness`` each allocation context is first made cold or not cold by ``rand() % 2``,
    in record and site order, every time a record is added (a context folded from
    another writer context is drawn again)."""
    from profdata.model.memprof import MemProfRecord

    for guid, record in incoming.records.items():
        sites = record.alloc_sites
        if hotness is not None:
            sites = [_random_hotness(site, hotness.rand() % 2 == 1) for site in sites]
        existing = dest.records.get(guid)
        if existing is None:
            dest.records[guid] = MemProfRecord(list(sites), list(record.call_sites))
        else:
            existing.alloc_sites.extend(sites)


def _random_hotness(site: AllocSite, cold: bool) -> AllocSite:
    """The lifetime access density and lifetime ``getAllocType`` reads as cold (0 and
    2**64-1) or as not cold (2**64-1 and 0)."""
    from profdata.model.memprof import MIB_ID, AllocSite, MemInfoBlock

    values = dict(site.info.values)
    values[MIB_ID["TotalLifetimeAccessDensity"]] = 0 if cold else U64_MAX
    values[MIB_ID["TotalLifetime"]] = U64_MAX if cold else 0
    return AllocSite(site.call_stack_id, MemInfoBlock(values))


def memprof_input_error(profile: InstrProfile, release: Release) -> ProfdataError | None:
    """The error ``release``'s reader gives for an indexed input's MemProf header, if any.

    LLVM checks the MemProf version and schema when it opens an indexed
    profile, so such an input fails to load even though merge drops its
    MemProf data.
    """
    if profile.format != "indexed":
        return None
    from profdata.formats.indexed import IndexedProfile

    if not isinstance(profile, IndexedProfile) or profile.memprof_range is None:
        return None
    from profdata.formats.memprof import check_memprof_header, rules_for  # only now needed

    try:
        check_memprof_header(profile.table.data, profile.memprof_range[0], rules_for(release))
    except ProfdataError as exc:
        return exc
    return None


def check_memprof_input(profile: InstrProfile, release: Release, path: str) -> None:
    """Raise :func:`memprof_input_error`'s error for ``path``, if any: what every command
    that opens an indexed profile meets (``show``, ``overlap``, ``order``)."""
    error = memprof_input_error(profile, release)
    if error is not None:
        raise error.with_path(path)


def load_memprof_input(path: str) -> InstrProfile | None:
    """A MemProf YAML input read as such, or None for any other file.

    The file is opened once: its first bytes decide, and a YAML file is read
    on from there; anything else (or a file that cannot be read) is left to
    the instrumentation readers.  A raw ``.memprofraw`` profile is refused by
    name: turning it into MemProf records means symbolizing its addresses
    against the profiled binary (``--profiled-binary``), which profdata does
    not do.
    """
    try:
        with open(path, "rb") as fh:
            prefix = fh.read(len(MEMPROF_RAW_MAGIC))
            contents = prefix + fh.read() if is_memprof_yaml(prefix) else prefix
    except OSError:
        return None
    if is_memprof_raw(prefix):
        from profdata.formats.memprof import raw_memprof_refused

        raise raw_memprof_refused(path)
    if not is_memprof_yaml(prefix):
        return None
    from profdata.formats.memprof_yaml import memprof_yaml_profile

    return memprof_yaml_profile(contents, path)


def checked_input(
    loaded: InstrProfile | ProfdataError, path: str, release: Release
) -> InstrProfile | ProfdataError:
    """An input as ``release``'s ``loadInput`` sees it, MemProf-wise.

    Releases before 20 have no YAML reader and read such a file as a text
    profile; an empty YAML profile fails (``The profile is empty.``); an
    indexed input fails if its MemProf header does not read.
    """
    if not isinstance(loaded, InstrProfile):
        return loaded
    if loaded.format == "memprof-yaml":
        if not release.memprof_yaml_input:
            try:
                return open_instr(path)
            except ProfdataError as exc:
                return exc
        if loaded.memprof is None or not loaded.memprof.records:
            from profdata.formats.memprof_yaml import EMPTY_PROFILE

            return FormatError("no HeapProfileRecords", path=path, llvm_message=EMPTY_PROFILE)
        return loaded
    error = memprof_input_error(loaded, release)
    return loaded if error is None else error.with_path(path)


def merged_memprof(
    dest: MemProfData | None,
    incoming: MemProfData | None,
    *,
    from_writer: bool = False,
    hotness: GlibcRandom | None = None,
) -> MemProfData | None:
    """The writer's MemProf data after adding an input's, or (``from_writer``) another
    writer context's."""
    if incoming is None or incoming.is_empty():
        return dest
    from profdata.model.memprof import MemProfData

    result = dest if dest is not None else MemProfData()
    if from_writer:
        merge_writer_memprof(result, incoming, hotness)
    else:
        add_input_memprof(result, incoming, hotness)
    return result
