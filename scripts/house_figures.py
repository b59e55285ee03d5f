"""Print the figures that describe the package's shape (docs/architecture.md).

    python scripts/house_figures.py [PACKAGE_DIR]

Import cycles (strongly connected components of the module import graph, imports inside
functions included), modules directly under kingscrib/web, the largest module and class,
and the lines of the per-engine adapters in the front ends and services.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp
import networkx as nx

# Where a front end or service adapts each engine, one module per game.
ADAPTER_PACKAGES = ("web", "terminal", "cli/terminal", "env", "spiel", "puzzles", "learn")
GAME_WORDS = ("kings", "classic", "cribbage")


def import_cycles(package: str) -> list[list[str]]:
    graph = grimp.build_graph(package, cache_dir=None)
    digraph = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            digraph.add_edge(module, imported)
    return [sorted(c) for c in nx.strongly_connected_components(digraph) if len(c) > 1]


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


def adapter_lines(root: Path) -> int:
    total = 0
    for folder in ADAPTER_PACKAGES:
        for path in (root / folder).rglob("*.py") if (root / folder).is_dir() else ():
            if any(word in path.stem for word in GAME_WORDS):
                total += lines(path)
    return total


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "kingscrib").resolve()
    sys.path.insert(0, str(root.parent))
    cycles = import_cycles(root.name)
    print(f"import cycles: {len(cycles)}")
    for cycle in cycles:
        print("   ", " <-> ".join(cycle))
    web = root / "web"
    print(f"modules directly under {root.name}/web: {len(list(web.glob('*.py')))}")
    modules = sorted(root.rglob("*.py"), key=lines, reverse=True)
    print(f"largest module: {modules[0].relative_to(root.parent)} ({lines(modules[0])} lines)")
    name, size = largest_class(root)
    print(f"largest class: {name} ({size} lines)")
    print(f"per-engine adapter modules: {adapter_lines(root)} lines")
    print(f"python lines in all: {sum(lines(p) for p in root.rglob('*.py'))}")


if __name__ == "__main__":
    main()
