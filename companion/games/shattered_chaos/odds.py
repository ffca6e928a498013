"""Exact odds of an adventurer's attack (V.B.4, V.C, V.D): over every throw of the yellow, red and blue dice,
whether a die reaches the distance, whether the attack stuns or lands a critical hit, and the damage after
the enemy's armour, with the adventurer reading each throw the best way (the range die and the vortices
that do the most damage; a stun or a critical hit counted where the adventurer can choose it).

The faces come from the dice data, never from constants here; the arithmetic is exact (fractions), floats
only at the edge, for JSON. A chaos hit (throwing dice again) is the adventurer's choice after the throw
and is not in these figures.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from fractions import Fraction

from companion.engine import JSON
from companion.games.shattered_chaos.attacks import vortex_totals
from companion.games.shattered_chaos.catalog import COLOURS, Catalog, Face, Rules


@dataclass(frozen=True)
class AttackOdds:
    distance: int
    reach: Fraction
    stun: Fraction
    critical: Fraction
    expected_damage: Fraction
    damage: tuple[Fraction, ...]
    """P(exactly k damage) for k = 0, 1, 2... (a missed attack does 0)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "distance": self.distance,
            "p_reach": float(self.reach),
            "p_stun": float(self.stun),
            "p_critical": float(self.critical),
            "expected_damage": float(self.expected_damage),
            "damage_distribution": [float(p) for p in self.damage],
        }


def attack_odds(
    cat: Catalog,
    distance: int,
    range_bonus: int = 0,
    damage_bonus: int = 0,
    vortex_sources: tuple[int, ...] = (),
    armour: int = 0,
    destruction: bool = False,
) -> AttackOdds:
    """The odds of an attack on an enemy ``distance`` spaces away with ``armour`` armour."""
    dice = tuple(cat.die(c).faces for c in COLOURS)
    return _odds(
        dice, cat.rules, distance, range_bonus, damage_bonus, tuple(vortex_sources), armour, destruction
    )


@functools.lru_cache(maxsize=512)
def _odds(
    dice: tuple[tuple[Face, ...], ...],
    rules: Rules,
    distance: int,
    range_bonus: int,
    damage_bonus: int,
    vortex_sources: tuple[int, ...],
    armour: int,
    destruction: bool,
) -> AttackOdds:
    """Cached: a view shows the odds of the attack under way after every input, and a Pi has little time."""
    weight = Fraction(1, len(dice[0]) * len(dice[1]) * len(dice[2]))
    reach = stun = critical = expected = Fraction(0)
    spread: dict[int, Fraction] = {}
    for throw in itertools.product(*dice):
        reaching = [i for i, face in enumerate(throw) if face.eyes + range_bonus >= distance]
        if not reaching:
            spread[0] = spread.get(0, Fraction(0)) + weight
            continue
        reach += weight
        totals = vortex_totals(sum(f.vortices for f in throw), vortex_sources)
        best_vortices = max(totals)
        if best_vortices >= rules.stun_vortices:
            stun += weight
        if best_vortices >= rules.critical_vortices:
            critical += weight
        best = 0
        for index in reaching:
            damage = sum(f.eyes for i, f in enumerate(throw) if i != index) + damage_bonus
            for vortices in totals:
                ignored = (
                    min(armour, rules.critical_ignores_armour) if vortices >= rules.critical_vortices else 0
                )
                net = max(0, damage - (armour - ignored)) + (rules.destruction_damage if destruction else 0)
                best = max(best, net)
        expected += weight * best
        spread[best] = spread.get(best, Fraction(0)) + weight
    top = max(spread) if spread else 0
    return AttackOdds(
        distance, reach, stun, critical, expected, tuple(spread.get(k, Fraction(0)) for k in range(top + 1))
    )


def adventurer_odds(cat: Catalog, adventurer: str | None, distance: int, armour: int = 0) -> AttackOdds:
    """The odds with an adventurer's printed talent (``None``: no talent)."""
    if adventurer is None:
        return attack_odds(cat, distance, armour=armour)
    card = cat.adventurer_named(adventurer)
    talent = cat.talent(card.talent)
    amount = {talent.bonus: talent.amount}
    sources = (talent.amount,) if talent.bonus == "vortex" else ()
    return attack_odds(cat, distance, amount.get("range", 0), amount.get("damage", 0), sources, armour)
