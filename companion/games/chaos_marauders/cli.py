"""Chaos Marauders' command-line extras: ``companion cards|simulate chaos-marauders`` and the
scorer behind ``companion score LAYOUT.json``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.games.chaos_marauders.cards import Card, Catalog
from companion.games.chaos_marauders.catalog import GAME, CatalogError, load_catalog
from companion.games.chaos_marauders.result import table_result
from companion.games.chaos_marauders.scoring import ScoringError, parse_layout

EXIT_INVALID = 2
COLUMNS = ("id", "title", "colour", "symbol", "copies", "attack", "vp", "role", "machine", "ability")


# ------------------------------------------------------------------------------------------ cards


def cards_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list of cards")
    parser.add_argument("--catalog", type=Path, metavar="TOML", help="the table's catalog overrides file")


def cards(args: argparse.Namespace) -> int:
    try:
        catalog = load_catalog(overrides=args.catalog)
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


# --------------------------------------------------------------------------------------- simulate


def simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=4, help="players per game (2-4)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap", type=int, default=5000, help="most actions per game before giving up")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (speed only)")
    parser.add_argument("--replay", type=int, default=0, metavar="N", help="also time replaying N actions")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")


def simulate(args: argparse.Namespace) -> int:
    from companion.games.chaos_marauders.simulate import replay_bench
    from companion.games.chaos_marauders.simulate import simulate as play

    if not 2 <= args.players <= 4:
        print("companion simulate: Chaos Marauders is for 2 to 4 players", file=sys.stderr)
        return EXIT_INVALID
    if args.games < 1 or args.cap < 1 or args.replay < 0:
        print("companion simulate: --games and --cap must be at least 1, --replay 0 or more", file=sys.stderr)
        return EXIT_INVALID
    figures = play(args.players, args.games, args.seed, cap=args.cap, check=not args.no_check)
    if args.replay:
        figures["replay"] = replay_bench(args.replay, args.seed, args.players)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 1 if figures["invariant_violations"] else 0


# ------------------------------------------------------------------------------------------ score


def score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--catalog", type=Path, metavar="TOML", help="the table's catalog overrides file")


def score(args: argparse.Namespace) -> int:
    """Scores ``args.layout_data`` (the layout file, already read as JSON by ``companion score``)."""
    try:
        catalog = load_catalog(overrides=args.catalog)
        result = parse_layout(args.layout_data, catalog).score(catalog)
    except (ScoringError, CatalogError) as exc:
        print(f"companion score: {exc}", file=sys.stderr)
        return EXIT_INVALID
    typed = table_result(result)  # the platform's one form of a result, under a stable key
    print(
        json.dumps(
            {"game": GAME, **result.to_json(), "result": typed.to_json()}, indent=2, ensure_ascii=False
        )
    )
    return 0
