"""The Master Game scenarios with chosen armies and their special rolls (rulebook, Battlefields & Game
Scenarios): Deadly Wall of Water, Siren's Call, Waters of Life, Rogue Hive; and scoring at the round
limit, with the optional partial credit."""

from __future__ import annotations

from companion.games.heroscape.state import State

from .rules_support import (
    GAME,
    act,
    alive,
    d20,
    initiative,
    markers,
    premade,
    quiet_round,
    refused,
    roll_asked,
    wounds,
)

TWO = [["sgt-drake-alexander", "raelin"], ["tor-kul-na", "marro-stingers"]]


def prompt_kind(state: State) -> str:
    prompt = GAME.prompt(state)
    assert prompt is not None
    return prompt.kind


# ------------------------------------------------------------------------------ Deadly Wall of Water


def wall(armies: list[list[str]] = TWO) -> State:
    return premade(armies, "deadly-wall-of-water")


def test_no_flood_roll_before_the_end_of_round_3() -> None:
    state = wall()
    for _ in range(2):
        state = quiet_round(state)
    assert state.round == 3 and state.phase == "markers"
    state = quiet_round(state)
    assert prompt_kind(state) == "d20" and "floods on 4 or lower" in GAME.prompt(state).text  # type: ignore[union-attr]


def test_the_last_player_to_take_a_turn_rolls_for_the_wall_of_water() -> None:
    state = wall()
    for _ in range(2):
        state = quiet_round(state)
    state = quiet_round(state, rolls=(20, 1))  # Ann first: Ben takes the round's last turn
    assert GAME.prompt(state).players == (1,)  # type: ignore[union-attr]


def test_the_flood_chance_grows_1_4_then_1_8_then_1_10() -> None:
    state = wall()
    for _ in range(2):
        state = quiet_round(state)
    thresholds = []
    for _ in range(4):
        state = quiet_round(state, rolls=(20, 1))
        thresholds.append(state.top.threshold)  # type: ignore[union-attr]
        state = d20(state, 1, 20)  # the wall holds
    assert thresholds == [4, 8, 10, 10]


def test_a_flood_sweeps_away_the_declared_figures_and_every_round_after() -> None:
    """'all figures that occupy a Level 1 space, including all water spaces and swamp water spaces, are
    destroyed. At the end of any following rounds, all figures that occupy these spaces will also be
    destroyed.'"""
    state = wall()
    for _ in range(2):
        state = quiet_round(state)
    state = d20(quiet_round(state, rolls=(20, 1)), 1, 4)
    assert state.flooded and prompt_kind(state) == "flood"
    assert "flooded" in refused(state, "declare", player=0, fact="siren", figures=[])
    state = act(state, "declare", player=0, fact="flooded", figures=["0:raelin"])
    state = act(
        state, "declare", player=1, fact="flooded", figures=["1:marro-stingers/1", "1:marro-stingers/2"]
    )
    assert not alive(state, "0:raelin") and not alive(state, "1:marro-stingers/2")
    assert state.phase == "markers" and state.round == 4
    state = quiet_round(state)
    assert prompt_kind(state) == "flood"  # no roll any more: the ledge is flooded


def test_the_glyph_of_brandar_keeps_its_army_safe_from_the_flood() -> None:
    state = wall()
    for _ in range(2):
        state = quiet_round(state)
    state = markers(markers(state, 0, *("0:raelin",) * 4), 1, *("1:tor-kul-na",) * 4)
    state = initiative(state, 20, 1)
    state = act(state, "glyph", player=0, figure="0:raelin", glyph="brandar")
    while state.turn is not None and not state.stack:
        state = act(state, "end_turn", player=state.turn.seat)
    state = d20(state, 1, 1)
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "flood" and prompt.players == (1,)


def test_both_armies_swept_away_at_once_and_neither_player_wins() -> None:
    """'If both players lose their last figure at the same time, then neither player wins.'"""
    state = wall([["raelin"], ["tor-kul-na"]])
    for _ in range(2):
        state = quiet_round(state)
    state = d20(quiet_round(state, rolls=(20, 1)), 1, 2)
    state = act(state, "declare", player=0, fact="flooded", figures=["0:raelin"])
    assert not state.finished  # Ben's figures are still to be declared
    state = act(state, "declare", player=1, fact="flooded", figures=["1:tor-kul-na"])
    assert state.finished and state.winners == ()


def test_round_10_rolls_for_the_wall_then_scores() -> None:
    """'If the battle reaches the end of Round 10, roll for the Deadly Waters as normal. Then the battle
    is over and the player with the most points on the battlefield wins.'"""
    state = wall()
    for _ in range(2):
        state = quiet_round(state)
    for _ in range(7):
        state = d20(quiet_round(state, rolls=(20, 1)), 1, 20)
    assert state.round == 10
    state = quiet_round(state, rolls=(20, 1))
    assert not state.finished and prompt_kind(state) == "d20"
    state = d20(state, 1, 20)
    assert state.finished and state.winners == (0,)  # 290 points against 280


# ------------------------------------------------------------------------------------ Siren's Call


def test_sirens_call_each_round_one_wound_for_each_player_near_the_hive() -> None:
    """'At the end of any round any player that has figures within seven spaces of the infected Marro
    Hive ... must allocate one automatic wound to any one figure in their Army within the seven spaces in
    turn order.'"""
    state = premade(TWO, "sirens-call")
    state = markers(markers(state, 0, *("0:raelin",) * 4), 1, *("1:tor-kul-na",) * 4)
    state = initiative(state, 1, 20)
    for _ in range(6):
        assert prompt_kind(state) == "turn"
        state = act(state, "end_turn", player=state.turn.seat)  # type: ignore[union-attr]
        assert prompt_kind(state) == "siren-adjacent"
        state = act(state, "declare", player=state.turn.seat, fact="siren-adjacent", figures=[])  # type: ignore[union-attr]
    assert prompt_kind(state) == "siren" and GAME.prompt(state).players == (1,)  # type: ignore[union-attr]
    assert "one figure" in refused(
        state, "declare", player=1, fact="siren", figures=["1:tor-kul-na", "1:marro-stingers/1"]
    )
    state = act(state, "declare", player=1, fact="siren", figures=["1:tor-kul-na"])
    state = act(state, "declare", player=0, fact="siren", figures=[])
    assert wounds(state, "1:tor-kul-na") == 1 and state.round == 2


def test_sirens_call_a_figure_ending_its_turn_by_the_hive_takes_a_wound() -> None:
    state = premade(TWO, "sirens-call")
    state = markers(markers(state, 0, *("0:raelin",) * 4), 1, *("1:tor-kul-na",) * 4)
    state = act(initiative(state, 20, 1), "end_turn", player=0)
    assert "not one of Ann's" in refused(
        state, "declare", player=0, fact="siren-adjacent", figures=["1:tor-kul-na"]
    )
    state = act(state, "declare", player=0, fact="siren-adjacent", figures=["0:raelin"])
    assert wounds(state, "0:raelin") == 1


def test_sirens_call_four_players_in_two_teams() -> None:
    armies = [["raelin"], ["tor-kul-na"], ["shiori"], ["major-q10"]]
    state = premade(armies, "sirens-call")
    assert state.teams == (0, 0, 1, 1) and state.limits == (285,) * 4
    state = act(state, "correct_status", player=0, figure="0:raelin", status="destroyed")
    state = act(state, "correct_status", player=1, figure="1:tor-kul-na", status="destroyed")
    assert state.finished and state.winners == (2, 3)


# -------------------------------------------------------------------------------- Waters of Life


def waters() -> State:
    return premade([["sgt-drake-alexander", "raelin"], ["marro-stingers", "marro-drudge"]], "waters-of-life")


def drink(state: State, value: int) -> State:
    state = act(state, "end_turn", player=0)
    assert prompt_kind(state) == "drink"
    return d20(act(state, "choose", player=0, option="roll"), 0, value)


def test_waters_of_life_a_hero_drinks_at_the_end_of_its_turn() -> None:
    """'If a 1 is rolled, the Unique Hero receives one wound. If a 2-17 is rolled, the Unique Hero removes
    one wound. If an 18-20 is rolled, the Unique Hero removes two wounds.'"""
    state = markers(markers(waters(), 0, *("0:raelin",) * 4), 1, *("1:marro-hive",) * 4)
    state = act(initiative(state, 20, 1), "correct_wounds", player=0, figure="0:raelin", wounds=3)
    assert wounds(drink(state, 1), "0:raelin") == 4
    assert wounds(drink(state, 17), "0:raelin") == 2
    assert wounds(drink(state, 18), "0:raelin") == 1
    declined = act(act(state, "end_turn", player=0), "decline", player=0)
    assert wounds(declined, "0:raelin") == 3


def test_waters_of_life_player_1_wins_destroying_the_hive() -> None:
    state = markers(markers(waters(), 0, *("0:sgt-drake-alexander",) * 4), 1, *("1:marro-hive",) * 4)
    state = act(initiative(state, 20, 1), "correct_wounds", player=1, figure="1:marro-hive", wounds=5)
    state = act(
        state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:marro-hive", conditions=[]
    )
    state = roll_asked(roll_asked(state, 1), 0)
    assert state.finished and state.winners == (0,) and "Hive" in state.reason


def test_waters_of_life_player_2_wins_when_the_hive_survives_round_8() -> None:
    state = waters()
    for _ in range(8):
        state = quiet_round(state)
        while not state.finished and state.stack:  # nobody drinks
            state = act(state, "decline", player=state.top.seat)  # type: ignore[union-attr]
            while state.turn is not None and not state.stack and state.round <= 8 and not state.finished:
                state = act(state, "end_turn", player=state.turn.seat)
    assert state.finished and state.winners == (1,) and "Round 8" in state.reason


# ------------------------------------------------------------------------------------- Rogue Hive


def test_rogue_hive_the_highest_roller_controls_the_hive_for_the_round() -> None:
    """'At the beginning of every round, before Order Markers are placed, all players roll the 20-sided
    die. The player with the highest roll takes control of the Marro Hive ... At the end of every round,
    the Hive is no longer considered in control by any player.'"""
    state = premade(TWO, "rogue-hive", placement=(20, 1))
    assert state.phase == "rolloff" and state.rolloff is not None and state.rolloff.purpose == "hive"
    state = d20(d20(state, 0, 3), 1, 15)
    assert state.hive_controller == 1 and state.phase == "markers"
    assert "no 1:marro-hive" in refused(state, "place_markers", player=0, markers=["1:marro-hive"] * 4)
    state = markers(markers(state, 0, *("0:raelin",) * 4), 1, *("1:marro-hive",) * 4)
    state = initiative(state, 1, 20)
    assert state.turn is not None and state.turn.unit == "1:marro-hive"
    assert prompt_kind(state) == "hive-mind"  # the Hive's powers work for whoever controls it
    while state.round == 1:
        kind = "decline" if prompt_kind(state) == "hive-mind" else "end_turn"
        state = act(state, kind, player=state.turn.seat)  # type: ignore[union-attr]
    assert state.hive_controller is None and state.rolloff is not None and state.rolloff.purpose == "hive"


def test_rogue_hive_a_player_left_with_only_the_hive_is_out_when_he_loses_it() -> None:
    state = premade([["raelin"], ["tor-kul-na"], ["shiori"]], "rogue-hive", placement=(20, 2, 1))
    state = d20(d20(d20(state, 0, 20), 1, 3), 2, 2)
    state = act(state, "correct_status", player=0, figure="0:raelin", status="destroyed")
    assert not state.sides[0].out and state.has_figures(0)  # Ann still controls the Hive this round
    state = quiet_round(state)
    assert state.sides[0].out and not state.finished


def test_rogue_hive_round_8_scores_and_the_hive_scores_for_nobody() -> None:
    state = premade(TWO, "rogue-hive", placement=(20, 1))
    for _ in range(8):
        state = d20(d20(state, 0, 20), 1, 1)
        state = quiet_round(state)
    assert state.finished and state.winners == (0,) and "Round 8" in state.reason


# ---------------------------------------------------------------------------------------- scoring


def test_scoring_counts_full_points_for_a_card_with_one_figure_left() -> None:
    """Scoring: 'Score the full points listed on the Army Card, even if there is only one surviving Squad
    figure.'"""
    state = premade([["raelin"], ["marro-stingers", "marrden-nagrubs"]], rounds=1)
    state = act(state, "correct_status", player=1, figure="1:marro-stingers/1", status="destroyed")
    state = act(state, "correct_status", player=1, figure="1:marro-stingers/2", status="destroyed")
    state = act(state, "correct_wounds", player=0, figure="0:raelin", wounds=4)
    state = quiet_round(state)
    assert state.finished and state.winners == (0,)  # 120 against 90


def test_partial_credit_counts_the_life_left_on_each_card() -> None:
    """Our option: a Hero scores its points times the life it has left; a squad its share of figures."""
    state = premade([["raelin"], ["marro-stingers", "marrden-nagrubs"]], rounds=1, partial_credit=True)
    state = act(state, "correct_status", player=1, figure="1:marro-stingers/1", status="destroyed")
    state = act(state, "correct_status", player=1, figure="1:marro-stingers/2", status="destroyed")
    state = act(state, "correct_wounds", player=0, figure="0:raelin", wounds=4)
    state = quiet_round(state)
    assert state.finished and state.winners == (1,)  # 24 against 20 + 30


def test_a_scoring_tie_is_shared() -> None:
    state = premade([["marro-stingers"], ["shiori"]], rounds=1)
    state = quiet_round(state)
    assert state.finished and state.winners == (0, 1) and "tie" in state.reason


def test_rogue_hive_nobody_rolls_for_a_destroyed_hive() -> None:
    state = premade(TWO, "rogue-hive", placement=(20, 1))
    state = d20(d20(state, 0, 20), 1, 1)
    state = act(state, "correct_status", player=0, figure="0:marro-hive", status="destroyed")
    state = quiet_round(state)
    assert state.round == 2 and state.phase == "markers" and state.hive_controller is None
