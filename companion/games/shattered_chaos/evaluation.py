"""The final evaluation (IX.A) and the campaign box's numbers (IX.B, IX.C), from the data's tables.

Total damage is what each adventurer's clip lies below its start value (a shadow's clip lies at 0), less
the lives any adventurer gained above it (line 2772). The marker moves left that many spaces, looked up in
the table for 4 or 5 adventurers, from the round the adventure was completed in; the section it then lies
in gives how many chaos cards the party draws from the campaign box and keeps. A defeat puts the marker on
the counter's end, the last section (IX.C).

Every number says where it came from: the output lists the values that came from assumed data (the owner's
to correct) as ``owner_values``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.engine import JSON
from companion.games.shattered_chaos.catalog import Catalog

ASSUMED = "assumed"


class EvaluationError(ValueError):
    """The party or the round cannot be evaluated (the message says what is wrong)."""


@dataclass(frozen=True)
class Member:
    """One adventurer at the end of an adventure, as the evaluation needs them."""

    name: str
    start_life: int
    life: int
    shadow: bool

    @property
    def damage(self) -> int:
        """How far the clip lies from the start value: negative for lives gained above it."""
        return self.start_life - (0 if self.shadow else self.life)


@dataclass(frozen=True)
class Evaluation:
    damage: int
    spaces: int
    start_round: int
    final_round: int
    section: int
    draw: int
    keep: int
    lost: bool
    members: tuple[Member, ...] = ()
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def owner_values(self) -> tuple[str, ...]:
        """The output keys whose value came from assumed data (the owner of the game corrects them)."""
        return tuple(key for key, said in self.provenance.items() if said.startswith(ASSUMED))

    def sentence(self) -> str:
        if self.lost:
            return (
                f"Defeat: the round marker goes to the end of the counter, section {self.section}: "
                f"draw {self.draw} chaos cards from the campaign box and keep {self.keep}"
            )
        spaces = f"{self.spaces} {'space' if self.spaces == 1 else 'spaces'}"
        if self.start_round - self.spaces < self.final_round:
            moved = f"{spaces} left from round {self.start_round}: it stops at round {self.final_round}"
        else:
            moved = f"{spaces} left, from round {self.start_round} to round {self.final_round}"
        return (
            f"{self.damage} damage: the round marker moves {moved}, section {self.section}: "
            f"draw {self.draw} chaos cards, keep {self.keep}"
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "damage": self.damage,
            "spaces": self.spaces,
            "final_round": self.final_round,
            "section": self.section,
            "draw": self.draw,
            "keep": self.keep,
            "start_round": self.start_round,
            "lost": self.lost,
            "party": [
                {
                    "name": m.name,
                    "start_life": m.start_life,
                    "life": m.life,
                    "shadow": m.shadow,
                    "damage": m.damage,
                }
                for m in self.members
            ],
            "owner_values": list(self.owner_values),
            "provenance": dict(self.provenance),
        }


def evaluate(
    cat: Catalog, adventurers: int, round_number: int, party: Sequence[Member], lost: bool
) -> Evaluation:
    """The final evaluation of an adventure completed (or lost) in ``round_number``."""
    if adventurers not in cat.damage_tables:
        counts = " or ".join(str(n) for n in sorted(cat.damage_tables))
        raise EvaluationError(f"the evaluation tables are for {counts} adventurers, not {adventurers}")
    if len(party) != adventurers:
        raise EvaluationError(f"the party lists {len(party)} adventurers, not {adventurers}")
    if round_number < cat.first_round:
        raise EvaluationError(f"an adventure ends in round {cat.first_round} or later, not {round_number}")
    for member in party:
        if member.start_life < 1:
            raise EvaluationError(f"{member.name}: a start value is 1 or more")
        if not member.shadow and member.life < 1:
            raise EvaluationError(
                f"{member.name} has {member.life} lives: an adventurer under 1 life is a shadow"
            )
    damage = sum(m.damage for m in party)
    provenance = {
        "damage": "rules text IX.A (line 2755): each clip's distance from its start value, added up"
    }
    if lost:
        section = cat.sections[-1]
        start = final = cat.last_round
        spaces = 0
        provenance["spaces"] = (
            "rules text IX.C (line 2970): a defeat moves no space; the marker goes to the end"
        )
        provenance["final_round"] = provenance["spaces"]
    else:
        table = cat.damage_tables[adventurers]
        row = table.row(damage)
        spaces = row.spaces
        confirmed = damage in row.confirmed
        provenance["spaces"] = (
            table.provenance.get("confirmed", "") if confirmed else table.provenance["rows"]
        )
        start = min(round_number, cat.last_round)
        final = max(cat.first_round, start - spaces)
        provenance["final_round"] = (
            "rules text IX.A (line 2761, 2765): the marker moves left from the round completed in"
        )
        section = cat.section_of_round(final)
    provenance["section"] = section.provenance.get("rounds", "")
    provenance["draw"] = provenance["keep"] = section.provenance.get("cards", "")
    return Evaluation(
        damage=damage,
        spaces=spaces,
        start_round=start,
        final_round=final,
        section=section.number,
        draw=section.draw,
        keep=section.keep,
        lost=lost,
        members=tuple(party),
        provenance=provenance,
    )


def parse_layout(cat: Catalog, data: Mapping[str, JSON]) -> tuple[int, int, tuple[Member, ...], bool]:
    """The layout of ``companion score``: ``{"game", "adventurers", "round", "party": [{"name",
    "start_life", "life", "shadow"}], "lost"}``; raises EvaluationError naming the bad field."""
    known = {"game", "adventurers", "round", "party", "lost"}
    extra = sorted(set(data) - known)
    if extra:
        raise EvaluationError(
            f"unknown layout fields: {', '.join(extra)} (known: {', '.join(sorted(known))})"
        )
    adventurers = _whole(data.get("adventurers"), "adventurers", 1, 6)
    round_number = _whole(data.get("round"), "round", 1, 99)
    lost = data.get("lost", False)
    if not isinstance(lost, bool):
        raise EvaluationError("lost must be true or false")
    party = data.get("party")
    if not isinstance(party, list) or not party:
        raise EvaluationError("party must be a list of adventurers")
    members = []
    seen: set[str] = set()
    for index, entry in enumerate(party):
        where = f"party[{index}]"
        if not isinstance(entry, Mapping):
            raise EvaluationError(f"{where} must be an object with name, start_life, life and shadow")
        extra = sorted(set(entry) - {"name", "start_life", "life", "shadow"})
        if extra:
            raise EvaluationError(f"{where}: unknown fields {', '.join(extra)}")
        name = entry.get("name")
        if not isinstance(name, str):
            raise EvaluationError(f"{where}.name must be an adventurer's name")
        try:
            card = cat.adventurer_named(name)
        except KeyError:
            names = ", ".join(a.name for a in cat.adventurers)
            raise EvaluationError(f"{where}.name: {name[:40]!r} is not an adventurer ({names})") from None
        if card.id in seen:
            raise EvaluationError(f"{where}: {card.name} is in the party twice")
        seen.add(card.id)
        shadow = entry.get("shadow", False)
        if not isinstance(shadow, bool):
            raise EvaluationError(f"{where}.shadow must be true or false")
        start = _whole(entry.get("start_life", card.start_life), f"{where}.start_life", 1, 99)
        life = _whole(entry.get("life", 0 if shadow else start), f"{where}.life", -99, 99)
        members.append(Member(card.name, start, life, shadow))
    return adventurers, round_number, tuple(members), lost


def _whole(value: JSON, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise EvaluationError(f"{name} must be a whole number from {low} to {high}, not {str(value)[:40]!r}")
    return value
