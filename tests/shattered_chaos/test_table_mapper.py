"""What a card on a reader, a button and ``next`` mean at a Shattered Chaos table (table.py): read from the
engine's own state, never a guess; every act is an engine action its codec reads back."""

from __future__ import annotations

from dataclasses import replace

from companion.bundle import Act, LivePosition, Note, Press, Zone
from companion.engine import Player, Setup
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.table import ShatteredChaosMapper
from companion.games.shattered_chaos.zones import ADVENTURER, ADVENTURER_BUTTON, CHAOS, DISCARD, STACK

from .rules_support import BASTION, DEADEYE, GAME, RAIDER, STALKER, apply, enemies, new, spend_all, with_hero

MAPPER = ShatteredChaosMapper()
SETUP = Setup("shattered-chaos", tuple(Player(n) for n in ("Ana", "Ben", "Cy", "Di")))
PILE = DISCARD.zone(reader=20)


def at(state: object, seq: int = 1) -> LivePosition:
    return LivePosition(seq, "playing", GAME, state, SETUP)


def hand(seat: int, slot: int | None = None) -> Zone:
    values = {"player": seat} if slot is None else {"player": seat, "slot": slot}
    return CHAOS.zone(reader=3 * seat + 1, **values)


def acted(translation: object) -> act.Action:
    assert isinstance(translation, Act), translation
    assert GAME.parse_action(translation.payload) == translation.action
    return translation.action


def noted(translation: object) -> str:
    assert isinstance(translation, Note), translation
    return translation.text


def holding(state, seat: int, *cards: str):
    """``seat`` holds ``cards``, taken out of their stacks (as if drawn)."""
    stacks = tuple((name, tuple(c for c in stack if c not in cards)) for name, stack in state.stacks)
    return with_hero(replace(state, stacks=stacks), seat, cards=cards)


def drawing(seat: int = RAIDER):
    state = enemies(new(), 21)
    state, _ = apply(state, act.ChaosCall(seat))
    return state


# ------------------------------------------------------------------------------------------ cards


def test_a_chaos_card_laid_by_the_drawers_adventurer_card_answers_the_draw() -> None:
    state = drawing(RAIDER)
    card = state.stack("offensive")[0]
    assert acted(MAPPER.placed(hand(RAIDER, 1), card, at(state), None)) == act.DrawCard(RAIDER, card)
    # One reader under the whole place (the adventurer card and its chaos cards) reads it the same.
    zone = ADVENTURER.zone(reader=9, player=RAIDER)
    assert acted(MAPPER.placed(zone, card, at(state), None)) == act.DrawCard(RAIDER, card)
    assert "Raider draws now" in noted(MAPPER.placed(hand(BASTION), card, at(state), None))


def test_a_card_by_an_adventurer_card_when_nothing_is_drawn_is_a_notice_and_its_own_card_nothing() -> None:
    state = holding(new(), DEADEYE, "b25")
    assert MAPPER.placed(hand(DEADEYE), "b25", at(state), hand(DEADEYE)) is None  # put back
    assert MAPPER.cards_in(hand(DEADEYE), at(state)) == ["b25"]
    assert "no chaos card is drawn now" in noted(MAPPER.placed(hand(BASTION), "b1", at(state), None))
    assert "Deadeye's chaos card" in noted(MAPPER.placed(hand(BASTION), "b25", at(state), hand(DEADEYE)))


def test_a_card_lifted_off_the_adventurer_card_asks_where_it_goes() -> None:
    state = holding(new(), DEADEYE, "b25")
    said = noted(MAPPER.lifted(hand(DEADEYE), "b25", at(state)))
    assert said.startswith("Deadeye lifted Bronze 25") and "discard pile" in said


def test_on_the_discard_pile_a_card_for_an_attack_is_laid_for_the_coming_attack() -> None:
    state = holding(enemies(new(), 21), DEADEYE, "b25")  # +2 range
    laid = acted(MAPPER.placed(PILE, "b25", at(state), hand(DEADEYE)))
    assert laid == act.LayCard(DEADEYE, "b25")
    state, events = apply(state, laid)
    assert "for the coming attack" in events[0].text
    assert MAPPER.placed(PILE, "b25", at(state), None) is None  # read again: laid already
    assert "b25" in MAPPER.cards_in(PILE, at(state))
    # The attack declared on the phone (no card ticked) uses it.
    state, events = apply(state, act.Attack(DEADEYE, 21, 5))
    assert "discarding Bronze 25: +2 range" in events[0].text and state.party[DEADEYE].laid == ()


def test_next_makes_cards_laid_for_an_attack_not_made_chaos_tokens() -> None:
    state = holding(enemies(new(), 21), DEADEYE, "b25", "b13")
    state, _ = apply(state, act.LayCard(DEADEYE, "b25"), act.LayCard(DEADEYE, "b13"))
    first = MAPPER.next_action(at(state))
    assert acted(first) == act.DiscardCard(DEADEYE, "b25")
    assert (
        isinstance(first, Act)
        and first.then is not None
        and acted(first.then) == act.DiscardCard(DEADEYE, "b13")
    )
    before = state.party[DEADEYE].chaos
    state, _ = apply(state, first.action, first.then.action)
    assert state.party[DEADEYE].cards == () and state.party[DEADEYE].chaos == before + 2


def test_another_action_makes_laid_cards_chaos_tokens() -> None:
    """V.G line 1563: the cards are discarded before the action they help; anything else first: a token."""
    state = holding(enemies(new(), 21), DEADEYE, "b25")
    state, _ = apply(state, act.LayCard(DEADEYE, "b25"))
    state, events = apply(state, act.Move(DEADEYE))
    assert state.party[DEADEYE].cards == () and "b25" in state.discard
    assert any("it was not for an attack" in e.text for e in events)


def test_a_step_card_on_the_pile_is_its_step_and_any_card_in_the_enemy_phase_a_chaos_token() -> None:
    state = holding(enemies(new(), 21), STALKER, "b31")  # a step card (assumed data: 31-36)
    assert GAME.catalog.card("b31").bonus == "step"
    assert acted(MAPPER.placed(PILE, "b31", at(state), hand(STALKER))) == act.StepCard(STALKER, "b31")
    phase = spend_all(holding(enemies(new(), 21), STALKER, "b25"))
    assert phase.phase == "enemies"
    assert acted(MAPPER.placed(PILE, "b25", at(phase), hand(STALKER))) == act.DiscardCard(STALKER, "b25")


def test_an_armour_card_on_the_pile_before_the_enemys_throw_is_armour() -> None:
    state = spend_all(with_hero(holding(enemies(new(), 21), BASTION, "b1"), BASTION, chaos=4))
    state, _ = apply(state, act.Sighted(21, (BASTION,)))
    assert GAME.prompt(state).kind == "armour"
    armour = acted(MAPPER.placed(PILE, "b1", at(state), hand(BASTION)))
    assert armour == act.ArmourCards(BASTION, ("b1",))
    assert acted(MAPPER.next_action(at(state))) == act.ArmourCards(BASTION, ())  # next: no armour cards


def test_a_card_nobody_holds_on_the_pile_is_a_notice_and_one_discarded_already_nothing() -> None:
    state = new()
    assert "nobody holds it" in noted(MAPPER.placed(PILE, "b1", at(state), None))
    state = replace(state, discard=("b1",))
    assert MAPPER.placed(PILE, "b1", at(state), None) is None


def test_the_stacks_and_the_adventurer_cards_are_read_not_played() -> None:
    state = drawing(RAIDER)
    offensive = STACK.zone(reader=14, stack="offensive")
    assert set(MAPPER.cards_in(offensive, at(state))) == set(state.stack("offensive"))
    card = state.stack("offensive")[0]
    assert "Raider draws" in noted(MAPPER.lifted(offensive, card, at(state)))
    assert "belongs on the defensive stack" in noted(MAPPER.placed(offensive, "b1", at(state), None))
    place = ADVENTURER.zone(reader=0, player=BASTION)
    assert MAPPER.placed(place, "bastion", at(state), None) is None
    assert "Ana plays Bastion, not Deadeye" in noted(MAPPER.placed(place, "deadeye", at(state), None))


# ------------------------------------------------------------------------------------------ buttons


def sight_question():
    """Gremlin 21's reaction after Stalker's attack (range 1: who does it see?)."""
    state = spend_all(enemies(new(), 21))
    assert GAME.prompt(state).kind == "enemy-sight"
    return state


def test_the_adventurer_buttons_answer_who_the_enemy_sees_and_next_is_none_of_them() -> None:
    state = sight_question()
    candidates = state.top.candidates
    presses = [Press(candidates[-1], 1.0), Press(candidates[0], 1.2)]
    answer = acted(MAPPER.pressed(ADVENTURER_BUTTON, presses, at(state)))
    assert answer == act.Sighted(21, (candidates[0], candidates[-1]))  # in the question's order
    assert acted(MAPPER.next_action(at(state))) == act.Sighted(21, ())
    GAME.apply(state, answer)


def test_a_button_of_an_adventurer_not_asked_about_is_a_notice() -> None:
    state = sight_question()
    state = replace(state, steps=(replace(state.top, candidates=(BASTION,)),))
    assert "the question is about Bastion" in noted(
        MAPPER.pressed(ADVENTURER_BUTTON, [Press(RAIDER, 1.0)], at(state))
    )


def test_the_first_button_answers_who_is_closest_and_names_a_chaos_calls_partner() -> None:
    state = sight_question()
    while GAME.prompt(state).kind != "enemy-closest":
        state, _ = apply(state, act.Sighted(21, ()))
    answer = acted(MAPPER.pressed(ADVENTURER_BUTTON, [Press(DEADEYE, 1.0), Press(BASTION, 1.1)], at(state)))
    assert answer == act.Closest(21, DEADEYE)
    call = drawing(RAIDER)
    call, _ = apply(call, act.DrawCard(RAIDER, call.stack("offensive")[0]))
    assert GAME.prompt(call).kind == "partner"
    assert acted(MAPPER.pressed(ADVENTURER_BUTTON, [Press(STALKER, 1.0)], at(call))) == act.Partner(
        RAIDER, STALKER
    )
    assert acted(MAPPER.next_action(at(call))) == act.Partner(RAIDER, None)


def test_next_keeps_the_throw_and_steps_through_readings_it_cannot_decline() -> None:
    state = with_hero(enemies(new(), 21), DEADEYE, chaos=2)
    state, _ = apply(
        state, act.Attack(DEADEYE, 21, 1), act.Roll(DEADEYE, act.ATTACK_DIE, ("yellow:1", "red:2", "blue:3"))
    )
    assert GAME.prompt(state).kind == "chaos-hit"
    assert acted(MAPPER.next_action(at(state))) == act.ChaosHit(DEADEYE, ())
    state, _ = apply(state, act.ChaosHit(DEADEYE, ()))
    if GAME.prompt(state) is not None and GAME.prompt(state).kind == "resolve":
        assert "step through the choices" in noted(MAPPER.next_action(at(state)))
    adventurers = new()
    assert "step through the choices" in noted(MAPPER.next_action(at(adventurers)))
