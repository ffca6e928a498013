"""The attack dice at the table: the e-dice's faces are the game's data (data/dice.toml), and an attack is
a mixed throw (docs/bundles.md, "Rolls"): the yellow, red and blue dice, read one after another, fill one
slot each and make one roll for the engine; a second die of a colour is refused with a notice; an enemy's
throw is the table's (any die, whoever owns it); the owner's corrected faces reach the table's reading."""

from __future__ import annotations

from pathlib import Path

from companion.bundle import Act, LivePosition, Note
from companion.dice import Dice
from companion.engine import Player, Setup
from companion.games.shattered_chaos import actions as act
from companion.observations import DieId, DieRolled
from companion.table.rolls import RollCollector

from .rules_support import BASTION, DEADEYE, GAME, RAIDER, apply, enemies, new, spend_all, with_hero

DICE = Dice.load()
NAMED = {1: ("sc-yellow",), 2: ("sc-red",), 3: ("sc-blue",), 4: ("sc-yellow",), 5: ("sc-red",)}
"""[table.dice]: three six-sided e-dice look alike to the device; the table's settings say which is which."""
SETUP = Setup("shattered-chaos", tuple(Player(n) for n in ("Ana", "Ben", "Cy", "Di")))


def face(colour: str, symbol: str, dice: Dice = DICE) -> int:
    return dice[f"sc-{colour}"].faces.index(symbol) + 1


def position(state: object) -> LivePosition:
    return LivePosition(1, "playing", GAME, state, SETUP)


def attack_position() -> LivePosition:
    state, _ = apply(enemies(new(), 21), act.Attack(DEADEYE, 21, 2))
    return position(state)


def test_the_dice_file_describes_the_three_attack_dice() -> None:
    for colour in ("yellow", "red", "blue"):
        die = DICE[f"sc-{colour}"]
        assert die.answers_die(act.die_of(colour)) and len(die.faces) == 6
        assert set(die.faces) == set(GAME.catalog.die(colour).symbols)


def test_an_attack_asks_for_a_mixed_throw_of_the_three_colours() -> None:
    roll = attack_position().prompt.roll
    assert roll is not None
    assert (roll.die, roll.dice, roll.anyone) == ("sc-attack", ("sc-yellow", "sc-red", "sc-blue"), False)


def test_three_e_dice_read_in_turn_answer_the_throw_as_one_roll() -> None:
    live = attack_position()
    collector = RollCollector(DICE, window=2.0, named=NAMED)
    answers = [
        collector.rolled(DieRolled(DieId(3), face("blue", "blue:4"), 0.1, 6), live, 0.1),
        collector.rolled(DieRolled(DieId(1), face("yellow", "yellow:1"), 0.2, 6), live, 0.2),
        collector.rolled(DieRolled(DieId(2), face("red", "red:2v"), 0.3, 6), live, 0.3),
    ]
    assert answers[:2] == [None, None]
    assert isinstance(answers[2], Act)
    payload = dict(answers[2].payload)
    # The request's order, whatever order the dice came to rest in.
    assert payload == {
        "kind": "roll",
        "player": DEADEYE,
        "die": "sc-attack",
        "faces": ["yellow:1", "red:2v", "blue:4"],
    }
    # Named by its physical dice (the dice data), never by the throw's id.
    assert answers[2].summary == (
        "Ben's yellow attack die + red attack die + blue attack die roll (yellow 1, red 2 + vortex, blue 4)"
    )
    after, _ = GAME.apply(live.state, GAME.parse_action(payload))
    assert after.top.faces == ("yellow:1", "red:2v", "blue:4")


def test_a_second_yellow_is_refused_with_what_the_throw_still_needs() -> None:
    live = attack_position()
    collector = RollCollector(DICE, window=2.0, named=NAMED)
    assert collector.rolled(DieRolled(DieId(1), face("yellow", "yellow:3"), 0.1, 6), live, 0.1) is None
    second = collector.rolled(DieRolled(DieId(4), face("yellow", "yellow:2"), 0.2, 6), live, 0.2)
    assert isinstance(second, Note)
    assert (
        second.text
        == "yellow attack die rolled yellow 2 — Ben's roll still needs: red attack die, blue attack die"
    )


def test_the_enemys_throw_is_the_tables_whoever_owns_the_die() -> None:
    state = spend_all(with_hero(enemies(new(), 21), BASTION, chaos=4))  # the enemy phase: Bastion 7 chaos
    state, _ = apply(state, act.Sighted(21, (BASTION,)))  # gremlin 21 attacks Bastion with a red die
    live = position(state)
    roll = live.prompt.roll
    assert roll is not None and roll.anyone and roll.dice == ("sc-red",)
    assert GAME.actor(state, act.Roll(BASTION, act.ATTACK_DIE, ("red:1",))) is None
    collector = RollCollector(DICE, window=2.0, named=NAMED)
    # The red die belongs to Cy (Raider, seat 2); Ana (Bastion) is attacked: it is thrown for the enemy.
    thrown = collector.rolled(
        DieRolled(DieId(5), face("red", "red:3"), 0.1, 6), live, 0.1, owner=RAIDER, owned=(RAIDER,)
    )
    assert isinstance(thrown, Act)
    assert dict(thrown.payload) == {"kind": "roll", "player": BASTION, "die": "sc-attack", "faces": ["red:3"]}
    GAME.apply(state, thrown.action)


def test_the_owners_corrected_faces_reach_the_tables_reading(tmp_path: Path) -> None:
    owner = tmp_path / "owner.toml"
    owner.write_text(
        '[dice.sc-blue]\nfaces = ["blue:0vv", "blue:1", "blue:2", "blue:3", "blue:4", "blue:6"]\n'
        'provenance.faces = "my blue die: the two vortices on face 1, a 6 where the data says 5"\n',
        encoding="utf-8",
    )
    engine = GAME.with_owner_data(owner)
    dice = Dice.load(owner_data={"shattered-chaos": owner})
    assert dice["sc-blue"].faces[0] == "blue:0vv" and "blue:6" in engine.catalog.die("blue").symbols
    assert "my blue die" in dice["sc-blue"].provenance["faces"]
    assert dice["sc-yellow"] == DICE["sc-yellow"]  # the dice the owner did not correct are the packaged ones
    state, _ = engine.apply(enemies(engine.new_game(SETUP_WITH_OPTIONS), 21), act.Attack(DEADEYE, 21, 2))
    live = LivePosition(1, "playing", engine, state, SETUP_WITH_OPTIONS)
    collector = RollCollector(dice, window=2.0, named=NAMED)
    collector.rolled(DieRolled(DieId(1), face("yellow", "yellow:1"), 0.1, 6), live, 0.1)
    collector.rolled(DieRolled(DieId(2), face("red", "red:1"), 0.2, 6), live, 0.2)
    throw = collector.rolled(DieRolled(DieId(3), 6, 0.3, 6), live, 0.3)
    assert isinstance(throw, Act) and dict(throw.payload)["faces"][2] == "blue:6"
    engine.apply(state, throw.action)  # the engine takes the face the table read


SETUP_WITH_OPTIONS = Setup(
    "shattered-chaos", SETUP.players, (("adventurers", "Bastion, Deadeye, Raider, Stalker"),)
)
