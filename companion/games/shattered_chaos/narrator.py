"""What the narrator cards tell the table to do, corrections, the end of the adventure, the campaign box.

The narrator cards (their texts are the owner's to enter) place enemies and tokens and say when the
adventure is won; the table enters what they say. Corrections put the companion right where the table is
the truth (a life ledger, an enemy's lives). None of these is any one adventurer's decision.
"""

from __future__ import annotations

import re
from dataclasses import replace

from companion.engine import Event
from companion.games.shattered_chaos import ledgers
from companion.games.shattered_chaos.campaign import Played
from companion.games.shattered_chaos.catalog import Catalog
from companion.games.shattered_chaos.evaluation import Member, evaluate
from companion.games.shattered_chaos.ledgers import count, hero_name, model_name
from companion.games.shattered_chaos.refusals import fail, malformed
from companion.games.shattered_chaos.state import (
    CAMPAIGN,
    OVER,
    CampaignBox,
    Condition,
    Model,
    State,
    evolve,
    set_hero,
    set_model,
)

MAX_TOKENS = 99
_CONDITION = re.compile(r"^[a-z][a-z-]{0,23}$")
_STACK = re.compile(r"^[A-Z]$")


def _playing(state: State) -> None:
    if state.phase in (CAMPAIGN, OVER):
        fail("The adventure is over")


def place_enemy(cat: Catalog, state: State, number: int, ev: list[Event]) -> State:
    _playing(state)
    card = cat.enemy_of_model(number)
    if card is None:
        malformed(f"place_enemy.model: no enemy card has a model numbered {number}")
    name = model_name(cat, number)
    if state.model(number) is not None:
        fail(f"{name} is on the board already")
    if any(n == number for _, n in state.graveyard):
        fail(f"{name} lies in the graveyard until the chaos phase")
    model = Model(card.id, number, card.is_elite_model(number), card.lives[state.seats])
    ev.append(
        Event(
            "EnemyPlaced",
            f"{name} is placed ({count(model.lives, 'life', 'lives')}, {card.armour_of(model.elite)} armour)",
            {"model": number},
        )
    )
    return evolve(state, models=tuple(sorted((*state.models, model), key=lambda m: m.number)))


def remove_enemy(cat: Catalog, state: State, number: int, ev: list[Event]) -> State:
    _playing(state)
    if state.model(number) is None:
        fail(f"{model_name(cat, number)} is not on the board")
    ev.append(Event("EnemyRemoved", f"{model_name(cat, number)} leaves the board", {"model": number}))
    return evolve(state, models=tuple(m for m in state.models if m.number != number))


def set_lives(cat: Catalog, state: State, number: int, lives: int, ev: list[Event]) -> State:
    _playing(state)
    model = state.model(number)
    if model is None:
        fail(f"{model_name(cat, number)} is not on the board")
    top = cat.enemy(model.enemy).lives[state.seats]
    if not -MAX_TOKENS <= lives <= top:
        fail(f"{model_name(cat, number)} has at most {top} lives")
    if lives < 1:
        return ledgers.kill_model(cat, state, number, ev, f"Correction: {model_name(cat, number)} is killed")
    ev.append(
        Event("Corrected", f"Correction: {model_name(cat, number)} has {count(lives, 'life', 'lives')}", {})
    )
    return set_model(state, replace(model, lives=lives))


def set_life(cat: Catalog, state: State, seat: int, life: int, ev: list[Event]) -> State:
    """A correction of the life ledger; 0 makes a shadow, and a shadow given lives is an adventurer again
    (the table is the truth: a death entered by mistake)."""
    _playing(state)
    hero = state.party[seat]
    name = hero_name(cat, state, seat)
    most = cat.adventurer(hero.card).max_life
    if not 0 <= life <= most:
        fail(f"{name}'s life ledger goes from 0 to {most}")
    if life < 1 and not hero.shadow:
        return ledgers.become_shadow(cat, state, seat, ev, f"Correction: {name} is killed")
    ev.append(Event("Corrected", f"Correction: {name} has {count(life, 'life', 'lives')}", {"seat": seat}))
    return set_hero(state, seat, replace(hero, life=life, shadow=life < 1))


def set_chaos(cat: Catalog, state: State, seat: int, tokens: int, ev: list[Event]) -> State:
    _playing(state)
    hero = state.party[seat]
    name = hero_name(cat, state, seat)
    if not 0 <= tokens <= cat.rules.ledger_tokens:
        fail(f"A chaos ledger holds 0 to {cat.rules.ledger_tokens} chaos tokens")
    if hero.shadow and tokens:
        fail(f"{name} is a shadow: a shadow has no chaos tokens")
    ev.append(
        Event("Corrected", f"Correction: {name} has {count(tokens, 'chaos token', 'chaos tokens')}", {})
    )
    return set_hero(state, seat, replace(hero, chaos=tokens))


def place_chaos(cat: Catalog, state: State, tokens: int, ev: list[Event]) -> State:
    _playing(state)
    if not 1 <= tokens <= cat.rules.chaos_token_supply:
        fail(f"1 to {cat.rules.chaos_token_supply} chaos tokens")
    ev.append(
        Event("ChaosPlaced", f"{count(tokens, 'chaos token is', 'chaos tokens are')} placed on the map", {})
    )
    return evolve(state, map_chaos=min(MAX_TOKENS, state.map_chaos + tokens))


def place_condition(
    cat: Catalog, state: State, kind: str, number: int | None, seat: int | None, ev: list[Event]
) -> State:
    """X.4: full side up under an adventurer or a small enemy, half side under a big enemy or a boss; one of
    a kind under a model."""
    _playing(state)
    if not _CONDITION.match(kind):
        malformed("place_condition.condition: a condition's name in lower case (destruction)")
    if (number is None) == (seat is None):
        malformed("place_condition: name one enemy model or one adventurer")
    if number is not None:
        model = state.model(number)
        if model is None:
            fail(f"{model_name(cat, number)} is not on the board")
        if ledgers.has_condition(model.conditions, kind):
            fail(f"{model_name(cat, number)} has a {kind} token already")
        half = ledgers.condition_side(cat, model)
        state = set_model(state, replace(model, conditions=(*model.conditions, Condition(kind, half))))
        who = model_name(cat, number)
    else:
        assert seat is not None
        if not 0 <= seat < state.seats:
            malformed(f"place_condition.adventurer: there is no seat {seat}")
        hero = state.party[seat]
        if ledgers.has_condition(hero.conditions, kind):
            fail(f"{hero_name(cat, state, seat)} has a {kind} token already")
        state = set_hero(state, seat, replace(hero, conditions=(*hero.conditions, Condition(kind))))
        half = False
        who = hero_name(cat, state, seat)
    ev.append(
        Event(
            "ConditionPlaced", f"A {kind} token goes under {who} ({'half' if half else 'full'} side up)", {}
        )
    )
    return state


def read_narrator(cat: Catalog, state: State, card: str, ev: list[Event]) -> State:
    _playing(state)
    for stack, cards in state.narrator:
        if cards and cards[0] == card:
            narrator = tuple((s, c[1:] if s == stack else c) for s, c in state.narrator)
            following = (
                f"; next on stack {stack}: {cards[1]}" if len(cards) > 1 else f"; stack {stack} is done"
            )
            ev.append(
                Event(
                    "NarratorRead", f"Narrator card {card} is read and discarded{following}", {"card": card}
                )
            )
            return evolve(state, narrator=narrator)
    fail("Only the current card of a narrator stack is read")


def move_narrator(cat: Catalog, state: State, card: str, stack: str, ev: list[Event]) -> State:
    _playing(state)
    if not _STACK.match(stack):
        malformed("move_narrator.stack: a stack is a capital letter (A, B, C)")
    if not any(card in cards for _, cards in state.narrator):
        fail(f"No narrator stack holds {card[:20]!r}")
    narrator = [(s, tuple(c for c in cards if c != card)) for s, cards in state.narrator]
    if stack not in dict(narrator):
        narrator.append((stack, ()))
        narrator.sort()
    narrator = [(s, (card, *cards) if s == stack else cards) for s, cards in narrator]
    ev.append(Event("NarratorMoved", f"Narrator card {card} goes on top of stack {stack}", {"card": card}))
    return evolve(state, narrator=tuple(narrator))


def end_adventure(cat: Catalog, state: State, outcome: str, ev: list[Event]) -> State:
    _playing(state)
    said = "is won" if outcome == "won" else "is lost"
    ev.append(Event("AdventureEnded", f"The adventure {said} in round {state.round}", {"outcome": outcome}))
    return evolve(state, outcome=outcome)


# ------------------------------------------------------------------------------------ campaign box


def enter_campaign(cat: Catalog, state: State, ev: list[Event]) -> State:
    """The final evaluation, then the campaign box (IX)."""
    members = tuple(
        Member(cat.adventurer(h.card).name, cat.adventurer(h.card).start_life, h.life, h.shadow)
        for h in state.party
    )
    lost = state.outcome == "lost"
    result = evaluate(cat, state.seats, state.round, members, lost)
    compartment = cat.adventure(state.adventure).compartment
    ev.append(
        Event(
            "Evaluated",
            f"Final evaluation: {result.sentence()} (compartment {compartment})",
            {"evaluation": result.to_json()},
        )
    )
    campaign = state.campaign.with_played(Played(state.adventure, not lost, result.section))
    reason = result.sentence()
    return evolve(
        state,
        phase=CAMPAIGN,
        steps=(CampaignBox(result.keep),),
        evaluation=result,
        campaign=campaign,
        reason=reason,
        decision=None,
    )


def keep_card(cat: Catalog, state: State, card: str, ev: list[Event]) -> State:
    step = state.top
    if state.phase != CAMPAIGN or not isinstance(step, CampaignBox):
        fail("Chaos cards are kept from the campaign box after the final evaluation")
    if not re.fullmatch(r"[sg]\d{1,3}", card) or not cat.has_card(card):
        malformed("keep_card.card: a silver or gold chaos card, s or g and its number (s7, g12)")
    if step.kept >= step.keep:
        fail(f"The party keeps {step.keep} chaos cards this time")
    state = evolve(state, campaign=state.campaign.with_kept(card), steps=(replace(step, kept=step.kept + 1),))
    ev.append(
        Event(
            "CardKept",
            f"{cat.card(card).title} joins the chaos card stack (it replaces the card "
            f"numbered {cat.card(card).number})",
            {"card": card},
        )
    )
    return state


def gain_talent(cat: Catalog, state: State, seat: int, talent: str, ev: list[Event]) -> State:
    if state.phase != CAMPAIGN:
        fail("Talents are written into the campaign log after the adventure")
    if not cat.has_talent(talent):
        malformed(f"gain_talent.talent: no talent {talent[:40]!r} in the data")
    hero = state.party[seat]
    if talent in hero.talents or talent in state.campaign.talents_of(hero.card):
        fail(f"{hero_name(cat, state, seat)} has that talent already")
    ev.append(
        Event(
            "TalentGained", f"{hero_name(cat, state, seat)} gains the talent {cat.talent(talent).title}", {}
        )
    )
    return evolve(state, campaign=state.campaign.with_talent(hero.card, talent))


def close_campaign(cat: Catalog, state: State, ev: list[Event]) -> State:
    if state.phase != CAMPAIGN:
        fail("The campaign box is opened after the final evaluation")
    log = state.campaign.format()
    ev.append(Event("CampaignLogged", f"The adventure is over. Campaign log: {log}", {"campaign": log}))
    return evolve(state, phase=OVER, steps=())
