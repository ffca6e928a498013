"""How many dice an attack rolls, and why: each count is the sum of its *parts* ("Attack 3", "+1 height
advantage", "+1 Glyph of Ulaniva", "+1 Concentrated Will"), so the events, the TV and the phone's odds
say which modifiers they include.

Rulebook, Attacking: the attacker rolls its Attack number, plus one die for a height advantage (two when
its base is 10 or more levels above the lower figure's height), plus what glyphs and special powers add;
the defender rolls its Defense likewise. "Special attacks can never be modified by Glyphs, other special
powers or height advantages": a special attack's dice are its own (the defender's size may choose them).
What only the map knows (height, adjacency, an aura's reach, swamp water) is declared with the attack.
"""

from __future__ import annotations

from companion.games.heroscape.catalog import Catalog, Power
from companion.games.heroscape.common import (
    acting_unit,
    fail,
    figure_label,
    markers_left,
    owned_label,
    power_active,
)
from companion.games.heroscape.ids import FigureId
from companion.games.heroscape.state import State

Parts = list[tuple[str, int]]
"""(what, dice): the first part is the card's number (or the special attack's), the rest modifiers."""

HEIGHT_BONUS = {
    "none": (0, 0),
    "attacker": (1, 0),
    "attacker-major": (2, 0),
    "defender": (0, 1),
    "defender-major": (0, 2),
}
"""Extra dice (attacker, defender) for a declared height advantage (rulebook, Height Advantage)."""
HEIGHT = "height advantage"
ADJACENT = "adjacent"
AURA = "aura"
TERRAIN_ATTACKER = "swamp-water-attacker"
TERRAIN_DEFENDER = "swamp-water-defender"
CONDITIONS = {
    ADJACENT: "The attacker is adjacent to the defender",
    AURA: "The defender is within the defensive aura of a friendly figure",
    TERRAIN_ATTACKER: "The attacker stands on swamp water",
    TERRAIN_DEFENDER: "The defender stands on swamp water",
}


def total(parts: Parts) -> int:
    return max(0, sum(n for _, n in parts))


def describe(parts: Parts) -> str:
    """ "Attack 3, +1 height advantage, +1 Glyph of Ulaniva" (the card's number, then each modifier)."""
    if not parts:
        return ""
    (first, base), rest = parts[0], parts[1:]
    return ", ".join([f"{first} {base}", *(f"{n:+d} {what}" for what, n in rest)])


# ---------------------------------------------------------------------------------------- modifiers


def aura(cat: Catalog, state: State, defender: FigureId) -> tuple[str, int]:
    """(power, bonus) of the best defensive aura on the defender's side (its own never covers it)."""
    best: tuple[str, int] = ("", 0)
    for uid, unit in state.units_of(defender.seat):
        if not unit.alive or unit.negated or uid == defender.unit:
            continue
        for power in cat.card(uid.card).powers_of("defensive-aura"):
            if power.number("bonus", 1) > best[1]:
                best = (power.name, power.number("bonus", 1))
    return best


def aura_bonus(cat: Catalog, state: State, defender: FigureId) -> int:
    return aura(cat, state, defender)[1]


def thorian_holder(state: State, seat: int) -> bool:
    """A figure of ``seat``'s army stands on the Glyph of Thorian ("your figures": the holder's army,
    as Ulaniva's and Crevcor's "your Army"; a teammate's figures are not covered)."""
    return any(
        g.glyph == "thorian" and g.holder and not g.removed and FigureId.parse(g.holder).seat == seat
        for g in state.glyphs
    )


def glyph_parts(cat: Catalog, state: State, attacker: FigureId) -> Parts:
    """Ulaniva (unique figures) and Crevcor (common figures) held by the attacker's army."""
    card = cat.card(attacker.unit.card)
    out = []
    for g in state.glyphs:
        if g.removed or g.holder is None or FigureId.parse(g.holder).seat != attacker.seat:
            continue
        if (g.glyph == "ulaniva" and card.unique) or (g.glyph == "crevcor" and card.common):
            out.append((cat.glyph(g.glyph).title, 1))
    return out


def glyph_attack_bonus(cat: Catalog, state: State, attacker: FigureId) -> int:
    return sum(n for _, n in glyph_parts(cat, state, attacker))


def concentrated(cat: Catalog, state: State, fid: FigureId) -> int:
    """Concentrated Will: +1 while only one unrevealed order marker lies on the card."""
    power = _concentrated_power(cat, state, fid)
    return power.number("bonus", 1) if power is not None else 0


def _concentrated_power(cat: Catalog, state: State, fid: FigureId) -> Power | None:
    unit = state.unit(fid.unit)
    power = cat.card(fid.unit.card).power("concentrated-will")
    if unit is None or unit.negated or power is None:
        return None
    return power if markers_left(state, fid.seat, fid.unit.format()) == 1 else None


def turn_part(cat: Catalog, state: State, attacker: FigureId) -> tuple[str, int]:
    """What a power added to the turn's figures' attack this turn (Stinger Drain on 10 or more)."""
    turn = state.turn
    if turn is None or not turn.attack_bonus or attacker.seat != turn.seat:
        return ("", 0)
    uid = acting_unit(state)
    if uid is None or uid.card != attacker.unit.card:
        return ("", 0)
    power = next((p for p in cat.card(uid.card).powers_of("d20") if p.params.get("effect") == "drain"), None)
    return (power.name if power is not None else "this turn's power", turn.attack_bonus)


def turn_bonus(cat: Catalog, state: State, attacker: FigureId) -> int:
    return turn_part(cat, state, attacker)[1]


def terrain(cat: Catalog, state: State, fid: FigureId, side: str) -> tuple[str, int]:
    unit = state.unit(fid.unit)
    power = cat.card(fid.unit.card).power("terrain-bonus")
    if unit is None or unit.negated or power is None:
        return ("", 0)
    return (power.name, power.number(side, 0))


def terrain_bonus(cat: Catalog, state: State, fid: FigureId, side: str) -> int:
    return terrain(cat, state, fid, side)[1]


def special_power(cat: Catalog, state: State, attacker: FigureId, special: str) -> Power:
    if state.basic:
        fail("The Basic Game has no special attacks")
    unit = state.unit(attacker.unit)
    power = next(
        (p for p in cat.card(attacker.unit.card).powers_of("special-attack") if p.id == special), None
    )
    if power is None:
        fail(f"{figure_label(cat, state, attacker)} has no special attack {special!r}")
    if unit is not None and unit.negated:
        fail(f"{figure_label(cat, state, attacker)}'s special powers are negated")
    return power


# ------------------------------------------------------------------------------------------ counts


def dice_for(
    cat: Catalog,
    state: State,
    attacker: FigureId,
    defender: FigureId,
    special: str | None,
    height: str,
    conditions: frozenset[str],
) -> tuple[int, int]:
    """(attack dice, defense dice) of a declared attack; refuses conditions that do not apply."""
    attack, defense = parts_for(cat, state, attacker, defender, special, height, conditions)
    return total(attack), total(defense)


def parts_for(
    cat: Catalog,
    state: State,
    attacker: FigureId,
    defender: FigureId,
    special: str | None,
    height: str,
    conditions: frozenset[str],
) -> tuple[Parts, Parts]:
    """The attack's and the defense's parts; refuses conditions that do not apply."""
    check_conditions(cat, state, attacker, defender, special, conditions)
    if state.basic and height.endswith("-major"):
        fail("The Basic Game gives the higher figure one extra die, however high it stands")
    size = cat.card(defender.unit.card).size
    return (
        attack_parts(cat, state, attacker, size, special, height, conditions),
        defense_parts(cat, state, defender, height, conditions),
    )


def attack_parts(
    cat: Catalog,
    state: State,
    attacker: FigureId,
    defender_size: str,
    special: str | None,
    height: str,
    conditions: frozenset[str],
) -> Parts:
    """The attack dice, part by part: the card's Attack (or the special attack's own dice, which only
    the defender's size may change), height, glyphs and powers. Depends on the defender only through
    its size."""
    card = cat.card(attacker.unit.card)
    up = HEIGHT_BONUS[height][0]
    if special is not None:
        # A special attack's own dice are never modified by height, glyphs or other powers.
        power = special_power(cat, state, attacker, special)
        by_size = power.params.get("by_size") or {}
        return [(power.name, int(by_size.get(defender_size, power.number("attack"))))]
    if state.basic:
        return _listed([("Attack", card.basic["attack"]), (HEIGHT, up)])
    parts: Parts = [("Attack", card.attack), (HEIGHT, up), *glyph_parts(cat, state, attacker)]
    will = _concentrated_power(cat, state, attacker)
    if will is not None:
        parts.append((will.name, will.number("bonus", 1)))
    parts.append(turn_part(cat, state, attacker))
    if TERRAIN_ATTACKER in conditions:
        parts.append(terrain(cat, state, attacker, "attack"))
    return _listed(parts)


def defense_parts(
    cat: Catalog, state: State, defender: FigureId, height: str, conditions: frozenset[str]
) -> Parts:
    """The defense dice, part by part: the card's Defense, height, auras and powers (the same whoever
    attacks; the defender rolls them against a special attack too)."""
    card = cat.card(defender.unit.card)
    down = HEIGHT_BONUS[height][1]
    if state.basic:
        return _listed([("Defense", card.basic["defense"]), (HEIGHT, down)])
    parts: Parts = [("Defense", card.defense), (HEIGHT, down)]
    will = _concentrated_power(cat, state, defender)
    if will is not None:
        parts.append((will.name, will.number("bonus", 1)))
    if AURA in conditions:
        parts.append(aura(cat, state, defender))
    if TERRAIN_DEFENDER in conditions:
        parts.append(terrain(cat, state, defender, "defense"))
    return _listed(parts)


def _listed(parts: Parts) -> Parts:
    """The card's number, then the modifiers that add something."""
    return [parts[0], *(p for p in parts[1:] if p[1])]


def attack_count(
    cat: Catalog,
    state: State,
    attacker: FigureId,
    defender_size: str,
    special: str | None,
    height: str,
    conditions: frozenset[str],
) -> int:
    return total(attack_parts(cat, state, attacker, defender_size, special, height, conditions))


def defense_count(
    cat: Catalog, state: State, defender: FigureId, height: str, conditions: frozenset[str]
) -> int:
    return total(defense_parts(cat, state, defender, height, conditions))


# -------------------------------------------------------------------------------------- conditions


def declarable(cat: Catalog, state: State, attacker: FigureId | None, defender: FigureId) -> list[str]:
    """The conditions a player may declare for an attack on ``defender`` (by ``attacker``)."""
    out = []
    if not state.basic and adjacency_required(cat, state, defender):
        out.append(ADJACENT)
    if not state.basic and aura_bonus(cat, state, defender):
        out.append(AURA)
    if not state.basic and terrain_bonus(cat, state, defender, "defense"):
        out.append(TERRAIN_DEFENDER)
    if attacker is not None and not state.basic and terrain_bonus(cat, state, attacker, "attack"):
        out.append(TERRAIN_ATTACKER)
    return out


def adjacency_required(cat: Catalog, state: State, defender: FigureId) -> bool:
    """Normal attacks on ``defender`` must come from an adjacent figure (Thorian Speed, Glyph of Thorian)."""
    if state.basic:
        return False  # the Basic Game has neither special powers nor glyphs
    unit = state.unit(defender.unit)
    return (unit is not None and power_active(cat, unit, "thorian-speed")) or thorian_holder(
        state, defender.seat
    )


def check_conditions(
    cat: Catalog,
    state: State,
    attacker: FigureId,
    defender: FigureId,
    special: str | None,
    conditions: frozenset[str],
) -> None:
    unknown = conditions - set(CONDITIONS)
    if unknown:
        fail(f"Unknown conditions: {', '.join(sorted(unknown))} (known: {', '.join(CONDITIONS)})")
    allowed = set(declarable(cat, state, attacker, defender)) | {ADJACENT}
    extra = conditions - allowed
    if extra:
        fail(f"That does not apply here: {', '.join(CONDITIONS[c] for c in sorted(extra))}")
    if special is None and ADJACENT not in conditions and adjacency_required(cat, state, defender):
        fail(f"{owned_label(cat, state, defender)} can only be attacked normally by an adjacent figure")
