"""What the table needs of the running game, from its bundle: the mapper, the zone kinds, the buttons.

The zone, settle and registry logic is the same for every game; only "what does a card on this zone
(a button, the next button) mean" differs, and that lives in each game's bundle (its ``mapper``,
``zones`` and ``buttons``: docs/bundles.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.bundle import Act, ButtonRole, Note, TableMapper, Translation, Zone, ZoneKind
from companion.games import UnknownGameError, find_bundle
from companion.names import name_key

GameMapper = TableMapper

__all__ = [
    "Act",
    "GameMapper",
    "Note",
    "TableGame",
    "Translation",
    "UnknownCardChoiceError",
    "UnknownGameMapperError",
    "find_mapper",
    "find_table_game",
    "resolve_card",
]


class UnknownGameMapperError(LookupError):
    """No table mapper is installed for that game."""


class UnknownCardChoiceError(ValueError):
    """The card named is neither an id nor a title of the game's cards."""


@dataclass(frozen=True)
class TableGame:
    """One game as the table reads it: its mapper, the zone kinds and the button roles it declares."""

    name: str
    title: str
    mapper: TableMapper
    zones: tuple[ZoneKind, ...] = ()
    buttons: tuple[ButtonRole, ...] = ()

    def zone(self, zone: Zone) -> Zone | None:
        """The configured ``zone`` as this game's zone (its own kind of that name), or None when the
        game has no such place (a HeroScape table's discard reader) or the values do not fit it."""
        kind = next((k for k in self.zones if k.name == zone.kind.name), None)
        return None if kind is None else zone.of_kind(kind)

    def button(self, name: str) -> ButtonRole | None:
        return next((role for role in self.buttons if role.name == name), None)


def find_table_game(game: str) -> TableGame:
    """The table's view of the installed game called ``game``; raises UnknownGameMapperError."""
    try:
        bundle = find_bundle(game)
        mapper = bundle.load_mapper()
    except UnknownGameError:
        mapper = None
    if mapper is None:
        raise UnknownGameMapperError(f"no table mapper for the game {game!r}")
    return TableGame(bundle.name, bundle.title, mapper, bundle.zones, bundle.buttons)


def find_mapper(game: str) -> TableMapper:
    """The table mapper of the game called ``game``; raises UnknownGameMapperError."""
    return find_table_game(game).mapper


def resolve_card(mapper: TableMapper, text: str, game: str = "") -> str:
    """A card id from an id or a printed title in any typographic spelling (case, curly quotes,
    spacing: :func:`companion.names.name_key`); raises UnknownCardChoiceError."""
    wanted = name_key(text)
    for card in mapper.card_ids():
        if wanted in (name_key(card), name_key(mapper.card_title(card))):
            return card
    raise UnknownCardChoiceError(f"{game or 'the game'} has no card {text!r}")
