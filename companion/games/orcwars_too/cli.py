"""ORCWARS TOO!'s command-line extras: ``companion combat|simulate|cards orcwars-too``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.games.orcwars_too.actions import GOLD
from companion.games.orcwars_too.catalog import CatalogError, load_data
from companion.games.orcwars_too.counters import STRATEGIES, STRATEGY_NAMES, GameData
from companion.games.orcwars_too.tables import damage

EXIT_INVALID = 2
MAX_PLAYERS = 6


def chips(data: GameData) -> list[dict[str, object]]:
    """Every chip of the box as JSON: the counters of the tribe cup, then the gold pile's caravans and its
    plain gold chips (one entry, ``copies`` of them: alike, a tag on each says only "gold")."""
    out: list[dict[str, object]] = [c.to_json() for c in data.counters]
    out += [
        {
            "id": c.id,
            "type": c.id,
            "kind": "caravan",
            "title": c.name,
            "route": list(c.route),
            "provenance": dict(c.provenance),
        }
        for c in data.caravans
    ]
    out.append(
        {
            "id": GOLD,
            "type": GOLD,
            "kind": "gold",
            "title": "Gold",
            "copies": data.gold_chips,
            "provenance": {"copies": data.provenance.get("gold", "the data's [gold] chips")},
        }
    )
    return out


# ---------------------------------------------------------------------------------------------- combat


def _side(text: str, flag: str) -> tuple[int, str]:
    power, _, strategy = text.partition(":")
    if not power.isdigit() or strategy not in STRATEGIES:
        raise argparse.ArgumentTypeError(
            f"{flag} is POWER:STRATEGY, a whole number and one of {', '.join(STRATEGIES)} (got {text!r})"
        )
    return int(power), strategy


def combat_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--attacker", required=True, metavar="POWER:STRATEGY", help="e.g. 23:charge")
    parser.add_argument("--defender", required=True, metavar="POWER:STRATEGY", help="e.g. 11:clever")
    parser.add_argument(
        "--fortress", type=int, default=0, metavar="RATING", help="the defender's fortress rating"
    )
    parser.add_argument(
        "--war-machine",
        type=int,
        default=0,
        metavar="POWER",
        help="the attacker's war machine against the fortress",
    )
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def combat(args: argparse.Namespace) -> int:
    """Combat step 2.2 alone (no rolls): the table, the damage each side takes, the stars, the castle."""
    try:
        attacker = _side(args.attacker, "--attacker")
        defender = _side(args.defender, "--defender")
        if args.fortress < 0 or args.war_machine < 0:
            raise argparse.ArgumentTypeError("--fortress and --war-machine are whole numbers from 0")
    except argparse.ArgumentTypeError as exc:
        print(f"companion combat: {exc}", file=sys.stderr)
        return EXIT_INVALID
    result = damage(attacker[0], attacker[1], defender[0], defender[1], args.fortress, args.war_machine)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    names = STRATEGY_NAMES
    print(
        f"Attacker power {attacker[0]} ({names[attacker[1]]}) against defender power {defender[0]} "
        f"({names[defender[1]]})" + (f" in a fortress of rating {args.fortress}" if args.fortress else "")
    )
    print(f"{result.table} table, cell {result.cell}")
    hacked = " (leader hacked to pieces if destroyed)"
    print(f"damage to the attacker: {result.damage_to_attacker}{hacked if result.attacker_hacked else ''}")
    absorbed = f", {result.absorbed} absorbed by the fortress" if result.absorbed else ""
    print(
        f"damage to the defender: {result.damage_to_defender}{absorbed}"
        f"{hacked if result.defender_hacked else ''}"
    )
    if result.castle_destroyed:
        print("the castle is destroyed")
    return 0


# -------------------------------------------------------------------------------------------- simulate


def simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=4, help=f"players per game (2-{MAX_PLAYERS})")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--turn-limit", type=int, default=6, help="each game ends after this turn at the latest"
    )
    parser.add_argument(
        "--cap", type=int, help="most actions per game before giving up (default: the simulator's own)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")


def simulate(args: argparse.Namespace) -> int:
    from companion.games.orcwars_too.simulate import simulate as play

    if not 2 <= args.players <= MAX_PLAYERS or not 1 <= args.turn_limit <= 99:
        print(
            f"companion simulate: ORCWARS TOO! is for 2 to {MAX_PLAYERS} players, a turn limit from 1 to 99",
            file=sys.stderr,
        )
        return EXIT_INVALID
    if args.games < 1 or (args.cap is not None and args.cap < 1):
        print("companion simulate: --games and --cap must be at least 1", file=sys.stderr)
        return EXIT_INVALID
    capped = {} if args.cap is None else {"cap": args.cap}
    figures = play(args.players, args.games, args.seed, turn_limit=args.turn_limit, **capped)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 1 if figures["invariant_violations"] else 0


# ----------------------------------------------------------------------------------------------- cards


def cards_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list of the chips")
    parser.add_argument("--data", type=Path, metavar="TOML", help="the owner's overrides file")


def cards(args: argparse.Namespace) -> int:
    try:
        data = load_data(args.data)
    except CatalogError as exc:
        print(f"companion cards: {exc}", file=sys.stderr)
        return EXIT_INVALID
    listed = chips(data)
    if args.json:
        print(json.dumps(listed, indent=2, ensure_ascii=False))
        return 0
    header = f"{'id':<24} {'kind':<12} {'title':<32} {'race':<10} {'power':>5} {'surv':>4}  native/home"
    print(header)
    print("-" * len(header))
    for c in data.counters:
        surv = str(c.survivability) if c.survivability else ""
        power = c.power or ""
        print(f"{c.id:<24} {c.kind.value:<12} {c.name:<32} {c.race:<10} {power:>5} {surv:>4}  {c.native}")
    for caravan in data.caravans:
        route = " > ".join(caravan.route)
        print(f"{caravan.id:<24} {'caravan':<12} {caravan.name:<32} {'':<10} {'':>5} {'':>4}  {route}")
    invented = sum(1 for c in data.counters if "invented starter value" in " ".join(c.provenance.values()))
    print(f"{len(data.counters)} counters, {len(data.caravans)} caravans, {data.gold_chips} gold chips")
    if invented:
        print(f"{invented} counters still carry invented starter values: correct them from your box (--data)")
    return 0
