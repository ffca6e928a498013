"""The web package's modules import one another without circles (issue 16.6 named commands <-> seats),
counting imports inside functions too: a circle hidden in a function is still a circle."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"


def imports_of(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module == "web":
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("web."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("web."))
    return found


def test_no_module_of_web_imports_itself_round_a_circle() -> None:
    modules = {p.stem: p for p in WEB.glob("*.py") if p.stem != "__init__"}
    graph = {name: imports_of(path) & set(modules) for name, path in modules.items()}
    circles = []

    def visit(name: str, trail: list[str]) -> None:
        for nxt in sorted(graph[name]):
            if nxt in trail:
                circles.append(" -> ".join([*trail[trail.index(nxt) :], nxt]))
            elif len(trail) < len(graph):
                visit(nxt, [*trail, nxt])

    for name in sorted(graph):
        visit(name, [name])
    assert circles == []
    assert "seats" not in graph["commands"] and "commands" not in graph["seats"]
