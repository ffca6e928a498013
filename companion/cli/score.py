"""``companion score LAYOUT.json``: scores a finished Chaos Marauders table and prints the breakdown.

Exit status 2 with a one-line reason on stderr for a layout that cannot be scored.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.games.chaos_marauders.catalog import GAME, CatalogError, load_catalog
from companion.games.chaos_marauders.scoring import ScoringError, parse_layout

EXIT_INVALID = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("score", help="score a finished Chaos Marauders table from a layout file")
    parser.add_argument("layout", type=Path, help="layout JSON (see docs/chaos-marauders.md)")
    parser.add_argument("--catalog", type=Path, metavar="TOML", help="the table's catalog overrides file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        catalog = load_catalog(overrides=args.catalog)
        data = _read_json(args.layout)
        result = parse_layout(data, catalog).score(catalog)
    except (ScoringError, CatalogError) as exc:
        print(f"companion score: {exc}", file=sys.stderr)
        return EXIT_INVALID
    print(json.dumps({"game": GAME, **result.to_json()}, indent=2, ensure_ascii=False))
    return 0


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScoringError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ScoringError(f"{path} is not valid JSON: {exc}") from None
