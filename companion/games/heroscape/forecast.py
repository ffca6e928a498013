"""The dice of every attack the turn's player may declare, before it is declared, so the phone's attack
form shows the exact odds while the player fills it in.

The numbers are the engine's own: ``dice.attack_parts`` and ``dice.defense_parts``, the two halves
of what a declared attack rolls, listed for every choice the form offers. The attack dice depend on the
attacker, the attack (normal or special), the defender's size (a special attack's dice may), the height
and the attacker's declared conditions; the defense dice on the defender, the height and the defender's
declared conditions. The phone looks both up and computes the distribution from the combat die's faces
(also listed), as ``companion odds heroscape`` does.

They go to the turn player's private view, not the public one: Concentrated Will counts the face-down
order markers on a card, which the public view never tells (the backs lie on the table for all to see,
as the Glyph of Ored's question also shows).
"""

from __future__ import annotations

import itertools
from typing import Any

from companion.engine import JSON, IllegalActionError
from companion.games.heroscape.catalog import Catalog
from companion.games.heroscape.common import acting_pool, living_figures, opponents
from companion.games.heroscape.dice import (
    AURA,
    HEIGHT_BONUS,
    TERRAIN_DEFENDER,
    Parts,
    attack_parts,
    declarable,
    defense_parts,
)
from companion.games.heroscape.ids import FigureId
from companion.games.heroscape.odds import combat_faces
from companion.games.heroscape.state import State

DEFENDER_CONDITIONS = (AURA, TERRAIN_DEFENDER)
"""The declarable conditions that change the defense dice (adjacency only allows an attack)."""


def condition_key(conditions: tuple[str, ...] | list[str]) -> str:
    """How the tables name a set of declared conditions: sorted, joined by "+" ("" for none)."""
    return "+".join(sorted(conditions))


def subsets(conditions: list[str]) -> list[tuple[str, ...]]:
    return [c for n in range(len(conditions) + 1) for c in itertools.combinations(conditions, n)]


def attack_dice(cat: Catalog, state: State, seat: int) -> dict[str, JSON] | None:
    """``{"heights", "faces", "attackers", "defenders"}`` for ``seat``'s turn while it may declare an
    attack, else None. ``attackers[figure]["dice"][attack][size][height][conditions]`` is the attack
    dice (``attack`` "" for a normal attack, else the special attack's power id);
    ``defenders[figure]["dice"][height][conditions]`` the defense dice. ``"parts"`` beside each ``"dice"``
    has the same keys and says where each number comes from: ``[["Attack", 3], ["height advantage",
    1], ["Glyph of Ulaniva", 1]]``."""
    turn = state.turn
    if turn is None or turn.seat != seat or state.stack or state.finished or turn.step == "ending":
        return None
    heights = [h for h in HEIGHT_BONUS if not (state.basic and h.endswith("-major"))]
    rivals = [other for other in range(state.seats) if opponents(state, seat, other)]
    targets = [f for other in rivals for f in living_figures(state, other)]
    sizes = sorted({cat.card(t.unit.card).size for t in targets})
    attackers: dict[str, JSON] = {}
    for fid in acting_pool(cat, state):
        conditions = [c for c in declarable(cat, state, fid, fid) if c.endswith("attacker")]
        parts = _attack_table(cat, state, fid, sizes, heights, conditions)
        attackers[fid.format()] = {"conditions": conditions, "dice": _totals(parts), "parts": parts}
    defenders: dict[str, JSON] = {}
    for fid in targets:
        conditions = [c for c in declarable(cat, state, None, fid) if c in DEFENDER_CONDITIONS]
        parts = {
            height: {
                condition_key(chosen): _json(defense_parts(cat, state, fid, height, frozenset(chosen)))
                for chosen in subsets(conditions)
            }
            for height in heights
        }
        defenders[fid.format()] = {
            "size": cat.card(fid.unit.card).size,
            "conditions": conditions,
            "dice": _totals(parts),
            "parts": parts,
        }
    return {"heights": heights, "faces": list(combat_faces()), "attackers": attackers, "defenders": defenders}


def _json(parts: Parts) -> list[JSON]:
    return [[what, n] for what, n in parts]


def _totals(table: Any) -> Any:
    """The same nested keys with each leaf's parts summed into its dice."""
    if isinstance(table, dict):
        return {key: _totals(value) for key, value in table.items()}
    return max(0, sum(n for _, n in table))


def _attack_table(
    cat: Catalog, state: State, fid: FigureId, sizes: list[str], heights: list[str], conditions: list[str]
) -> dict[str, JSON]:
    specials = [] if state.basic else [pw.id for pw in cat.card(fid.unit.card).powers_of("special-attack")]
    table: dict[str, JSON] = {}
    for special in [None, *specials]:
        try:
            table[special or ""] = {
                size: {
                    height: {
                        condition_key(chosen): _json(
                            attack_parts(cat, state, fid, size, special, height, frozenset(chosen))
                        )
                        for chosen in subsets(conditions)
                    }
                    for height in heights
                }
                for size in sizes
            }
        except IllegalActionError:
            continue  # a negated card's special attack: the form offers it, the engine refuses it
    return table
