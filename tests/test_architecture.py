"""The package's guardrails: its layers and its types.

Each check runs the project's own configuration (pyproject.toml), so a forbidden import,
a cycle or a type error anywhere fails the test suite as it fails CI.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import networkx as nx

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_the_import_contracts_are_kept() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_folder_of_code_is_a_regular_package() -> None:
    """A folder of modules without __init__.py would be invisible to the import checks."""
    for folder in (ROOT / "kingscrib").rglob("*"):
        if folder.is_dir() and any(folder.glob("*.py")):
            assert (folder / "__init__.py").is_file(), folder


def test_the_types_check() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]


def test_no_module_imports_itself_round_a_circle() -> None:
    """Imports inside functions and under TYPE_CHECKING count: a module cycle hidden in a
    function still ties the modules together."""
    graph = grimp.build_graph("kingscrib", cache_dir=None)
    imports = nx.DiGraph()
    for module in graph.modules:
        imports.add_node(module)
        for imported in graph.find_modules_directly_imported_by(module):
            imports.add_edge(module, imported)
    cycles = [sorted(c) for c in nx.strongly_connected_components(imports) if len(c) > 1]
    assert cycles == []


def test_no_two_packages_import_each_other_round_a_circle() -> None:
    """The packages one and two levels down (``kingscrib.web``, ``kingscrib.web.play``,
    ``kingscrib.web.errors``...) form a DAG too: a module of one package importing another
    package that imports it back ties the two domains together, even when no module
    does so round a circle."""
    graph = grimp.build_graph("kingscrib", cache_dir=None)
    for depth in (2, 3):
        packages = nx.DiGraph()
        for module in graph.modules:
            importer = ".".join(module.split(".")[:depth])
            for imported in graph.find_modules_directly_imported_by(module):
                target = ".".join(imported.split(".")[:depth])
                # siblings only: a package and its own parent are one thing here
                if importer != target and importer.rsplit(".", 1)[0] == target.rsplit(".", 1)[0]:
                    packages.add_edge(importer, target)
        cycles = [sorted(c) for c in nx.strongly_connected_components(packages) if len(c) > 1]
        assert cycles == [], f"depth {depth}"
