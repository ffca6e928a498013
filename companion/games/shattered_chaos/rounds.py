"""The round (VII): the adventurer phase's actions and skills, the enemy phase's order, the chaos phase.

Adventurer phase: the adventurers act in any order, one action token per move, interaction, chaos call or
attack, until every token is turned over (a shadow keeps and spends its tokens too, V.A.8). Skills and
talents used before an action (chaos steps, a talent's step, a step card), chaos tokens picked up and
chaos cards discarded for tokens are declarations that turn no token.
Enemy phase: every enemy model on the board works its behaviour table, in ascending model number.
Chaos phase: the tokens are turned back; one chaos card per killed enemy (a big one counts 3) clockwise
from the starting player; the graveyard is emptied; condition tokens turn to their half side or go; the
round marker moves on and the starting player card passes clockwise.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.shattered_chaos import behaviour, ledgers
from companion.games.shattered_chaos.catalog import Catalog
from companion.games.shattered_chaos.ledgers import count, hero_name
from companion.games.shattered_chaos.refusals import fail, malformed
from companion.games.shattered_chaos.state import (
    ADVENTURERS,
    CHAOS,
    ENEMIES,
    Condition,
    Draw,
    EnemyAttack,
    GraveyardDraws,
    Hero,
    NamePartner,
    State,
    evolve,
    pop,
    push,
    replace_top,
    set_hero,
)

# ---------------------------------------------------------------------------------------- actions


def _acting(cat: Catalog, state: State, seat: int, what: str) -> Hero:
    """The adventurer, checked to be free to act in the adventurer phase."""
    if state.phase != ADVENTURERS or state.steps:
        fail(f"{what} in the adventurer phase, when nothing else waits")
    hero = state.party[seat]
    if hero.actions < 1:
        fail(f"{hero_name(cat, state, seat)} has no action token left")
    return hero


def _spend(state: State, seat: int, hero: Hero) -> State:
    return set_hero(state, seat, replace(hero, actions=hero.actions - 1, chaos_steps=0, stepped=False))


def move(cat: Catalog, state: State, seat: int, ev: list[Event]) -> State:
    state = unlay(cat, state, seat, ev)
    hero = _acting(cat, state, seat, "An adventurer moves")
    steps = cat.rules.move_steps
    ev.append(
        Event(
            "Moved",
            f"{hero_name(cat, state, seat)} moves up to {steps} steps (across adventurers, "
            "never across enemies; chaos tokens on the way may be picked up)",
            {"seat": seat},
        )
    )
    return _spend(state, seat, hero)


def interact(cat: Catalog, state: State, seat: int, card: str, ev: list[Event]) -> State:
    state = unlay(cat, state, seat, ev)
    hero = _acting(cat, state, seat, "An adventurer interacts")
    card = card.strip()
    if len(card) > 8:
        malformed("interact.card: the number on the adventure token's back")
    name = hero_name(cat, state, seat)
    texts = cat.adventure(state.adventure).adventure_cards
    if card:
        said = texts.get(card, "")
        text = f"{name} interacts: adventure token {card}: read adventure card {card}" + (
            f": {said}" if said else ""
        )
        state = evolve(state, revealed=(*state.revealed, card))
    else:
        text = f"{name} interacts with the game board"
    ev.append(Event("Interacted", text, {"seat": seat, "card": card}))
    return _spend(state, seat, hero)


def chaos_call(cat: Catalog, state: State, seat: int, ev: list[Event]) -> State:
    state = unlay(cat, state, seat, ev)
    hero = _acting(cat, state, seat, "An adventurer calls on CHAOS")
    state = _spend(state, seat, hero)
    state, taken = ledgers.gain_chaos(cat, state, seat, 1)
    token = "a chaos token" if taken else "no chaos token (a shadow, or a full ledger)"
    ev.append(
        Event(
            "ChaosCall",
            f"{hero_name(cat, state, seat)} calls on CHAOS: {token}, and a chaos card",
            {"seat": seat},
        )
    )
    return push(state, NamePartner(seat), Draw(seat, "chaos-call"))


def chaos_step(cat: Catalog, state: State, seat: int, steps: int, ev: list[Event]) -> State:
    hero = _acting(cat, state, seat, "Chaos steps are taken")
    name = hero_name(cat, state, seat)
    if not ledgers.may_use_skill(cat, state, hero, "chaos-step"):
        fail(
            f"{name} cannot use the chaos step skill"
            + (" (a shadow)" if hero.shadow else " in this adventure")
        )
    if steps < 1 or hero.chaos_steps + steps > cat.rules.chaos_steps:
        fail(f"Up to {cat.rules.chaos_steps} chaos steps before an action ({hero.chaos_steps} taken)")
    if steps > hero.chaos:
        fail(f"{name} has {count(hero.chaos, 'chaos token', 'chaos tokens')}: one for each chaos step")
    state = set_hero(
        state, seat, replace(hero, chaos=hero.chaos - steps, chaos_steps=hero.chaos_steps + steps)
    )
    ev.append(
        Event(
            "ChaosStep",
            f"{name} takes {count(steps, 'chaos step', 'chaos steps')} "
            f"({count(steps, 'chaos token', 'chaos tokens')} to the small chaos boards)",
            {"seat": seat},
        )
    )
    return state


def talent_step(cat: Catalog, state: State, seat: int, ev: list[Event]) -> State:
    hero = _acting(cat, state, seat, "A talent's step is taken")
    steps = ledgers.talent_bonus(cat, hero, "step")
    name = hero_name(cat, state, seat)
    if not steps:
        fail(f"{name} has no talent that steps before an action")
    if hero.stepped:
        fail(f"{name} took the talent's step before this action already")
    ev.append(Event("TalentStep", f"{name} moves {count(steps, 'step', 'steps')} (talent)", {"seat": seat}))
    return set_hero(state, seat, replace(hero, stepped=True))


def step_card(cat: Catalog, state: State, seat: int, card: str, ev: list[Event]) -> State:
    hero = _acting(cat, state, seat, "A step card is used")
    name = hero_name(cat, state, seat)
    if card not in hero.cards or cat.card(card).bonus != "step":
        fail(f"{name} holds no such step card")
    state = ledgers.discard_cards(state, seat, (card,))
    ev.append(
        Event(
            "StepCard",
            f"{name} discards {cat.card(card).title} and moves "
            f"{count(cat.card(card).amount, 'step', 'steps')}",
            {"seat": seat},
        )
    )
    return state


def pick_up(cat: Catalog, state: State, seat: int, tokens: int, ev: list[Event]) -> State:
    if state.phase != ADVENTURERS or state.steps:
        fail("Chaos tokens are picked up when an adventurer stands on or moves across their space")
    hero = state.party[seat]
    name = hero_name(cat, state, seat)
    if hero.shadow:
        fail(f"{name} is a shadow: a shadow receives no chaos tokens")
    room = cat.rules.ledger_tokens - hero.chaos
    if not 1 <= tokens <= room:
        fail(f"{name}'s chaos ledger has room for {count(room, 'token', 'tokens')}")
    if tokens > state.map_chaos:
        fail(
            f"As the companion knows, {count(state.map_chaos, 'chaos token lies', 'chaos tokens lie')} "
            "on the map (enter the tokens a narrator card places first)"
        )
    state, taken = ledgers.gain_chaos(cat, state, seat, tokens)
    ev.append(
        Event("PickedUp", f"{name} picks up {count(taken, 'chaos token', 'chaos tokens')}", {"seat": seat})
    )
    return evolve(state, map_chaos=state.map_chaos - taken)


def discard_card(cat: Catalog, state: State, seat: int, card: str, ev: list[Event]) -> State:
    if state.phase not in (ADVENTURERS, ENEMIES, CHAOS):
        fail("The adventure is over")
    hero = state.party[seat]
    name = hero_name(cat, state, seat)
    if card not in hero.cards:
        fail(f"{name} does not hold that chaos card")
    state = ledgers.discard_cards(state, seat, (card,))
    state, taken = ledgers.gain_chaos(cat, state, seat, 1)
    gained = "and takes a chaos token" if taken else "(no chaos token: a shadow, or a full ledger)"
    if card in hero.laid:
        gained = "(it was not for an attack) " + gained
    ev.append(
        Event("CardDiscarded", f"{name} discards {cat.card(card).title} unused {gained}", {"seat": seat})
    )
    return state


def lay_card(cat: Catalog, state: State, seat: int, card: str, ev: list[Event]) -> State:
    """A chaos card laid on the discard pile for the coming attack (the table saw it leave the card)."""
    hero = state.party[seat]
    name = hero_name(cat, state, seat)
    if card not in hero.cards or card in hero.laid:
        fail(f"{name} holds no such chaos card on the adventurer card")
    if not cat.card(card).for_attack:
        fail(f"{cat.card(card).title} is not used in an attack: discard it for a chaos token, or use it")
    if not may_attack_next(state, seat):
        fail(f"{name} attacks in the adventurer phase or as a reaction: discard it for a chaos token")
    ev.append(
        Event(
            "CardLaid",
            f"{name} lays {cat.card(card).title} on the discard pile for the coming attack",
            {"seat": seat, "card": card},
        )
    )
    return set_hero(state, seat, replace(hero, laid=(*hero.laid, card)))


def may_attack_next(state: State, seat: int) -> bool:
    """The adventurer's next action may be an attack: an action token in a free adventurer phase, or the
    reaction the enemy's attack allows."""
    top = state.top
    if top is None:
        return state.phase == ADVENTURERS and state.party[seat].actions > 0
    return isinstance(top, EnemyAttack) and top.stage == "react" and top.seat == seat


def unlay(cat: Catalog, state: State, seat: int, ev: list[Event]) -> State:
    """The adventurer does something else than the attack its laid cards were for: they were discarded
    unused, each for a chaos token (V.G, line 1571)."""
    for card in state.party[seat].laid:
        state = discard_card(cat, state, seat, card, ev)
    return state


def unlay_all(cat: Catalog, state: State, ev: list[Event]) -> State:
    for seat in range(state.seats):
        state = unlay(cat, state, seat, ev)
    return state


def destroy(cat: Catalog, state: State, seat: int, ev: list[Event]) -> State:
    if state.phase != ADVENTURERS or state.steps:
        fail("The destroy skill is used in the adventurer phase")
    hero = state.party[seat]
    name = hero_name(cat, state, seat)
    cost = cat.rules.destroy_cost
    if not ledgers.may_use_skill(cat, state, hero, "destroy"):
        fail(
            f"{name} cannot use the destroy skill" + (" (a shadow)" if hero.shadow else " in this adventure")
        )
    if hero.destruction:
        fail(f"{name} holds a destruction token already (one at most)")
    if hero.chaos < cost:
        fail(f"The destroy skill costs {cost} chaos tokens; {name} has {hero.chaos}")
    ev.append(
        Event(
            "Destroy",
            f"{name} takes a destruction token ({cost} chaos tokens to the small chaos boards)",
            {"seat": seat},
        )
    )
    return set_hero(state, seat, replace(hero, chaos=hero.chaos - cost, destruction=True))


# ------------------------------------------------------------------------------------------ draws


def can_draw(cat: Catalog, state: State, seat: int) -> bool:
    return len(state.party[seat].cards) < cat.rules.hand_size and any(cards for _, cards in state.stacks)


def draw_card(cat: Catalog, state: State, step: Draw, seat: int, card: str, ev: list[Event]) -> State:
    if seat != step.seat:
        fail(f"It is {hero_name(cat, state, step.seat)}'s chaos card to draw")
    stack = next((name for name, cards in state.stacks if card in cards), None)
    if stack is None:
        fail("That chaos card is in no stack (drawn already, or not in the party's chaos card stack)")
    if not can_draw(cat, state, seat):
        fail(f"{hero_name(cat, state, seat)} holds {cat.rules.hand_size} chaos cards")
    hero = state.party[seat]
    state = set_hero(state, seat, replace(hero, cards=(*hero.cards, card)))
    stacks = tuple((name, tuple(c for c in cards if c != card)) for name, cards in state.stacks)
    article = "an" if stack[:1] in "aeiou" else "a"
    ev.append(
        Event(
            "CardDrawn",
            f"{hero_name(cat, state, seat)} draws {article} {stack} chaos card: {cat.card(card).title}",
            {"seat": seat, "card": card},
        )
    )
    return pop(evolve(state, stacks=stacks))


def decline_draw(cat: Catalog, state: State, step: Draw, seat: int, ev: list[Event]) -> State:
    if seat != step.seat:
        fail(f"It is {hero_name(cat, state, step.seat)}'s chaos card to draw")
    ev.append(Event("NoDraw", f"{hero_name(cat, state, seat)} draws no chaos card", {"seat": seat}))
    return pop(state)


def name_partner(
    cat: Catalog, state: State, step: NamePartner, seat: int, partner: int | None, ev: list[Event]
) -> State:
    if seat != step.seat:
        fail(f"{hero_name(cat, state, step.seat)} names the adventurer who also draws")
    state = pop(state)
    if partner is None:
        ev.append(Event("Partner", f"{hero_name(cat, state, seat)} names nobody to draw a chaos card", {}))
        return state
    if not 0 <= partner < state.seats or partner == seat:
        fail("Name another adventurer of the party")
    ev.append(
        Event(
            "Partner",
            f"{hero_name(cat, state, seat)} names {hero_name(cat, state, partner)}, who may "
            "draw a chaos card",
            {"seat": partner},
        )
    )
    return push(state, Draw(partner, "partner"))


def advance_draw(cat: Catalog, state: State, step: Draw, ev: list[Event]) -> State:
    if can_draw(cat, state, step.seat):
        return state
    full = len(state.party[step.seat].cards) >= cat.rules.hand_size
    why = f"holds {cat.rules.hand_size} chaos cards" if full else "finds every chaos card stack used up"
    ev.append(
        Event("NoDraw", f"{hero_name(cat, state, step.seat)} {why}: no chaos card", {"seat": step.seat})
    )
    return pop(state)


def advance_partner(cat: Catalog, state: State, step: NamePartner, ev: list[Event]) -> State:
    if any(can_draw(cat, state, s) for s in range(state.seats) if s != step.seat):
        return state
    return pop(state)  # nobody could draw: no one to name


def advance_graveyard(cat: Catalog, state: State, step: GraveyardDraws, ev: list[Event]) -> State:
    if step.done >= step.total:
        return pop(state)
    drawer = (state.starting + step.done) % state.seats
    return push(replace_top(state, replace(step, done=step.done + 1)), Draw(drawer, "graveyard"))


# ------------------------------------------------------------------------------------------ phases


def advance_phase(cat: Catalog, state: State, ev: list[Event]) -> State:
    """With nothing waiting: the next enemy, or the next phase."""
    if state.phase == ADVENTURERS:
        if any(h.actions for h in state.party):
            return state
        ev.append(
            Event(
                "EnemyPhase",
                f"Round {state.round}: the enemy phase — the enemies act in ascending model number",
                {"round": state.round},
            )
        )
        return evolve(state, phase=ENEMIES, enemy_after=0, decisions=())
    if state.phase == ENEMIES:
        waiting = sorted(m.number for m in state.models if m.number > state.enemy_after)
        if waiting:
            return behaviour.start_turn(evolve(state, enemy_after=waiting[0]), waiting[0], "phase")
        return _start_chaos(cat, state, ev)
    if state.phase == CHAOS:
        return _end_chaos(cat, state, ev)
    return state


def _start_chaos(cat: Catalog, state: State, ev: list[Event]) -> State:
    state = unlay_all(cat, state, ev)  # only a correction leaves one laid so long
    tokens = cat.rules.action_tokens
    party = tuple(replace(h, actions=tokens, chaos_steps=0, stepped=False) for h in state.party)
    draws = ledgers.graveyard_weight(cat, state)
    first = hero_name(cat, state, state.starting)
    said = (
        f"{count(draws, 'chaos card', 'chaos cards')} for the killed enemies, from {first} clockwise"
        if draws
        else "no enemy was killed"
    )
    ev.append(
        Event(
            "ChaosPhase",
            f"Round {state.round}: the chaos phase — action tokens turned back; {said}",
            {"round": state.round, "draws": draws},
        )
    )
    state = evolve(state, phase=CHAOS, party=party, decision=None)
    return push(state, GraveyardDraws(draws)) if draws else state


def _end_chaos(cat: Catalog, state: State, ev: list[Event]) -> State:
    party = tuple(replace(h, conditions=_turned(h.conditions)) for h in state.party)
    models = tuple(replace(m, conditions=_turned(m.conditions)) for m in state.models)
    starting = (state.starting + 1) % state.seats
    round_number = state.round + 1
    marker = min(round_number, cat.last_round)
    ev.append(
        Event(
            "RoundEnded",
            f"The graveyard is emptied, condition tokens turned; round {round_number} begins "
            f"(marker on {marker}); {hero_name(cat, state, starting)} is the starting player",
            {"round": round_number},
        )
    )
    return evolve(
        state,
        party=party,
        models=models,
        graveyard=(),
        starting=starting,
        round=round_number,
        phase=ADVENTURERS,
        decisions=(),
        decision=None,
    )


def _turned(conditions: tuple[Condition, ...]) -> tuple[Condition, ...]:
    """X.4: full side to half side; half side discarded."""
    return tuple(Condition(c.kind, True) for c in conditions if not c.half)
