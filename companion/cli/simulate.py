"""``companion simulate <game>``: random-play games checking the engine's invariants, with figures."""

from __future__ import annotations

import argparse
import json

GAMES = ("chaos-marauders",)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("simulate", help="play random games and check the rules engine")
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--players", type=int, default=4, help="players per game (2-4)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap", type=int, default=5000, help="most actions per game before giving up")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (speed only)")
    parser.add_argument("--replay", type=int, default=0, metavar="N", help="also time replaying N actions")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.games.chaos_marauders.simulate import replay_bench, simulate

    if not 2 <= args.players <= 4:
        raise SystemExit("Chaos Marauders is for 2 to 4 players")
    figures = simulate(args.players, args.games, args.seed, cap=args.cap, check=not args.no_check)
    if args.replay:
        figures["replay"] = replay_bench(args.replay, args.seed, args.players)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 1 if figures["invariant_violations"] else 0
