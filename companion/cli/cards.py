"""``companion cards GAME``: lists a game's card catalog as a table, or as JSON with ``--json``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from companion.games.chaos_marauders.cards import Card, Catalog
from companion.games.chaos_marauders.catalog import CatalogError, load_catalog

EXIT_INVALID = 2
CATALOGS: dict[str, Callable[[Path | None], Catalog]] = {
    "chaos-marauders": lambda overrides: load_catalog(overrides=overrides),
}
COLUMNS = ("id", "title", "colour", "symbol", "copies", "attack", "vp", "role", "machine", "ability")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("cards", help="list a game's cards")
    parser.add_argument("game", help=f"game name ({', '.join(sorted(CATALOGS))})")
    parser.add_argument("--json", action="store_true", help="print a JSON list of cards")
    parser.add_argument("--catalog", type=Path, metavar="TOML", help="the table's catalog overrides file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    loader = CATALOGS.get(args.game)
    if loader is None:
        known = ", ".join(sorted(CATALOGS))
        print(f"companion cards: unknown game {args.game!r} (known: {known})", file=sys.stderr)
        return EXIT_INVALID
    try:
        catalog = loader(args.catalog)
    except CatalogError as exc:
        print(f"companion cards: {exc}", file=sys.stderr)
        return EXIT_INVALID
    if args.json:
        print(json.dumps([card.to_json() for card in catalog], indent=2, ensure_ascii=False))
    else:
        print(format_table(catalog))
    return 0


def format_table(catalog: Catalog) -> str:
    """A fixed-width table, one card title per row, with the deck size at the foot."""
    rows = [list(COLUMNS)] + [_row(card) for card in catalog]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    lines.append(f"{len(catalog)} titles, {catalog.deck_size} cards")
    return "\n".join(lines)


def _joined(cells: list[str], widths: list[int]) -> str:
    return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()


def _row(card: Card) -> list[str]:
    machine = f"{card.machine} {card.part}" if card.machine else ""
    return [
        card.id,
        card.title,
        card.colour.value,
        card.symbol or "",
        str(card.copies),
        "" if card.attack is None else str(card.attack),
        str(card.vp) if card.vp else "",
        card.role.value if card.role else "",
        machine,
        card.ability or "",
    ]
