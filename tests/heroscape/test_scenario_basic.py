"""The Basic Game scenarios' ends (rulebook, Battlefields & Game Scenarios): A Long Wait, Spring
Surprise, Protect the Waters. Players declare what only the map knows (a zone held, the waters
occupied)."""

from __future__ import annotations

from companion.games.heroscape.ids import FigureId
from companion.games.heroscape.state import State

from .rules_support import act, new, refused, roll_asked


def first_turn(scenario: str, seat: int) -> State:
    """The Basic Game begins: ``seat`` rolls the most skulls."""
    state = new(scenario)
    for who in (0, 1):
        skulls = 6 if who == seat else 0
        state = act(
            state, "roll", player=who, die="combat", faces=["skull"] * skulls + ["blank"] * (6 - skulls)
        )
    return state


def wipe(state: State, seat: int, keep: str) -> State:
    """Every figure of ``seat`` but ``keep`` destroyed by hand correction."""
    for uid, unit in state.units_of(seat):
        for n in unit.living():
            figure = uid.figure(n).format()
            if uid.figure(n) != FigureId.parse(keep):
                state = act(state, "correct_status", player=seat, figure=figure, status="destroyed")
    return state


def destroy_with_an_attack(state: State, seat: int, card: str, attacker: str, defender: str) -> State:
    state = act(state, "choose_card", player=seat, unit=card)
    state = act(state, "attack", player=seat, attacker=attacker, defender=defender)
    return roll_asked(roll_asked(state, 1), 0)


def test_a_long_wait_destroy_all_of_your_opponents_figures() -> None:
    state = wipe(first_turn("a-long-wait", 0), 1, keep="1:tor-kul-na")
    assert not state.finished
    state = destroy_with_an_attack(state, 0, "0:sonlen", "0:sonlen", "1:tor-kul-na")
    assert state.finished and state.winners == (0,)


def test_a_long_wait_player_2_wins_the_same_way() -> None:
    state = wipe(first_turn("a-long-wait", 1), 0, keep="0:shiori")
    state = destroy_with_an_attack(state, 1, "1:marro-stingers", "1:marro-stingers/1", "0:shiori")
    assert state.finished and state.winners == (1,)


def test_spring_surprise_player_1_wins_holding_a_zone_alone() -> None:
    """'Player 1 wins immediately when he has control over 1 of the 4 zones'."""
    state = first_turn("spring-surprise", 0)
    assert "Only Player 1" in refused(state, "declare", player=1, fact="zone")
    state = act(state, "declare", player=0, fact="zone")
    assert state.finished and state.winners == (0,) and "zone" in state.reason


def test_spring_surprise_player_2_wins_destroying_player_1() -> None:
    state = wipe(first_turn("spring-surprise", 1), 0, keep="0:major-q10")
    state = destroy_with_an_attack(state, 1, "1:tor-kul-na", "1:tor-kul-na", "0:major-q10")
    assert state.finished and state.winners == (1,)


def test_spring_surprise_player_1_also_wins_destroying_player_2() -> None:
    state = wipe(first_turn("spring-surprise", 0), 1, keep="1:marrden-nagrubs/2")
    state = destroy_with_an_attack(state, 0, "0:shiori", "0:shiori", "1:marrden-nagrubs/2")
    assert state.finished and state.winners == (0,)


def test_protect_the_waters_player_2_wins_occupying_four_water_spaces() -> None:
    state = first_turn("protect-the-waters", 1)
    assert "Only Player 2" in refused(state, "declare", player=0, fact="water")
    state = act(state, "declare", player=1, fact="water")
    assert state.finished and state.winners == (1,)


def test_protect_the_waters_player_1_wins_at_the_sixth_figure_destroyed() -> None:
    """'Player 1 wins immediately if he destroys six figures in Player 2's Army' (of nine)."""
    state = first_turn("protect-the-waters", 0)
    for figure in ("1:marro-stingers/1", "1:marro-stingers/2", "1:marro-drudge/1", "1:marro-drudge/2"):
        state = act(state, "correct_status", player=1, figure=figure, status="destroyed")
    state = destroy_with_an_attack(state, 0, "0:sonlen", "0:sonlen", "1:marrden-nagrubs/1")
    assert not state.finished
    state = act(state, "end_turn", player=0)
    state = act(act(state, "choose_card", player=1, unit="1:marro-drudge"), "end_turn", player=1)
    state = destroy_with_an_attack(state, 0, "0:raelin", "0:raelin", "1:marrden-nagrubs/2")
    assert state.finished and state.winners == (0,) and "six" in state.reason


def test_protect_the_waters_player_2_wins_destroying_player_1() -> None:
    state = wipe(first_turn("protect-the-waters", 1), 0, keep="0:raelin")
    state = destroy_with_an_attack(state, 1, "1:marro-drudge", "1:marro-drudge/1", "0:raelin")
    assert state.finished and state.winners == (1,)


def test_a_declaration_the_scenario_does_not_know_is_refused() -> None:
    state = first_turn("a-long-wait", 0)
    assert "has no 'zone'" in refused(state, "declare", player=0, fact="zone")


def test_protect_the_waters_tv_counts_what_the_victory_counts() -> None:
    """The TV's line counts Player 2's destroyed figures, as the victory check does ('Player 1 wins
    immediately if he destroys six figures in Player 2's Army'), however they were destroyed."""
    from .rules_support import GAME

    state = first_turn("protect-the-waters", 0)
    for figure in ("1:marro-stingers/1", "1:marro-drudge/1"):
        state = act(state, "correct_status", player=1, figure=figure, status="destroyed")
    state = destroy_with_an_attack(state, 0, "0:sonlen", "0:sonlen", "1:marrden-nagrubs/1")
    lines = GAME.view(state)["victory"]
    assert any("3 of 6" in line for line in lines), lines  # type: ignore[union-attr]
