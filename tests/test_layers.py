"""The import layering of DESIGN.md, checked on the source with ``ast``.

``cli -> ops -> formats -> model``: a layer imports only layers below it, so
formats never see CLI option objects and the model stays usable without any
file format.  ``errors``, ``releases``, ``atomic``, ``pieces`` (output in
pieces), ``heap`` (the command line's allocator settings) and the process
helpers ``cpus`` (idle CPUs), ``fork_policy`` (whether this process may fork
at all), ``reaping`` (forked workers' exits), ``offload`` (a part of a job in a
forked child) and ``turns`` (output written by two processes) are leaves every
layer may use; they import nothing of ours but each other.  The package root
is the public API over ops/formats/model; only ``cli`` and ``__main__`` sit
above it.  Imports under ``if TYPE_CHECKING:`` count too: a type-only import
upward is still a dependency on the upper layer's design.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "profdata"

#: Rank of each part of the package; a module may import parts of lower or equal rank.
LAYERS = {"model": 1, "formats": 2, "ops": 3, "": 4, "testing": 4, "cli": 5, "__main__": 6}
LEAVES = {"errors", "releases", "atomic", "pieces", "heap", "cpus", "fork_policy", "reaping",
          "turns", "offload"}  # fmt: skip
#: Third-party distributions the package may import (pyproject's dependencies).
THIRD_PARTY = {"numpy"}
#: Extra ones per part: the testing helpers build hypothesis strategies (a test extra);
#: the correlation readers parse ELF/DWARF with pyelftools (formats/correlate*.py); the
#: export of profiles as data frames imports pandas when asked (an optional extra), and
#: the merge on a Dask cluster dask (another).
PART_THIRD_PARTY = {
    "testing": {"hypothesis"},
    "formats": {"elftools"},
    "ops": {"pandas", "dask"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def part_of(module: str) -> str:
    """The layer a ``profdata.*`` module belongs to ("" for the package root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def is_submodule(dotted: str) -> bool:
    base = SRC.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imported_modules(path: Path) -> set[str]:
    """Absolute names of everything ``path`` imports, relative imports resolved."""
    this = module_name(path)
    package = this if path.name == "__init__.py" else this.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, node.module] if node.module else anchor)
            else:
                base = node.module or ""
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if is_submodule(candidate) else base)
    return found


SOURCES = sorted(PACKAGE.rglob("*.py"))


def _param(path: Path) -> object:
    return pytest.param(path, id=module_name(path))


def test_every_part_has_a_layer() -> None:
    parts = {part_of(module_name(p)) for p in SOURCES} - LEAVES
    assert parts <= set(LAYERS), f"add {sorted(parts - set(LAYERS))} to LAYERS in {__file__}"
    assert {"model", "formats", "cli"} <= parts


@pytest.mark.parametrize("path", [_param(p) for p in SOURCES])
def test_imports_point_down(path: Path) -> None:
    this = module_name(path)
    mine = part_of(this)
    upward = []
    for target in sorted(imported_modules(path)):
        if target.split(".")[0] != "profdata":
            continue
        theirs = part_of(target)
        if theirs in LEAVES:
            continue
        if mine in LEAVES or LAYERS[theirs] > LAYERS[mine]:
            upward.append(target)
    assert not upward, f"{this} ({mine or 'package root'}) imports upward: {upward}"


@pytest.mark.parametrize("path", [_param(p) for p in SOURCES])
def test_only_stdlib_and_declared_dependencies(path: Path) -> None:
    tops = {name.split(".")[0] for name in imported_modules(path)}
    foreign = tops - set(sys.stdlib_module_names) - THIRD_PARTY - {"profdata", "__future__", ""}
    foreign -= PART_THIRD_PARTY.get(part_of(module_name(path)), set())
    assert not foreign, f"{module_name(path)} imports {sorted(foreign)}"


def test_checker_sees_upward_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The resolver must map relative and from-imports to layers, or the checks pass vacuously."""
    fake = tmp_path / "profdata" / "formats"
    fake.mkdir(parents=True)
    (tmp_path / "profdata" / "__init__.py").write_text("")
    (tmp_path / "profdata" / "cli").mkdir()
    (tmp_path / "profdata" / "cli" / "__init__.py").write_text("")
    (tmp_path / "profdata" / "cli" / "show.py").write_text("")
    (fake / "__init__.py").write_text("")
    probe = fake / "probe.py"
    probe.write_text("from ..cli import show\nfrom profdata.cli.show import x\nimport numpy\n")
    monkeypatch.setattr(sys.modules[__name__], "SRC", tmp_path)
    assert imported_modules(probe) == {"profdata.cli.show", "numpy"}


def test_importing_the_command_line_loads_no_numpy() -> None:
    """``command_module`` caps OpenBLAS at one thread before a command imports numpy; a
    module imported with ``profdata.cli`` that loads numpy first starts a thread per core
    (0.1 s of CPU on every run, measured)."""
    import subprocess

    code = "import sys, profdata.cli; print(sorted(m for m in sys.modules if m == 'numpy'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
