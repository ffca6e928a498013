"""Odds before declaring: the turn player's private view lists the dice every attack it may declare would
roll, per choice of the phone's form. Each number must be the one the engine rolls once the attack is
declared (``dice.dice_for``), for every attacker, attack, target, height and declared condition."""

from __future__ import annotations

import random
from typing import Any

from companion.games.heroscape.dice import dice_for
from companion.games.heroscape.forecast import condition_key, subsets
from companion.games.heroscape.ids import FigureId
from companion.games.heroscape.prompts import attacks
from companion.games.heroscape.simulate import choose
from companion.games.heroscape.state import State

from .rules_support import CAT, GAME, act, battle, new, setup

ARMIES = [["shiori", "marro-drudge", "major-q10"], ["raelin", "marro-stingers", "sgt-drake-alexander"]]
ORDERS = [
    ("0:shiori", "0:major-q10", "0:marro-drudge", "0:shiori"),  # once 1 is revealed, the X alone on Shiori
    ("1:raelin", "1:marro-stingers", "1:raelin", "1:sgt-drake-alexander"),
]


def table(state: State) -> dict[str, Any]:
    assert state.turn is not None
    private = GAME.private_view(state, state.turn.seat)  # type: ignore[arg-type]
    assert private is not None and private["attack_dice"] is not None
    return private["attack_dice"]


def looked_up(dice: dict[str, Any], attack: Any, height: str, conditions: tuple[str, ...]) -> tuple[int, int]:
    """What the phone does: the attack half by attacker, attack, target size, height and the attacker's
    conditions; the defense half by defender, height and the defender's conditions."""
    attacker, defender = dice["attackers"][attack.attacker], dice["defenders"][attack.defender]
    mine = condition_key([c for c in conditions if c in attacker["conditions"]])
    theirs = condition_key([c for c in conditions if c in defender["conditions"]])
    count = attacker["dice"][attack.special or ""][defender["size"]][height][mine]
    return count, defender["dice"][height][theirs]


def checked(state: State) -> int:
    """Compares every listed number with ``dice_for``; returns how many attacks were compared."""
    dice = table(state)
    compared = 0
    for attack in attacks(CAT, state):
        a, d = FigureId.parse(attack.attacker), FigureId.parse(attack.defender)
        offered = ["adjacent", "aura", "swamp-water-attacker", "swamp-water-defender"]
        for height in dice["heights"]:
            for conditions in subsets(offered):
                try:
                    engine = dice_for(CAT, state, a, d, attack.special, height, frozenset(conditions))
                except ValueError:
                    continue  # a condition that does not apply: the engine refuses the attack
                assert looked_up(dice, attack, height, conditions) == engine, (attack, height, conditions)
                compared += 1
    return compared


def test_every_listed_number_is_the_engines_with_auras_concentrated_will_specials_and_swamp() -> None:
    state = act(battle(ARMIES, ORDERS), "moved", player=0)
    dice = table(state)
    assert dice["faces"] == ["skull"] * 3 + ["shield"] * 2 + ["blank"]  # the combat die's data
    assert set(dice["attackers"]) == {"0:shiori/1"}
    assert set(dice["attackers"]["0:shiori/1"]["dice"]) == {"", "shuriken"}
    assert dice["defenders"]["1:marro-stingers/1"]["conditions"] == ["aura"]  # Raelin's aura
    assert checked(state) > 100
    # Concentrated Will: Shiori's one marker left gives her +1 attack (3 + 1) and the table says so.
    assert dice["attackers"]["0:shiori/1"]["dice"][""]["medium"]["none"][""] == 4


def test_the_table_follows_the_turn_a_glyph_and_the_basic_game() -> None:
    state = act(battle(ARMIES, ORDERS), "glyph", player=0, figure="0:shiori", glyph="ulaniva")
    moved = act(state, "moved", player=0)
    assert table(moved)["attackers"]["0:shiori/1"]["dice"][""]["medium"]["none"][""] == 5  # + Ulaniva
    assert checked(moved) > 0
    assert GAME.private_view(state, 1)["attack_dice"] is None  # type: ignore[arg-type,index]  # not Ben's turn
    basic = new("a-long-wait")
    for seat in (0, 1):
        faces = ["skull"] * (6 - seat) + ["blank"] * seat
        basic = act(basic, "roll", player=seat, die="combat", faces=faces)
    unit = next(uid.format() for uid, _ in basic.units_of(0))
    basic = act(basic, "choose_card", player=0, unit=unit)
    assert table(basic)["heights"] == ["none", "attacker", "defender"]
    assert checked(basic) > 0


def test_random_positions_of_random_games_list_the_engines_numbers() -> None:
    rng = random.Random(7)
    compared = 0
    for scenario in ("deadly-wall-of-water", "waters-of-life", "custom"):
        state = GAME.new_game(setup(scenario, army="premade"))
        for _ in range(4000):
            if state.finished or compared > 3000:
                break
            if state.turn is not None and not state.stack:
                compared += checked(state) if rng.random() < 0.2 else 0
            action = choose(GAME, state, rng)
            if action is None:
                break
            state, _ = GAME.apply(state, action)
    assert compared > 500


def test_each_number_says_which_modifiers_it_includes() -> None:
    """The phone's odds say what they include: the parts beside each number add up to it."""
    state = act(battle(ARMIES, ORDERS), "moved", player=0)
    shiori = table(state)["attackers"]["0:shiori/1"]
    assert shiori["parts"][""]["medium"]["attacker"][""] == [
        ["Attack", 3],
        ["height advantage", 1],
        ["Concentrated Will", 1],
    ]
    assert shiori["parts"]["shuriken"]["medium"]["attacker"][""] == [["Shuriken Special Attack", 3]]
    stinger = table(state)["defenders"]["1:marro-stingers/1"]
    assert stinger["parts"]["none"]["aura"] == [["Defense", 3], ["Extended Defensive Aura", 1]]

    def leaves(tree: Any) -> list[Any]:
        return [x for v in tree.values() for x in leaves(v)] if isinstance(tree, dict) else [tree]

    for entry in [*table(state)["attackers"].values(), *table(state)["defenders"].values()]:
        dice, parts = leaves(entry["dice"]), leaves(entry["parts"])
        assert dice == [max(0, sum(n for _, n in p)) for p in parts]
