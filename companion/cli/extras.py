"""The games' command-line extras: ``companion <command> <game> [flags]`` for every command a game
bundle declares (``cards``, ``simulate``, ``odds``...). The game's own flags are parsed by a parser the
bundle fills, so ``companion odds heroscape --help`` lists exactly what HeroScape takes."""

from __future__ import annotations

import argparse
import functools
import sys

from companion.bundle import GameBundle, load
from companion.games import bundles

HANDLED_ELSEWHERE = frozenset({"score"})
"""``companion score LAYOUT.json`` finds its game in the layout file (companion.cli.score)."""
EXIT_INVALID = 2


def games_with(command: str) -> list[str]:
    return [b.name for b in bundles().values() if b.command(command) is not None]


def register(subparsers: argparse._SubParsersAction) -> None:
    commands: dict[str, str] = {}
    for bundle in bundles().values():
        for command in bundle.commands:
            commands.setdefault(command.name, command.help)
    for name in sorted(set(commands) - HANDLED_ELSEWHERE):
        games = ", ".join(games_with(name))
        parser = subparsers.add_parser(
            name,
            help=f"{commands[name]} ({games})",
            description=commands[name],
            epilog=games_flags(name),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.add_argument("game", help=f"the game ({games}); its flags follow it")
        parser.add_argument("flags", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        parser.set_defaults(func=functools.partial(run, name))


def game_parser(name: str, bundle: GameBundle) -> argparse.ArgumentParser:
    command = bundle.command(name)
    assert command is not None
    parser = argparse.ArgumentParser(prog=f"companion {name} {bundle.name}", description=command.help)
    load(command.arguments)(parser)
    return parser


def games_flags(name: str) -> str:
    """Each game's flags for ``companion <name> --help``: a game's own parser fills them, so they are
    listed here rather than hidden behind the game's name."""
    parts = []
    for game in games_with(name):
        try:
            usage = game_parser(name, bundles()[game]).format_help()
        except Exception:  # a game still being written must not break the others' help
            continue
        parts.append(usage.rstrip())
    return "each game's flags:\n\n" + "\n\n".join(parts)


def run(name: str, args: argparse.Namespace) -> int:
    bundle = bundles().get(args.game)
    command = bundle.command(name) if bundle is not None else None
    if bundle is None or command is None:
        known = ", ".join(games_with(name))
        print(f"companion {name}: unknown game {args.game!r} (known: {known})", file=sys.stderr)
        return EXIT_INVALID
    parser = game_parser(name, bundle)
    return int(load(command.run)(parser.parse_args(args.flags)) or 0)
