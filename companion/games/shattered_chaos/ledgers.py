"""The adventurers' and the enemies' bookkeeping: chaos values, lives, chaos tokens, chaos cards, bonuses,
death (an adventurer becomes a shadow, V.A.8; an enemy goes to the graveyard, VI.A.6).

Every function takes the position and returns a new one, appending what happened to ``ev`` as events in
the past tense with a sentence for the TV.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.shattered_chaos.catalog import Catalog, ChaosCard
from companion.games.shattered_chaos.state import (
    Condition,
    EnemyTurn,
    Hero,
    Model,
    State,
    evolve,
    set_hero,
    set_model,
)

DESTRUCTION = "destruction"


def hero_name(cat: Catalog, state: State, seat: int) -> str:
    return cat.adventurer(state.party[seat].card).name


def model_name(cat: Catalog, model: Model | int, state: State | None = None) -> str:
    """ "Gremlin 21", "elite Gremlin 27"."""
    number = model if isinstance(model, int) else model.number
    card = cat.enemy_of_model(number)
    name = card.name if card else "Enemy"
    elite = card is not None and card.is_elite_model(number)
    return f"{'elite ' if elite else ''}{name} {number}"


def chaos_value(cat: Catalog, hero: Hero) -> int:
    """The numerical chaos value (V.A.7): the number beside the highest token, or the bottom box."""
    return cat.chaos_value(hero.card, hero.chaos)


def talent_bonus(cat: Catalog, hero: Hero, bonus: str) -> int:
    """What the adventurer's talents add (a shadow keeps its talents, V.A.8)."""
    return sum(cat.talent(t).amount for t in hero.talents if cat.talent(t).bonus == bonus)


def talent_sources(cat: Catalog, hero: Hero, bonus: str) -> list[int]:
    return [cat.talent(t).amount for t in hero.talents if cat.talent(t).bonus == bonus]


def cards_of(cat: Catalog, cards: tuple[str, ...], bonus: str) -> list[ChaosCard]:
    return [cat.card(c) for c in cards if cat.card(c).bonus == bonus]


def card_bonus(cat: Catalog, cards: tuple[str, ...], bonus: str) -> int:
    return sum(c.amount for c in cards_of(cat, cards, bonus))


def hero_armour(cat: Catalog, hero: Hero, cards: tuple[str, ...] = ()) -> int:
    """Armour against an enemy's attack: printed, talents (Bastion +2) and the cards discarded for it."""
    return (
        cat.adventurer(hero.card).armour
        + talent_bonus(cat, hero, "armour")
        + card_bonus(cat, cards, "armour")
    )


def has_condition(conditions: tuple[Condition, ...], kind: str) -> bool:
    return any(c.kind == kind for c in conditions)


def may_use_skill(cat: Catalog, state: State, hero: Hero, skill: str) -> bool:
    """A skill the adventure's experience cards allow, for an adventurer who is not a shadow (V.A.8)."""
    return not hero.shadow and skill in cat.adventure(state.adventure).skills


# ------------------------------------------------------------------------------------------ tokens


def gain_chaos(cat: Catalog, state: State, seat: int, tokens: int) -> tuple[State, int]:
    """Chaos tokens onto the ledger, as many as it holds; a shadow receives none. Returns the count taken."""
    hero = state.party[seat]
    if hero.shadow or tokens <= 0:
        return state, 0
    taken = min(tokens, cat.rules.ledger_tokens - hero.chaos)
    return set_hero(state, seat, replace(hero, chaos=hero.chaos + taken)), taken


def spend_chaos(state: State, seat: int, tokens: int) -> State:
    hero = state.party[seat]
    assert 0 <= tokens <= hero.chaos
    return set_hero(state, seat, replace(hero, chaos=hero.chaos - tokens))


def discard_cards(state: State, seat: int, cards: tuple[str, ...]) -> State:
    """The cards leave the adventurer's card for the chaos card discard pile."""
    if not cards:
        return state
    hero = state.party[seat]
    kept = list(hero.cards)
    for card in cards:
        kept.remove(card)
    laid = tuple(c for c in hero.laid if c not in cards)
    state = set_hero(state, seat, replace(hero, cards=tuple(kept), laid=laid))
    return evolve(state, discard=state.discard + tuple(cards))


# ------------------------------------------------------------------------------------------- lives


def gain_life(cat: Catalog, state: State, seat: int, lives: int, ev: list[Event], why: str) -> State:
    """Lives up to the ledger's maximum (V.A.8); a shadow receives none."""
    hero = state.party[seat]
    most = cat.adventurer(hero.card).max_life
    if hero.shadow or lives <= 0 or hero.life >= most:
        return state
    gained = min(lives, most - hero.life)
    name = hero_name(cat, state, seat)
    ev.append(Event("LifeGained", f"{name} gains {_count(gained, 'life', 'lives')} ({why})", {"seat": seat}))
    return set_hero(state, seat, replace(hero, life=hero.life + gained))


def lose_life(cat: Catalog, state: State, seat: int, damage: int, ev: list[Event]) -> State:
    """Damage on an adventurer who is not a shadow; under 1 life, the adventurer becomes a shadow."""
    hero = state.party[seat]
    assert not hero.shadow
    if damage <= 0:
        return state
    life = hero.life - damage
    name = hero_name(cat, state, seat)
    if life >= 1:
        ev.append(
            Event(
                "Damaged",
                f"{name} suffers {damage} damage: {_count(life, 'life', 'lives')} left",
                {"seat": seat},
            )
        )
        return set_hero(state, seat, replace(hero, life=life))
    return become_shadow(cat, state, seat, ev, f"{name} suffers {damage} damage and is killed")


def become_shadow(cat: Catalog, state: State, seat: int, ev: list[Event], how: str) -> State:
    """V.A.8: the model leaves the board, its chaos tokens drop on its space, it returns as a shadow next
    to another adventurer or shadow; the clip stays at 0; condition tokens under it are discarded."""
    hero = state.party[seat]
    dropped = hero.chaos
    state = set_hero(state, seat, replace(hero, life=0, chaos=0, shadow=True, conditions=(), chaos_steps=0))
    # What the table said an enemy sees of it no longer holds: the shadow stands somewhere else now.
    steps = tuple(_forget(s, seat) if isinstance(s, EnemyTurn) else s for s in state.steps)
    state = evolve(state, map_chaos=state.map_chaos + dropped, steps=steps)
    tokens = f"; place {_count(dropped, 'chaos token', 'chaos tokens')} on the space" if dropped else ""
    ev.append(
        Event(
            "BecameShadow",
            f"{how}{tokens}. {hero_name(cat, state, seat)} is a shadow now: "
            "place the shadow next to another adventurer or shadow",
            {"seat": seat, "tokens": dropped},
        )
    )
    return state


def _forget(turn: EnemyTurn, seat: int) -> EnemyTurn:
    return replace(turn, sightings=tuple(x for x in turn.sightings if x.seat != seat))


# ------------------------------------------------------------------------------------------ enemies


def wound_model(cat: Catalog, state: State, number: int, damage: int, ev: list[Event]) -> State:
    model = state.model(number)
    assert model is not None
    if damage <= 0:
        return state
    left = model.lives - damage
    if left >= 1:
        return set_model(state, replace(model, lives=left))
    return kill_model(cat, state, number, ev, f"{model_name(cat, model)} is killed")


def kill_model(cat: Catalog, state: State, number: int, ev: list[Event], how: str) -> State:
    """VI.A.6 and X.2: into the graveyard, a chaos token on its space (on each of a big enemy's)."""
    model = state.model(number)
    assert model is not None
    card = cat.enemy(model.enemy)
    tokens = cat.rules.big_enemy_spaces if card.big else 1
    where = f"a chaos token on each of its {tokens} spaces" if card.big else "a chaos token on its space"
    ev.append(Event("EnemyKilled", f"{how}: place {where}", {"model": number, "tokens": tokens}))
    return evolve(
        state,
        models=tuple(m for m in state.models if m.number != number),
        graveyard=(*state.graveyard, (model.enemy, number)),
        map_chaos=state.map_chaos + tokens,
    )


def graveyard_weight(cat: Catalog, state: State) -> int:
    """Killed enemies as chaos card draws: a big enemy counts 3 (X.2)."""
    return sum(cat.rules.big_enemy_graveyard if cat.enemy(e).big else 1 for e, _ in state.graveyard)


def condition_side(cat: Catalog, model: Model) -> bool:
    """True for the half side: under a big enemy or a boss (X.4)."""
    return not cat.enemy(model.enemy).small


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def count(n: int, one: str, many: str) -> str:
    """ "1 life", "3 lives"."""
    return _count(n, one, many)
