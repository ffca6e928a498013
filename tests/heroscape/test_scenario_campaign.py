"""The campaign's three battles and their ends (rulebook, Battlefields & Game Scenarios): Ominous
Beginnings (the Exit Zone), The Unexpected Capture (Player 1 goes first in round 1), Source of Corruption
(the survivors, scoring at the end of Round 10)."""

from __future__ import annotations

from companion.games.heroscape.state import State

from .rules_support import GAME, act, initiative, markers, new, quiet_round, refused, roll_asked


def hero_turn(state: State, hero: str, rolls: tuple[int, int] = (20, 1)) -> State:
    """Round markers: Player 1 on ``hero`` (all four), Player 2 on his first card; Player 1 first."""
    state = markers(state, 0, *(hero,) * 4)
    unit = next(uid.format() for uid, unit in state.units_of(1) if unit.alive)
    state = markers(state, 1, *(unit,) * 4)
    if state.phase == "rolloff":
        state = initiative(state, *rolls)
    assert state.turn is not None
    assert state.turn.unit == hero or rolls[1] > rolls[0]
    return state


def ben_attacks(state: State, attacker: str, defender: str, skulls: int) -> State:
    state = act(state, "attack", player=1, attacker=attacker, defender=defender)
    return roll_asked(roll_asked(state, skulls), 0)


# ---------------------------------------------------------------------------------- Ominous Beginnings


def test_ominous_beginnings_the_heroes_exit_and_player_1_wins() -> None:
    """'Once a Hero has reached the Exit Zone spaces, it is taken out of play'; 'Player 1 wins when the
    three Heroes have exited the battlefield'."""
    state = new("ominous-beginnings")
    state = hero_turn(state, "0:raelin")
    assert "own turn" in refused(state, "declare", player=0, fact="exited", figures=["0:sonlen"])
    assert "Only Player 1" in refused(state, "declare", player=1, fact="exited", figures=["0:raelin"])
    state = act(state, "declare", player=0, fact="exited", figures=["0:raelin"])
    assert state.figure("0:raelin").status == "exited"  # type: ignore[union-attr]
    state = act(state, "end_turn", player=0)  # Ben's turn 1
    state = act(state, "end_turn", player=1)  # Raelin's marker 2: her turn is lost
    assert state.turn is not None and state.turn.seat == 1
    for hero in ("0:sonlen", "0:sgt-drake-alexander"):
        while not (state.phase == "markers"):
            state = act(state, "end_turn", player=state.turn.seat)  # type: ignore[union-attr]
        state = hero_turn(state, hero)
        state = act(state, "declare", player=0, fact="exited", figures=[hero])
    assert state.finished and state.winners == (0,) and "out of the pass" in state.reason


def test_ominous_beginnings_one_hero_destroyed_and_player_2_wins() -> None:
    state = hero_turn(new("ominous-beginnings"), "0:raelin", rolls=(1, 20))  # Ben's Stingers first
    state = act(state, "correct_wounds", player=0, figure="0:sonlen", wounds=5)
    state = ben_attacks(state, "1:marro-stingers/1", "0:sonlen", 1)
    assert state.finished and state.winners == (1,) and "Hero" in state.reason


def test_ominous_beginnings_player_2_wins_at_the_end_of_round_10() -> None:
    state = new("ominous-beginnings")
    for _ in range(10):
        state = quiet_round(state)
    assert state.finished and state.winners == (1,) and "Round 10" in state.reason


def test_ominous_beginnings_player_1_also_wins_destroying_player_2() -> None:
    state = hero_turn(new("ominous-beginnings"), "0:sgt-drake-alexander")
    for uid, unit in state.units_of(1):
        for n in unit.living():
            if uid.figure(n).format() != "1:marrden-nagrubs/3":
                state = act(
                    state, "correct_status", player=1, figure=uid.figure(n).format(), status="destroyed"
                )
    state = act(state, "attack", player=0, attacker="0:sgt-drake-alexander", defender="1:marrden-nagrubs/3")
    state = roll_asked(roll_asked(state, 1), 0)
    assert state.finished and state.winners == (0,)


# --------------------------------------------------------------------------- The Unexpected Capture


def test_unexpected_capture_player_1_goes_first_in_round_1_without_a_roll() -> None:
    """'For the first round only, Players do not roll for initiative. Player 1 goes first.'"""
    state = new("unexpected-capture")
    state = markers(state, 1, *("1:marro-drudge",) * 4)
    state = markers(state, 0, *("0:shiori",) * 4)
    assert state.phase == "turns" and state.turn is not None and state.turn.seat == 0
    while state.phase == "turns":
        state = act(state, "end_turn", player=state.turn.seat)  # type: ignore[union-attr]
    state = markers(markers(state, 0, *("0:shiori",) * 4), 1, *("1:marro-drudge",) * 4)
    assert state.phase == "rolloff"  # round 2 rolls for initiative as usual


def test_unexpected_capture_player_2_wins_at_the_second_figure_destroyed() -> None:
    state = new("unexpected-capture")
    state = markers(markers(state, 0, *("0:shiori",) * 4), 1, *("1:marro-stingers",) * 4)
    state = act(state, "end_turn", player=0)
    state = act(state, "correct_status", player=0, figure="0:sonlen", status="destroyed")
    assert not state.finished
    state = act(state, "correct_wounds", player=0, figure="0:shiori", wounds=2)
    state = ben_attacks(state, "1:marro-stingers/1", "0:shiori", 1)
    assert state.finished and state.winners == (1,) and "two" in state.reason


def test_unexpected_capture_player_1_wins_with_four_heroes_standing() -> None:
    state = new("unexpected-capture")
    state = markers(markers(state, 0, *("0:major-q10",) * 4), 1, *("1:marro-stingers",) * 4)
    state = act(state, "correct_status", player=0, figure="0:sonlen", status="destroyed")
    for uid, unit in state.units_of(1):
        for n in unit.living():
            if uid.figure(n).format() != "1:marro-stingers/1":
                state = act(
                    state, "correct_status", player=1, figure=uid.figure(n).format(), status="destroyed"
                )
    assert not state.finished
    state = act(state, "attack", player=0, attacker="0:major-q10", defender="1:marro-stingers/1")
    state = roll_asked(roll_asked(state, 1), 0)
    assert state.finished and state.winners == (0,) and "four Heroes" in state.reason


def test_unexpected_capture_player_2_wins_when_round_10_ends_with_marro_standing() -> None:
    state = new("unexpected-capture")
    for _ in range(10):
        state = quiet_round(state)
    assert state.finished and state.winners == (1,)


# ---------------------------------------------------------------------------- Source of Corruption


def test_source_of_corruption_the_most_points_after_round_10() -> None:
    """'If the battle reaches the end of Round 10, then the battle is over and the player with the most
    points on the battlefield wins' (Player 1: 660; Player 2: 720)."""
    state = new("source-of-corruption")
    for _ in range(9):
        state = quiet_round(state)
    assert not state.finished and state.round == 10
    state = act(state, "correct_status", player=1, figure="1:marro-hive", status="destroyed")
    state = quiet_round(state)
    assert state.finished and state.winners == (0,) and "most points" in state.reason  # 660 against 560


def test_source_of_corruption_last_player_standing() -> None:
    state = new("source-of-corruption", survivors="shiori")
    state = markers(markers(state, 0, *("0:shiori",) * 4), 1, *("1:tor-kul-na",) * 4)
    state = initiative(state, 1, 20)
    state = act(state, "correct_wounds", player=0, figure="0:shiori", wounds=2)
    state = act(state, "attack", player=1, attacker="1:tor-kul-na", defender="0:shiori")
    state = roll_asked(roll_asked(state, 1), 0)
    assert state.finished and state.winners == (1,)
    assert GAME.prompt(state) is None
