"""Roll-offs the rulebook calls for and players ask for from a phone: a Line of Sight dispute ("roll the
20-sided die; the high roller wins the dispute", Master Game Guide) and Simultaneous Special Powers
("roll the 20-sided die to see who gets to use them first"). Both players roll the d20, ties roll
again, the winner is recorded, and nothing else in the game changes."""

from __future__ import annotations

from dataclasses import replace

from companion.games.heroscape.simulate import play
from companion.games.heroscape.state import State

from .rules_support import (
    GAME,
    act,
    act_events,
    battle,
    d20,
    new,
    premade,
    quiet_round,
    refused,
    roll_asked,
    setup,
)

ARMIES = [["marro-drudge", "sonlen"], ["marro-stingers", "tor-kul-na"]]
ORDERS = [
    ("0:marro-drudge", "0:sonlen", "0:marro-drudge", "0:sonlen"),
    ("1:tor-kul-na", "1:marro-stingers", "1:marro-stingers", "1:tor-kul-na"),
]


def turn() -> State:
    return act(battle(ARMIES, ORDERS), "moved", player=0)


def unchanged_but_the_record(before: State, after: State) -> bool:
    return replace(after, last_contest=before.last_contest) == before


def test_a_line_of_sight_dispute_the_high_roller_wins_and_nothing_else_changes() -> None:
    before = turn()
    state, events = act_events(before, "dispute", player=1, opponent=0, about="line-of-sight")
    assert [e.kind for e in events] == ["RollOffAsked"]
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "rolloff" and prompt.players == (1,)
    assert prompt.roll is not None and prompt.roll.die == "d20" and prompt.roll.count == 1
    assert prompt.text == "Line of sight: Ben rolls the d20 against Ann; the higher roll wins"
    assert refused(state, "roll", player=0, die="d20", faces=["20"]) == "The dice are Ben's to roll"
    state = d20(state, 1, 17)
    assert GAME.prompt(state).players == (0,)  # type: ignore[union-attr]
    state, events = act_events(state, "roll", player=0, die="d20", faces=["9"])
    assert events[-1].kind == "RollOffWon" and events[-1].text == "Line of sight: Ben wins 17–9"
    assert events[-1].data == {"about": "line-of-sight", "winner": 1, "loser": 0, "rolls": [17, 9]}
    assert unchanged_but_the_record(before, state)
    assert GAME.prompt(state) == GAME.prompt(before)  # the turn goes on where it was
    last = GAME.view(state)["rolloffs"]["last"]
    assert last["text"] == "Line of sight: Ben wins 17–9" and last["winner"] == 1


def test_a_tie_rolls_again_as_initiative_does() -> None:
    state = act(turn(), "dispute", player=0, opponent=1, about="simultaneous-powers")
    state = d20(d20(state, 0, 12), 1, 12)
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.players == (0,)
    assert prompt.text.startswith("Simultaneous powers: Ann rolls the d20 again (a tie)")
    assert GAME.view(state)["rolloffs"]["pending"]["again"] is True
    state, events = act_events(d20(state, 0, 3), "roll", player=1, die="d20", faces=["8"])
    assert events[-1].text == "Simultaneous powers: Ben wins 8–3"


def test_a_roll_off_waits_on_top_of_an_attack_roll_and_the_attack_goes_on() -> None:
    declared = act(turn(), "attack", player=0, attacker="0:marro-drudge/1", defender="1:marro-stingers/1")
    state = act(declared, "dispute", player=0, opponent=1, about="line-of-sight")
    assert "finish the roll-off under way" in refused(
        state, "dispute", player=1, opponent=0, about="line-of-sight"
    )
    state = d20(d20(state, 0, 2), 1, 20)
    assert unchanged_but_the_record(declared, state)
    state = roll_asked(roll_asked(state, 2), 0)  # the attack's dice, as before the dispute
    assert not state.figure("1:marro-stingers/1").alive  # type: ignore[union-attr]


def test_roll_offs_are_refused_in_one_line_where_the_rulebook_has_none() -> None:
    state = turn()
    assert "opponent" in refused(state, "dispute", player=0, opponent=0, about="line-of-sight")
    assert "no seat 6 (0 to 1)" in refused(state, "dispute", player=0, opponent=6, about="line-of-sight")
    # Seats count from 0 in actions: "opponent -1" is named as it was sent, never as "player 0".
    assert "dispute.opponent: there is no seat -1" in refused(
        state, "dispute", player=0, opponent=-1, about="line-of-sight"
    )
    assert "during the battle" in refused(
        new("custom", army="premade"), "dispute", player=0, opponent=1, about="line-of-sight"
    )
    basic = new("a-long-wait")
    for seat in (0, 1):
        basic = act(basic, "roll", player=seat, die="combat", faces=["skull"] * (6 - seat) + ["blank"] * seat)
    assert "simultaneous-powers" in refused(
        basic, "dispute", player=0, opponent=1, about="simultaneous-powers"
    )
    basic = act(basic, "dispute", player=0, opponent=1, about="line-of-sight")  # the Basic Game has sight
    under_way = refused(basic, "dispute", player=1, opponent=0, about="line-of-sight")
    assert "finish the roll-off under way" in under_way


def test_teammates_do_not_roll_off_against_each_other() -> None:
    armies = [["raelin"], ["tor-kul-na"], ["shiori"], ["major-q10"]]
    orders = [(f"{seat}:{cards[0]}",) * 4 for seat, cards in enumerate(armies)]
    state = battle(armies, orders, teams="12-34")
    assert "not Ann's opponent" in refused(state, "dispute", player=0, opponent=1, about="line-of-sight")
    state = act(state, "dispute", player=0, opponent=3, about="line-of-sight")
    assert GAME.view(state)["rolloffs"]["pending"]["contenders"] == [0, 3]


def test_random_play_asks_for_roll_offs_and_they_change_nothing_else() -> None:
    import random

    played = play(GAME, setup("custom", army="premade"), random.Random(3))
    asked = [a for a in played.log if a.kind == "dispute"]
    assert asked, "the simulator never asked for a roll-off"
    assert played.violations == []


def test_a_roll_off_during_the_flood_question_judges_no_victory_early() -> None:
    """Losses declared at one moment for everyone (the flood) are all declared before anyone is judged
    the last one standing; a roll-off asked in the middle must not judge them either."""
    state = premade([["raelin"], ["tor-kul-na"]], "deadly-wall-of-water")
    for _ in range(2):
        state = quiet_round(state)
    state = d20(quiet_round(state, rolls=(20, 1)), 1, 4)  # the wall floods
    state = act(state, "declare", player=0, fact="flooded", figures=["0:raelin"])  # Ann's last figure
    asked = state
    state = act(state, "dispute", player=1, opponent=0, about="simultaneous-powers")
    state = d20(d20(state, 1, 6), 0, 5)
    assert not state.finished and unchanged_but_the_record(asked, state)
    assert GAME.prompt(state).kind == "flood"  # type: ignore[union-attr]  # Ben still declares his
