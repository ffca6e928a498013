"""DESIGN.md's walls: what may import what. Checked on the source, so a new module cannot slip past."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARDWARE_WEB_VISION = {"serial", "gpiozero", "cv2", "flask", "werkzeug", "paho", "qrcode"}
ADAPTERS_AND_WEB = {"firmware_bridge", "hardware", "vision", "web", "mqtt_link"}
WIRING = "companion/cli"  # the entry point is the one place that wires adapters and web together
SHARED_TYPES = {"companion.engine", "companion.bundle", "companion.names"}
"""What a game may import of the platform: the engine's shape, the bundle's declarations and how people
type a name (one spelling rule for catalogs and the table)."""
PLATFORM = (
    "companion/session",
    "companion/table",
    "companion/hall",
    "web",
    "hardware",
    "firmware_bridge",
    "vision",
    "mqtt_link",
)
"""Code that must work for every game: it finds games through the registry, never by name."""


def python_files(package: str) -> Iterator[Path]:
    yield from sorted((ROOT / package).rglob("*.py"))


def imported_top_levels(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_core_imports_no_hardware_web_or_vision_library() -> None:
    offenders = {
        relative(path): sorted(imported_top_levels(path) & (HARDWARE_WEB_VISION | ADAPTERS_AND_WEB))
        for path in python_files("companion")
        if not relative(path).startswith(WIRING)
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_games_import_only_the_standard_library_and_shared_types() -> None:
    games = ROOT / "companion" / "games"
    offenders: dict[str, list[str]] = {}
    for path in python_files("companion/games"):
        parts = path.relative_to(games).parts
        own_game = parts[0] if len(parts) > 1 else None
        bad = []
        for module in imported_modules(path):
            if module.startswith("companion.games."):
                if own_game is None or module.split(".")[2] != own_game:
                    bad.append(module)
            elif module.startswith("companion.") and module not in SHARED_TYPES:
                bad.append(module)
            elif module.split(".")[0] in {"flask", "serial", "gpiozero", "cv2", "numpy", "web", "hardware"}:
                bad.append(module)
        if bad:
            offenders[relative(path)] = sorted(bad)
    assert offenders == {}


@pytest.mark.parametrize("package", sorted(p for p in ADAPTERS_AND_WEB if (ROOT / p).is_dir()))
def test_adapters_and_web_never_import_each_other(package: str) -> None:
    others = ADAPTERS_AND_WEB - {package}
    offenders = {relative(path): sorted(imported_top_levels(path) & others) for path in python_files(package)}
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_platform_names_no_game() -> None:
    """The session, table, adapters and web reach a game only through ``companion.games``' registry."""
    offenders: dict[str, list[str]] = {}
    for package in PLATFORM:
        if not (ROOT / package).is_dir():
            continue
        for path in python_files(package):
            bad = sorted(m for m in imported_modules(path) if m.startswith("companion.games."))
            if bad:
                offenders[relative(path)] = bad
    assert offenders == {}


def test_the_web_pages_name_no_game() -> None:
    """The TV and phone frames draw any game; what one game needs lives in its bundle's screens."""
    names = [
        p.name.replace("_", "-")
        for p in (ROOT / "companion" / "games").iterdir()
        if (p / "bundle.py").exists()
    ]
    offenders = {}
    for path in sorted((ROOT / "web").rglob("*")):
        if path.suffix in {".js", ".css", ".html", ".py"}:
            text = path.read_text().lower()
            found = [name for name in names if name in text]
            if found:
                offenders[relative(path)] = found
    assert offenders == {}
