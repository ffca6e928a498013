"""Shattered Chaos's game data as immutable values: adventurers, ledgers, talents, enemies, chaos cards, dice,
the round counter and the final evaluation's tables, the adventures, and the rules text's own numbers.

The values come from ``data/*.toml`` (read and checked by ``data_loading``), each with its provenance, and
the owner of the physical game corrects them in one overrides file. Nothing here is a rules constant.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.names import name_key

COLOURS = ("yellow", "red", "blue")
"""The three attack dice, in the order an adventurer's throw lists them (V.B.4)."""
BONUSES = ("armour", "range", "damage", "life", "vortex", "step")
ATTACK_BONUSES = ("range", "damage", "life", "vortex")
"""Bonuses a chaos card gives to the adventurer's own attack (discarded before it, V.G)."""
ENEMY_ACTIONS = ("attack", "special", "charge", "move", "retreat")
TARGETS = ("highest-chaos", "closest")
SIZES = ("small", "big", "boss")
VALUES = ("bronze", "silver", "gold")
SKILLS = ("chaos-step", "chaos-hit", "destroy")
_FACE = re.compile(r"^(yellow|red|blue):(\d{1,2})(v*)$")


class CatalogError(ValueError):
    """The game data is malformed or inconsistent (the message names the entry and the field)."""


@dataclass(frozen=True)
class Face:
    """One face of an attack die: its colour, eyes and vortices (``"blue:0vv"``)."""

    colour: str
    eyes: int
    vortices: int

    @classmethod
    def parse(cls, symbol: str) -> Face:
        found = _FACE.match(symbol)
        if found is None:
            raise CatalogError(
                f"a die face is written colour:eyes with a v per vortex (blue:0vv), not {symbol!r}"
            )
        return cls(found.group(1), int(found.group(2)), len(found.group(3)))

    @property
    def symbol(self) -> str:
        return f"{self.colour}:{self.eyes}{'v' * self.vortices}"

    def describe(self) -> str:
        """How people say it: "blue 0 + 2 vortices"."""
        if not self.vortices:
            return f"{self.colour} {self.eyes}"
        return (
            f"{self.colour} {self.eyes} + {'vortex' if self.vortices == 1 else f'{self.vortices} vortices'}"
        )

    def __repr__(self) -> str:
        return f"Face.parse({self.symbol!r})"


@dataclass(frozen=True)
class Die:
    colour: str
    faces: tuple[Face, ...]
    provenance: str = field(default="", compare=False)

    @functools.cached_property
    def symbols(self) -> tuple[str, ...]:
        return tuple(f.symbol for f in self.faces)


@dataclass(frozen=True)
class Ledger:
    """A chaos ledger: the number in the box at the bottom, then the number beside each token."""

    id: str
    title: str
    empty: int
    values: tuple[int, ...]
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False)

    def value(self, tokens: int) -> int:
        """The numerical chaos value with ``tokens`` chaos tokens on the ledger (V.A.7)."""
        return self.empty if tokens <= 0 else self.values[min(tokens, len(self.values)) - 1]


@dataclass(frozen=True)
class Talent:
    id: str
    title: str
    bonus: str
    amount: int
    provenance: str = field(default="", compare=False)


@dataclass(frozen=True)
class AdventurerCard:
    id: str
    name: str
    motto: str
    talent: str
    ledger: str
    start_life: int
    max_life: int
    armour: int
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class EnemyAction:
    """One cell of a behaviour table: what the enemy does, how far, with which dice, at whom."""

    kind: str
    range: int = 0
    steps: int = 0
    dice: tuple[str, ...] = ()
    sight: bool = True
    """The line-of-sight symbol: the target must be in the enemy's line of sight."""
    target: str = "highest-chaos"
    text: str = ""

    @property
    def attacks(self) -> bool:
        return self.kind in ("attack", "special")

    @property
    def always_possible(self) -> bool:
        """A move or a retreat can always be performed: there is always a closest adventurer (VI.B)."""
        return self.kind in ("move", "retreat")

    @property
    def reach(self) -> int:
        return self.range if self.attacks else self.steps

    def describe(self) -> str:
        """ "attack (range 3, red)", "charge (3 steps)"."""
        if self.attacks:
            name = "special attack" if self.kind == "special" else "attack"
            return f"{name} (range {self.range}, {' + '.join(self.dice) or 'no dice'})"
        return f"{self.kind} ({self.steps} step{'s' if self.steps != 1 else ''})"


@dataclass(frozen=True)
class EnemySkill:
    text: str
    elite: bool = False
    """In a turquoise box: only the elite version follows it (VI.A.8)."""
    armour: int = 0


@dataclass(frozen=True)
class EnemyCard:
    id: str
    name: str
    faction: str
    size: str
    lives: Mapping[int, int]
    armour: int
    models: tuple[int, ...]
    elite_models: tuple[int, ...]
    reactions: tuple[tuple[EnemyAction, ...], ...]
    phase: tuple[tuple[EnemyAction, ...], ...]
    skills: tuple[EnemySkill, ...] = ()
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def big(self) -> bool:
        return self.size == "big"

    @property
    def small(self) -> bool:
        return self.size == "small"

    def skills_of(self, elite: bool) -> tuple[EnemySkill, ...]:
        """What this version follows: a standard enemy ignores the turquoise boxes."""
        return tuple(s for s in self.skills if elite or not s.elite)

    def armour_of(self, elite: bool) -> int:
        return self.armour + sum(s.armour for s in self.skills_of(elite))

    def is_elite_model(self, number: int) -> bool:
        return number in self.elite_models


@dataclass(frozen=True)
class ChaosCard:
    id: str
    """``b7``, ``s7``, ``g7``: value initial and number."""
    number: int
    value: str
    stack: str
    bonus: str
    amount: int
    provenance: str = field(default="", compare=False)

    @property
    def title(self) -> str:
        return f"{self.value.title()} {self.number}: {bonus_text(self.bonus, self.amount)}"

    @property
    def for_attack(self) -> bool:
        return self.bonus in ATTACK_BONUSES


@dataclass(frozen=True)
class Section:
    number: int
    rounds: tuple[int, ...]
    keep: int
    draw: int
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class DamageRow:
    start: int
    spaces: int
    confirmed: tuple[int, ...] = ()


@dataclass(frozen=True)
class DamageTable:
    adventurers: int
    rows: tuple[DamageRow, ...]
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False)

    def row(self, damage: int) -> DamageRow:
        """The row ``damage`` falls in: below the first row counts as the first."""
        found = self.rows[0]
        for row in self.rows:
            if damage >= row.start:
                found = row
        return found


@dataclass(frozen=True)
class Adventure:
    number: int
    title: str
    box: str
    compartment: str
    skills: tuple[str, ...]
    enemies: tuple[str, ...]
    narrator: tuple[tuple[str, str], ...] = ()
    """(card, text) in the order the stacks are laid: "A 1.1" first."""
    adventure_cards: Mapping[str, str] = field(default_factory=dict, compare=False)
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Rules:
    """The rules text's own numbers (``data/rules.toml``)."""

    adventurers: tuple[int, ...]
    action_tokens: int
    start_chaos_tokens: int
    ledger_tokens: int
    hand_size: int
    move_steps: int
    chaos_steps: int
    chaos_hit_dice: int
    destroy_cost: int
    destruction_damage: int
    stun_vortices: int
    critical_vortices: int
    critical_ignores_armour: int
    big_enemy_graveyard: int
    big_enemy_spaces: int
    adventure_tokens: int
    chaos_token_supply: int
    dice_of_each_colour: int
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False)


def bonus_text(bonus: str, amount: int) -> str:
    """ "+2 range", "±1 vortex", "1 step", "+1 life"."""
    if bonus == "vortex":
        return f"±{amount} {'vortex' if amount == 1 else 'vortices'}"
    if bonus == "step":
        return f"{amount} {'step' if amount == 1 else 'steps'}"
    return f"+{amount} {bonus}"


@dataclass(frozen=True)
class Catalog:
    rules: Rules
    dice: Mapping[str, Die]
    ledgers: tuple[Ledger, ...]
    talents: tuple[Talent, ...]
    adventurers: tuple[AdventurerCard, ...]
    enemies: tuple[EnemyCard, ...]
    cards: tuple[ChaosCard, ...]
    """Every chaos card listed: the bronze cards and any silver or gold card entered."""
    upgrades: Mapping[str, int]
    stacks: tuple[str, ...]
    sections: tuple[Section, ...]
    damage_tables: Mapping[int, DamageTable]
    adventures: tuple[Adventure, ...]
    upgrades_provenance: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        index = {
            "ledger": {x.id: x for x in self.ledgers},
            "talent": {x.id: x for x in self.talents},
            "adventurer": {x.id: x for x in self.adventurers},
            "adventurer_name": {name_key(x.name): x for x in self.adventurers},
            "enemy": {x.id: x for x in self.enemies},
            "model": {n: e for e in self.enemies for n in (*e.models, *e.elite_models)},
            "card": {x.id: x for x in self.cards},
            "adventure": {x.number: x for x in self.adventures},
            "face": {f.symbol: f for die in self.dice.values() for f in die.faces},
        }
        object.__setattr__(self, "_index", index)

    def _find(self, kind: str, key: object) -> object:
        try:
            return self._index[kind][key]  # type: ignore[attr-defined]
        except KeyError:
            raise KeyError(f"Shattered Chaos has no {kind.replace('_', ' ')} {key!r}") from None

    def ledger(self, ledger_id: str) -> Ledger:
        return self._find("ledger", ledger_id)  # type: ignore[return-value]

    def talent(self, talent_id: str) -> Talent:
        return self._find("talent", talent_id)  # type: ignore[return-value]

    def has_talent(self, talent_id: str) -> bool:
        return talent_id in self._index["talent"]  # type: ignore[attr-defined]

    def adventurer(self, adventurer_id: str) -> AdventurerCard:
        return self._find("adventurer", adventurer_id)  # type: ignore[return-value]

    def has_adventurer(self, adventurer_id: str) -> bool:
        return adventurer_id in self._index["adventurer"]  # type: ignore[attr-defined]

    def adventurer_named(self, name: str) -> AdventurerCard:
        """The adventurer a person typed ("deadeye", "Deadeye ")."""
        return self._find("adventurer_name", name_key(name))  # type: ignore[return-value]

    def enemy(self, enemy_id: str) -> EnemyCard:
        return self._find("enemy", enemy_id)  # type: ignore[return-value]

    def has_enemy(self, enemy_id: str) -> bool:
        return enemy_id in self._index["enemy"]  # type: ignore[attr-defined]

    def enemy_of_model(self, number: int) -> EnemyCard | None:
        return self._index["model"].get(number)  # type: ignore[attr-defined,no-any-return]

    def adventure(self, number: int) -> Adventure:
        return self._find("adventure", number)  # type: ignore[return-value]

    def has_adventure(self, number: int) -> bool:
        return number in self._index["adventure"]  # type: ignore[attr-defined]

    def card(self, card_id: str) -> ChaosCard:
        """A chaos card by id; a silver or gold card not entered is its bronze card upgraded."""
        listed = self._index["card"].get(card_id)  # type: ignore[attr-defined]
        if listed is not None:
            return listed  # type: ignore[no-any-return]
        found = re.fullmatch(r"([sg])(\d{1,3})", card_id)
        bronze = self._index["card"].get(f"b{found.group(2)}") if found else None  # type: ignore[attr-defined]
        if found is None or bronze is None:
            raise KeyError(f"Shattered Chaos has no chaos card {card_id!r}")
        value = "silver" if found.group(1) == "s" else "gold"
        return ChaosCard(
            id=card_id,
            number=bronze.number,
            value=value,
            stack=bronze.stack,
            bonus=bronze.bonus,
            amount=bronze.amount + self.upgrades[value],
            provenance=f"{self.upgrades_provenance} over bronze {bronze.number}: {bronze.provenance}",
        )

    def has_card(self, card_id: str) -> bool:
        try:
            self.card(card_id)
        except KeyError:
            return False
        return True

    def bronze(self) -> tuple[ChaosCard, ...]:
        return tuple(c for c in self.cards if c.value == "bronze")

    def section(self, number: int) -> Section:
        return next(s for s in self.sections if s.number == number)

    def section_of_round(self, round_number: int) -> Section:
        """The round counter's section a marker on ``round_number`` lies in (the last one beyond it)."""
        for section in self.sections:
            if round_number <= max(section.rounds):
                return section
        return self.sections[-1]

    @property
    def first_round(self) -> int:
        return min(self.sections[0].rounds)

    @property
    def last_round(self) -> int:
        """The round counter's last space (a later round leaves the marker there)."""
        return max(self.sections[-1].rounds)

    def chaos_value(self, adventurer_id: str, tokens: int) -> int:
        return self.ledger(self.adventurer(adventurer_id).ledger).value(tokens)

    def die(self, colour: str) -> Die:
        return self.dice[colour]

    def face(self, symbol: str) -> Face:
        """A face the dice data has; raises KeyError for any other symbol."""
        found = self._index["face"].get(symbol)  # type: ignore[attr-defined]
        if found is None:
            raise KeyError(f"{str(symbol)[:20]!r} is not a face of the attack dice (data/dice.toml)")
        return found  # type: ignore[no-any-return]
