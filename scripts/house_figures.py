"""Print the figures that describe the package's shape (docs/architecture.md).

    python scripts/house_figures.py [PACKAGE_DIR]

Import cycles (strongly connected components of the module import graph, imports inside
functions included), the pairs of web packages importing each other both ways, modules
directly under kingscrib/web, the largest module and class, and the lines of the
per-engine adapters in the front ends and services.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp
import networkx as nx

# The front ends and services that adapt the engines (the engines' own users below them,
# the players and the game runners, are not adapters).
FRONT_ENDS = ("web", "terminal", "cli", "env", "spiel", "puzzles", "learn")
ENGINES = ("kings", "classic")


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    digraph = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            digraph.add_edge(module, imported)
    return [sorted(c) for c in nx.strongly_connected_components(digraph) if len(c) > 1]


def both_ways(graph: grimp.ImportGraph, package: str) -> list[tuple[str, str]]:
    """The pairs of packages (and modules) directly under ``package`` that import each
    other, each pair once."""
    depth = package.count(".") + 2
    imports = set()
    for module in graph.modules:
        parts = module.split(".")
        if not module.startswith(package + ".") or len(parts) < depth:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            target = imported.split(".")
            if imported.startswith(package + ".") and target[depth - 1] != parts[depth - 1]:
                imports.add((parts[depth - 1], target[depth - 1]))
    return sorted((a, b) for a, b in imports if (b, a) in imports and a < b)


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def largest_class(root: Path) -> tuple[str, int]:
    best = ("", 0)
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                if size > best[1]:
                    best = (f"{path.relative_to(root.parent)}::{node.name}", size)
    return best


def adapters(graph: grimp.ImportGraph, root: Path) -> tuple[int, int]:
    """The modules of the front ends and services that import an engine directly, and
    their lines."""
    package = root.name
    count = total = 0
    for module in graph.modules:
        parts = module.split(".")
        if len(parts) < 2 or parts[1] not in FRONT_ENDS:
            continue
        imported = graph.find_modules_directly_imported_by(module)
        if any(i.split(".")[1:2] and i.split(".")[1] in ENGINES for i in imported):
            path = root.parent.joinpath(*parts)
            path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
            count += 1
            total += lines(path)
    assert package == root.name
    return count, total


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "kingscrib").resolve()
    sys.path.insert(0, str(root.parent))
    graph = grimp.build_graph(root.name, cache_dir=None)
    cycles = import_cycles(graph)
    print(f"import cycles: {len(cycles)}")
    for cycle in cycles:
        print("   ", " <-> ".join(cycle))
    pairs = both_ways(graph, f"{root.name}.web")
    print(f"web sub-packages importing each other both ways: {len(pairs)}")
    for a, b in pairs:
        print(f"    {a} <-> {b}")
    web = root / "web"
    print(f"modules directly under {root.name}/web: {len(list(web.glob('*.py')))}")
    modules = sorted(root.rglob("*.py"), key=lines, reverse=True)
    print(f"largest module: {modules[0].relative_to(root.parent)} ({lines(modules[0])} lines)")
    name, size = largest_class(root)
    print(f"largest class: {name} ({size} lines)")
    count, total = adapters(graph, root)
    print(f"front-end and service modules importing an engine directly: {count} ({total} lines)")
    print(f"python lines in all: {sum(lines(p) for p in root.rglob('*.py'))}")


if __name__ == "__main__":
    main()
