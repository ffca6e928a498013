"""Shattered Chaos's command-line extras: ``companion score LAYOUT.json`` (the final evaluation),
``companion odds|cards|simulate shattered-chaos``. ``--catalog TOML`` names the table's overrides file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.engine import JSON
from companion.games.shattered_chaos.catalog import Catalog, CatalogError, bonus_text
from companion.games.shattered_chaos.data_loading import default_catalog, load_catalog
from companion.games.shattered_chaos.evaluation import EvaluationError, evaluate, parse_layout

GAME = "shattered-chaos"
EXIT_INVALID = 2
MAX_GAMES = 100_000


def _catalog(path: Path | None, command: str) -> Catalog | None:
    try:
        return default_catalog() if path is None else load_catalog(overrides=path)
    except CatalogError as exc:
        print(f"companion {command}: {exc}", file=sys.stderr)
        return None


def _catalog_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--catalog", type=Path, metavar="TOML", help="the table's Shattered Chaos overrides file"
    )


# ------------------------------------------------------------------------------------------ score


def score_arguments(parser: argparse.ArgumentParser) -> None:
    _catalog_flag(parser)


def score(args: argparse.Namespace) -> int:
    """The final evaluation of ``args.layout_data`` (the layout file, read as JSON by ``companion score``):
    ``{"damage", "spaces", "final_round", "section", "draw", "keep"}`` with the values that are the owner's
    to correct (``owner_values``) and where each comes from (``provenance``)."""
    catalog = _catalog(getattr(args, "catalog", None), "score")
    if catalog is None:
        return EXIT_INVALID
    try:
        adventurers, round_number, party, lost = parse_layout(catalog, args.layout_data)
        result = evaluate(catalog, adventurers, round_number, party, lost)
    except EvaluationError as exc:
        print(f"companion score: {exc}", file=sys.stderr)
        return EXIT_INVALID
    print(json.dumps({"game": GAME, **result.to_json()}, indent=2, ensure_ascii=False))
    return 0


# ------------------------------------------------------------------------------------------- odds


def odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--distance", type=int, required=True, help="spaces between the adventurer and the enemy"
    )
    parser.add_argument("--adventurer", help="the attacking adventurer (their printed talent counts)")
    parser.add_argument("--armor", type=int, default=0, help="the enemy's armour")
    parser.add_argument("--json", action="store_true", help="print the odds as one JSON object")
    _catalog_flag(parser)


def odds(args: argparse.Namespace) -> int:
    from companion.games.shattered_chaos.odds import adventurer_odds

    catalog = _catalog(args.catalog, "odds")
    if catalog is None:
        return EXIT_INVALID
    if not 1 <= args.distance <= 30 or not 0 <= args.armor <= 30:
        print("companion odds: --distance is 1 to 30 spaces, --armor 0 to 30", file=sys.stderr)
        return EXIT_INVALID
    try:
        name = None if args.adventurer is None else catalog.adventurer_named(args.adventurer).name
    except KeyError:
        known = ", ".join(a.name for a in catalog.adventurers)
        print(f"companion odds: {args.adventurer[:40]!r} is not an adventurer ({known})", file=sys.stderr)
        return EXIT_INVALID
    figures = adventurer_odds(catalog, name, args.distance, args.armor)
    out = {"adventurer": name, "armor": args.armor, **figures.to_json()}
    if args.json:
        print(json.dumps(out))
        return 0
    who = name or "An adventurer without a talent"
    print(f"{who} attacking an enemy {args.distance} spaces away with {args.armor} armour")
    print(
        f"reaches: {float(figures.reach):.2%}   stuns: {float(figures.stun):.2%}   "
        f"critical hit: {float(figures.critical):.2%}"
    )
    print(f"expected damage after armour: {float(figures.expected_damage):.3f}")
    for damage, chance in enumerate(figures.damage):
        print(f"  {damage:2} damage: {float(chance):7.2%}")
    return 0


# ------------------------------------------------------------------------------------------ cards


def card_catalog(path: Path | None) -> list[dict[str, JSON]]:
    """The adventurer cards and every chaos card, bronze, silver and gold, as JSON objects."""
    cat = default_catalog() if path is None else load_catalog(overrides=path)
    out: list[dict[str, JSON]] = []
    for hero in cat.adventurers:
        talent = cat.talent(hero.talent)
        out.append(
            {
                "id": hero.id,
                "title": hero.name,
                "kind": "adventurer",
                "motto": hero.motto,
                "talent": talent.title,
                "start_life": hero.start_life,
                "max_life": hero.max_life,
                "ledger": hero.ledger,
                "provenance": dict(hero.provenance),
            }
        )
    for bronze in cat.bronze():
        for value in ("b", "s", "g"):
            card = cat.card(f"{value}{bronze.number}")
            out.append(
                {
                    "id": card.id,
                    "title": card.title,
                    "kind": "chaos card",
                    "stack": card.stack,
                    "value": card.value,
                    "bonus": card.bonus,
                    "amount": card.amount,
                    "text": bonus_text(card.bonus, card.amount),
                    "provenance": card.provenance,
                }
            )
    return out


def cards_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list of the cards")
    _catalog_flag(parser)


def cards(args: argparse.Namespace) -> int:
    try:
        listed = card_catalog(args.catalog)
    except CatalogError as exc:
        print(f"companion cards: {exc}", file=sys.stderr)
        return EXIT_INVALID
    if args.json:
        print(json.dumps(listed, indent=2, ensure_ascii=False))
        return 0
    for card in listed:
        if card["kind"] == "adventurer":
            print(
                f"{card['id']:<10} {card['title']:<10} "
                f"life {card['start_life']}/{card['max_life']}  {card['talent']}"
            )
    for card in listed:
        if card["kind"] == "chaos card" and card["value"] == "bronze":
            print(f"{card['id']:<10} {card['stack']:<10} {card['title']}")
    print(f"{len(listed)} cards (silver and gold: companion cards shattered-chaos --json)")
    return 0


# --------------------------------------------------------------------------------------- simulate


def simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--adventurers", type=int, choices=(4, 5), default=None, help="party size (default: 4 and 5 in turn)"
    )
    parser.add_argument("--cap", type=int, default=20000, help="most actions per adventure before giving up")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")


def simulate(args: argparse.Namespace) -> int:
    from companion.games.shattered_chaos.simulate import simulate as play

    if args.games < 1 or args.cap < 1:
        print("companion simulate: --games and --cap must be at least 1", file=sys.stderr)
        return EXIT_INVALID
    if args.games > MAX_GAMES:
        print(f"companion simulate: --games must be at most {MAX_GAMES}", file=sys.stderr)
        return EXIT_INVALID
    figures = play(args.games, args.seed, adventurers=args.adventurers, cap=args.cap)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 1 if figures["invariant_violations"] else 0
