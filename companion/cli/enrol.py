"""``companion enrol``: pairs RFID tags with cards in the table's database, without the web page.

    companion enrol --uid 04A1B2C3 --card "Bozlum Pigstickers"   # one tag
    companion enrol --list                                        # what is enrolled
    companion enrol --forget 04A1B2C3
    companion enrol --deck                                        # walk the deck, tag by tag

``--deck`` reads one UID per line from standard input, which is what a USB RFID reader in keyboard
mode types (or type them by hand): it names each card in turn, takes as many tags as you tap, and
moves on at an empty line. It works while ``companion serve`` runs: the registry is its own table
in the same SQLite file, and the running table reads it fresh for every tag.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from companion.settings import SettingsError, load_settings
from companion.table.mappers import (
    GameMapper,
    UnknownCardChoiceError,
    UnknownGameMapperError,
    find_mapper,
    resolve_card,
)
from companion.table.registry import InvalidTagUidError, TagRegistry, normalise_uid

EXIT_INVALID = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("enrol", help="pair RFID tags with cards (or list / forget them)")
    parser.add_argument("--config", type=Path, help="settings file (TOML); gives the database and the game")
    parser.add_argument("--db", type=Path, help="the table's SQLite file (the event log's)")
    parser.add_argument("--game", help="the game the cards belong to (default: the configured game)")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--uid", help="tag UID to enrol (hex; separators ignored); needs --card")
    what.add_argument("--list", action="store_true", help="list enrolled tags")
    what.add_argument("--forget", metavar="UID", help="remove a tag's enrolment")
    what.add_argument("--deck", action="store_true", help="enrol tag after tag, card by card, from stdin")
    parser.add_argument("--card", help="card id or title for --uid")
    parser.add_argument("--from", dest="start", metavar="CARD", help="with --deck: start at this card")
    parser.add_argument("--json", action="store_true", help="with --list: print JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config).with_overrides(db=args.db, game=args.game)
        mapper = find_mapper(settings.game)
    except (SettingsError, UnknownGameMapperError) as exc:
        print(f"companion enrol: {exc}", file=sys.stderr)
        return EXIT_INVALID
    settings.db.parent.mkdir(parents=True, exist_ok=True)
    registry = TagRegistry.open(settings.db)
    try:
        if args.list:
            return list_tags(registry, settings.game if args.game else None, args.json, sys.stdout)
        if args.forget:
            uid = normalise_uid(args.forget)
            if not registry.forget(uid):
                print(f"companion enrol: tag {uid} was not enrolled", file=sys.stderr)
                return 1
            print(f"forgot {uid}")
            return 0
        if args.deck:
            start = resolve_card(mapper, args.start, settings.game) if args.start else None
            enrol_deck(registry, settings.game, mapper, sys.stdin, sys.stdout, start=start)
            return 0
        if not args.card:
            print("companion enrol: --uid needs --card", file=sys.stderr)
            return EXIT_INVALID
        card = resolve_card(mapper, args.card, settings.game)
        tag = registry.enrol(normalise_uid(args.uid), settings.game, card)
        print(f"{tag.uid} is {mapper.card_title(tag.card_id)} ({tag.game})")
        return 0
    except InvalidTagUidError as exc:
        print(f"companion enrol: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except UnknownCardChoiceError as exc:
        print(f"companion enrol: {exc} (see `companion cards {settings.game}`)", file=sys.stderr)
        return EXIT_INVALID
    finally:
        registry.close()


def list_tags(registry: TagRegistry, game: str | None, as_json: bool, out: TextIO) -> int:
    tags = registry.tags(game)
    if as_json:
        print(json.dumps([t.to_json() for t in tags], indent=2), file=out)
        return 0
    for tag in tags:
        when = datetime.fromtimestamp(tag.enrolled_at, UTC).strftime("%Y-%m-%d %H:%M")
        print(f"{tag.uid:<16} {tag.game:<18} {tag.card_id:<32} {when}", file=out)
    print(f"{len(tags)} tags", file=out)
    return 0


def enrol_deck(
    registry: TagRegistry,
    game: str,
    mapper: GameMapper,
    lines: TextIO,
    out: TextIO,
    start: str | None = None,
) -> int:
    """Names each card and enrols every UID read for it; an empty line moves on, ``q`` stops."""
    cards: Sequence[str] = mapper.card_ids()
    if start is not None:
        cards = cards[list(cards).index(start) :]
    enrolled = 0
    for card in cards:
        have = sum(1 for t in registry.tags(game) if t.card_id == card)
        print(
            f"{mapper.card_title(card)} ({have} enrolled): tap its tags, empty line for the next card",
            file=out,
        )
        while True:
            line = lines.readline()
            text = line.strip()
            if not line or text.casefold() == "q":
                print(f"stopped: {enrolled} tags enrolled", file=out)
                return enrolled
            if not text:
                break
            try:
                uid = normalise_uid(text)
            except InvalidTagUidError as exc:
                print(f"  {exc}: ignored", file=out)
                continue
            before = registry.lookup(uid)
            registry.enrol(uid, game, card)
            enrolled += 1
            moved = f" (was {before.card_id})" if before and before.card_id != card else ""
            print(f"  {uid} -> {mapper.card_title(card)}{moved}", file=out)
    print(f"done: {enrolled} tags enrolled", file=out)
    return enrolled
