"""Which game mapper reads the table: the running game's bundle names it (``companion.bundle``).

The zone, settle and registry logic is the same for every game; only "what does a card on this zone
mean" differs, and that lives in each game's bundle (``companion/games/<game>/table.py``).
"""

from __future__ import annotations

from companion.bundle import Act, Note, TableMapper, Translation
from companion.games import UnknownGameError, find_bundle
from companion.names import name_key

GameMapper = TableMapper

__all__ = [
    "Act",
    "GameMapper",
    "Note",
    "Translation",
    "UnknownCardChoiceError",
    "UnknownGameMapperError",
    "find_mapper",
    "resolve_card",
]


class UnknownGameMapperError(LookupError):
    """No table mapper is installed for that game."""


class UnknownCardChoiceError(ValueError):
    """The card named is neither an id nor a title of the game's cards."""


def find_mapper(game: str) -> TableMapper:
    """The table mapper of the game called ``game``; raises UnknownGameMapperError."""
    try:
        mapper = find_bundle(game).load_mapper()
    except UnknownGameError:
        mapper = None
    if mapper is None:
        raise UnknownGameMapperError(f"no table mapper for the game {game!r}")
    return mapper


def resolve_card(mapper: TableMapper, text: str, game: str = "") -> str:
    """A card id from an id or a printed title in any typographic spelling (case, curly quotes,
    spacing: :func:`companion.names.name_key`); raises UnknownCardChoiceError."""
    wanted = name_key(text)
    for card in mapper.card_ids():
        if wanted in (name_key(card), name_key(mapper.card_title(card))):
            return card
    raise UnknownCardChoiceError(f"{game or 'the game'} has no card {text!r}")
