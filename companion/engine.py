"""The shape every game engine shares.

A game is a pure function over immutable values: ``apply(state, action) -> (state, events)``.
It never rolls a die, reads a clock or does I/O; dice results and drawn cards arrive as actions.
At every moment the engine states what the table must do next as a :class:`Prompt`.

Simultaneous inputs (HeroScape order markers, ORCWARS strategy choices) are prompts addressed to
several players at once: each answers with their own action, the state collects the answers, and the
prompt shrinks to the players who have not answered yet. Co-operative games and enemy behaviour are
the engine's own business: enemy turns are prompts for dice, never code in the session.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import re
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, NewType, TypeVar

PlayerId = NewType("PlayerId", int)
"""A seat at the table, counted clockwise from the first player (0, 1, 2, ...)."""

JSON = Any
"""A value that ``json.dumps`` accepts."""


class ActionError(ValueError):
    """An action the engine refuses; the message is meant for the players."""


class MalformedActionError(ActionError):
    """The action is not well formed: unknown kind, missing or mistyped field."""


class IllegalActionError(ActionError):
    """The action is well formed, but the rules forbid it in this position."""


class SetupError(ValueError):
    """A new game cannot start with this setup (player count, names, options)."""


def data_digest(raw: bytes) -> str:
    """A short name for an owner's data file, part of the rules version of an engine that uses it."""
    return hashlib.sha256(raw).hexdigest()[:12]


@dataclass(frozen=True)
class SetupOption:
    """One choice a game offers when a new game starts (scenario, army mode...), as data for the
    control page's new-game form. ``kind`` is "choice" (one of ``choices``), "int", "bool", "text" or
    "per_seat": one of ``choices`` for each seat (the adventurer each player plays), given as a list in
    seat order, as long as the players; its ``default`` is such a list (or None: the choices in turn).
    ``distinct``: a per-seat choice is each seat's alone (one adventurer per player): the form swaps two
    seats' choices rather than offer the same one twice.
    """

    name: str
    label: str
    kind: str = "choice"
    choices: tuple[tuple[JSON, str], ...] = ()
    """(value, label) pairs for a "choice"."""
    default: JSON = None
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    distinct: bool = False

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "choices": [{"value": v, "label": label} for v, label in self.choices],
            "default": self.default,
            "help": self.help,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "distinct": self.distinct,
        }


@dataclass(frozen=True)
class Player:
    """Someone at the table."""

    name: str
    colour: str = "#888888"

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "colour": self.colour}


@dataclass(frozen=True)
class Setup:
    """What a new game starts from: the game's name, the players in seat order, game options."""

    game: str
    players: tuple[Player, ...]
    options: tuple[tuple[str, JSON], ...] = ()

    def option(self, name: str, default: JSON = None) -> JSON:
        return dict(self.options).get(name, default)

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "players": [p.to_json() for p in self.players],
            "options": dict(self.options),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Setup:
        try:
            players = tuple(
                Player(name=str(p["name"]), colour=str(p.get("colour", "#888888"))) for p in data["players"]
            )
            options = tuple(sorted(dict(data.get("options") or {}).items()))
            setup = cls(game=str(data["game"]), players=players, options=options)
        except (KeyError, TypeError, AttributeError) as exc:
            raise SetupError(f"a setup needs a game name and a list of players with names ({exc})") from exc
        for seat, player in enumerate(setup.players, start=1):
            if not is_colour(player.colour):
                # Screens paint with it (a CSS value): only a plain colour, never text that CSS would read.
                shown = player.colour[:20]
                raise SetupError(f"player {seat}'s colour {shown!r} is not a colour like #e23b3b")
        return setup


_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")


def is_colour(text: str) -> bool:
    """True for a colour as ``#rrggbb`` (what a colour picker gives) or ``#rgb``: the forms players'
    colours take."""
    return _COLOUR.fullmatch(text) is not None


class Action:
    """Base of every game's actions: frozen dataclasses with a ``kind`` name.

    Subclasses are ``@dataclass(frozen=True)`` with fields of plain JSON-able types; an
    :class:`ActionCodec` turns them into JSON objects and back (``{"kind": "place", ...}``).
    """

    kind: ClassVar[str]

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"kind": self.kind}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            out[f.name] = _to_json_value(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class Roll(Action):
    """Dice rolled at the table, answering a roll prompt. Faces are the game's symbols ("eye", "mark")."""

    kind: ClassVar[str] = "roll"
    player: PlayerId
    die: str
    faces: tuple[str, ...]


A = TypeVar("A", bound=Action)


class ActionCodec:
    """Parses and formats a game's actions by their ``kind`` (``parse`` / ``format`` are paired)."""

    def __init__(self, *classes: type[Action]) -> None:
        self._classes: dict[str, type[Action]] = {}
        for cls in classes:
            if cls.kind in self._classes:
                raise ValueError(f"two action classes share the kind {cls.kind!r}")
            self._classes[cls.kind] = cls
        self._hints = {kind: typing.get_type_hints(cls) for kind, cls in self._classes.items()}

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._classes)

    def format(self, action: Action) -> dict[str, JSON]:
        return action.to_json()

    def parse(self, data: JSON) -> Action:
        if not isinstance(data, Mapping):
            raise MalformedActionError("an action must be a JSON object with a 'kind'")
        kind = data.get("kind")
        cls = self._classes.get(kind) if isinstance(kind, str) else None
        if cls is None:
            known = ", ".join(sorted(self._classes))
            raise MalformedActionError(f"unknown action kind {kind!r} (known: {known})")
        hints = self._hints[kind]
        values: dict[str, Any] = {}
        names = set()
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            names.add(f.name)
            if f.name not in data:
                if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                    continue
                raise MalformedActionError(f"action {kind!r} needs the field {f.name!r}")
            values[f.name] = _coerce(data[f.name], hints[f.name], f"{kind}.{f.name}")
        extra = set(data) - names - {"kind"}
        if extra:
            raise MalformedActionError(f"action {kind!r} has unknown fields: {', '.join(sorted(extra))}")
        return cls(**values)


def _to_json_value(value: Any) -> JSON:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_to_json_value(v) for v in value]
    return value


def _coerce(value: Any, hint: Any, where: str) -> Any:
    """Checks a JSON value against a field's type hint; raises MalformedActionError with the path."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            if arg is type(None) and value is None:
                return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(value, arg, where)
            except MalformedActionError:
                continue
        raise MalformedActionError(f"{where}: {value!r} is not a valid value")
    if origin is typing.Literal:
        if value in args:
            return value
        raise MalformedActionError(f"{where}: {value!r} is not one of {', '.join(map(repr, args))}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise MalformedActionError(f"{where}: expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise MalformedActionError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_coerce(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args, strict=True)))
    supertype = getattr(hint, "__supertype__", None)  # NewType
    if supertype is not None:
        return _coerce(value, supertype, where)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            options = ", ".join(repr(m.value) for m in hint)
            raise MalformedActionError(f"{where}: {value!r} is not one of {options}") from None
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise MalformedActionError(f"{where}: expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise MalformedActionError(f"{where}: expected a whole number, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise MalformedActionError(f"{where}: expected text, got {value!r}")
    raise TypeError(f"{where}: the codec cannot handle the type {hint!r}")


@dataclass(frozen=True)
class Event:
    """Something that happened, in the past tense (``CardPlaced``), with a sentence for the TV."""

    kind: str
    text: str
    data: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}


class DicePolicy(enum.StrEnum):
    """How the dice of one roll request are thrown at the table (part of the request, so the table
    asks no game-specific hook)."""

    TOGETHER = "together"
    """All ``count`` dice are thrown at once: the table gathers that many results (each within
    ``roll_window_ms`` of the previous) into one ``Roll`` (a HeroScape attack)."""
    ONE_BY_ONE = "one_by_one"
    """Each die read is a ``Roll`` of one face, submitted at once; the engine counts the request down
    (Chaos Marauders: one Cube thrown six times for the Idol)."""


@dataclass(frozen=True)
class RollRequest:
    """The dice a prompt waits for: which die (by the game's data id), how many, which faces, and how
    they are thrown (``policy``).

    ``dice`` asks for different dice thrown together (Shattered Chaos: a yellow, a red and a blue
    die): the game die id of each, in the order the ``Roll``'s faces list their results; ``count``
    is then its length and ``die`` names the throw ("attack"). ``faces`` lists every face the
    request accepts (of any of its dice).

    Addressed to several players (``Prompt.players``), a die read at the table goes to the seat it
    belongs to (given from a phone: docs/table.md, "Whose die is which") when that seat is asked; a
    die nobody owns goes to the first player the prompt still waits for who has no die of their own:
    an engine that wants every player's roll shrinks the prompt as each one answers.

    ``anyone``: the throw is the table's, not one player's (a co-operative game's enemy attacking: the
    dice are thrown for the enemy): any die read at the table answers it, whoever it belongs to, and
    any phone may enter it; the ``Roll`` is for the prompt's first player. The engine says so in
    ``Game.actor`` too (None: anyone may enter it).
    """

    die: str
    count: int
    faces: tuple[str, ...]
    policy: DicePolicy = DicePolicy.TOGETHER
    dice: tuple[str, ...] = ()
    anyone: bool = False

    def __post_init__(self) -> None:
        if self.dice and len(self.dice) != self.count:
            raise ValueError(f"a roll of {len(self.dice)} different dice has count {len(self.dice)}")
        if self.dice and self.policy is DicePolicy.ONE_BY_ONE:
            raise ValueError("different dice are thrown together: one_by_one takes one die")

    def die_at(self, index: int) -> str:
        """The game die id of the ``index``-th die of the roll (every die the same unless ``dice``)."""
        return self.dice[index] if self.dice else self.die

    def to_json(self) -> dict[str, JSON]:
        return {
            "die": self.die,
            "count": self.count,
            "faces": list(self.faces),
            "policy": self.policy.value,
            "dice": list(self.dice),
            "anyone": self.anyone,
        }


@dataclass(frozen=True)
class Choice:
    """One answer to a prompt, with a label a player understands."""

    label: str
    action: Action

    def to_json(self) -> dict[str, JSON]:
        return {"label": self.label, "action": self.action.to_json()}


@dataclass(frozen=True)
class Prompt:
    """What the table must do next, and for whom.

    ``players`` lists everyone whose answer is awaited (several at once for simultaneous choices).
    ``choices`` enumerates the answers where they are few; it is empty where the answer is an open
    input such as "draw a card" (any card still in the draw pile). ``roll`` says which dice to roll.
    """

    kind: str
    players: tuple[PlayerId, ...]
    text: str
    choices: tuple[Choice, ...] = ()
    roll: RollRequest | None = None

    def to_json(self) -> dict[str, JSON]:
        return {
            "kind": self.kind,
            "players": list(self.players),
            "text": self.text,
            "choices": [c.to_json() for c in self.choices],
            "roll": self.roll.to_json() if self.roll else None,
        }


@dataclass(frozen=True)
class GameType:
    """What kind of game this is, so the platform never guesses from a game's name (OpenSpiel's
    ``GameType``): the web, the TV frame and the hall read these flags."""

    cooperative: bool = False
    """The players win or lose together against the game (Shattered Chaos): one outcome for all."""
    simultaneous_moves: bool = False
    """Some prompts wait on several players' answers at once (order markers, secret strategies)."""
    hidden_information: bool = False
    """Some actions or values are secret while the game runs (``private_view``, ``secret_action``)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "cooperative": self.cooperative,
            "simultaneous_moves": self.simultaneous_moves,
            "hidden_information": self.hidden_information,
        }


@dataclass(frozen=True)
class Standing:
    """One seat's place in a result: ``rank`` 1 is first, equal ranks are tied; ``points`` are the game's
    own points (Chaos Marauders VP, HeroScape points destroyed), None where the game has none."""

    seat: PlayerId
    name: str
    rank: int
    points: float | None = None
    details: Mapping[str, JSON] = field(default_factory=dict)
    """The game's own breakdown for this seat (lines and bonuses, figures destroyed...)."""
    team: int | None = None
    """The seat's team in a team game (HeroScape's teams): teammates winning together is no tie."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "name": self.name,
            "rank": self.rank,
            "points": self.points,
            "details": dict(self.details),
            "team": self.team,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Standing:
        points, team = data.get("points"), data.get("team")
        return cls(
            seat=PlayerId(int(data["seat"])),
            name=str(data["name"]),
            rank=int(data["rank"]),
            points=None if points is None else float(points),
            details=dict(data.get("details") or {}),
            team=None if team is None else int(team),
        )


@dataclass(frozen=True)
class GameResult:
    """A game's result in the one typed form that ``companion score``, the final scoreboard and the hall
    read. ``final`` is false while the game runs: the standings are then "if the game ended now".

    Competitive games rank every seat; ``winners`` are the seats ranked 1 (several: a tie, unless
    they are one team), none in a game nobody won (every seat then ranks 1). A co-operative game
    (``GameType.cooperative``) ranks every seat 1 and its ``outcome`` says whether the party won;
    ``winners`` then lists every seat on a win and none on a defeat; the final screens rank nobody then
    and show the ``summary`` (the party's evaluation).
    """

    final: bool
    winners: tuple[PlayerId, ...]
    standings: tuple[Standing, ...]
    """One per seat, in seat order."""
    points_label: str = "points"
    """What ``Standing.points`` count, for people: "VP", "points destroyed"."""
    higher_is_better: bool = True
    """Whether more points rank higher (tie-breaks in a league read it)."""
    outcome: str = ""
    """One sentence for the players: "Azog wins with 310 VP", "The party is defeated in round 6"."""
    details: Mapping[str, JSON] = field(default_factory=dict)
    """The game's own result data (a scenario's victory reason, a co-op evaluation)."""
    cooperative: bool = False
    """The seats won or lost together (``GameType.cooperative``)."""
    summary: tuple[str, ...] = ()
    """A few lines the final screens show under the outcome (a co-operative game's evaluation of the
    party: the damage suffered, where the round marker ends, what the campaign box gives)."""
    follow_on: Mapping[str, JSON] = field(default_factory=dict)
    """Setup options a next game of this game carries on from (a campaign's next adventure: its number,
    the campaign log, the same adventurers); the new-game form starts from them once the game is over.
    Empty: a next game starts afresh."""

    @property
    def tie(self) -> bool:
        """Several seats (of different teams) share first place in a competitive game."""
        if self.cooperative:
            return False
        teams = {standing.seat: standing.team for standing in self.standings}
        sides = {("team", teams[s]) if teams.get(s) is not None else ("seat", s) for s in self.winners}
        return len(sides) > 1

    def to_json(self) -> dict[str, JSON]:
        return {
            "final": self.final,
            "cooperative": self.cooperative,
            "winners": list(self.winners),
            "tie": self.tie,
            "standings": [s.to_json() for s in self.standings],
            "points_label": self.points_label,
            "higher_is_better": self.higher_is_better,
            "outcome": self.outcome,
            "details": dict(self.details),
            "summary": list(self.summary),
            "follow_on": dict(self.follow_on),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> GameResult:
        return cls(
            final=bool(data["final"]),
            winners=tuple(PlayerId(int(s)) for s in data.get("winners") or ()),
            standings=tuple(Standing.from_json(s) for s in data.get("standings") or ()),
            points_label=str(data.get("points_label", "points")),
            higher_is_better=bool(data.get("higher_is_better", True)),
            outcome=str(data.get("outcome", "")),
            details=dict(data.get("details") or {}),
            cooperative=bool(data.get("cooperative", False)),
            summary=tuple(str(line) for line in _list(data.get("summary"))),
            follow_on=dict(data["follow_on"]) if isinstance(data.get("follow_on"), Mapping) else {},
        )


def _list(value: JSON) -> list[JSON]:
    """A JSON list as given, else empty (a peer's result read back: a wrong type is no line at all)."""
    return value if isinstance(value, list) else []


def ranks_by_points(points: Sequence[float], higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranks ("1224") of seats by their points: equal points share a rank."""
    signed = [p if higher_is_better else -p for p in points]
    return tuple(1 + sum(1 for other in signed if other > mine) for mine in signed)


V = TypeVar("V")


def evolver(cls: type[V]) -> Callable[..., V]:
    """``evolve(value, **changes)``: ``dataclasses.replace`` for a game's frozen State, without its
    per-call introspection and ``__init__`` (an engine makes a new position for nearly every step of
    every input, and ``replace`` dominated the simulators' profiles). ``cls`` keeps a ``__dict__``
    (no slots: two dict updates are the cheapest copy) and has no ``__post_init__`` to run. A name
    that is not a field is a TypeError, as with ``replace``."""
    names = frozenset(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    blank = object.__new__

    def evolve(value: V, /, **changes: Any) -> V:
        if not names.issuperset(changes):
            unknown = sorted(changes.keys() - names)
            raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
        new = blank(cls)
        new.__dict__.update(value.__dict__)
        new.__dict__.update(changes)
        return new

    return evolve


S = TypeVar("S")


class Game(ABC, Generic[S]):
    """A rules engine. Subclasses are stateless; all game state lives in the immutable ``S`` values.

    States must be picklable (the session snapshots them) and must compare equal when the game
    positions are equal (replay is checked against snapshots).
    """

    name: ClassVar[str]
    """Registry name, e.g. ``"chaos-marauders"``."""
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    actions: ClassVar[ActionCodec]
    game_type: ClassVar[GameType] = GameType()
    default_players: ClassVar[tuple[Player, ...]] = ()
    """Names (and colours) the new-game form offers when the table names nobody, at least
    ``max_players`` of them; empty: "Player 1", "Player 2", ... The form lists as many as the default
    options start with (web.catalogs)."""

    @property
    @abstractmethod
    def rules_version(self) -> str:
        """Identifies the rules code and the card data; logged with every accepted input."""

    @classmethod
    def with_owner_data(cls, path: Path) -> Game[Any]:
        """This game's engine with the owner's data file applied over the packaged data (values the
        rules texts lack, corrected from the physical game). Its ``rules_version`` names the file's
        :func:`data_digest`, so snapshots taken under other data are not reused. Raises SetupError with
        a sentence when the file cannot be used."""
        raise SetupError(f"{cls.title} has no data an owner can correct")

    @abstractmethod
    def new_game(self, setup: Setup) -> S:
        """The position before the first action; raises SetupError for a setup it cannot play."""

    @abstractmethod
    def apply(self, state: S, action: Action) -> tuple[S, tuple[Event, ...]]:
        """The position after ``action``; raises IllegalActionError or MalformedActionError, never mutates."""

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[Action]:
        """Every action the rules allow now (for open inputs such as draws: one per distinct card)."""

    @abstractmethod
    def prompt(self, state: S) -> Prompt | None:
        """What the table must do next; None once the game is over."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def view(self, state: S) -> dict[str, JSON]:
        """A JSON-able projection for screens.

        Every game's view has at least: ``game`` (name), ``title``, ``players`` (list of objects with
        ``seat``, ``name``, ``colour``, ``active``, ``score``), ``prompt`` (``Prompt.to_json()`` or
        None) and ``finished`` (bool). The result is not the view's: the session publishes
        ``result(state)`` beside it (the published view's ``result``), and the game's ``game_type``.
        """

    def result(self, state: S) -> GameResult:
        """The game's result: final once ``is_over``, else the standings as they would be if the game
        ended now (``final`` false). Every game implements it; the platform never reads a view for it."""
        raise NotImplementedError(f"{self.title} does not state its result")

    def actor(self, state: S, action: Action) -> PlayerId | None:
        """The seat whose decision ``action`` is in ``state``: a secret's owner, the turn player ending
        their turn, the player answering a prompt addressed to them. None for what any seat may do for
        the table (a correction, a die result entered for the table). The web lets a phone that claimed
        a seat send only actions whose actor is that seat or None."""
        raise NotImplementedError(f"{self.title} does not say who takes an action")

    def setup_options(self) -> tuple[SetupOption, ...]:
        """The options ``new_game`` reads from ``Setup.options`` (shown on the new-game form)."""
        return ()

    def check_options(self, setup: Setup) -> None:
        """SetupError naming every option of ``setup`` that this game does not read: a misspelt option
        is refused, never silently ignored. The session asks it before ``new_game``."""
        known = sorted(o.name for o in self.setup_options())
        unknown = sorted(set(dict(setup.options)) - set(known))
        if unknown:
            offered = f"known: {', '.join(known)}" if known else "it has none"
            raise SetupError(f"unknown options for {self.title}: {', '.join(unknown)} ({offered})")

    def private_view(self, state: S, seat: PlayerId) -> dict[str, JSON] | None:
        """What only ``seat`` may see (HeroScape order markers), for that player's phone; None when the
        game keeps nothing secret. ``view`` must never contain it."""
        return None

    def public_action(self, action: Action) -> dict[str, JSON]:
        """The action as anyone may read it in the history while the game is played: a secret action
        (order markers placed face down) keeps only its kind and player. The log stores it whole."""
        return self.format_action(action)

    def secret_action(self, action: Action) -> bool:
        """True for an action only its own player may send or see while the game is played."""
        return self.public_action(action) != self.format_action(action)

    def parse_action(self, data: JSON) -> Action:
        return self.actions.parse(data)

    def format_action(self, action: Action) -> dict[str, JSON]:
        return self.actions.format(action)

    def is_legal(self, state: S, action: Action) -> bool:
        try:
            self.apply(state, action)
        except ActionError:
            return False
        return True
