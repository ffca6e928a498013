"""Combat, part by part, each rule with the line of the rules text it comes from."""

from __future__ import annotations

import json

import pytest

from companion.engine import IllegalActionError, PlayerId, Roll
from companion.games.orcwars_too.actions import AssignDamage, Attack, Choose, ChooseStrategy, Levy
from companion.games.orcwars_too.state import Army, Hand, Land
from companion.games.orcwars_too.tables import damage as combat_damage
from companion.games.orcwars_too.tables import every_cell

from .positions import choose, engine, play, position, roll, texts

P0, P1 = PlayerId(0), PlayerId(1)


def duel(game, attacker_units=("orcs#1", "orcs#2"), defender_units=("goblins#1", "goblins#2"), **kw):
    """Grim (seat 0) attacks Snag (seat 1) in the Middle."""
    state = position(
        game,
        armies=[
            Army("grim", 0, "middle", attacker_units, shaman=kw.pop("attacker_shaman", None)),
            Army("snag", 1, "middle", defender_units, shaman=kw.pop("defender_shaman", None)),
        ],
        **kw,
    )
    state, events = play(game, state, Attack(P0, "grim", "seat:1"))
    return state, events


# ---------------------------------------------------------------------------------------- 1.1 strategy


def test_strategies_are_chosen_in_secret_and_revealed_together() -> None:
    """Lines 165-171: each side chooses; both are revealed at the same time."""
    game = engine()
    state, events = duel(game)
    assert "Battle in Middle" in texts(events)
    assert game.prompt(state).kind == "strategy" and set(game.prompt(state).players) == {0, 1}
    state, events = play(game, state, ChooseStrategy(P0, "charge"))
    shown = json.dumps(game.view(state)["battle"])
    assert "Mindless" not in shown and '"proposed": "charge"' not in shown
    assert game.view(state)["battle"]["attacker"]["chosen"] is True
    assert game.view(state)["battle"]["attacker"]["proposed"] is None
    assert "Mindless" not in texts(events)
    assert game.private_view(state, P0)["strategy"] == "charge"  # type: ignore[index]
    assert game.private_view(state, P1)["strategy"] is None  # type: ignore[index]
    assert game.prompt(state).players == (1,)
    with pytest.raises(IllegalActionError):
        game.apply(state, ChooseStrategy(P0, "clever"))  # chosen once
    state, events = play(game, state, ChooseStrategy(P1, "clever"))
    battle = game.view(state)["battle"]
    assert (
        battle["revealed"]
        and battle["attacker"]["proposed"] == "charge"
        and battle["defender"]["proposed"] == "clever"
    )
    assert "revealed together" in texts(events)


def test_a_side_with_a_shaman_chooses_after_seeing_the_other() -> None:
    """Line 177: the side with a shaman chooses after the enemy has revealed his."""
    game = engine()
    state, _ = duel(game, defender_shaman="shaman#1")
    assert game.prompt(state).players == (0,)
    with pytest.raises(IllegalActionError):
        game.apply(state, ChooseStrategy(P1, "careful"))
    state, _ = play(game, state, ChooseStrategy(P0, "charge"))
    assert game.view(state)["battle"]["attacker"]["proposed"] == "charge"  # shown for the shaman to see
    assert game.prompt(state).players == (1,)
    state, _ = play(game, state, ChooseStrategy(P1, "clever"))
    assert game.view(state)["battle"]["revealed"]


def test_two_shamans_cancel_out() -> None:
    """Line 177: this advantage is negated if both have shaman."""
    game = engine()
    state, _ = duel(game, attacker_shaman="shaman#1", defender_shaman="shaman#2")
    assert set(game.prompt(state).players) == {0, 1}


def test_only_a_lonely_defending_chief_may_flee_and_is_destroyed_then_rolls_to_escape() -> None:
    """Lines 173-175: a lonely chief may flee; he is 'destroyed' and rolls survivability to escape."""
    game = engine()
    state, _ = duel(game, defender_units=(), defender_shaman="shaman#1")
    with pytest.raises(IllegalActionError, match="may choose charge, careful, clever"):
        game.apply(state, ChooseStrategy(P0, "flee"))  # the attacker is no lonely chief
    state, _ = play(game, state, ChooseStrategy(P0, "charge"))  # Snag's shaman lets him see it first
    flee = [c.action for c in game.prompt(state).choices if getattr(c.action, "strategy", "") == "flee"]
    assert flee and flee[0].player == 1
    state, _ = play(game, state, ChooseStrategy(P1, "flee"))
    asked = game.prompt(state)
    assert "survivability" in asked.text and "6 or less" in asked.text  # 5 + 1 with his shaman
    state, events = roll(game, state, 7)  # caught
    assert "captured" in texts(events)
    assert state.battle is None and "snag" in state.hands[0].captives
    assert state.army("grim").shaman == "shaman#1"  # 'If chief had shaman, he automatically joins winner'


# ---------------------------------------------------------------------------------------- 1.2 leadership


def test_a_passed_leadership_check_keeps_the_proposed_strategy() -> None:
    """Lines 193: the authority check; the troops do what they are told."""
    game = engine()
    state, _ = duel(game)
    state = choose(game, state, "charge", "careful")
    asked = game.prompt(state)
    assert asked.roll.die == "d8" and "6 or less" in asked.text  # Grim 5, +1: all troops native to him
    state, _ = roll(game, state, 6)
    assert state.battle.attacker.real == "charge"


def test_eight_always_fails_and_the_d6_decides_the_real_strategy() -> None:
    """Lines 106 and 193-196: 8 always fails; d6 up to 3 charge, 4-5 careful, 6+ clever."""
    game = engine('[[leaders]]\nid = "grim"\nauthority = 8\nprovenance.authority = "test"\n')
    state, _ = duel(game)
    state = choose(game, state, "charge", "careful")
    state, events = roll(game, state, 8)
    assert "roll a d6" in texts(events) and state.battle.attacker.real == ""
    state, events = roll(game, state, 4)
    assert state.battle.attacker.real == "careful"


def test_the_real_strategys_modifiers() -> None:
    """Lines 198-202: -1 biggest unit troll or ogre, +1 kobold or goblin, +1 defenders in a fortress."""
    game = engine()
    state, _ = duel(
        game,
        attacker_units=("trolls#1",),
        defender_units=("goblins#1",),
        lands=[Land("middle", 1, fortress=2)],
    )
    state = choose(game, state, "clever", "careful")
    state, _ = roll(game, state, 8)  # Grim fails
    assert "(-1)" in game.prompt(state).text  # a troll is his biggest unit
    state, _ = roll(game, state, 4)  # 4 - 1 = 3: charge
    assert state.battle.attacker.real == "charge"
    state, _ = roll(game, state, 8)  # Snag fails
    assert "(+2)" in game.prompt(state).text  # goblins, and a fortress
    state, _ = roll(game, state, 3)  # 3 + 2 = 5: careful (defence)
    assert state.battle.defender.real == "careful"


def test_tied_biggest_units_the_owner_says_which_counts() -> None:
    """Line 202: if there is a tie between the biggest troops, the owner decides before the roll."""
    game = engine('[[troops]]\nid = "goblins"\npower = 5\nprovenance.power = "test"\n')
    state, _ = duel(game, attacker_units=("ogres#1", "goblins#1"))
    state = choose(game, state, "clever", "careful")
    state, _ = roll(game, state, 8)
    asked = game.prompt(state)
    assert asked.kind == "choose" and asked.players == (0,)
    state, _ = play(game, state, Choose(P0, "goblin"))
    assert "(+1)" in game.prompt(state).text


# ---------------------------------------------------------------------------------------- fortress, caves


def test_the_fortress_table_the_walls_and_the_war_machine() -> None:
    """Lines 181-187, 241-243: the defender in a fortress uses it; the walls absorb their rating, one war
    machine negates as much as its power."""
    game = engine()
    state, events = duel(
        game,
        attacker_units=("orcs#1", "orcs#2", "orcs#3", "catapult"),
        defender_units=("goblins#1",),
        lands=[Land("middle", 1, fortress=4)],
    )
    assert state.battle.fortress == 4 and state.battle.war_machine == 3
    assert "fortress of rating 4" in texts(events)
    state = choose(game, state, "clever", "careful")
    state, _ = roll(game, state, 1, 1)  # both obey
    damage = game.view(state)["battle"]["damage"]
    assert damage["table"] == "fortress" and damage["cell"] == "1:5 - 1:1*"
    # Grim 5 + orcs 6 + catapult 3 = 14 at 1:1, the walls' 4 less the catapult's 3: 13.
    assert (
        damage["raw_damage_to_defender"] == 14
        and damage["absorbed"] == 1
        and damage["damage_to_defender"] == 13
    )
    assert damage["castle_destroyed"]  # 14 > 5 + 4


def test_no_fortress_against_rebels() -> None:
    """Lines 111 and 181: the fortress does not help against one's own troops (levying)."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "middle", ("orcs#1",))],
        hands={0: Hand(("ogres#1",))},
        lands=[Land("middle", 0, fortress=3)],
    )
    state, _ = play(game, state, Levy(P0, "grim", ("ogres#1",)))
    assert "6 or less" in game.prompt(state).text  # 5, +1 in a fortress (the ogres are not native to him)
    state, events = roll(game, state, 8)
    assert "attack him" in texts(events)
    assert state.battle.origin == "rebels" and state.battle.fortress == 0


def test_an_army_from_the_caves_surprises_a_fortress() -> None:
    """Line 189: arriving underground at a fortress with hostile troops: clever against careful defence."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a", ("orcs#1", "orcs#2")), Army("snag", 1, "middle", ("goblins#1",))],
        lands=[Land("home-a", 0, mine=True), Land("middle", 1, fortress=2)],
    )
    from companion.games.orcwars_too.actions import Underground

    state, _ = play(game, state, Underground(P0, "grim"))
    state, _ = roll(game, state, 3)  # face 3 of the test board's caves: the Middle
    state, events = play(game, state, Choose(P0, "keep"))
    battle = state.battle
    assert (
        battle.origin == "surprise" and battle.attacker.real == "clever" and battle.defender.real == "careful"
    )
    assert "surprise" in texts(events)
    assert game.view(state)["battle"]["damage"]["cell"] == "1:5 - 1:1*"  # quite a massacre


# ---------------------------------------------------------------------------------------- 2.1 trolls


def test_a_stupid_troll_stands_aside_and_rejoins() -> None:
    """Lines 204-212: stupidity on 1 (charge, careful) or 2 or less (clever); stupid trolls do not fight."""
    game = engine()
    state, _ = duel(game, attacker_units=("trolls#1", "orcs#1"))
    state = choose(game, state, "clever", "careful")
    state, _ = roll(game, state, 1, 1)
    assert "2 or less" in game.prompt(state).text
    state, events = roll(game, state, 2)
    assert "stands aside" in texts(events)
    battle = game.view(state)["battle"]
    assert battle["attacker"]["power"] == 7  # Grim 5 and the orcs 2; the troll's 6 stands aside
    assert battle["damage"]["attacker_power"] == 7


def test_both_sides_throw_their_leadership_checks_and_trolls_together() -> None:
    """Lines 193 and 204: each side's check and each troll's d6 are thrown at the same moment; a roll is
    the part of the chief who threw it."""
    game = engine()
    state, _ = duel(game, attacker_units=("trolls#1", "orcs#1"), defender_units=("trolls#2",))
    state = choose(game, state, "charge", "careful")
    asked = game.prompt(state)
    assert asked.players == (0, 1) and asked.roll.die == "d8" and asked.text.startswith("Together: ")
    assert "Grotsnik's Grim: leadership check" in asked.text and "Ugluk's Snag" in asked.text
    state, events = play(game, state, Roll(P1, "d8", ("1",)))  # Ugluk throws first
    assert "Ugluk's Snag: authority 1" in texts(events)
    assert game.prompt(state).players == (0,)
    state, _ = play(game, state, Roll(P0, "d8", ("2",)))
    asked = game.prompt(state)
    assert asked.players == (0, 1) and asked.roll.die == "d6" and "troll stupidity" in asked.text
    state, events = play(game, state, Roll(P1, "d6", ("1",)), Roll(P0, "d6", ("6",)))
    assert state.battle.defender.stupidity == (("trolls#2", 1),)
    assert state.battle.attacker.stupidity == (("trolls#1", 6),)


def test_both_chiefs_assign_their_damage_at_once_each_on_his_phone() -> None:
    """Line 234: both sides divide the damage dealt to them: each chief on his own phone, at once."""
    game = engine()
    state, _ = duel(game, attacker_units=("ogres#1", "orcs#1"), defender_units=("trolls#1", "goblins#1"))
    state = choose(game, state, "careful", "careful")
    state, _ = roll(game, state, 1, 1, 6)  # both checks pass; the defender's troll is not stupid
    asked = game.prompt(state)
    assert asked.kind == "assign" and asked.players == (0, 1)
    assert {c.action.player for c in asked.choices} == {0, 1}
    state, _ = play(game, state, AssignDamage(P1, (("trolls#1", 6),), "trolls#1"))
    assert game.prompt(state).players == (0,)
    with pytest.raises(IllegalActionError, match="Grotsnik assign"):
        game.apply(state, AssignDamage(P1, (("trolls#1", 5),), ""))


# ---------------------------------------------------------------------------------------- 2.2 damage


def test_damage_is_assigned_by_the_owner_with_one_survival_roll() -> None:
    """Lines 234-237: no unit more than its power; all damaged units are destroyed but the one that rolls a
    d6 and survives when d6 + damage is below its power."""
    game = engine()
    state, _ = duel(game, attacker_units=("ogres#1", "orcs#1"), defender_units=("goblins#1", "goblins#2"))
    state = choose(game, state, "careful", "careful")  # 1:2 - 1:2
    state, _ = roll(game, state, 1, 1)
    # Snag's side (4 + 1 + 1 = 6) deals 3 to Grim's (5 + 5 + 2 = 12), which deals 6 to Snag's side.
    asked = game.prompt(state)
    assert asked.kind == "assign" and asked.players == (0,) and "3 damage" in asked.text
    with pytest.raises(IllegalActionError, match="no more damage than that"):
        game.apply(state, AssignDamage(P0, (("orcs#1", 3),)))
    with pytest.raises(IllegalActionError, match="Assign all 3"):
        game.apply(state, AssignDamage(P0, (("ogres#1", 2),)))
    with pytest.raises(IllegalActionError, match="took damage"):
        game.apply(state, AssignDamage(P0, (("ogres#1", 3),), "orcs#1"))
    state, _ = play(game, state, AssignDamage(P0, (("ogres#1", 3),), "ogres#1"))
    assert "Ogres rolls to survive: d6 1 or less" in game.prompt(state).text  # 5 - 3 - 1
    state, _ = roll(game, state, 1)  # the ogre survives
    # Snag's side takes all 6 = its whole power: everything is destroyed, Snag included.
    assert "survivability" in game.prompt(state).text
    state, _ = roll(game, state, 8)  # Snag is caught: captured (not hacked: careful is no star)
    assert state.battle is None
    assert "snag" in state.hands[0].captives
    assert state.army("grim").units == ("ogres#1", "orcs#1")
    assert {"goblins#1", "goblins#2"} <= set(state.cup)


def test_troops_overwhelmed_surrender_on_1_or_2() -> None:
    """Line 245: damage above the army's power: the troops surrender on 1-2 (leaders and war machines die)."""
    game = engine()
    state, _ = duel(game, attacker_units=("ogres#1", "ogres#2", "orcs#1"), defender_units=("goblins#1",))
    state = choose(game, state, "charge", "charge")  # 1:1* - 1:1*: 17 damage against Snag's 5
    state, _ = roll(game, state, 1, 1)
    asked = game.prompt(state)
    assert asked.kind == "roll" and "surrender" in asked.text
    state, events = roll(game, state, 2)
    assert "surrender" in texts(events)
    # Grim's side takes 5: assigned by its chief.
    state, _ = play(game, state, AssignDamage(P0, (("orcs#1", 2), ("ogres#1", 3)), ""))
    assert "survivability" in game.prompt(state).text and "2 or less" in game.prompt(state).text  # 5 halved
    state, events = roll(game, state, 3)  # hacked to pieces and killed
    assert "killed" in texts(events)
    assert "snag" in state.cup
    assert "goblins#1" in state.army("grim").units  # the surrendered goblins follow the winner


def test_a_hacked_leaders_shaman_dies_with_him() -> None:
    """Line 137: if the leader hacked to pieces is killed, his shaman is too."""
    game = engine()
    state, _ = duel(
        game, attacker_units=("ogres#1", "ogres#2"), defender_units=(), defender_shaman="shaman#1"
    )
    state = choose(game, state, "charge", "charge")
    state, _ = roll(game, state, 1, 1)
    state, _ = play(game, state, AssignDamage(P0, (("ogres#1", 4),), ""))
    assert "3 or less" in game.prompt(state).text  # (5 + 1 shaman) // 2
    state, _ = roll(game, state, 4)
    assert "shaman#1" in state.cup and "snag" in state.cup


def test_an_escaped_leader_retreats_and_his_shaman_follows_the_winner() -> None:
    """Lines 128, 249: a destroyed leader who survives must retreat; the shaman goes to the winner."""
    game = engine()
    state, _ = duel(
        game, attacker_units=("ogres#1", "ogres#2"), defender_units=(), defender_shaman="shaman#1"
    )
    state = choose(game, state, "careful", "careful")  # 1:2 - 1:2: 14 / 2 = 7 to Snag (4)
    state, _ = roll(game, state, 1, 1)
    state, _ = play(game, state, AssignDamage(P0, (("ogres#1", 2),), ""))  # 4 / 2 = 2 to Grim's side
    state, _ = roll(game, state, 5)  # 5 <= 4 + 1: he escapes
    asked = game.prompt(state)
    assert asked.kind == "choose" and "free territory" in asked.text
    options = {c.action.option for c in asked.choices}
    assert options == {"home-b", "wilds", "home-a", "fort-land"}  # the Middle's neighbours without foes
    state, _ = play(game, state, Choose(P1, "home-b"))
    assert state.army("snag").territory == "home-b" and state.army("snag").units == ()
    assert state.army("grim").shaman == "shaman#1"
    assert state.land("middle").controller == 0


def test_the_side_that_lost_more_retreats_by_the_reading_taken() -> None:
    """Lines 253-254 and data/rules.toml aftermath.retreat = "losses": the defender retreats when it lost
    more power than the attacker; its units go with its leader."""
    game = engine()
    state, _ = duel(game, attacker_units=("ogres#1",), defender_units=("goblins#1", "goblins#2", "goblins#3"))
    state = choose(game, state, "clever", "clever")  # 1:5 - 1:5: 7 // 5 = 1 to Grim, 10 // 5 = 2 to Snag
    state, _ = roll(game, state, 1, 1)
    state, _ = play(game, state, AssignDamage(P0, (("ogres#1", 1),), "ogres#1"))
    state, _ = play(game, state, AssignDamage(P1, (("goblins#1", 1), ("goblins#2", 1)), ""))  # Snag lost 2
    state, _ = roll(game, state, 6)  # the ogre's survival roll: 6 + 1 >= 5, it dies: Grim lost 5
    asked = game.prompt(state)
    assert "retreat" in asked.text and asked.players == (0,)  # the attacker lost more: he gives way
    state, _ = play(game, state, Choose(P0, "home-a"))
    assert state.army("grim").territory == "home-a" and state.army("snag").territory == "middle"


def test_the_retreat_reading_can_be_changed_to_the_table_deciding() -> None:
    game = engine('[aftermath]\nretreat = "table"\nprovenance.retreat = "test"\n')
    state, _ = duel(game, attacker_units=("ogres#1",), defender_units=("goblins#1", "goblins#2"))
    state = choose(game, state, "clever", "clever")  # 1 to Grim's side, 2 to Snag's
    state, _ = roll(game, state, 1, 1)
    state, _ = play(game, state, AssignDamage(P0, (("ogres#1", 1),), ""))
    state, _ = play(game, state, AssignDamage(P1, (("goblins#1", 1), ("goblins#2", 1)), ""))
    asked = game.prompt(state)
    assert asked.kind == "choose" and {c.action.option for c in asked.choices} == {"attacker", "defender"}
    state, _ = play(game, state, Choose(P1, "defender"))
    assert "retreat" in game.prompt(state).text and game.prompt(state).players == (1,)


def test_no_free_territory_destroys_the_army_and_kills_the_leader() -> None:
    """Line 71: with no free adjacent territory the army is destroyed and the leader killed."""
    game = engine()
    from companion.games.orcwars_too.state import Garrison

    # Seat 0 has troops in every neighbour of the Middle: the losing defender has nowhere to go.
    state = position(
        game,
        armies=[
            Army("grim", 0, "middle", ("ogres#1",)),
            Army("snag", 1, "middle", ("goblins#1", "goblins#2")),
            Army("sly", 0, "home-b"),
            Army("brute", 0, "wilds"),
        ],
        garrisons=[Garrison("home-a", 0, ("orcs#1",)), Garrison("fort-land", 0, ("orcs#2",))],
        lands=[Land("home-a", 0), Land("fort-land", 0)],
    )
    state, _ = play(game, state, Attack(P0, "grim", "seat:1"))
    state = choose(game, state, "charge", "careful")  # 1:5* - 1:2*: 6 // 5 = 1 to Grim, 10 // 2 = 5 to Snag
    state, _ = roll(game, state, 1, 1)
    state, _ = play(game, state, AssignDamage(P0, (("ogres#1", 1),), ""))
    state, _ = play(game, state, AssignDamage(P1, (("goblins#1", 1), ("goblins#2", 1), ("snag", 3)), ""))
    state, _ = roll(game, state, 1)  # Snag, hacked: half of 5 is 2; a 1 escapes
    asked = game.prompt(state)
    assert [c.action.option for c in asked.choices] == ["none"]
    state, events = play(game, state, Choose(P1, "none"))
    assert "killed" in texts(events) and "snag" in state.cup


def test_losers_in_a_fortress_flee_through_the_caves_and_the_castle_falls() -> None:
    """Lines 115 and 243: defenders forced out of a fortress roll for their place in the caves (no reroll);
    damage above their power and the rating destroys the castle."""
    game = engine()
    state, _ = duel(
        game,
        attacker_units=("ogres#1", "ogres#2"),
        defender_units=("goblins#1", "goblins#2", "goblins#3"),
        lands=[Land("middle", 1, fortress=1)],
    )
    state = choose(game, state, "clever", "careful")  # fortress 1:5 - 1:1*: 7 // 5 = 1; 15 - 1 = 14 to Snag
    state, _ = roll(game, state, 1, 1)
    state, _ = roll(game, state, 6)  # 14 exceeds Snag's 7: a 6, the goblins do not surrender
    state, _ = play(game, state, AssignDamage(P0, (("ogres#1", 1),), ""))
    assert "2 or less" in game.prompt(state).text  # Snag hacked: half of 5
    state, _ = roll(game, state, 1)
    asked = game.prompt(state)
    assert asked.roll.die == "d20" and "caves" in asked.text
    state, events = roll(game, state, 5)  # the test board's caves: face 5 is the Wilds
    assert state.army("snag").territory == "wilds" and state.army("snag").units == ()
    assert "fortress of Middle is destroyed" in texts(events)
    assert state.land("middle").fortress == 0 and state.land("middle").controller == 0


def test_destroyed_trolls_regenerate_on_5_or_6_and_the_winner_may_take_the_losers() -> None:
    """Lines 258-260."""
    game = engine()
    state, _ = duel(game, attacker_units=("ogres#1", "ogres#2", "orcs#1"), defender_units=("trolls#1",))
    state = choose(game, state, "charge", "careful")  # 1:5* - 1:2*: 10 // 5 = 2 to Grim, 17 // 2 = 8 to Snag
    state, _ = roll(game, state, 1, 1, 3)  # both obey; the troll is not stupid
    state, _ = play(game, state, AssignDamage(P0, (("orcs#1", 2),), ""))
    state, _ = play(game, state, AssignDamage(P1, (("trolls#1", 6), ("snag", 2)), ""))
    state, _ = roll(game, state, 6)  # Snag (hacked: 5 // 2 = 2): 6 fails, killed
    assert "regenerates" in game.prompt(state).text
    state, events = roll(game, state, 5)
    assert "regenerates!" in texts(events)
    asked = game.prompt(state)
    assert "take the trolls" in asked.text and asked.roll.die == "d8"
    state, events = roll(game, state, 2)
    assert "trolls#1" in state.army("grim").units


def test_a_caravans_first_attack_its_power_treasury_and_d3_strategy() -> None:
    """Lines 140-147, 179: d6 for power (6: d6 - 1), as many gold chits drawn, d3 for its strategy; the
    winner takes the destroyed power's gold."""
    game = engine()
    from companion.games.orcwars_too.actions import DrawGold
    from companion.games.orcwars_too.state import Caravan

    state = position(
        game,
        armies=[Army("grim", 0, "wilds", ("ogres#1",))],
        caravans=(Caravan("salt", 1),),
        caravan_pile=("silk",),
    )
    state, _ = play(game, state, Attack(P0, "grim", "salt"))
    state, events = roll(game, state, 6)
    assert "roll again" in texts(events)
    state, events = roll(game, state, 4)  # power 4 - 1 = 3
    assert "power 3" in texts(events)
    assert game.prompt(state).kind == "draw_gold"
    state, events = play(game, state, DrawGold(P0, "silk"))  # a caravan drawn: a rumour, drawn again
    assert state.hands[0].caravans == ("silk",)
    state, _ = play(game, state, DrawGold(P0, "gold"), DrawGold(P0, "gold"), DrawGold(P0, "gold"))
    assert state.caravan("salt").treasury == 3 and state.battle is not None
    assert game.prompt(state).players == (0,) and game.prompt(state).kind == "strategy"
    state, _ = play(game, state, ChooseStrategy(P0, "clever"))
    assert game.prompt(state).roll.die == "d3"
    state, events = roll(game, state, 1)  # the caravan charges
    assert "Mindless Charge" in texts(events)


def test_rebels_who_win_make_the_land_neutral_and_stay() -> None:
    """Line 63: units that will not be levied attack the leader; if they do not retreat the land becomes
    neutral and they stay there. Neutral troops' damage goes to the strongest first (nobody commands them)."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "middle")],
        hands={0: Hand(("ogres#1", "ogres#2"))},
        lands=[Land("middle", 0)],
    )
    state, _ = play(game, state, Levy(P0, "grim", ("ogres#1", "ogres#2")))
    assert "5 or less" in game.prompt(state).text
    state, _ = roll(game, state, 7)
    battle = state.battle
    assert battle.attacker.kind == "rebels" and set(battle.attacker.units) == {"ogres#1", "ogres#2"}
    assert game.prompt(state).kind == "strategy" and game.prompt(state).players == (0,)
    state, _ = play(game, state, ChooseStrategy(P0, "careful"))
    assert game.prompt(state).text.startswith("The rebels: roll a d6 for the real strategy")  # a sentence
    state, events = roll(game, state, 5)  # the rebels have no leader: d6 5, -1 for ogres: careful
    assert "Careful Advance" in texts(events)
    state, _ = roll(game, state, 1)  # Grim's troops (none) obey
    # careful - careful, 1:2 - 1:2: the rebels take 5 // 2 = 2, Grim alone takes 10 // 2 = 5, all he has.
    assert "Ogres rolls to survive" in game.prompt(state).text  # 2 on the first ogre, who has most to spare
    state, _ = roll(game, state, 1)  # 1 + 2 < 5: it survives
    assert "survivability" in game.prompt(state).text
    state, events = roll(game, state, 8)  # Grim is caught by troops who keep no prisoners
    assert "Grim is dead" in texts(events)
    assert state.battle is None and state.army("grim") is None and "grim" in state.cup
    assert state.land("middle").controller is None
    assert set(state.garrison("middle", -1).units) == {"ogres#1", "ogres#2"}


def test_while_the_strategies_are_chosen_the_view_works_out_every_cell_of_the_table() -> None:
    """The chart a chief would look up before choosing (lines 214-224), at the sides' powers: the same
    for every strategy chosen in secret so far, and gone once both are revealed."""
    game = engine()
    state, _ = duel(game)
    chart = game.view(state)["battle"]["chart"]
    powers = game.view(state)["battle"]["attacker"]["power"], game.view(state)["battle"]["defender"]["power"]
    assert len(chart) == 9
    for cell in chart:
        expected = combat_damage(powers[0], cell["attacker"], powers[1], cell["defender"]).to_json()
        assert {k: v for k, v in cell.items() if k not in ("attacker", "defender")} == expected
    state, _ = play(game, state, ChooseStrategy(P0, "charge"))
    assert game.view(state)["battle"]["chart"] == chart  # tells nothing of the choice
    state, _ = play(game, state, ChooseStrategy(P1, "clever"))
    assert game.view(state)["battle"]["chart"] is None


def test_the_chart_has_the_texts_example() -> None:
    """Line 224: power 23 charging against power 11 with clever strategy: 11 to the chargers, 4 to the
    strategists."""
    cell = [c for c in every_cell(23, 11) if (c["attacker"], c["defender"]) == ("charge", "clever")]
    assert cell[0]["damage_to_attacker"] == 11 and cell[0]["damage_to_defender"] == 4
