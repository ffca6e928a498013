"""A round of play (rulebook, Master Game Guide, The Battle Begins!): order markers placed secretly,
initiative by the d20 with ties rolled again, three turns each in marker order from the initiative
winner to the left, lost turns, the round marker and the scenario's round limit; and the Basic Game's
alternating turns."""

from __future__ import annotations

import json

import pytest

from companion.engine import SetupError
from companion.games.heroscape.actions import PlaceMarkers
from companion.games.heroscape.state import State

from .rules_support import (
    GAME,
    act,
    act_events,
    battle,
    d20,
    initiative,
    markers,
    new,
    premade,
    refused,
    roll_asked,
)

ARMIES = [["shiori", "raelin", "sonlen"], ["marro-stingers", "marro-drudge", "tor-kul-na"]]
ANN = ("0:shiori", "0:raelin", "0:sonlen", "0:shiori")
BEN = ("1:marro-stingers", "1:tor-kul-na", "1:marro-drudge", "1:marro-stingers")


def end_turn(state: State) -> State:
    """Ends the turn at once (declining a card's offer to send another card first)."""
    assert state.turn is not None
    if state.stack and GAME.prompt(state).kind in ("hive-mind", "life-bonding"):  # type: ignore[union-attr]
        state = act(state, "decline", player=state.turn.seat)
    return act(state, "end_turn", player=state.turn.seat)


def turns_of_round(state: State) -> list[tuple[int, int, str]]:
    """(seat, marker, card) of every turn until the round is over, each ended at once."""
    seen = []
    start = state.round
    while state.round == start and state.turn is not None:
        seen.append((state.turn.seat, state.turn.marker + 1, state.turn.unit))
        state = end_turn(state)
    return seen


def test_markers_are_secret_until_revealed() -> None:
    """'Place your markers with the numbers facing you, so your opponents can't see them': the public
    view, the events and the public form of the action never say where a marker lies; the seat's
    private view does."""
    state = premade(ARMIES)
    action = PlaceMarkers(0, ANN)  # type: ignore[arg-type]
    after, events = GAME.apply(state, action)
    assert GAME.public_action(action) == {"kind": "place_markers", "player": 0}
    assert GAME.secret_action(action)
    assert not any("shiori" in e.text.lower() or "raelin" in e.text.lower() for e in events)
    public = json.dumps(GAME.view(after))
    elsewhere = json.dumps(GAME.view(GAME.apply(state, PlaceMarkers(0, ("0:raelin",) * 4))[0]))  # type: ignore[arg-type]
    assert public == elsewhere
    private = GAME.private_view(after, 0)  # type: ignore[arg-type]
    assert private is not None and private["markers"]["1"]["unit"] == "0:shiori"
    assert GAME.private_view(after, 1)["markers"] is None  # type: ignore[arg-type,index]


def test_markers_lie_on_the_players_own_living_cards_once_a_round() -> None:
    state = premade(ARMIES)
    assert "no 1:tor-kul-na" in refused(state, "place_markers", player=0, markers=[*ANN[:3], "1:tor-kul-na"])
    assert "expected 4 items" in refused(state, "place_markers", player=0, markers=list(ANN[:3]))
    state = markers(state, 0, *ANN)
    assert "already" in refused(state, "place_markers", player=0, markers=list(ANN))
    assert "Not now" in refused(state, "end_turn", player=0) or state.phase == "markers"


def test_two_or_more_markers_may_lie_on_one_card() -> None:
    """'You may place two or more Order Markers on the same card'."""
    state = battle(ARMIES, [("0:sonlen",) * 4, BEN])  # type: ignore[list-item]
    assert [t for t in turns_of_round(state) if t[0] == 0] == [
        (0, 1, "0:sonlen"),
        (0, 2, "0:sonlen"),
        (0, 3, "0:sonlen"),
    ]


def test_initiative_ties_for_highest_roll_again() -> None:
    """'If there's a tie for highest roll, the tying players re-roll.'"""
    state = premade([*ARMIES, ["major-q10", "marrden-nagrubs"]])
    for seat, order in enumerate([ANN, BEN, ("2:major-q10",) * 4]):
        state = markers(state, seat, *order)
    state = initiative(state, 15, 15, 2)
    assert state.phase == "rolloff" and state.rolloff is not None and state.rolloff.contenders == (0, 1)
    assert "again (a tie)" in GAME.prompt(state).text  # type: ignore[union-attr]
    state = d20(d20(state, 0, 4), 1, 9)
    assert state.order == (1, 2, 0)  # Ben wins; play passes to the left


def test_the_rulebook_initiative_example() -> None:
    """Dan rolls 2, Mike 15, Ben 17: Ben takes each of his turns first, then play passes to the left;
    Ben's second turn comes before Dan's and Mike's."""
    state = premade([*ARMIES, ["major-q10", "marrden-nagrubs"]])
    for seat, order in enumerate([ANN, BEN, ("2:major-q10",) * 4]):
        state = markers(state, seat, *order)
    state = initiative(state, 2, 17, 15)
    seats = [seat for seat, _, _ in turns_of_round(state)]
    assert seats == [1, 2, 0] * 3


def test_turns_follow_the_markers_and_the_round_marker_moves_on() -> None:
    state = battle(ARMIES, [ANN, BEN], rolls=(3, 11))
    assert turns_of_round(state) == [
        (1, 1, "1:marro-stingers"),
        (0, 1, "0:shiori"),
        (1, 2, "1:tor-kul-na"),
        (0, 2, "0:raelin"),
        (1, 3, "1:marro-drudge"),
        (0, 3, "0:sonlen"),
    ]
    for _ in range(6):
        state = end_turn(state)
    assert state.round == 2 and state.phase == "markers" and state.sides[0].markers is None


def test_a_turn_is_lost_when_its_cards_figures_are_gone() -> None:
    """Life: 'When all figures on an Army Card have been destroyed ... Do not reveal any unrevealed Order
    Markers that are on that card'; Example 19: 'he must skip his turn for Shiori on this round'."""
    state = battle(ARMIES, [("0:raelin", "0:shiori", "0:sonlen", "0:raelin"), ("1:tor-kul-na",) * 4])
    state = act(state, "moved", player=0)
    state = end_turn(state)  # Raelin's turn
    state = act(state, "attack", player=1, attacker="1:tor-kul-na", defender="0:shiori")
    state = roll_asked(roll_asked(state, 6), 0)  # six skulls: Shiori (Life 3) is destroyed
    assert not state.figure("0:shiori").alive  # type: ignore[union-attr]
    state, events = act_events(state, "end_turn", player=1)
    assert any(e.kind == "TurnLost" for e in events)
    assert state.turn is not None and state.turn.seat == 1 and state.turn.marker == 1
    assert state.sides[0].revealed[1] is False  # Shiori's marker stays face down


def test_a_player_with_no_figures_left_places_no_markers_and_takes_no_turns() -> None:
    state = premade([*ARMIES, ["marrden-nagrubs"]])
    for n in (1, 2, 3):
        state = act(state, "correct_status", player=2, figure=f"2:marrden-nagrubs/{n}", status="destroyed")
    state = markers(markers(state, 0, *ANN), 1, *BEN)
    assert state.phase == "rolloff" and state.rolloff is not None and state.rolloff.contenders == (0, 1)
    assert "again" not in GAME.prompt(state).text  # type: ignore[union-attr]
    state = initiative(state, 20, 1)
    assert {seat for seat, _, _ in turns_of_round(state)} == {0, 1}


def test_the_round_limit_ends_the_battle_with_scoring() -> None:
    """Ending the Battle: at the scenario's round limit the player with the most points wins."""
    state = battle(ARMIES, [ANN, BEN], rounds=1)
    for _ in range(6):
        state = end_turn(state)
    assert state.finished and state.winners == (0,)  # 340 points against 330
    assert "most points" in state.reason


def test_the_basic_game_first_player_rolls_the_most_skulls_and_players_alternate() -> None:
    """Basic Game, The Battle Begins!: each rolls 6 combat dice, the most skulls goes first (ties roll
    again); then players alternate, each turn with one army card of their choice."""
    state = new("a-long-wait")
    state = act(state, "roll", player=0, die="combat", faces=["skull"] * 2 + ["blank"] * 4)
    state = act(state, "roll", player=1, die="combat", faces=["skull"] * 2 + ["shield"] * 4)
    assert state.phase == "rolloff"  # a tie
    state = act(state, "roll", player=0, die="combat", faces=["skull"] * 1 + ["blank"] * 5)
    state = act(state, "roll", player=1, die="combat", faces=["skull"] * 3 + ["blank"] * 3)
    seats = []
    for _ in range(4):
        prompt = GAME.prompt(state)
        assert prompt is not None and prompt.kind == "choose_card"
        seat = prompt.players[0]
        seats.append(seat)
        state = GAME.apply(state, prompt.choices[0].action)[0]
        state = act(state, "end_turn", player=seat)
    assert seats == [1, 0, 1, 0]


def test_the_basic_game_has_no_rounds_to_limit() -> None:
    with pytest.raises(SetupError, match="no rounds"):
        new("a-long-wait", rounds=5)


def test_example_3_markers_on_three_cards_and_the_x_as_a_decoy() -> None:
    """Example 3: Sonlen first, the Marro Stingers second, the Nagrubs third, the X on Tor-Kul-Na to fake
    out the opponent: the turns follow 1, 2, 3 and the X is never revealed."""
    army = ["sonlen", "marro-stingers", "marrden-nagrubs", "tor-kul-na"]
    mine = ("0:sonlen", "0:marro-stingers", "0:marrden-nagrubs", "0:tor-kul-na")
    state = battle([army, ["raelin"]], [mine, ("1:raelin",) * 4])
    cards = [card for seat, _, card in turns_of_round(state) if seat == 0]
    assert cards == ["0:sonlen", "0:marro-stingers", "0:marrden-nagrubs"]
    for _ in range(5):
        state = end_turn(state)
    assert state.sides[0].revealed == (True, True, True)  # markers 1-3; the X has no turn to reveal
    assert state.turn is not None and state.turn.unit == "1:raelin"
