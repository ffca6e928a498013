"""The setup, the turn's order and steps, trading and victory, each rule with the line it comes from."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine import IllegalActionError, PlayerId, Roll
from companion.games.orcwars_too.actions import (
    AnswerTrade,
    Buy,
    CorrectGold,
    Discard,
    Done,
    Draw,
    DrawGold,
    OfferTrade,
    Redraw,
    TakeBosses,
    TradeForGold,
)
from companion.games.orcwars_too.state import (
    CAMPAIGN,
    DISCARD,
    REINFORCE,
    ROLLOFF,
    TRADING,
    Army,
    Caravan,
    Hand,
    Land,
    Step,
)

from .positions import engine, play, position, roll, setup, texts

P0, P1 = PlayerId(0), PlayerId(1)


def set_up(game, bosses=(("grim",), ("snag",)), draws=(("orcs", "orcs", "goblins", "trolls", "ogres"),) * 2):
    state = game.new_game(setup(2))
    for seat, (leaders, chips) in enumerate(zip(bosses, draws, strict=True)):
        state, _ = play(game, state, TakeBosses(PlayerId(seat), leaders), Draw(PlayerId(seat), chips))
    return state


# ---------------------------------------------------------------------------------------------- setup


def test_a_new_game_has_every_chip_in_the_cup_and_every_gold_in_the_pile() -> None:
    game = engine()
    state = game.new_game(setup(2))
    assert len(state.cup) == len(game.data.counters) and state.gold_pile == 30
    assert state.caravan_pile == ("salt", "silk")
    assert game.prompt(state).kind == "setup" and game.prompt(state).players == (0, 1)


def test_each_chief_takes_one_or_two_bosses() -> None:
    """Line 8: each player gets 1-2 bosses (as preferred)."""
    game = engine()
    state = game.new_game(setup(2))
    with pytest.raises(IllegalActionError, match="1 to 2"):
        game.apply(state, TakeBosses(P0, ("grim", "snag", "sly")))
    with pytest.raises(IllegalActionError, match="no leader"):
        game.apply(state, TakeBosses(P0, ("orcs#1",)))
    state, _ = play(game, state, TakeBosses(P0, ("grim", "sly")))
    assert state.hands[0].counters == ("grim", "sly")
    with pytest.raises(IllegalActionError, match="no leader left"):
        game.apply(state, TakeBosses(P1, ("grim",)))


def test_a_second_boss_may_follow_the_first_before_anything_is_drawn() -> None:
    """Line 8: 1-2 bosses; at the table they are laid on the hand one at a time."""
    game = engine()
    state = game.new_game(setup(2))
    state, _ = play(game, state, TakeBosses(P0, ("grim",)), TakeBosses(P0, ("sly",)))
    assert state.hands[0].counters == ("grim", "sly") and state.setups[0].stage == "draw"
    with pytest.raises(IllegalActionError, match="once"):
        game.apply(state, TakeBosses(P0, ("snag",)))  # two bosses at most
    state, _ = play(game, state, TakeBosses(P1, ("snag",)), Draw(P1, ("orcs",)))
    with pytest.raises(IllegalActionError, match="once"):
        game.apply(state, TakeBosses(P1, ("brute",)))  # a chip was drawn: the bosses are taken


def test_units_are_drawn_to_six_then_traded_for_gold_one_for_one() -> None:
    """Line 8: random units to make a total of 6, then units may be traded for gold 1:1."""
    game = engine()
    state = game.new_game(setup(2))
    state, _ = play(game, state, TakeBosses(P0, ("grim",)))
    assert game.view(state)["players"][0]["draws_owed"] == 5
    with pytest.raises(IllegalActionError, match="draws 5 chips now"):
        game.apply(state, Draw(P0, ("orcs",) * 6))
    with pytest.raises(IllegalActionError, match="draws to 6 first"):
        game.apply(state, Done(P0))  # not drawn yet
    state, events = play(game, state, Draw(P0, ("orcs", "orcs", "goblins", "spy", "trolls")))
    assert "draws 5 chips" in texts(events) and "Troll" not in texts(events)  # the hand is secret
    assert len(state.hands[0].counters) == 6
    state, _ = play(game, state, TradeForGold(P0, ("spy", "goblins#1")))
    assert "spy" in state.cup and game.prompt(state).kind == "draw_gold"
    state, _ = play(game, state, DrawGold(P0, "gold"), DrawGold(P0, "gold"))
    assert state.hands[0].gold == 2 and state.gold_pile == 28


def test_a_caravan_drawn_in_the_setup_goes_on_the_board_and_another_chip_is_drawn() -> None:
    """Line 8: caravans are immediately placed on the map and new gold is drawn to replace them."""
    game = engine()
    state = game.new_game(setup(2))
    state, _ = play(game, state, TakeBosses(P0, ("grim",)), Draw(P0, ("orcs",) * 4 + ("goblins",)))
    state, _ = play(game, state, TradeForGold(P0, ("orcs#1",)))
    state, events = play(game, state, DrawGold(P0, "salt"))
    assert state.caravan("salt") == Caravan("salt", 0)
    assert "places the Salt Caravan at The Road" in texts(events)
    assert game.prompt(state).kind == "draw_gold"  # still one gold to draw
    state, _ = play(game, state, DrawGold(P0, "gold"))
    assert state.hands[0].gold == 1 and not state.stack


def test_a_random_player_starts_ties_roll_again() -> None:
    """Line 9: random player starts the game (a d6 each, the highest; a tie rolls again)."""
    game = engine()
    state = set_up(game)
    state, _ = play(game, state, Done(P0), Done(P1))
    assert state.phase == ROLLOFF and game.prompt(state).roll.die == "d6"
    state, events = roll(game, state, 4, 4)
    assert "tie" in texts(events) and state.rolloff.contenders == (0, 1)
    state, events = roll(game, state, 2, 5)
    assert "Ugluk goes first" in texts(events)
    assert state.turn == 1 and state.order == (1, 0) and state.current.seat == 1
    assert state.current.step == REINFORCE and game.prompt(state).kind == "reinforce"


def test_everyone_throws_for_who_starts_at_once_each_his_own_die() -> None:
    """Line 9: the roll-off is a throw of every chief together: each roll is its thrower's."""
    game = engine()
    state = set_up(game)
    state, _ = play(game, state, Done(P0), Done(P1))
    asked = game.prompt(state)
    assert asked.players == (0, 1) and "roll a d6 each" in asked.text
    state, events = play(game, state, Roll(P1, "d6", ("6",)))
    assert "Ugluk rolls 6" in texts(events) and game.prompt(state).players == (0,)
    state, events = play(game, state, Roll(P0, "d6", ("2",)))
    assert "Ugluk goes first" in texts(events)


# ---------------------------------------------------------------------------------------------- turns


def end_of_turn(game, armies):
    return replace(position(game, armies=armies), step=TRADING, current=None)


def test_the_smallest_total_authority_in_play_goes_first() -> None:
    """Line 31: the first player is the one with the smallest sum of his leaders' authority."""
    game = engine()
    state, _ = play(
        game, end_of_turn(game, [Army("grim", 0, "home-a"), Army("snag", 1, "home-b")]), Done(P0), Done(P1)
    )
    assert state.turn == 3 and state.order == (1, 0) and state.current.seat == 1  # 5 against 4
    two = [Army("grim", 0, "home-a"), Army("brute", 1, "middle"), Army("snag", 1, "home-b")]
    state, _ = play(game, end_of_turn(game, two), Done(P0), Done(P1))
    assert state.current.seat == 0  # 5 against 3 + 4


def test_tied_authority_rolls_for_the_first_player() -> None:
    game = engine('[[leaders]]\nid = "brute"\nauthority = 4\nprovenance.authority = "test"\n')
    state = replace(
        position(game, armies=[Army("snag", 0, "home-b"), Army("brute", 1, "middle")]),
        step=TRADING,
        current=None,
    )
    state, events = play(game, state, Done(P0), Done(P1))
    assert state.phase == ROLLOFF and "tie on authority" in texts(events)
    state, _ = roll(game, state, 2, 6)
    assert state.current.seat == 1 and state.order == (1, 0)


def test_caravans_move_a_step_each_turn_and_leave_the_board_at_their_destination() -> None:
    """Lines 13 and 27: A, each caravan moves one step toward its destination and is removed upon arrival."""
    game = engine()
    state = replace(
        position(
            game,
            armies=[Army("grim", 0, "home-a")],
            caravans=(Caravan("salt", 1), Caravan("silk", 1, 2, 2)),
            caravan_pile=(),
            gold_pile=28,
        ),
        step=TRADING,
        current=None,
    )
    state, events = play(game, state, Done(P0), Done(P1))
    assert state.caravan("salt").step == 2
    assert state.caravan("silk") is None and "silk" in state.caravan_pile and state.gold_pile == 30
    assert "reaches Home A and leaves the board" in texts(events)


def test_a_chiefs_unplaced_caravans_are_placed_and_moved_at_B1() -> None:
    """Line 35: he must place them all at their starting points and move them one step."""
    game = engine()
    state = replace(
        position(
            game,
            armies=[Army("grim", 0, "home-a")],
            hands={0: Hand(caravans=("silk",))},
            caravan_pile=("salt",),
        ),
        step=TRADING,
        current=None,
    )
    state, _ = play(game, state, Done(P0), Done(P1))
    assert state.current.seat == 1  # Grim's 5 against none: Ugluk first
    state, _ = play(game, state, Draw(P1, ("orcs", "orcs", "goblins")), Done(P1), Done(P1), Done(P1))
    assert state.current.seat == 0 and state.hands[0].caravans == ()
    assert state.caravan("silk").step == 1


def test_three_free_reinforcements_then_up_to_two_more_at_two_gold() -> None:
    """Line 39."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a")], hands={0: Hand(gold=5)}, step=REINFORCE)
    state = replace(state, current=replace(state.current, free_left=3))
    with pytest.raises(IllegalActionError, match="free reinforcement"):
        game.apply(state, Done(P0))
    with pytest.raises(IllegalActionError, match="free reinforcements first"):
        game.apply(state, Buy(P0))
    state, _ = play(game, state, Draw(P0, ("orcs", "goblins")), Draw(P0, ("trolls",)))
    state, _ = play(game, state, Buy(P0), Draw(P0, ("ogres",)), Buy(P0), Draw(P0, ("ogres",)))
    assert state.hands[0].gold == 1 and state.gold_pile == game.data.gold_chips - 1
    with pytest.raises(IllegalActionError, match="At most 2"):
        game.apply(state, Buy(P0))
    state, _ = play(game, state, Done(P0))
    assert state.current.step == CAMPAIGN


def test_an_empty_tribe_cup_gives_no_more_reinforcements() -> None:
    """Line 39: the free draws come from the cup; when it runs dry the chief goes on with what he has."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a")], hands={0: Hand(gold=5)}, step=REINFORCE)
    state = replace(state, current=replace(state.current, free_left=3))
    hoard = Hand(state.cup[1:])  # every chip but one lies in Ugluk's hand
    state = replace(state, cup=state.cup[:1], hands=(state.hands[0], hoard))
    assert "draw 1 free reinforcement" in game.prompt(state).text
    state, _ = play(game, state, Draw(P0, (state.cup[0],)))
    assert game.prompt(state).kind == "buy"
    with pytest.raises(IllegalActionError, match="cup is empty"):
        game.apply(state, Buy(P0))
    state, _ = play(game, state, Done(P0))
    assert state.current.step == CAMPAIGN


def test_a_draw_owed_from_an_empty_tribe_cup_is_let_go() -> None:
    """Nothing waits on a chip the cup no longer holds (a redraw or a unit bought as the cup runs dry)."""
    game = engine()
    state = position(game, armies=[Army("grim", 0, "home-a")], step=REINFORCE)
    hoard = Hand(state.cup)
    state = replace(state, cup=(), hands=(state.hands[0], hoard), stack=(Step("draw", 0, count=2),))
    state, events = play(game, state, CorrectGold(P0, 0))  # any input: the game moves on by itself
    assert "tribe cup is empty" in texts(events) and not state.stack


def test_a_chief_without_leaders_may_show_his_hand_and_draw_six_anew_three_times_at_most() -> None:
    """Line 41."""
    game = engine()
    state = position(
        game, hands={0: Hand(("orcs#1", "goblins#1"))}, step=REINFORCE, armies=[Army("snag", 1, "home-b")]
    )
    state = replace(state, current=replace(state.current, free_left=3))
    for _ in range(3):
        state, events = play(game, state, Redraw(P0))
        assert "shows a hand without leaders" in texts(events) and state.hands[0].counters == ()
        state, _ = play(game, state, Draw(P0, ("orcs", "orcs", "goblins", "goblins", "trolls", "ogres")))
    with pytest.raises(IllegalActionError, match="No more redraws"):
        game.apply(state, Redraw(P0))
    with_leader = position(game, armies=[Army("grim", 0, "home-a")], step=REINFORCE)
    with pytest.raises(IllegalActionError, match="has a leader"):
        game.apply(replace(with_leader, current=replace(with_leader.current, free_left=3)), Redraw(P0))


def test_more_than_ten_units_are_discarded_down_to_ten() -> None:
    """Line 83: B5."""
    game = engine()
    chips = (
        "orcs#1",
        "orcs#2",
        "orcs#3",
        "orcs#4",
        "goblins#1",
        "goblins#2",
        "goblins#3",
        "goblins#4",
        "trolls#1",
        "trolls#2",
        "ogres#1",
        "ogres#2",
        "spy",
    )
    state = position(game, hands={0: Hand(chips)}, step=DISCARD, armies=[Army("grim", 0, "home-a")])
    assert game.prompt(state).kind == "discard" and "discard 2 units" in game.prompt(state).text
    with pytest.raises(IllegalActionError, match="down to 10"):
        game.apply(state, Discard(P0, ("spy", "orcs#1")))  # a spy is no unit
    state, events = play(game, state, Discard(P0, ("orcs#1", "orcs#2")))
    assert "discards 2 units" in texts(events) and "orcs#1" in state.cup
    assert state.current.seat == 1  # the next player's turn


def test_chips_lifted_off_the_hand_one_at_a_time_are_discarded_down_to_ten_never_below() -> None:
    """Line 83: a hand over ten units is discarded down to ten; at the table one chip at a time."""
    game = engine()
    chips = tuple(f"orcs#{n}" for n in range(1, 5)) + tuple(f"goblins#{n}" for n in range(1, 5))
    chips += ("trolls#1", "trolls#2", "ogres#1", "ogres#2")
    state = position(game, hands={0: Hand(chips)}, step=DISCARD, armies=[Army("grim", 0, "home-a")])
    state, _ = play(game, state, Discard(P0, ("orcs#1",)))
    assert game.prompt(state).kind == "discard" and "discard 1 unit" in game.prompt(state).text
    with pytest.raises(IllegalActionError, match="no further"):
        game.apply(state, Discard(P0, ("orcs#2", "orcs#3")))
    state, _ = play(game, state, Discard(P0, ("orcs#2",)))
    assert state.current.seat == 1


# ---------------------------------------------------------------------------------------------- trading


def trading(game, **kw):
    state = position(game, **kw)
    return replace(state, step=TRADING, current=None)


def test_chiefs_with_leaders_side_by_side_trade_in_secret() -> None:
    """Line 87: leaders in adjacent territories; they trade units and gold in any way they choose."""
    game = engine()
    state = trading(
        game,
        armies=[Army("grim", 0, "home-a"), Army("snag", 1, "middle")],
        hands={0: Hand(("orcs#1",), 3), 1: Hand(("goblins#1",), 1)},
    )
    state, events = play(game, state, OfferTrade(P0, P1, ("orcs#1",), 2, ("goblins#1",), 0))
    assert "offers Ugluk a trade" in texts(events) and "Orcs" not in texts(events)
    assert game.private_view(state, P1)["offer"]["give_gold"] == 2  # type: ignore[index]
    assert game.private_view(state, PlayerId(0))["offer"] is not None  # type: ignore[index]
    assert game.view(state)["offer"] == {"seat": 0, "partner": 1}
    state, _ = play(game, state, AnswerTrade(P1, True))
    assert state.hands[0] == Hand(("goblins#1",), 1) and state.hands[1] == Hand(("orcs#1",), 3)


def test_no_trade_without_leaders_side_by_side() -> None:
    game = engine()
    state = trading(
        game, armies=[Army("grim", 0, "home-a"), Army("snag", 1, "road")], hands={0: Hand(gold=3)}
    )
    with pytest.raises(IllegalActionError, match="no leader beside"):
        game.apply(state, OfferTrade(P0, P1, give_gold=1))


def test_a_captive_is_traded_back_or_executed_at_the_end_of_the_trading() -> None:
    """Line 135: captured leaders may be traded in the trade phase; if not, they are executed."""
    game = engine()
    state = trading(
        game,
        armies=[Army("grim", 0, "home-a"), Army("snag", 1, "middle")],
        hands={0: Hand(captives=("sly", "brute")), 1: Hand(gold=2)},
    )
    state, events = play(game, state, OfferTrade(P0, P1, ("sly",), 0, (), 2), AnswerTrade(P1, True))
    assert "captive Sly changes hands" in texts(events)
    assert state.hands[1].counters == ("sly",) and state.hands[0].gold == 2
    state, events = play(game, state, Done(P0), Done(P1))
    assert "executes Brute" in texts(events) and "brute" in state.cup and state.hands[0].captives == ()


# ---------------------------------------------------------------------------------------------- victory


def lands_for(seat: int, *ids: str) -> list[Land]:
    return [Land(t, seat) for t in ids]


def test_power_victory_is_announced_at_the_start_of_a_turn_and_wins_at_its_end() -> None:
    """Lines 263-266: lands + manned fortresses at least 12 - players, met at the start (announced) and
    again at the end of the turn."""
    game = engine('[victory]\nlands = 5\nprovenance.lands = "test: a small board"\n')  # 5 - 2 players = 3
    state = trading(
        game,
        armies=[Army("grim", 0, "middle", ("orcs#1",))],
        lands=[*lands_for(0, "home-a", "home-b"), Land("middle", 0, fortress=1)],
    )
    assert game.view(state)["players"][0]["score"] == {"total": 4, "lands": 3, "fortresses": 1}
    state, events = play(game, state, Done(P0), Done(P1))
    assert "announces power victory" in texts(events) and state.announced == ((0, ("power",)),)
    assert not state.finished
    state = replace(state, step=TRADING, current=None, traded=())
    state, events = play(game, state, Done(P0), Done(P1))
    assert state.finished and state.winners == (0,) and "power victory" in state.reason
    result = game.result(state)
    assert result.final and result.winners == (0,)
    name = state.names[0]
    assert result.outcome == f"{name} wins: power victory at the end of turn {state.turn}"  # said once
    assert f"{name} wins: power victory" in texts(events)


def test_a_victory_not_met_at_the_start_of_the_turn_does_not_win_at_its_end() -> None:
    game = engine('[victory]\nlands = 5\nprovenance.lands = "test"\n')
    state = trading(
        game, armies=[Army("grim", 0, "middle")], lands=lands_for(0, "home-a", "home-b", "middle")
    )
    state = replace(state, announced=())  # nothing announced at this turn's start
    state, _ = play(game, state, Done(P0), Done(P1))
    assert not state.finished and state.announced == ((0, ("power",)),)


def test_the_end_of_the_turn_may_meet_the_other_condition() -> None:
    """Line 263: '(it must not be the same!)', read as: it need not be the same (data: end_condition)."""
    rules = '[victory]\nlands = 5\nleaders = 1\nprovenance.lands = "test"\nprovenance.leaders = "test"\n'
    game = engine(rules)
    state = trading(game, armies=[Army("grim", 0, "middle", ("orcs#1",))], announced=((0, ("power",)),))
    state, _ = play(game, state, Done(P0), Done(P1))
    assert state.finished and "leadership victory" in state.reason
    strict = rules.replace(
        "[victory]\n", '[victory]\nend_condition = "same"\nprovenance.end_condition = "test"\n'
    )
    same = engine(strict)
    state = trading(same, armies=[Army("grim", 0, "middle", ("orcs#1",))], announced=((0, ("power",)),))
    state, _ = play(same, state, Done(P0), Done(P1))
    assert not state.finished


def test_the_turn_limit_ends_the_game_with_the_most_lands_and_fortresses() -> None:
    game = engine()
    state = trading(game, armies=[Army("grim", 0, "middle")], lands=lands_for(1, "home-a"), turn_limit=2)
    state, _ = play(game, state, Done(P0), Done(P1))
    assert state.finished and state.winners == (1,) and "turn limit" in state.reason
    result = game.result(state)
    assert [s.rank for s in result.standings] == [2, 1]
    assert game.prompt(state) is None and game.legal_actions(state) == []
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(state, Done(P0))


def test_a_player_turn_resets_what_each_leader_did() -> None:
    """Line 45: each leader may move once, attack once and levy once (in each of his chief's turns)."""
    game = engine()
    done = Army("grim", 0, "home-a", moved=True, attacked=True, levied=True)
    state, _ = play(
        game, end_of_turn(game, [done, Army("snag", 1, "home-b", moved=True)]), Done(P0), Done(P1)
    )
    assert state.current.seat == 1
    assert state.army("grim").moved and not state.army("snag").moved  # only the player whose turn begins
    state, _ = play(game, state, Draw(P1, ("orcs", "orcs", "goblins")), Done(P1), Done(P1), Done(P1))
    assert state.current.seat == 0
    grim = state.army("grim")
    assert (grim.moved, grim.attacked, grim.levied) == (False, False, False)
