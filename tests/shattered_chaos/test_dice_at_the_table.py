"""The attack dice at the table: the e-dice's faces are the game's data (data/dice.toml), and the three dice
of one throw, read one after another, make one roll for the engine (the table gathers a throw's dice)."""

from __future__ import annotations

from companion.bundle import LivePosition
from companion.dice import Dice
from companion.engine import Setup
from companion.games.shattered_chaos import actions as act
from companion.observations import DieRolled
from companion.table.rolls import RollCollector

from .rules_support import DEADEYE, GAME, apply, enemies, new


def test_the_dice_file_describes_the_three_attack_dice() -> None:
    dice = Dice.load()
    for colour in ("yellow", "red", "blue"):
        die = dice[f"sc-{colour}"]
        assert die.answers_die(act.ATTACK_DIE) and len(die.faces) == 6
        assert set(die.faces) == set(GAME.catalog.die(colour).symbols)


def test_three_e_dice_read_in_turn_answer_the_throw_as_one_roll() -> None:
    state, _ = apply(enemies(new(), 21), act.Attack(DEADEYE, 21, 2))
    position = LivePosition(1, "playing", GAME, state, Setup("shattered-chaos", ()))
    collector = RollCollector(Dice.load(), window=2.0)
    dice = Dice.load()
    answers = [
        collector.rolled(
            DieRolled(3, "sc-blue", dice["sc-blue"].faces.index("blue:4") + 1, 0.1), position, 0.1
        ),
        collector.rolled(
            DieRolled(1, "sc-yellow", dice["sc-yellow"].faces.index("yellow:1") + 1, 0.2), position, 0.2
        ),
        collector.rolled(
            DieRolled(2, "sc-red", dice["sc-red"].faces.index("red:2v") + 1, 0.3), position, 0.3
        ),
    ]
    assert answers[:2] == [None, None]
    payload = dict(answers[2].payload)
    assert payload == {
        "kind": "roll",
        "player": DEADEYE,
        "die": "sc-attack",
        "faces": ["blue:4", "yellow:1", "red:2v"],
    }
    after, _ = GAME.apply(state, GAME.parse_action(payload))
    assert after.top.faces == ("yellow:1", "red:2v", "blue:4")  # in the engine's colour order
