"""What a game's table mapper is given and answers: the live position, buttons, translations.

The table (``companion.table``) settles readings (a tag on a reader, a card the camera sighted, a
die, a button) and asks the running game's mapper what they mean, reading the engine's own values
(``LivePosition``). The mapper answers with a ``Translation``: ``Act`` (an engine action to submit,
built with the game's own action classes), ``Note`` (a line for the TV) or None (nothing to do).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.bundle.zones import Zone
from companion.engine import JSON, Action, Game, PlayerId, Prompt, Setup

# ------------------------------------------------------------------------------------- positions


@dataclass(frozen=True)
class LivePosition:
    """The game as the table reads it: the engine, its immutable state and the prompt, at ``seq``.

    Published with every view (never encoded): a mapper reads the engine's own values, not the TV's
    picture of them. ``state`` is whatever the game's engine keeps; only that game's code reads it.
    """

    seq: int = 0
    status: str = "no_game"
    """"no_game", "playing" or "finished", as the published view says."""
    game: Game | None = None
    state: Any = None
    setup: Setup | None = None

    @functools.cached_property
    def prompt(self) -> Prompt | None:
        """What the engine waits for; None when no game is being played."""
        if self.game is None or self.status != "playing":
            return None
        return self.game.prompt(self.state)

    @property
    def playing(self) -> bool:
        return self.game is not None and self.status == "playing"

    @property
    def game_name(self) -> str | None:
        """The registry name of the game being played (None when none is, or it is over)."""
        return self.game.name if self.playing and self.game is not None else None

    @functools.cached_property
    def names(self) -> dict[int, str]:
        """Seat -> player name."""
        players = self.setup.players if self.setup is not None else ()
        return {seat: player.name for seat, player in enumerate(players)}

    def name(self, seat: int) -> str:
        return self.names.get(seat, f"P{seat + 1}")

    def choice_payloads(self) -> list[tuple[str, dict[str, JSON]]]:
        """The prompt's choices as (label, action JSON)."""
        prompt, game = self.prompt, self.game
        if prompt is None or game is None:
            return []
        return [(c.label, game.format_action(c.action)) for c in prompt.choices]


NO_GAME = LivePosition()


# ---------------------------------------------------------------------------- table translations


@dataclass(frozen=True)
class Act:
    """Submit this engine action (built with the game's own action classes, so its codec formats it)."""

    action: Action
    summary: str
    """What the table did, for notices when the engine refuses: "Bozlum Pigstickers on line 2"."""
    observation: Mapping[str, JSON] | None = None
    """What the table saw, stored with the input; the table fills it in for its own readings."""
    then: Act | None = None
    """A follow-up submitted only if this one is accepted (a card drawn, then discarded at once)."""
    note: str = ""
    """A line the TV shows as the act is carried out ("Grotsnik shouted first, 3 ms ahead of Ugluk")."""

    @property
    def payload(self) -> dict[str, JSON]:
        """The action as the engine's codec formats it (the command's payload)."""
        return self.action.to_json()

    def with_observation(self, observation: Mapping[str, JSON]) -> Act:
        """This act and its follow-ups, all recording ``observation``."""
        then = self.then.with_observation(observation) if self.then else None
        return Act(self.action, self.summary, observation, then, self.note)


@dataclass(frozen=True)
class Note:
    """Do not act; tell the players this instead."""

    text: str
    level: str = "warning"


Translation = Act | Note | None
"""None: the reading needs nothing (a card lifted that the engine already moved away)."""


# -------------------------------------------------------------------------------------- buttons


@dataclass(frozen=True)
class ButtonRole:
    """A button a game gives a meaning, beyond the platform's own ``confirm``, ``undo`` and ``next``.

    A button of a ``per_seat`` role is named ``<role>:<seat>`` (``shout:2``: seat 2's shout button),
    any other ``<role>``. Presses within ``window_ms`` of the first press of the role are gathered
    and handed to the mapper together, in the order they were pressed (their own timestamps, one
    clock), so a race between players is decided by the game, fairly; ``window_ms`` 0 hands each
    press over at once.
    """

    name: str
    title: str
    per_seat: bool = True
    window_ms: int = 0
    provenance: str = ""
    """Where ``window_ms`` comes from ("assumed: ..."): it is data, like any number the rules lack."""

    def __post_init__(self) -> None:
        if not self.name or ":" in self.name or self.name in PLATFORM_BUTTONS:
            raise ValueError(f"{self.name!r} cannot name a game's button role")
        if self.window_ms < 0:
            raise ValueError(f"button role {self.name!r}: window_ms cannot be negative")


PLATFORM_BUTTONS = ("confirm", "undo", "next")
"""Button roles every game has: the table handles them without a mapper (``next`` asks
``TableMapper.next_action``)."""


@dataclass(frozen=True)
class Press:
    """One press of a game's button: by which seat (None for a table-wide button), when (seconds on
    the one clock every button source shares) and from which device ("gpio", "firmware")."""

    seat: PlayerId | None
    at: float
    source: str = "gpio"


# -------------------------------------------------------------------------------------- mappers


class TableMapper(Protocol):
    """What a card, a button or the ``next`` button at the table means for one game, read from the
    engine's state. Dice need no mapper: a die answers the prompt's ``RollRequest``."""

    def card_title(self, card_id: str) -> str:
        """The printed title; raises KeyError for a card the game does not have."""

    def card_ids(self) -> Sequence[str]:
        """Every card id, for the enrolment picker."""

    def shown_title(self, card_id: str) -> str:
        """What notices on the TV may call the card (a card the rules keep secret stays "a card")."""

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        """Card ids the engine holds in that zone (None when the zone holds no cards the engine tracks).
        A card already there as often as it lies there is not played again (a re-sync, a put-back)."""

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: Zone | None) -> Translation:
        """A card settled on a zone. ``came_from``: the zone it last lay in (None: none since the table
        started, e.g. fresh from the pile or a hand), which tells a card moving on the table (a chit
        carried from one territory to the next, a card leaving play) from a new one."""

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        """A card left a zone for longer than the removal window. A ``Note`` stays on the TV until the
        card is back, moved elsewhere, or the engine no longer holds it there (a correction)."""

    def pressed(self, role: ButtonRole, presses: Sequence[Press], position: LivePosition) -> Translation:
        """Presses of one of the game's button roles (the bundle's ``buttons``): one press, or every
        press gathered in the role's window, earliest first."""

    def next_action(self, position: LivePosition) -> Translation:
        """The "next" button: move play on (decline an optional effect, end a turn) where the game can.
        A Note lets the button step through the prompt's choices instead (``confirm`` takes one)."""


class BaseMapper:
    """A mapper's defaults: cards known by title, no card tracked in any zone, no game buttons, no
    move-on action. A game subclasses it and overrides what its table reads."""

    def __init__(self, titles: Mapping[str, str]) -> None:
        self._titles = dict(titles)

    def card_title(self, card_id: str) -> str:
        return self._titles[card_id]

    def card_ids(self) -> Sequence[str]:
        return list(self._titles)

    def shown_title(self, card_id: str) -> str:
        return self._titles[card_id]

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        return None

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: Zone | None) -> Translation:
        return Note(f"{self.shown_title(card_id)} on {zone.label(position.names)} is not read by this game")

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        return None

    def pressed(self, role: ButtonRole, presses: Sequence[Press], position: LivePosition) -> Translation:
        return Note(f"The {role.title} button does nothing now", level="info")

    def next_action(self, position: LivePosition) -> Translation:
        return Note("Nothing to move on from now: answer on the control page", level="info")
