"""Purple specials and war machines: Chaos Marauders, Pigstickers, Shaman, Plague Lords, Creeps, crews."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError, Roll
from companion.games.chaos_marauders.actions import (
    Attack,
    Decline,
    Discard,
    Draw,
    ForceDiscard,
    Pick,
    Place,
    Shout,
)
from companion.games.chaos_marauders.placement import tribe_attack
from companion.games.chaos_marauders.state import AttackOffer, AttackRoll, CardChoice, PlaceStep

from .positions import (
    CLAWS,
    CM,
    CREEPS,
    DIRT,
    GAME,
    GIT,
    HAK,
    HM,
    HS,
    OM,
    OS,
    PIG,
    PLAGUE,
    RAT,
    SHAMAN,
    SHOTTI,
    SNOT,
    SQUAD,
    kinds,
    line,
    play,
    position,
)

EYE = Roll(0, "cube", ("eye",))
MARK = Roll(0, "cube", ("mark",))


def test_chaos_marauders_are_hidden_on_the_tv_until_the_turn_ends() -> None:
    state, events = play(position(), Place(0, CM, 0, 3))
    assert all("Chaos Marauders" not in e.text for e in events)
    view = GAME.view(state)
    assert view["players"][0]["lines"][0]["slots"][3]["hidden"] is True
    state, events = play(state, Draw(0, SNOT), Discard(0))
    assert "MaraudersKept" in kinds(events) and state.marauders_at is None


def test_chaos_marauders_shout_takes_the_card_and_the_shouter_places_it() -> None:
    state, _ = play(position(), Place(0, CM, 0, 3))
    state, events = play(state, Shout(1))
    assert "MaraudersSpotted" in kinds(events)
    assert state.boards[0][0][3] is None
    assert isinstance(state.top, PlaceStep) and state.top.player == 1
    state, _ = play(state, Place(1, CM, 2, 5))
    assert state.boards[1][2][5] == CM
    assert state.active == 0 and GAME.prompt(state).kind == "draw"  # the active player's turn goes on


def test_false_chaos_marauders_shout_lets_the_active_player_take_a_card() -> None:
    state = position({1: [line(HS, SHOTTI)]})
    state, events = play(state, Shout(1))
    assert "FalseShout" in kinds(events)
    assert isinstance(state.top, CardChoice) and state.top.ability == "take"
    state, _ = play(state, Pick(0, 1, 0, 1))
    state, _ = play(state, Place(0, SHOTTI, 1, 4))
    assert state.boards[0][1][4] == SHOTTI and state.boards[1][0][1] is None


def test_the_active_player_cannot_shout() -> None:
    with pytest.raises(IllegalActionError):
        GAME.apply(position(), Shout(0))


def test_bozlum_pigsticker_discards_an_opponents_purple_card() -> None:
    state = position({1: [line(HS, CLAWS)]})
    state, _ = play(state, Place(0, PIG, 0, 3))
    assert isinstance(state.top, CardChoice) and state.top.ability == "stick"
    with pytest.raises(IllegalActionError, match="purple"):
        GAME.apply(state, Pick(0, 1, 0, 0))  # the Hobgoblin Standard is grey
    state, _events = play(state, Pick(0, 1, 0, 1))
    assert state.boards[1][0][1] is None and state.discard[-1] == CLAWS
    assert state.active == 0 and state.top is None


def test_bozlum_pigsticker_may_decline_and_has_no_ability_without_a_victim() -> None:
    state, _ = play(position({1: [line(HS)]}), Place(0, PIG, 0, 3))
    assert state.top is None
    state, _ = play(position({1: [line(HS, CLAWS)]}), Place(0, PIG, 0, 3), Decline(0))
    assert state.boards[1][0][1] == CLAWS


def test_bozlum_pigsticker_duplicate_still_sticks_before_the_turn_ends() -> None:
    state = position({0: [line(), line(HS, PIG)], 1: [line(HS, CLAWS)]})
    state, _ = play(state, Place(0, PIG, 0, 3))
    assert isinstance(state.top, CardChoice)
    state, _ = play(state, Pick(0, 1, 0, 1))
    assert state.active == 1


def shaman_ready():
    return position(
        {0: [line(HS, SHAMAN, CLAWS, None, HM)], 1: [line(HS, DIRT), line(OS, HAK)]}, pile={SQUAD: 3, SNOT: 2}
    )


def test_shaman_line_makes_two_attacks() -> None:
    state, _ = play(shaman_ready(), Place(0, SQUAD, 0, 3))
    assert state.top == AttackOffer(0, 0, 2)


def test_shaman_second_attack_after_a_win() -> None:
    state, _ = play(shaman_ready(), Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), EYE, Discard(0, HS))
    assert state.top == AttackOffer(0, 0, 1)
    state, events = play(state, Attack(0, 0, 1, 1), EYE)
    assert "LineDefeated" in kinds(events) and state.active == 1


def test_shaman_second_attack_is_not_offered_when_no_line_is_left_to_attack() -> None:
    # The first attack took Ugluk's only line; the won cards are discarded: nothing is left to attack.
    state = position({0: [line(HS, CLAWS, PIG, SHAMAN)], 1: [line(HS, SNOT, DIRT)]})
    state, _ = play(state, Draw(0, OM), Place(0, OM, 0, 4), Attack(0, 0, 1, 0), EYE)
    while isinstance(state.top, PlaceStep):
        state, _ = play(state, Discard(0, state.top.cards[0].card))
    assert state.top is None and state.active == 1  # no empty "Attack, or decline?" offer


def test_shaman_two_attacks_may_go_against_two_different_players() -> None:
    # "The two battle lines he attacks can belong to the same player, or two different players."
    state = position(
        {0: [line(HS, SHAMAN, CLAWS, None, HM)], 1: [line(HS, DIRT)], 2: [line(OS, HAK)]},
        players=3,
        pile={SQUAD: 3, SNOT: 2},
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3))
    assert state.top == AttackOffer(0, 0, 2)
    state, events = play(state, Attack(0, 0, 1, 0), EYE, Discard(0, HS))
    assert "LineDefeated" in kinds(events) and state.boards[1][0] == line()
    assert state.top == AttackOffer(0, 0, 1) and state.active == 0
    assert [a for a in GAME.legal_actions(state) if isinstance(a, Attack)] == [Attack(0, 0, 2, 0)]
    state, events = play(state, Attack(0, 0, 2, 0), EYE)
    assert kinds(events)[:2] == ["AttackDeclared", "LineDefeated"]
    assert state.boards[2][0] == line() and state.boards[0][0][:5] == (HS, SHAMAN, CLAWS, SQUAD, HM)
    assert state.top is None and state.active == 1


def test_shaman_line_that_routs_makes_no_second_attack() -> None:
    state, _ = play(shaman_ready(), Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), MARK)
    assert not any(isinstance(s, AttackOffer) for s in state.stack)
    assert state.active == 1


def test_plague_lords_are_worth_two_per_plague_lord_in_the_tribe() -> None:
    one = position({0: [line(HS, PLAGUE)]})
    assert tribe_attack(GAME.facts, one.boards[0], 0) == 2
    three = position({0: [line(HS, PLAGUE, PLAGUE), line(HS, PLAGUE)]})
    assert tribe_attack(GAME.facts, three.boards[0], 0) == 12
    four = position({0: [line(HS, PLAGUE, PLAGUE), line(HS, PLAGUE), line(HS, PLAGUE)]})
    assert tribe_attack(GAME.facts, four.boards[0], 1) == 8


def test_venemous_creeps_steal_a_non_purple_card() -> None:
    state = position({1: [line(HS, CLAWS, SHOTTI)]})
    state, _ = play(state, Draw(0, CREEPS))
    assert isinstance(state.top, CardChoice) and state.top.ability == "steal"
    with pytest.raises(IllegalActionError, match="purple"):
        GAME.apply(state, Pick(0, 1, 0, 1))
    state, _ = play(state, Pick(0, 1, 0, 2))
    assert state.boards[1][0][2] is None and CREEPS in state.discard
    state, _ = play(state, Place(0, SHOTTI, 0, 5))
    assert state.boards[0][0][5] == SHOTTI and state.active == 1


def test_venemous_creeps_stolen_card_may_complete_a_line_that_attacks() -> None:
    state = position({0: [line(HS, CLAWS, SQUAD, HAK)], 1: [line(HS, SNOT, HM), line(OS, DIRT)]})
    state, _ = play(state, Draw(0, CREEPS), Pick(0, 1, 0, 2), Place(0, HM, 0, 4))
    assert isinstance(state.top, AttackOffer)


def test_stolen_crew_pulls_its_machine_parts() -> None:
    state = position({1: [line(HS, "smasher-left", "smasher-right", "smasher-crew")]})
    state, events = play(state, Draw(0, CREEPS), Pick(0, 1, 0, 3))
    assert "MachinePulled" in kinds(events)
    top = state.top
    assert isinstance(top, PlaceStep)
    assert sorted(p.card for p in top.cards) == ["smasher-crew", "smasher-left", "smasher-right"]
    assert state.boards[1][0][1:4] == (None, None, None)


def test_venemous_creeps_steal_the_horned_rat_standard_from_a_completed_line() -> None:
    # "take any one card ... from an opponent's battle line (even a completed battle line) ...
    # Even the Horned Rat Standard and war machine 'crew' cards may be stolen."
    state = position({0: [line(HS, DIRT)], 1: [line(RAT, CLAWS, DIRT, HM)]})
    assert GAME.view(state)["players"][1]["lines"][0]["complete"] is True
    state, _ = play(state, Draw(0, CREEPS))
    assert [a for a in GAME.legal_actions(state) if isinstance(a, Pick)] == [
        Pick(0, 1, 0, 0),
        Pick(0, 1, 0, 3),
    ]
    state, events = play(state, Pick(0, 1, 0, 0))
    assert "CardTaken" in kinds(events) and state.boards[1][0][:4] == (None, CLAWS, DIRT, HM)
    assert isinstance(state.top, PlaceStep) and [p.card for p in state.top.cards] == [RAT]
    state, _ = play(state, Place(0, RAT, 1, 0))
    assert state.boards[0][1][0] == RAT and state.active == 1
    view = GAME.view(state)
    assert view["players"][0]["lines"][1]["protected"] is True
    assert view["players"][1]["lines"][0]["complete"] is False


def test_crew_pulls_machine_cards_from_horned_rat_and_completed_lines() -> None:
    # "a player will even take war machine cards from a battle line protected by a Horned Rat
    # Standard, as well as completed battle lines."
    state = position({1: [line(RAT, "smasher-left", DIRT), line(HS, CLAWS, "smasher-right", HM)]})
    assert GAME.view(state)["players"][1]["lines"][1]["complete"] is True
    state, events = play(state, Draw(0, "smasher-crew"))
    assert kinds(events).count("MachinePulled") == 2
    top = state.top
    assert isinstance(top, PlaceStep) and top.player == 0
    assert sorted(p.card for p in top.cards) == ["smasher-crew", "smasher-left", "smasher-right"]
    assert state.boards[1][0][:3] == (RAT, None, DIRT)
    assert state.boards[1][1][:4] == (HS, CLAWS, None, HM)


def test_drawn_crew_pulls_machine_parts_from_other_players_only() -> None:
    state = position({0: [line(HS, "bomber-left")], 1: [line(HS, "bomber-right")]})
    state, _ = play(state, Draw(0, "bomber-crew"))
    top = state.top
    assert isinstance(top, PlaceStep)
    assert sorted(p.card for p in top.cards) == ["bomber-crew", "bomber-right"]
    assert state.boards[0][0][1] == "bomber-left"


def test_captured_war_machine_is_taken_not_discarded() -> None:
    state = position(
        {0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, CLAWS, "ockee-left")]}, pile={SQUAD: 2}
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), EYE)
    assert "ockee-left" in [p.card for p in state.top.cards]  # type: ignore[union-attr]


def test_chaos_marauders_are_not_named_by_the_prompt() -> None:
    state, _ = play(position(), Draw(0, CM))
    prompt = GAME.prompt(state)
    assert "Chaos Marauders" not in prompt.text
    assert all("Chaos Marauders" not in c.label for c in prompt.choices)


def test_chaos_marauders_shout_before_the_card_is_placed_takes_it_too() -> None:
    state, _ = play(position(), Draw(0, CM), Shout(1))
    assert isinstance(state.top, PlaceStep) and state.top.player == 1 and state.top.source == "shout"
    with pytest.raises(IllegalActionError, match="must be placed"):
        GAME.apply(state, Discard(1))
    state, _ = play(state, Place(1, CM, 0, 4))
    assert state.active == 0 and state.top is None


def test_a_second_shout_after_the_marauders_are_taken_is_too_late_not_false() -> None:
    # Card reference: "If more than one player calls out ... the card goes to the player who called it
    # first"; only a shout when the card "was not actually drawn" is punished.
    state, _ = play(position({2: [line(HS, SNOT)]}, players=3), Place(0, CM, 0, 3), Shout(1))
    state, _ = play(state, Place(1, CM, 0, 4))
    with pytest.raises(IllegalActionError, match="Too late"):
        GAME.apply(state, Shout(2))
    assert not any(isinstance(a, Shout) for a in GAME.legal_actions(state))


def test_chaos_marauders_shout_is_open_while_the_completed_line_may_attack() -> None:
    # Placing the Marauders completes line 1: the shout still takes them, and the broken line's attack
    # offer goes with them (card reference: until the active player "manages to finish his turn").
    state = position({0: [line(HS, DIRT, HAK, None, OM)], 1: [line(HS, SNOT)]})
    state, _ = play(state, Place(0, CM, 0, 3))
    assert isinstance(state.top, AttackOffer)
    assert Shout(1) in GAME.legal_actions(state)
    state, events = play(state, Shout(1))
    assert kinds(events)[:2] == ["AttackCalledOff", "MaraudersSpotted"]
    state, _ = play(state, Place(1, CM, 1, 4))
    assert state.top is None and state.active == 0 and not state.turn_ends  # his turn goes on


def test_chaos_marauders_shout_after_the_attack_is_declared_calls_it_off_and_ends_the_turn() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, OM)], 1: [line(HS, SNOT)]})
    state, _ = play(state, Place(0, CM, 0, 3), Attack(0, 0, 1, 0))
    state, events = play(state, Shout(1))
    assert kinds(events)[:2] == ["AttackCalledOff", "MaraudersSpotted"]
    state, _ = play(state, Place(1, CM, 1, 4))
    assert state.boards[1][0][1] == SNOT  # the defender's line was never attacked
    assert state.active == 1  # a declared attack ends the turn


def test_shouted_marauders_are_no_longer_the_card_a_sneaky_git_may_force_away() -> None:
    # Just drawn and placed, the Marauders are spotted: the spotter's prize is not the victim's fresh card.
    state = position(
        {0: [line(HS, DIRT, GIT), line(OS, SNOT)], 1: [line(HS, HAK)], 2: [line(HS, SQUAD)]},
        players=3,
        markers=[(0, 0, 2, 2)],
    )
    state, _ = play(state, Draw(0, CM), Place(0, CM, 1, 2), Shout(1))
    assert state.fresh is None
    assert not any(isinstance(a, ForceDiscard) for a in GAME.legal_actions(state))
    with pytest.raises(IllegalActionError, match="no freshly drawn card"):
        GAME.apply(state, ForceDiscard(2, 0, 2))


def test_a_false_shout_during_a_declared_attack_gives_no_second_attack() -> None:
    # "After an attack is resolved, the turn ends": a card taken meanwhile may complete a line, not
    # open a second attack in the same turn.
    state = position(
        {0: [line(HS, DIRT, HAK, None, HM), line(OS, SNOT, None, OM)], 1: [line(HS, CLAWS), line(OS, SHOTTI)]}
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), Shout(1), Pick(0, 1, 1, 1))
    state, _ = play(state, Place(0, SHOTTI, 1, 2))
    assert [type(step) for step in state.stack] == [AttackRoll]  # the declared attack, no new offer


def test_chaos_marauders_shout_during_a_pigsticker_choice() -> None:
    state = position({0: [line(HS, DIRT)], 1: [line(HS, CLAWS)]})
    state, _ = play(state, Place(0, CM, 0, 3), Place(0, PIG, 1, 4))
    assert isinstance(state.top, CardChoice) and state.top.ability == "stick"
    state, events = play(state, Shout(1))
    assert "MaraudersSpotted" in kinds(events) and state.boards[0][0][3] is None
    state, _ = play(state, Place(1, CM, 1, 4))
    assert isinstance(state.top, CardChoice) and state.top.ability == "stick"  # the Pigsticker's turn


def test_a_pigsticker_completing_a_line_may_attack_the_line_its_discard_weakened() -> None:
    # The completed line (10) cannot beat Ugluk's (11) until the Pigsticker discards his Claws (6).
    state = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, CLAWS, SQUAD)]})
    state, _ = play(state, Place(0, PIG, 0, 3))
    assert isinstance(state.top, CardChoice) and state.top.ability == "stick"
    state, _ = play(state, Pick(0, 1, 0, 1))
    assert isinstance(state.top, AttackOffer)
    state, events = play(state, Attack(0, 0, 1, 0))
    assert "AttackDeclared" in kinds(events)


def test_a_pigsticker_line_with_nothing_to_attack_after_its_discard_gets_no_offer() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, CLAWS, SQUAD)]})
    state, _ = play(state, Place(0, PIG, 0, 3), Decline(0))
    assert state.top is None and GAME.prompt(state).kind == "draw"


def test_a_card_taken_from_a_false_shouter_may_complete_a_line_that_attacks() -> None:
    # Only cards taken "as a result of an attack" may not complete an attacking line (rulebook p.10).
    state = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(OS, SHOTTI), line(HS, SNOT)]})
    state, _ = play(state, Shout(1), Pick(0, 1, 0, 1), Place(0, SHOTTI, 0, 3))
    assert isinstance(state.top, AttackOffer) and state.top.line == 0


def test_pigsticker_reaches_protected_and_complete_lines() -> None:
    state = position({1: [line("horned-rat-standard", CLAWS, DIRT, HM)]})
    state, _ = play(state, Place(0, PIG, 0, 3), Pick(0, 1, 0, 2))
    assert state.boards[1][0][2] is None


def test_a_spotted_marauders_prompt_offers_no_discard_the_engine_refuses() -> None:
    """Card reference 48-51: the shouting player "must take the Chaos Marauders card and place it in
    his battle line". The spotter's prompt neither says "(or discard)" nor lists a discard while a
    slot takes the card, and names the card the shout made public."""
    state, _ = play(position({0: [line(HS, DIRT)], 1: [line(HS, HAK)]}), Place(0, CM, 0, 3), Shout(1))
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.text == "Ugluk: place Chaos Marauders"
    assert not any(isinstance(c.action, Discard) for c in prompt.choices)
    assert prompt.choices[0].label == "Chaos Marauders: line 1, slot 3"
    with pytest.raises(IllegalActionError, match="must be placed"):
        GAME.apply(state, Discard(1, CM))


def test_a_drawn_red_card_prompt_offers_no_discard_while_it_can_be_placed() -> None:
    """Card reference 483-484: "When a player draws a red card, he must place it in one of his battle
    lines, if able": no "(or discard)" in the prompt while a slot takes it."""
    state, _ = play(position({0: [line(HS, DIRT)]}), Draw(0, "bomber-left"))
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.text == "Grotsnik: place Bomber (left)"
    assert not any(isinstance(c.action, Discard) for c in prompt.choices)
