"""The web package's shape: packages by domain without import circles, the rating maths
importable without the server, and the app still reachable from ``kingscrib.web``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import grimp
import networkx as nx

ROOT = Path(__file__).resolve().parents[3]


def test_no_module_of_the_web_imports_itself_round_a_circle() -> None:
    graph = grimp.build_graph("kingscrib", include_external_packages=False)
    edges = nx.DiGraph()
    for module in graph.modules:
        if module.startswith("kingscrib.web"):
            for imported in graph.find_modules_directly_imported_by(module):
                if imported.startswith("kingscrib.web"):
                    edges.add_edge(module, imported)
    circles = [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1]
    assert circles == []


def test_the_rating_maths_import_without_the_server() -> None:
    code = ("import sys, kingscrib.web.ratings.maths; "
            "print(sorted(m for m in ('fastapi', 'sqlalchemy', 'kingscrib.web.app.factory') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_app_is_reached_from_the_package() -> None:
    from kingscrib.web import Settings, create_app
    from kingscrib.web.app import factory as app

    assert create_app is app.create_app and Settings is app.Settings


def test_the_registry_alone_holds_every_table_of_every_module() -> None:
    code = ("from kingscrib.web.app.tables import metadata; "
            "print(' '.join(sorted(metadata.tables)))")
    held = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.split()
    defined = set()
    for path in (ROOT / "kingscrib" / "web").rglob("*.py"):
        if "migrations" not in path.parts:
            defined |= set(re.findall(r'= Table\(\s*"(\w+)", metadata', path.read_text("utf-8")))
    assert len(defined) > 20
    assert sorted(defined) == held
