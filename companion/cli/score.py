"""``companion score LAYOUT.json``: scores a finished table from a layout file and prints the breakdown.

The layout names its game (``"game": "chaos-marauders"``); that game's bundle scores it. Exit status 2
with a one-line reason on stderr for a layout that cannot be read or scored.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.bundle import load
from companion.games import bundles

EXIT_INVALID = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("score", help="score a finished table from a layout file")
    parser.add_argument("layout", type=Path, help="layout JSON naming its game (see that game's docs)")
    parser.add_argument("--catalog", type=Path, metavar="TOML", help="the table's catalog overrides file")
    parser.set_defaults(func=run)


def scorers() -> dict[str, str]:
    """Game name -> its scoring function reference, for every game that scores layouts."""
    out = {}
    for bundle in bundles().values():
        command = bundle.command("score")
        if command is not None:
            out[bundle.name] = command.run
    return out


def run(args: argparse.Namespace) -> int:
    try:
        data = _read_json(args.layout)
    except ValueError as exc:
        print(f"companion score: {exc}", file=sys.stderr)
        return EXIT_INVALID
    known = scorers()
    game = data.get("game") if isinstance(data, dict) else None
    if not isinstance(data, dict):
        print("companion score: a layout must be a JSON object", file=sys.stderr)
        return EXIT_INVALID
    if game not in known:
        wanted = " or ".join(f'"{name}"' for name in known)
        print(f'companion score: the layout\'s "game" must be {wanted}, not {game!r}', file=sys.stderr)
        return EXIT_INVALID
    args.layout_data = data
    return int(load(known[game])(args) or 0)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise ValueError(f"{path} nests too deeply to be a layout") from None
