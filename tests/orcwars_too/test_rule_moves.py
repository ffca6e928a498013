"""B3 and B4 on the board: moving, levying, claiming, the caves, building, mines, rampage and spies, each
rule with the line it comes from. The test board has adjacency: Home A - Middle - Home B, Middle - Wilds -
Road - Fort Land - Home A, Middle - Fort Land."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError, PlayerId
from companion.games.orcwars_too.actions import (
    Attack,
    BuildFortress,
    BuildMine,
    Choose,
    Claim,
    DestroyMine,
    Done,
    DrawGold,
    LeaveBehind,
    Levy,
    Move,
    Rampage,
    Underground,
    UseSpy,
)
from companion.games.orcwars_too.state import RAMPAGE, Army, Caravan, Garrison, Hand, Land

from .positions import engine, play, position, roll, texts

P0, P1 = PlayerId(0), PlayerId(1)


# ----------------------------------------------------------------------------------------------- move


def test_an_army_moves_one_territory_to_a_neighbour_once_a_turn() -> None:
    """Lines 45 and 49."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a", ("orcs#1",))])
    with pytest.raises(IllegalActionError, match="does not border"):
        game.apply(state, Move(P0, "grim", "wilds"))
    with pytest.raises(IllegalActionError, match="only a leader without units"):
        game.apply(state, Move(P0, "grim", "wilds", via="middle"))
    state, events = play(game, state, Move(P0, "grim", "middle"))
    assert state.army("grim").territory == "middle" and "controls Middle" in texts(events)
    with pytest.raises(IllegalActionError, match="has moved"):
        game.apply(state, Move(P0, "grim", "home-b"))
    with pytest.raises(IllegalActionError, match="Grotsnik's turn"):
        game.apply(state, Move(P1, "grim", "home-b"))


def test_a_leader_without_units_moves_up_to_two_areas() -> None:
    """Line 47."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a")])
    state, _ = play(game, state, Move(P0, "grim", "wilds", via="middle"))
    assert state.army("grim").territory == "wilds"


def test_passing_through_enemy_land_the_enemy_may_refuse_and_attack_if_the_leader_is_caught() -> None:
    """Line 47: through opponent territory with enemy units if the opponent accepts or the leader passes a
    survivability check; if it fails, the opponent may attack him."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a"), Army("snag", 1, "middle", ("goblins#1",))],
        lands=[Land("middle", 1)],
    )
    state, _ = play(game, state, Move(P0, "grim", "wilds", via="middle"))
    asked = game.prompt(state)
    assert asked.players == (1,) and "let Grim pass" in asked.text
    with pytest.raises(IllegalActionError, match="Ugluk's to answer"):
        game.apply(state, Choose(P0, "allow"))
    allowed, _ = play(game, state, Choose(P1, "allow"))
    assert allowed.army("grim").territory == "wilds"
    state, _ = play(game, state, Choose(P1, "refuse"))
    assert "4 or less" in game.prompt(state).text  # his survivability
    slipped, _ = roll(game, state, 4)
    assert slipped.army("grim").territory == "wilds"
    caught, events = roll(game, state, 5)
    assert "caught in Middle" in texts(events) and game.prompt(caught).players == (1,)
    fight, events = play(game, caught, Choose(P1, "attack"))
    assert (
        fight.battle is not None
        and fight.battle.attacker.owner == 1
        and fight.army("grim").territory == "middle"
    )


def test_entering_enemy_orcland_is_a_battle() -> None:
    """Line 65: in orclands fighting must be done."""
    game = engine()
    state = position(
        game, armies=[Army("grim", 0, "home-a", ("orcs#1",)), Army("snag", 1, "middle", ("goblins#1",))]
    )
    state, events = play(game, state, Move(P0, "grim", "middle"))
    assert state.battle is not None and state.battle.origin == "enter" and "Battle in Middle" in texts(events)
    assert state.army("grim").attacked


def test_in_the_outlands_there_is_no_battle_unless_one_side_wants_it() -> None:
    """Line 65: unless neither side wants it AND the units are in outlands."""
    game = engine()
    state = position(
        game, armies=[Army("grim", 0, "middle", ("orcs#1",)), Army("snag", 1, "wilds", ("goblins#1",))]
    )
    state, _ = play(game, state, Move(P0, "grim", "wilds"))
    asked = game.prompt(state)
    assert {c.action.option for c in asked.choices} == {"seat:1", "no battle"}
    state, _ = play(game, state, Choose(P0, "no battle"))
    assert game.prompt(state).players == (1,)
    calm, _ = play(game, state, Choose(P1, "no battle"))
    assert calm.battle is None and calm.army("grim").territory == "wilds"
    fight, _ = play(game, state, Choose(P1, "fight"))
    assert fight.battle is not None and fight.battle.attacker.leaders == ("grim",)


def test_gold_carried_home_goes_to_the_hand() -> None:
    """Line 92: if a leader or army arrives in friendly territory, its gold goes to the chief's hand."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "middle", ("orcs#1",), gold=3)], lands=[Land("home-a", 0)])
    state, events = play(game, state, Move(P0, "grim", "home-a"))
    assert state.hands[0].gold == 3 and state.army("grim").gold == 0 and "brings 3 gold home" in texts(events)


# ----------------------------------------------------------------------------------------------- levy


def test_a_leader_is_levied_at_home_with_his_native_troops_at_once() -> None:
    """Lines 59-63: a leader levied this turn levies in his home; native units come under control at once."""
    game = engine()
    state = position(game, hands={0: Hand(("grim", "sly", "orcs#1", "orcs#2", "orcs#3"))})
    state, events = play(game, state, Levy(P0, "grim", ("orcs#1", "orcs#2")))
    grim = state.army("grim")
    assert grim.territory == "home-a" and grim.units == ("orcs#1", "orcs#2") and grim.arrived and grim.levied
    assert state.land("home-a").controller == 0 and "controls Home A" in texts(events)
    assert not state.stack  # no check for native troops
    state, _ = play(game, state, Levy(P0, "sly"))  # another order ends Grim's levy
    with pytest.raises(IllegalActionError, match="has levied"):
        game.apply(state, Levy(P0, "grim", ("orcs#3",)))


def test_chips_laid_one_at_a_time_join_the_levy_under_way_with_one_check() -> None:
    """Line 59: a leader levies once a turn. At the table its chips arrive one by one: each joins the
    levy under way, and the units not native to him share one authority check."""
    game = engine()
    hand = Hand(("orcs#1", "ogres#1", "trolls#1", "orcs#2"))
    state = position(game, armies=[Army("grim", 0, "home-a")], hands={0: hand}, lands=[Land("home-a", 0)])
    state, _ = play(game, state, Levy(P0, "grim", ("orcs#1",)))
    assert not state.stack and state.levy is not None and state.levy.units == ("orcs#1",)
    state, _ = play(game, state, Levy(P0, "grim", ("ogres#1",)))
    check = state.top
    assert check is not None and check.subject == "levy" and check.data == ("ogres#1",)
    state, _ = play(game, state, Levy(P0, "grim", ("trolls#1",)))  # laid while the d8 waits: the same levy
    assert state.top.data == ("ogres#1", "trolls#1") and len(state.stack) == 1
    assert state.army("grim").units == ("ogres#1", "orcs#1", "trolls#1")
    state, events = roll(game, state, 1)
    assert "they obey" in texts(events) and state.levy is None
    with pytest.raises(IllegalActionError, match="has levied"):
        game.apply(state, Levy(P0, "grim", ("orcs#2",)))


def test_a_leader_levied_this_turn_levies_only_at_home() -> None:
    game = engine()
    state = position(game, hands={0: Hand(("grim", "orcs#1"))}, lands=[Land("middle", 0)])
    state, _ = play(game, state, Levy(P0, "grim"), Move(P0, "grim", "middle"))
    with pytest.raises(IllegalActionError, match="levies only in his home"):
        game.apply(state, Levy(P0, "grim", ("orcs#1",)))


def test_units_are_levied_only_where_the_chief_rules() -> None:
    """Line 61: no units may be levied until the territory is controlled (unless with the leader)."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "wilds")], hands={0: Hand(("orcs#1",))})
    with pytest.raises(IllegalActionError, match="controls"):
        game.apply(state, Levy(P0, "grim", ("orcs#1",)))


def test_foreign_units_need_an_authority_check_with_the_small_races_bonus() -> None:
    """Lines 63 and 104: +1 when the army's power is at least twice the new kobolds' and goblins'."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a", ("orcs#1",))],
        hands={0: Hand(("goblins#1", "goblins#2"))},
        lands=[Land("home-a", 0)],
    )
    state, _ = play(game, state, Levy(P0, "grim", ("goblins#1", "goblins#2")))
    asked = game.prompt(state)
    # 5; +1 every troop native or goblin; +1 Grim 5 + orcs 2 = 7 >= twice 2.
    assert asked.kind == "check" and "7 or less" in asked.text
    state, events = roll(game, state, 7)
    assert "they obey" in texts(events) and set(state.army("grim").units) == {
        "orcs#1",
        "goblins#1",
        "goblins#2",
    }


def test_all_neutral_troops_of_a_territory_are_levied_together() -> None:
    """Line 61: all standard units in the same territory must be levied at the same time."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a")],
        garrisons=[Garrison("home-a", -1, ("orcs#1", "goblins#1"))],
        lands=[Land("home-a", 0)],
    )
    state, _ = play(game, state, Levy(P0, "grim", (), True))
    assert set(state.army("grim").units) == {"orcs#1", "goblins#1"} and state.garrison("home-a", -1) is None
    assert game.prompt(state).kind == "check"  # the goblins are not his


def test_a_war_machine_costs_its_power_in_gold_and_needs_a_troop_to_tow_it() -> None:
    """Line 123."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a")],
        hands={0: Hand(("catapult", "orcs#1"), 2)},
        lands=[Land("home-a", 0)],
    )
    with pytest.raises(IllegalActionError, match="cost 3 gold"):
        game.apply(state, Levy(P0, "grim", ("catapult",)))
    rich = position(
        game,
        armies=[Army("grim", 0, "home-a")],
        hands={0: Hand(("catapult", "orcs#1"), 3)},
        lands=[Land("home-a", 0)],
    )
    with pytest.raises(IllegalActionError, match="tow"):
        game.apply(rich, Levy(P0, "grim", ("catapult",)))
    state, _ = play(game, rich, Levy(P0, "grim", ("catapult", "orcs#1")))
    assert state.hands[0].gold == 0 and "catapult" in state.army("grim").units


def test_a_war_machine_left_without_troops_is_destroyed() -> None:
    game = engine()
    state = position(
        game, armies=[Army("grim", 0, "home-a", ("catapult", "orcs#1"))], lands=[Land("home-a", 0)]
    )
    state, events = play(game, state, LeaveBehind(P0, "grim", ("orcs#1",)))
    assert "catapult" in state.cup and "no troop to tow it" in texts(events)


def test_no_leader_has_two_shamans() -> None:
    """Line 131."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a", shaman="shaman#1")],
        hands={0: Hand(("shaman#2",))},
        lands=[Land("home-a", 0)],
    )
    with pytest.raises(IllegalActionError, match="two shamans"):
        game.apply(state, Levy(P0, "grim", ("shaman#2",)))


# ---------------------------------------------------------------------------------------------- claims


def test_troops_left_behind_are_claimed_by_a_friendly_leader_with_a_check() -> None:
    """Line 53: left-behind troops may be claimed; the claimer checks authority unless their native leader."""
    game = engine()
    state = position(
        game,
        armies=[Army("snag", 0, "home-a")],
        garrisons=[Garrison("home-a", 0, ("orcs#1",))],
        lands=[Land("home-a", 0)],
    )
    state, _ = play(game, state, Claim(P0, "snag"))
    assert state.army("snag").units == ("orcs#1",) and game.prompt(state).kind == "check"
    native = position(
        game,
        armies=[Army("grim", 0, "home-a")],
        garrisons=[Garrison("home-a", 0, ("orcs#1",))],
        lands=[Land("home-a", 0)],
    )
    native, _ = play(game, native, Claim(P0, "grim"))
    assert native.army("grim").units == ("orcs#1",) and not native.stack


def test_troops_left_behind_only_in_friendly_land_and_destroyed_when_it_is_not() -> None:
    """Lines 53 and 55."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "wilds", ("orcs#1",))])
    with pytest.raises(IllegalActionError, match="controls"):
        game.apply(state, LeaveBehind(P0, "grim", ("orcs#1",)))


def test_a_native_leader_arriving_takes_his_troops_from_another_chief_who_fails_to_keep_them() -> None:
    """Line 69: the controller checks authority to keep them, else they go to their native leader."""
    game = engine()
    state = position(
        game, armies=[Army("brute", 0, "home-b"), Army("snag", 1, "wilds", ("trolls#1", "goblins#1"))]
    )
    state, _ = play(game, state, Move(P0, "brute", "wilds"), Choose(P0, "no battle"), Choose(P1, "no battle"))
    asked = game.prompt(state)
    assert asked.kind == "check" and asked.players == (1,) and "Trolls" not in asked.text
    kept, _ = roll(game, state, 1)
    assert "trolls#1" in kept.army("snag").units
    lost, _ = roll(game, state, 8)
    assert lost.army("brute").units == ("trolls#1",) and lost.army("snag").units == ("goblins#1",)


# ---------------------------------------------------------------------------------------------- caves


def caves(game, **kw):
    return position(
        game, armies=[Army("grim", 0, "home-a", ("orcs#1",))], lands=[Land("home-a", 0, mine=True)], **kw
    )


def test_underground_only_from_friendly_land_with_a_mine_or_fortress() -> None:
    """Line 51."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a", ("orcs#1",))], lands=[Land("home-a", 0)])
    with pytest.raises(IllegalActionError, match="mine or a fortress"):
        game.apply(state, Underground(P0, "grim"))


def test_the_caves_d20_one_reroll_19_lost_20_destroyed() -> None:
    """Line 51: one reroll accepted, but the new place must be accepted; 19 lost in the dark, 20 destroyed."""
    game = engine()
    state, _ = play(game, caves(game), Underground(P0, "grim"))
    assert game.prompt(state).roll.die == "d20"
    state, _ = roll(game, state, 5)
    assert {c.action.option for c in game.prompt(state).choices} == {"keep", "reroll"}
    again, _ = play(game, state, Choose(P0, "reroll"))
    assert "no reroll" in game.prompt(again).text
    again, _ = roll(game, again, 6)
    assert again.army("grim").territory == "road" and again.army("grim").moved
    kept, _ = play(game, state, Choose(P0, "keep"))
    assert kept.army("grim").territory == "wilds"
    dead, events = roll(game, play(game, caves(game), Underground(P0, "grim"))[0], 20)
    assert dead.army("grim") is None and {"grim", "orcs#1"} <= set(dead.cup) and "messy" in texts(events)
    lost, _ = roll(game, play(game, caves(game), Underground(P0, "grim"))[0], 19)
    assert lost.army("grim").territory == "" and game.view(lost)["players"][0]["armies"][0]["lost"]


def test_an_army_lost_in_the_dark_rolls_at_its_next_turn_without_reroll() -> None:
    game = engine()
    state = position(game, armies=[Army("grim", 0, "", ("orcs#1",))], step="B2")
    from dataclasses import replace

    state = replace(state, current=replace(state.current, free_left=0))
    state, events = play(game, state, Done(P0))
    assert "lost in the dark" in texts(events) and "no reroll" in game.prompt(state).text
    state, _ = roll(game, state, 3)
    assert state.army("grim").territory == "middle"


# ---------------------------------------------------------------------------------------------- building


def test_a_fortress_costs_its_rating_one_per_territory_and_the_builder_stays() -> None:
    """Lines 109-113."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a", ("orcs#1",))],
        hands={0: Hand(gold=5)},
        lands=[Land("home-a", 0, fortress=1)],
    )
    with pytest.raises(IllegalActionError, match="ratings"):
        game.apply(state, BuildFortress(P0, "grim", 9))
    state, events = play(game, state, BuildFortress(P0, "grim", 3))
    assert state.land("home-a").fortress == 3 and state.hands[0].gold == 2 and "pulled down" in texts(events)
    assert state.army("grim").moved
    with pytest.raises(IllegalActionError, match="has moved"):
        game.apply(state, Move(P0, "grim", "middle"))


def test_a_mine_needs_a_unit_there_all_turn_and_produces_at_the_end_of_B4() -> None:
    """Lines 79, 93, 118: a mine produces a gold chit if a friendly troop was there all turn; a caravan so
    drawn is kept and not replaced."""
    game = engine()
    arrived = position(
        game, armies=[Army("grim", 0, "home-a", ("orcs#1",))], lands=[Land("home-a", 0)], held=()
    )
    with pytest.raises(IllegalActionError, match="whole turn"):
        game.apply(arrived, BuildMine(P0, "grim"))
    state = position(
        game, armies=[Army("grim", 0, "home-a", ("orcs#1",))], lands=[Land("home-a", 0)], step=RAMPAGE
    )
    state, _ = play(game, state, BuildMine(P0, "grim"))
    with pytest.raises(IllegalActionError, match="Only one mine"):
        game.apply(state, BuildMine(P0, "grim"))
    state, events = play(game, state, Done(P0))
    assert "mine of Home A produces" in texts(events) and game.prompt(state).kind == "draw_gold"
    state, events = play(game, state, DrawGold(P0, "silk"))
    assert state.hands[0].caravans == ("silk",) and state.hands[0].gold == 0 and not state.stack


def test_a_mine_over_an_empty_gold_pile_produces_nothing_and_the_turn_goes_on() -> None:
    """Line 118 draws from the gold pile: when it holds no chip (gold nor caravan), there is none to draw."""
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a", ("orcs#1",))],
        lands=[Land("home-a", 0, mine=True)],
        hands={0: Hand(gold=game.data.gold_chips)},
        step=RAMPAGE,
        gold_pile=0,
        caravan_pile=(),
        caravans=(Caravan("salt", 0), Caravan("silk", 0)),
    )
    state, events = play(game, state, Done(P0))
    assert "mine of Home A produces" in texts(events) and "gold pile is empty" in texts(events)
    assert not state.stack and state.current.seat == 1  # Ugluk's turn: nothing waits on an empty pile


def test_troops_may_destroy_a_mine_instead() -> None:
    game = engine()
    state = position(
        game,
        armies=[Army("grim", 0, "home-a", ("orcs#1",))],
        lands=[Land("home-a", 0, mine=True)],
        step=RAMPAGE,
    )
    state, _ = play(game, state, DestroyMine(P0, "home-a"))
    assert not state.land("home-a").mine


# ---------------------------------------------------------------------------------------------- rampage


def test_rampage_only_in_the_outlands_leader_then_army_checks() -> None:
    """Line 77: the leader gains a gold on an authority check; the army gains one, but on a failed check a
    random unit runs home with it."""
    game = engine()
    home = position(game, armies=[Army("grim", 0, "home-a", ("orcs#1",))], step=RAMPAGE)
    with pytest.raises(IllegalActionError, match="outlands"):
        game.apply(home, Rampage(P0, "grim"))
    state = position(game, armies=[Army("grim", 0, "wilds", ("orcs#1", "orcs#2"))], step=RAMPAGE)
    state, _ = play(game, state, Rampage(P0, "grim", True))
    assert "5 or less" in game.prompt(state).text  # the leader's own check: no control modifiers
    state, _ = roll(game, state, 5)
    state, _ = play(game, state, DrawGold(P0, "gold"))
    assert state.army("grim").gold == 1
    assert "6 or less" in game.prompt(state).text  # the army's: +1, all its troops native
    state, _ = roll(game, state, 8)
    assert game.prompt(state).kind == "choose"
    state, events = play(game, state, Choose(P0, "orcs#2"))
    assert "runs back" in texts(events)
    state, _ = play(game, state, DrawGold(P0, "gold"))
    assert (
        state.hands[0].counters == ("orcs#2",)
        and state.hands[0].gold == 1
        and state.army("grim").units == ("orcs#1",)
    )
    with pytest.raises(IllegalActionError, match="has rampaged"):
        game.apply(state, Rampage(P0, "grim"))


def test_a_lonely_leader_carries_one_gold() -> None:
    """Line 90: a leader may carry only one gold counter."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "wilds", gold=1)], step=RAMPAGE)
    state, _ = play(game, state, Rampage(P0, "grim"))
    state, _ = roll(game, state, 1)
    state, events = play(game, state, DrawGold(P0, "gold"))
    assert state.army("grim").gold == 1 and "at most" in texts(events)


def test_a_spy_steals_gold_and_is_discarded() -> None:
    """Line 73 (the list of uses is missing: data/rules.toml's uses)."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a")], hands={0: Hand(("spy",)), 1: Hand(gold=2)})
    state, _events = play(game, state, UseSpy(P0, "spy", "steal-gold", 1))
    assert state.hands[0].gold == 1 and state.hands[1].gold == 1 and "spy" in state.cup
    with pytest.raises(IllegalActionError, match="no spy"):
        game.apply(state, UseSpy(P0, "spy", "rumour"))


def test_only_the_players_own_turn_allows_his_orders() -> None:
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a"), Army("snag", 1, "home-b")])
    with pytest.raises(IllegalActionError, match="Grotsnik's turn"):
        game.apply(state, Move(P1, "snag", "middle"))
    with pytest.raises(IllegalActionError, match="Attack a chief"):
        game.apply(state, Attack(P0, "grim", "seat:1"))
