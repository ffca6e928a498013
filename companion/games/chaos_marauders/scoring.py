"""End-of-game scoring (rulebook p.12, Victory Point Chart; card reference: Idol, Red Cards).

Readings of the chart, checked against the rulebook's worked example (730 VP):

* The line bonus (5-6 cards 50, 7-8 100, 9-10 150, 11-12 200; 4 cards nothing) is for *complete*
  lines only: the chart says "Each complete battle line", and the example's incomplete middle line
  earns no bonus.
* Every card in every line, complete or not, is worth 10 (the example counts all 21 cards).
* Printed VP (booty, Chaos Marauders) and war machine sets count in any line, complete or not: the
  example's incomplete middle line scores its Shotti, and the chart asks only that a machine be
  "assembled properly ... within a battle line". A set of three (parts and crew) is 70, a set of two
  (the two machine parts, or the complete Boneshaker) is 60; see :class:`lines.MachineSet`.
* The Idol is +90 when its owner has a Shaman of Aaaaaaaag in any line, else +90 for six Orcish
  Eyes and -90 for any Mark of Chaos in six rolls. The rolls are table inputs, never made here.
* 150 for the first player to complete three lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from companion.engine import JSON
from companion.games.chaos_marauders.cards import Catalog
from companion.games.chaos_marauders.catalog import LINE_SLOTS, Ability
from companion.games.chaos_marauders.lines import (
    Line,
    MachineSet,
    attack_value,
    card_count,
    is_complete,
    line_error,
    plague_lord_count,
    tribe_error,
    war_machines,
)

FIRST_TO_COMPLETE_VP = 150
CARD_VP = 10
IDOL_ROLLS = 6
IDOL_VP = 90
FACES = ("eye", "mark")
"""Faces of the Cube of Devastation as rolls are recorded: Orcish Eye, Mark of Chaos."""
LINES_PER_TRIBE = 3


class ScoringError(ValueError):
    """The table cannot be scored as given (illegal line, too many copies, missing rolls...)."""


class IdolRollsError(ScoringError):
    """The Idol's owner has no Shaman and the six Cube rolls are missing or malformed."""


def line_bonus(cards: int) -> int:
    """The chart's bonus for a *complete* line of ``cards`` cards (4 cards: nothing)."""
    if cards >= 11:
        return 200
    if cards >= 9:
        return 150
    if cards >= 7:
        return 100
    if cards >= 5:
        return 50
    return 0


def idol_points(has_shaman: bool, rolls: Sequence[str] | None) -> int:
    """The Idol's worth: +90 with a Shaman in the tribe, else +90 for six Orcish Eyes, -90 otherwise.

    Raises IdolRollsError when the rolls are needed and are not exactly six faces "eye"/"mark".
    """
    if has_shaman:
        return IDOL_VP  # "he does not have to make any rolls": any rolls given are ignored
    if rolls is None:
        raise IdolRollsError(f"the Idol needs {IDOL_ROLLS} rolls of the Cube (no Shaman in the tribe)")
    if len(rolls) != IDOL_ROLLS or any(face not in FACES for face in rolls):
        raise IdolRollsError(
            f"the Idol needs exactly {IDOL_ROLLS} rolls, each 'eye' or 'mark'; got {list(rolls)}"
        )
    return IDOL_VP if all(face == "eye" for face in rolls) else -IDOL_VP


@dataclass(frozen=True)
class LineScore:
    """One battle line's share of the score."""

    complete: bool
    cards: int
    attack_value: int
    bonus: int
    card_points: int
    machines: tuple[MachineSet, ...]
    booty: int

    @cached_property  # frozen: worked out once (every published view states every tribe's total)
    def war_machines(self) -> int:
        return sum(machine.vp for machine in self.machines)

    @property
    def vp(self) -> int:
        return self.bonus + self.card_points + self.war_machines + self.booty

    def to_json(self) -> dict[str, JSON]:
        return {
            "complete": self.complete,
            "cards": self.cards,
            "attack_value": self.attack_value,
            "bonus": self.bonus,
            "card_points": self.card_points,
            "war_machines": self.war_machines,
            "machines": [
                {"machine": m.machine, "slots": list(m.slots), "complete": m.complete, "vp": m.vp}
                for m in self.machines
            ],
            "booty": self.booty,
            "vp": self.vp,
        }


@dataclass(frozen=True)
class PlayerScore:
    """One tribe's breakdown; ``total`` is the sum of the parts."""

    name: str
    lines: tuple[LineScore, ...]
    idol: int
    first_to_complete: int

    @property
    def line_bonus(self) -> int:
        return sum(line.bonus for line in self.lines)

    @property
    def cards(self) -> int:
        return sum(line.card_points for line in self.lines)

    @property
    def war_machines(self) -> int:
        return sum(line.war_machines for line in self.lines)

    @property
    def booty(self) -> int:
        return sum(line.booty for line in self.lines)

    @cached_property  # frozen: worked out once (ranks, winners and the result each read it)
    def total(self) -> int:
        return (
            self.line_bonus + self.cards + self.war_machines + self.booty + self.idol + self.first_to_complete
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "total": self.total,
            "line_bonus": self.line_bonus,
            "cards": self.cards,
            "war_machines": self.war_machines,
            "booty": self.booty,
            "idol": self.idol,
            "first_to_complete": self.first_to_complete,
            "lines": [line.to_json() for line in self.lines],
        }


@dataclass(frozen=True)
class TableScore:
    """Every tribe's score in seat order; ``winners`` are seats with the top total (several on a tie)."""

    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    def to_json(self) -> dict[str, JSON]:
        return {
            "players": [player.to_json() for player in self.players],
            "winners": [self.players[seat].name for seat in self.winners],
            "tie": self.tie,
        }


@dataclass(frozen=True)
class Tribe:
    """A player's name and three battle lines, top to bottom."""

    name: str
    lines: tuple[Line, ...]


def score_line(line: Line, catalog: Catalog, plague_lords_in_tribe: int) -> LineScore:
    """The score of one line (assumed legal: see :func:`lines.line_error`)."""
    count = card_count(line)
    complete = is_complete(line, catalog)
    booty = sum(
        catalog.card(card_id).vp
        for card_id in line
        if card_id is not None and catalog.card(card_id).ability != Ability.IDOL
    )
    return LineScore(
        complete=complete,
        cards=count,
        attack_value=attack_value(line, catalog, plague_lords_in_tribe),
        bonus=line_bonus(count) if complete else 0,
        card_points=CARD_VP * count,
        machines=war_machines(line, catalog),
        booty=booty,
    )


def score_tribe(
    tribe: Tribe,
    catalog: Catalog,
    *,
    first_to_complete: bool = False,
    idol_rolls: Sequence[str] | None = None,
) -> PlayerScore:
    """One tribe's score; raises ScoringError for an illegal line, IdolRollsError for missing rolls."""
    for number, line in enumerate(tribe.lines, start=1):
        problem = line_error(line, catalog)
        if problem is not None:
            raise ScoringError(f"{tribe.name}, line {number}: {problem}")
    problem = tribe_error(tribe.lines, catalog)
    if problem is not None:
        raise ScoringError(f"{tribe.name}: {problem}")
    abilities = {catalog.card(c).ability for line in tribe.lines for c in line if c is not None}
    if first_to_complete and not all(is_complete(line, catalog) for line in tribe.lines):
        raise ScoringError(f"{tribe.name} is named first to complete but has an incomplete line")
    idol = 0
    if Ability.IDOL in abilities:
        try:
            idol = idol_points(Ability.SHAMAN in abilities, idol_rolls)
        except IdolRollsError as exc:
            raise IdolRollsError(f"{tribe.name}: {exc}") from None
    elif idol_rolls is not None:
        raise ScoringError(f"{tribe.name} has Idol rolls but no Idol")
    plague_lords = plague_lord_count(tribe.lines, catalog)
    return PlayerScore(
        name=tribe.name,
        lines=tuple(score_line(line, catalog, plague_lords) for line in tribe.lines),
        idol=idol,
        first_to_complete=FIRST_TO_COMPLETE_VP if first_to_complete else 0,
    )


def score_table(
    tribes: Sequence[Tribe],
    catalog: Catalog,
    *,
    first_to_complete: int | None = None,
    idol_rolls: Mapping[int, Sequence[str]] | None = None,
) -> TableScore:
    """Scores a finished table; seats index ``tribes``. Raises ScoringError for a table that cannot be."""
    if not tribes:
        raise ScoringError("there are no players to score")
    rolls = dict(idol_rolls or {})
    for seat in (*rolls, first_to_complete):
        if seat is not None and not 0 <= seat < len(tribes):
            raise ScoringError(f"there is no player in seat {seat}")
    for tribe in tribes:
        if len(tribe.lines) != LINES_PER_TRIBE:
            raise ScoringError(
                f"{tribe.name} must have {LINES_PER_TRIBE} battle lines, not {len(tribe.lines)}"
            )
    players = tuple(
        score_tribe(tribe, catalog, first_to_complete=seat == first_to_complete, idol_rolls=rolls.get(seat))
        for seat, tribe in enumerate(tribes)
    )
    # After the lines are checked, so every id is known.
    problem = copies_error(tribes, catalog)
    if problem is not None:
        raise ScoringError(problem)
    best = max(player.total for player in players)
    return TableScore(players=players, winners=tuple(s for s, p in enumerate(players) if p.total == best))


def copies_error(tribes: Sequence[Tribe], catalog: Catalog) -> str | None:
    """Why the table holds more copies of a card than the deck has; None when it does not."""
    counts = Counter(
        card_id for tribe in tribes for line in tribe.lines for card_id in line if card_id is not None
    )
    for card_id, count in counts.items():
        card = catalog.card(card_id)
        if count > card.copies:
            return f"the table holds {count} × {card.title}, but the deck has only {card.copies}"
    return None


# ---- layout files (``companion score``) ----------------------------------------------------------

LAYOUT_KEYS = {"game", "first_to_complete", "players", "idol_rolls"}
MAX_PLAYERS = 4


@dataclass(frozen=True)
class Layout:
    """A finished table as written in a layout file, resolved against the catalog."""

    tribes: tuple[Tribe, ...]
    first_to_complete: int | None
    idol_rolls: Mapping[int, tuple[str, ...]]

    def score(self, catalog: Catalog) -> TableScore:
        return score_table(
            self.tribes, catalog, first_to_complete=self.first_to_complete, idol_rolls=self.idol_rolls
        )


def parse_layout(data: object, catalog: Catalog) -> Layout:
    """A :class:`Layout` from a layout file's JSON (format: docs/chaos-marauders.md).

    Slots hold a card id or exact title (any case), or null; a line is padded to 12 slots. Raises
    ScoringError with a one-line reason.
    """
    if not isinstance(data, Mapping):
        raise ScoringError("a layout must be a JSON object")
    unknown = set(data) - LAYOUT_KEYS
    if unknown:
        raise ScoringError(f"unknown layout field(s): {', '.join(sorted(unknown))}")
    if data.get("game") != "chaos-marauders":
        raise ScoringError(f'the layout\'s "game" must be "chaos-marauders", not {data.get("game")!r}')
    players = data.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise ScoringError(f'"players" must list 1 to {MAX_PLAYERS} players')
    tribes = tuple(_tribe(entry, catalog, number) for number, entry in enumerate(players, start=1))
    seats = {tribe.name: seat for seat, tribe in enumerate(tribes)}
    if len(seats) != len(tribes):
        raise ScoringError("two players share a name")
    first = data.get("first_to_complete")
    if first is not None and first not in seats:
        raise ScoringError(f'"first_to_complete" names no player: {first!r}')
    rolls = data.get("idol_rolls") or {}
    if not isinstance(rolls, Mapping):
        raise ScoringError('"idol_rolls" must map player names to lists of "eye"/"mark"')
    idol_rolls: dict[int, tuple[str, ...]] = {}
    for name, faces in rolls.items():
        if name not in seats:
            raise ScoringError(f'"idol_rolls" names no player: {name!r}')
        if not isinstance(faces, list) or not all(isinstance(face, str) for face in faces):
            raise ScoringError(f'idol rolls of {name} must be a list of "eye"/"mark"')
        idol_rolls[seats[name]] = tuple(faces)
    return Layout(tribes, seats[first] if first is not None else None, idol_rolls)


def _tribe(entry: object, catalog: Catalog, number: int) -> Tribe:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str) or not entry["name"]:
        raise ScoringError(f"player {number} needs a name")
    name = entry["name"]
    unknown = set(entry) - {"name", "lines"}
    if unknown:
        raise ScoringError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}")
    lines = entry.get("lines")
    if not isinstance(lines, list) or len(lines) != LINES_PER_TRIBE:
        raise ScoringError(f"{name} must have {LINES_PER_TRIBE} battle lines")
    return Tribe(
        name, tuple(_line(line, catalog, f"{name}, line {n}") for n, line in enumerate(lines, start=1))
    )


def _line(slots: object, catalog: Catalog, where: str) -> Line:
    if not isinstance(slots, list):
        raise ScoringError(f"{where}: a line must be a list of card ids, titles or nulls")
    if len(slots) > LINE_SLOTS:
        raise ScoringError(f"{where}: a line has at most {LINE_SLOTS} slots, not {len(slots)}")
    cards: list[str | None] = []
    for slot in slots:
        if slot is None:
            cards.append(None)
        elif isinstance(slot, str) and slot in catalog:
            card = catalog[slot]
            if card.discarded_after_use:  # the layout was misread: such a card went to the discard pile
                raise ScoringError(f"{where}: {card.title} is used once and discarded, never kept in a line")
            cards.append(card.id)
        else:
            raise ScoringError(f"{where}: unknown card {slot!r}")
    return tuple(cards) + (None,) * (LINE_SLOTS - len(cards))
