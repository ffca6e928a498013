"""DESIGN.md's walls: what may import what. Checked on the source, so a new module cannot slip past.

Every import counts: ``import a.b``, ``from a import b`` (``a`` and ``a.b``), relative imports
(resolved against the file's package) and imports by name at run time (``importlib.import_module``,
``__import__``, ``companion.bundle.load`` and ``"module:attribute"`` references, when the name is a
string in the code).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARDWARE_WEB_VISION = {
    "serial",
    "gpiozero",
    "cv2",
    "numpy",
    "flask",
    "werkzeug",
    "paho",
    "qrcode",
    "waitress",
}
ADAPTERS_AND_WEB = {"firmware_bridge", "hardware", "vision", "web", "mqtt_link"}
FIRST_PARTY = {"companion", *ADAPTERS_AND_WEB}
WIRING = "companion/cli"  # the entry point is the one place that wires adapters and web together
SHARED_TYPES = ("companion.engine", "companion.bundle", "companion.names")
"""What a game may import of the platform: the engine's shape, the bundle's declarations (the
``companion.bundle`` package) and how people type a name (one spelling rule for catalogs and the table)."""
PLATFORM = (
    "companion/*.py",
    "companion/bundle",
    "companion/cli",
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
THIRD_PARTY: dict[str, set[str]] = {
    "companion": set(),
    "companion/cli": {"waitress"},
    "web": {"flask", "werkzeug", "qrcode"},
    "vision": {"cv2", "numpy", "picamera2"},
    "hardware": {"gpiozero", "spidev", "bleak", "picamera2"},
    "firmware_bridge": {"serial"},
    "mqtt_link": {"paho"},
    "firmware_bridge/firmware": {"micropython", "machine", "mfrc522", "utime", "tablelogic", "tcproto"},
}
"""Libraries outside the standard library each part may import (pyproject's dependencies); the
longest matching folder wins. The firmware is MicroPython: its own flat modules and the board's."""
RUNTIME_IMPORTERS = {"import_module", "__import__", "load", "find_spec"}
REFERENCE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+:[A-Za-z_]\w*$")
"""A ``"package.module:attribute"`` reference (a bundle's engine, mapper, demo...)."""


def python_files(package: str) -> Iterator[Path]:
    if package.endswith("*.py"):
        yield from sorted((ROOT / package).parent.glob("*.py"))
    else:
        yield from sorted((ROOT / package).rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def package_of(path: Path) -> str:
    """The package a file's relative imports start from."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1])


def imported_modules(path: Path) -> set[str]:
    """Every module the file imports, fully qualified (see the module docstring)."""
    return imports_in(path.read_text(), package_of(path), str(path))


def imports_in(source: str, package: str, filename: str = "<source>") -> set[str]:
    """Every module ``source`` (a module of ``package``) imports, fully qualified."""
    tree = ast.parse(source, filename=filename)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Call):
            func = node.func
            called = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            if called in RUNTIME_IMPORTERS and node.args and isinstance(node.args[0], ast.Constant):
                names.add(str(node.args[0].value).partition(":")[0])
    names.update(text.partition(":")[0] for text in code_strings(tree) if REFERENCE.match(text))
    return {name for name in names if name}


def code_strings(tree: ast.AST) -> list[str]:
    """String constants of the code itself (values, arguments, messages), not its documentation: a
    docstring, or a string standing alone after an assignment."""
    documentation = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation
    ]


def tops(modules: set[str]) -> set[str]:
    return {module.split(".")[0] for module in modules}


def game_packages() -> set[str]:
    return {p.name for p in (ROOT / "companion" / "games").iterdir() if (p / "bundle.py").exists()}


def installed_game_names() -> list[str]:
    """Every game's registry name and package name (``chaos-marauders``, ``chaos_marauders``)."""
    packages = game_packages()
    return sorted({*packages, *(p.replace("_", "-") for p in packages)})


def game_of(module: str) -> str | None:
    """The game package a module belongs to (``companion.games.heroscape.table`` -> heroscape)."""
    parts = module.split(".")
    return (
        parts[2]
        if parts[:2] == ["companion", "games"] and len(parts) > 2 and parts[2] in game_packages()
        else None
    )


# ------------------------------------------------------------------------------------ the reader


def test_the_import_reader_sees_every_form() -> None:
    """The reader itself: each form of import it must not miss (a wall is only as good as this)."""
    probe = (
        "import importlib\n"
        "from companion.games import chaos_marauders\n"
        "from .clock import ManualClock\n"
        "from .. import games\n"
        "MAPPER = 'companion.games.heroscape.table:HeroScapeMapper'\n"
        "importlib.import_module('firmware_bridge.link')\n"
        "'''a docstring naming companion.games.x:Y is not an import'''\n"
        "NOTE = 'no game: use the control page'\n"
    )
    found = imports_in(probe, "companion.table")
    assert found == {
        "importlib",
        "companion.games",
        "companion.games.chaos_marauders",
        "companion.table.clock",
        "companion.table.clock.ManualClock",
        "companion",
        "companion.games.heroscape.table",
        "firmware_bridge.link",
    }
    assert game_of("companion.games.chaos_marauders") == "chaos_marauders"
    assert game_of("companion.games.find_bundle") is None  # the registry, not a game


# ------------------------------------------------------------------------------------- the walls


def test_core_imports_no_hardware_web_or_vision_library() -> None:
    offenders = {
        relative(path): sorted(tops(imported_modules(path)) & (HARDWARE_WEB_VISION | ADAPTERS_AND_WEB))
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
            if module.startswith("companion.games"):
                if own_game is None or game_of(module) != own_game:
                    if own_game is None and game_of(module) is None:
                        continue  # the registry's own module
                    bad.append(module)
            elif module.startswith("companion"):
                if not any(module == shared or module.startswith(f"{shared}.") for shared in SHARED_TYPES):
                    bad.append(module)
            elif module.split(".")[0] not in (*sys.stdlib_module_names, "__future__"):
                bad.append(module)
        if bad:
            offenders[relative(path)] = sorted(bad)
    assert offenders == {}


@pytest.mark.parametrize("package", sorted(p for p in ADAPTERS_AND_WEB if (ROOT / p).is_dir()))
def test_adapters_and_web_never_import_each_other(package: str) -> None:
    others = ADAPTERS_AND_WEB - {package}
    offenders = {
        relative(path): sorted(tops(imported_modules(path)) & others) for path in python_files(package)
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_third_party_libraries_only_where_they_belong() -> None:
    offenders: dict[str, list[str]] = {}
    for folder in ("companion", *sorted(ADAPTERS_AND_WEB)):
        for path in python_files(folder):
            where = relative(path)
            part = max((key for key in THIRD_PARTY if where.startswith(f"{key}/")), key=len)
            allowed = THIRD_PARTY[part] | FIRST_PARTY | set(sys.stdlib_module_names) | {"__future__"}
            bad = sorted(tops(imported_modules(path)) - allowed)
            if bad:
                offenders[where] = bad
    assert offenders == {}


def test_the_platform_names_no_game() -> None:
    """The session, table, adapters, web, CLI and shared modules reach a game only through
    ``companion.games``' registry: no import of a game's package, no game's name in their code (their
    documentation may use a game as an example)."""
    names = installed_game_names()
    offenders: dict[str, list[str]] = {}
    for package in PLATFORM:
        for path in python_files(package):
            tree = ast.parse(path.read_text(), filename=str(path))
            bad = sorted(m for m in imported_modules(path) if game_of(m) is not None)
            bad += sorted({name for text in code_strings(tree) for name in names if name in text.lower()})
            if bad:
                offenders[relative(path)] = bad
    assert offenders == {}


def test_platform_pages_styles_and_data_name_no_game() -> None:
    """The TV and phone frames draw any game and the common data serves any: what one game needs
    lives in its bundle (its screens, its data, its camera mat)."""
    names = installed_game_names()
    offenders = {}
    for folder in ("web", "companion/data", "vision", "hardware", "firmware_bridge"):
        for path in sorted((ROOT / folder).rglob("*")):
            if (
                path.suffix in {".js", ".css", ".html", ".toml", ".json", ".py"}
                and "__pycache__" not in path.parts
            ):
                if path.suffix == ".py" and folder != "web":
                    continue  # Python outside web/ is read by its code above (documentation may name games)
                text = path.read_text().lower()
                found = [name for name in names if name in text]
                if found:
                    offenders[relative(path)] = found
    assert offenders == {}
