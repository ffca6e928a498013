"""The checks: authority (d8 at most authority plus modifiers, 8 always fails), survivability, and the d6 of
the real strategy when a leadership check fails. Pure arithmetic over the data; the dice are inputs.

Rulebook lines 95-106 (authority and its control modifiers), 129 and 137 (survivability with a shaman, and
half of it for a leader hacked to pieces), 193-202 (the real strategy's d6 and its modifiers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.games.orcwars_too.counters import GameData, Kind


@dataclass(frozen=True)
class Target:
    """What a check's roll must not exceed, and why (the TV shows the sum)."""

    base: int
    modifiers: tuple[tuple[str, int], ...] = ()

    @property
    def value(self) -> int:
        return self.base + sum(m for _, m in self.modifiers)

    def describe(self) -> str:
        parts = [str(self.base)] + [f"{m:+d} {why}" for why, m in self.modifiers]
        return " ".join(parts) + (f" = {self.value}" if self.modifiers else "")


def passes(data: GameData, roll: int, target: int) -> bool:
    """An authority check: the roll at most the target; the die's ``always_fails`` face never passes."""
    return roll != data.rules.always_fails and roll <= target


def is_small(data: GameData, race: str) -> bool:
    return race in data.rules.small_races


def control_target(
    data: GameData,
    leader: str,
    controlled: Iterable[str],
    in_fortress: bool,
    new_units: Sequence[str] = (),
    army_power: int = 0,
) -> Target:
    """An authority check to control units (levy, claim, keep, the troops' obedience in combat, an army's
    rampage): +1 when every troop controlled is native to the leader or a kobold or goblin, +1 in a fortress,
    +1 when new kobolds and goblins are at most half the army's power."""
    counter = data.counter(leader)
    modifiers: list[tuple[str, int]] = []
    controlled_troops = [c for c in controlled if data.counter(c).kind is Kind.TROOP]
    if controlled_troops and all(
        data.counter(c).native == counter.native or is_small(data, data.counter(c).race)
        for c in controlled_troops
    ):
        modifiers.append(("native or kobolds and goblins", 1))
    if in_fortress:
        modifiers.append(("in a fortress", 1))
    small = [
        u for u in new_units if data.counter(u).kind is Kind.TROOP and is_small(data, data.counter(u).race)
    ]
    if small and len(small) == len([u for u in new_units if data.counter(u).kind is Kind.TROOP]):
        small_power = sum(data.counter(u).power for u in small)
        if army_power >= 2 * small_power:
            modifiers.append(("army twice the kobolds' and goblins' power", 1))
    return Target(counter.authority, tuple(modifiers))


def plain_target(data: GameData, leader: str) -> Target:
    """An authority check without the control modifiers (a leader's own rampage)."""
    return Target(data.counter(leader).authority)


def survivability_target(data: GameData, leader: str, shaman: bool, hacked: bool) -> Target:
    """Survivability, +1 with a shaman; half of it (after bonuses, rounded down) when hacked to pieces."""
    counter = data.counter(leader)
    modifiers: list[tuple[str, int]] = []
    if shaman:
        modifiers.append(("shaman", data.rules.shaman_bonus))
    whole = counter.survivability + sum(m for _, m in modifiers)
    if hacked:
        modifiers.append(("hacked to pieces: half", (whole // 2) - whole))
    return Target(counter.survivability, tuple(modifiers))


def survives(roll: int, target: int) -> bool:
    return roll <= target


def biggest_races(data: GameData, units: Iterable[str]) -> tuple[str, ...]:
    """The races of the biggest (most powerful) units; several when they tie."""
    raced = [data.counter(u) for u in units if data.counter(u).race]
    if not raced:
        return ()
    top = max(c.power for c in raced)
    return tuple(sorted({c.race for c in raced if c.power == top}))


def race_modifier(data: GameData, race: str) -> int:
    if race in data.rules.big_races:
        return -1
    if race in data.rules.small_races:
        return 1
    return 0


def undecided_tie(data: GameData, units: Iterable[str]) -> tuple[str, ...]:
    """The tied biggest races when they would give different modifiers (the owner decides, line 202)."""
    races = biggest_races(data, units)
    return races if len({race_modifier(data, r) for r in races}) > 1 else ()


def strategy_modifiers(
    data: GameData, units: Iterable[str], chosen: str, defender_in_fortress: bool
) -> tuple[tuple[str, int], ...]:
    races = biggest_races(data, units)
    mods = {race_modifier(data, r) for r in races}
    out: list[tuple[str, int]] = []
    race = chosen if chosen in races else (races[0] if len(mods) == 1 and races else "")
    modifier = race_modifier(data, race) if race else 0
    if modifier:
        out.append((f"biggest unit {race}", modifier))
    if defender_in_fortress:
        out.append(("defenders in a fortress", data.rules.fortress_bonus))
    return tuple(out)


def real_strategy(data: GameData, total: int) -> str:
    """The d6 (with its modifiers) of a failed leadership check: at most 3 charge, 4-5 careful, 6+ clever."""
    if total <= data.rules.charge_at_most:
        return "charge"
    if total <= data.rules.careful_at_most:
        return "careful"
    return "clever"
