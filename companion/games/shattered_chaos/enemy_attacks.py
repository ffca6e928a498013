"""An enemy's attack or special attack on an adventurer (VI.B.1-2, V.A.8, V.C).

The attacked adventurer may first discard chaos cards for armour; then the enemy's dice are thrown (one roll
of as many dice as its card shows). The damage is the eyes of every die (an enemy's range is fixed, never
thrown), plus 2 against a model with a destruction token, less the adventurer's armour; enemies land no
critical hits. 2 or more vortices stun. A shadow's damage is suffered by another adventurer the table names.
In the enemy phase an adventurer neither killed nor stunned may react with an attack on that enemy.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.shattered_chaos import ledgers
from companion.games.shattered_chaos.attacks import faces_text, throw_faces
from companion.games.shattered_chaos.catalog import Catalog
from companion.games.shattered_chaos.ledgers import DESTRUCTION, hero_name, model_name
from companion.games.shattered_chaos.refusals import fail
from companion.games.shattered_chaos.state import AttackReport, EnemyAttack, State, evolve, pop, replace_top


def armour_cards(cat: Catalog, state: State, seat: int) -> tuple[str, ...]:
    return tuple(c for c in state.party[seat].cards if cat.card(c).bonus == "armour")


def advance(cat: Catalog, state: State, step: EnemyAttack, ev: list[Event]) -> State:
    """Moves the attack on where nobody has anything to choose."""
    if step.stage == "armour" and not armour_cards(cat, state, step.seat):
        return replace_top(state, replace(step, stage="throw"))
    if step.stage == "throw" and not step.dice:
        name, target = model_name(cat, step.model), hero_name(cat, state, step.seat)
        ev.append(
            Event(
                "SpecialAttack", f"{name}'s special attack on {target}: {step.special}", {"model": step.model}
            )
        )
        return _after(cat, state, step, killed=False, stunned=False)
    if step.stage == "redirect":
        others = _receivers(state, step.seat)
        if len(others) == 1:
            return _suffer(cat, state, step, others[0], ev)
        if not others:
            return pop(state)  # nobody left to suffer it: every adventurer is a shadow, the adventure is lost
    if step.stage == "react" and not may_react(state, step):
        return pop(state)
    return state


def may_react(state: State, step: EnemyAttack) -> bool:
    return step.reaction_allowed and state.model(step.model) is not None


def use_armour(
    cat: Catalog, state: State, step: EnemyAttack, cards: tuple[str, ...], ev: list[Event]
) -> State:
    if step.stage != "armour":
        fail("Chaos cards for armour are discarded before the enemy's throw")
    held = armour_cards(cat, state, step.seat)
    if len(set(cards)) != len(cards) or any(c not in held for c in cards):
        fail(f"{hero_name(cat, state, step.seat)}'s armour cards: {', '.join(held) or 'none'}")
    if cards:
        state = ledgers.discard_cards(state, step.seat, cards)
        armour = ledgers.card_bonus(cat, cards, "armour")
        ev.append(
            Event(
                "ArmourCards",
                f"{hero_name(cat, state, step.seat)} discards {len(cards)} chaos "
                f"{'card' if len(cards) == 1 else 'cards'} for +{armour} armour",
                {"seat": step.seat},
            )
        )
    return replace_top(state, replace(step, stage="throw", armour_cards=cards))


def thrown(cat: Catalog, state: State, step: EnemyAttack, faces: tuple[str, ...], ev: list[Event]) -> State:
    rules = cat.rules
    name, target = model_name(cat, step.model), hero_name(cat, state, step.seat)
    ordered = throw_faces(cat, step.dice, faces, f"{name}'s attack")
    parsed = [cat.face(s) for s in ordered]
    hero = state.party[step.seat]
    eyes = sum(f.eyes for f in parsed)
    vortices = sum(f.vortices for f in parsed)
    armour = ledgers.hero_armour(cat, hero, step.armour_cards)
    destroyed = ledgers.has_condition(hero.conditions, DESTRUCTION)
    damage = max(0, eyes - armour) + (rules.destruction_damage if destroyed else 0)
    stunned = vortices >= rules.stun_vortices
    parts = (
        [f"{eyes}"]
        + ([f"− {armour} armour"] if armour else [])
        + (["+ 2 (destruction token)"] if destroyed else [])
    )
    what = "special attack" if step.special else "attack"
    effect = f" — {target} is stunned" if stunned else ""
    sums = f"{' '.join(parts)} = {damage} damage" if len(parts) > 1 else f"{damage} damage"
    text = f"{name}'s {what} on {target}: {faces_text(cat, ordered)}: {sums}{effect}"
    ev.append(Event("EnemyAttacked", text, {"model": step.model, "seat": step.seat, "damage": damage}))
    report = AttackReport(
        True, step.seat, step.model, ordered, text, damage=damage, vortices=vortices, stunned=stunned
    )
    state = evolve(state, last_attack=report)
    step = replace(step, damage=damage, stunned=stunned)
    if hero.shadow and damage > 0:
        ev.append(
            Event("ShadowHit", f"{target} is a shadow: another adventurer suffers the {damage} damage", {})
        )
        return replace_top(state, replace(step, stage="redirect"))
    killed = False
    if damage > 0:
        state = ledgers.lose_life(cat, state, step.seat, damage, ev)
        killed = state.party[step.seat].shadow
    return _after(cat, replace_top(state, step), step, killed, stunned)


def redirect(cat: Catalog, state: State, step: EnemyAttack, seat: int, ev: list[Event]) -> State:
    if step.stage != "redirect":
        fail("No shadow's damage waits for another adventurer")
    if seat not in _receivers(state, step.seat):
        names = ", ".join(hero_name(cat, state, s) for s in _receivers(state, step.seat))
        fail(f"The shadow's damage goes to one adventurer who is not a shadow: {names}")
    return _suffer(cat, state, step, seat, ev)


def _receivers(state: State, seat: int) -> tuple[int, ...]:
    return tuple(s for s in state.living() if s != seat)


def _suffer(cat: Catalog, state: State, step: EnemyAttack, seat: int, ev: list[Event]) -> State:
    ev.append(
        Event(
            "Redirected",
            f"{hero_name(cat, state, step.seat)}'s {step.damage} damage goes to "
            f"{hero_name(cat, state, seat)}",
            {"seat": seat},
        )
    )
    state = ledgers.lose_life(cat, state, seat, step.damage, ev)
    return _after(cat, state, step, killed=False, stunned=step.stunned)


def _after(cat: Catalog, state: State, step: EnemyAttack, killed: bool, stunned: bool) -> State:
    """The attack is done: the attacked adventurer may react, unless killed or stunned (V.C)."""
    if killed or stunned or not may_react(state, step):
        return pop(state)
    return replace_top(state, replace(step, stage="react"))


def decline(cat: Catalog, state: State, step: EnemyAttack, seat: int, ev: list[Event]) -> State:
    if step.stage != "react" or step.seat != seat:
        fail("No reaction waits for that adventurer")
    ev.append(Event("NoReaction", f"{hero_name(cat, state, seat)} does not react", {"seat": seat}))
    return pop(state)
