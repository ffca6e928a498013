"""HeroScape's command-line extras: ``companion odds|cards|simulate heroscape``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.games.heroscape.catalog import CatalogError, load_catalog
from companion.games.heroscape.odds import MAX_DICE, odds

EXIT_INVALID = 2


def odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--attack", type=int, required=True, help="attack dice")
    parser.add_argument("--defense", type=int, required=True, help="defense dice")
    parser.add_argument("--json", action="store_true", help="print the odds as one JSON object")


def odds_command(args: argparse.Namespace) -> int:
    if not (0 <= args.attack <= MAX_DICE and 0 <= args.defense <= MAX_DICE):
        print(f"companion odds: dice must be 0 to {MAX_DICE}", file=sys.stderr)
        return EXIT_INVALID
    figures = odds(args.attack, args.defense)
    if args.json:
        print(json.dumps({k: figures[k] for k in ("p_at_least_one", "expected", "distribution")}))
        return 0
    print(f"{args.attack} attack dice against {args.defense} defense dice")
    print(f"at least one wound: {figures['p_at_least_one']:.2%}   expected wounds: {figures['expected']:.3f}")
    for wounds, chance in enumerate(figures["distribution"]):  # type: ignore[arg-type]
        print(f"  {wounds} wound{'s' if wounds != 1 else ' '}: {chance:7.2%}")
    return 0


def cards_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list of army cards")
    parser.add_argument("--catalog", type=Path, metavar="TOML", help="the table's army card overrides file")


def cards(args: argparse.Namespace) -> int:
    try:
        catalog = load_catalog(overrides=args.catalog)
    except CatalogError as exc:
        print(f"companion cards: {exc}", file=sys.stderr)
        return EXIT_INVALID
    if args.json:
        print(json.dumps([card.to_json() for card in catalog.cards], indent=2, ensure_ascii=False))
        return 0
    stats = " ".join(f"{k:>2}" for k in "LMRAD")
    header = f"{'id':<22} {'title':<26} {stats} {'pts':>4} figs copies  powers"
    print(header)
    print("-" * len(header))
    for c in catalog.cards:
        powers = ", ".join(p.name for p in c.powers) or "(unconfirmed)"
        print(
            f"{c.id:<22} {c.title:<26} {c.life:>2} {c.move:>2} {c.range:>2} {c.attack:>2} {c.defense:>2} "
            f"{c.points:>4} {c.figures:>4} {c.copies:>6}  {powers}"
        )
    print(f"{len(catalog.cards)} army cards")
    return 0


def simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, help="players per game (2-4)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--scenario", default=None, help="one scenario (default: every one for the player count)"
    )
    parser.add_argument("--cap", type=int, default=20000, help="most actions per game before giving up")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")


def simulate(args: argparse.Namespace) -> int:
    from companion.games.heroscape.simulate import simulate as play

    if not 2 <= args.players <= 4:
        print("companion simulate: HeroScape is for 2 to 4 players", file=sys.stderr)
        return EXIT_INVALID
    if args.games < 1 or args.cap < 1:
        print("companion simulate: --games and --cap must be at least 1", file=sys.stderr)
        return EXIT_INVALID
    try:
        figures = play(args.players, args.games, args.seed, scenario=args.scenario, cap=args.cap)
    except ValueError as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return EXIT_INVALID
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 1 if figures["invariant_violations"] else 0
