"""An adventurer's attack (V.B.4, V.C, V.D, V.F.2, V.G, X.5).

Declared with its target, the distance the map shows, the chaos cards discarded for it and the destruction
token; then the yellow, red and blue dice are thrown together (one roll of three dice: the range choice
needs all three, and a throw is one act at the table and one entry in the log). The adventurer may throw
chosen dice again once with a chaos hit, one chaos token each. Then the adventurer picks the die for range
(any die that reaches: an attack that can reach cannot fail on purpose) and, where talents or cards allow,
adds or takes away vortices; the other two dice are the damage. 2 or more vortices stun (no reaction), 4
or more are a critical hit ignoring up to 2 armour.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

from companion.engine import Event
from companion.games.shattered_chaos import ledgers
from companion.games.shattered_chaos.catalog import COLOURS, Catalog, Face
from companion.games.shattered_chaos.ledgers import DESTRUCTION, hero_name, model_name
from companion.games.shattered_chaos.refusals import fail, malformed
from companion.games.shattered_chaos.state import (
    ADVENTURERS,
    AttackReport,
    Condition,
    EnemyAttack,
    EnemyTurn,
    HeroAttack,
    Sighting,
    State,
    evolve,
    pop,
    push,
    replace_top,
    set_hero,
)

MAX_DISTANCE = 30


@dataclass(frozen=True)
class Outcome:
    """One way to read a throw: the range die, the damage, the vortices after adjustments."""

    range_die: str
    vortices: int
    damage: int
    range: int


@dataclass(frozen=True)
class Bonuses:
    """What talents and the discarded cards add to an attack."""

    range: int
    damage: int
    life: int
    vortex_sources: tuple[int, ...]


def bonuses(cat: Catalog, state: State, step: HeroAttack) -> Bonuses:
    hero = state.party[step.seat]

    def both(kind: str) -> int:
        return ledgers.talent_bonus(cat, hero, kind) + ledgers.card_bonus(cat, step.cards, kind)

    sources = ledgers.talent_sources(cat, hero, "vortex") + [
        c.amount for c in ledgers.cards_of(cat, step.cards, "vortex")
    ]
    return Bonuses(both("range"), both("damage"), both("life"), tuple(sources))


def vortex_totals(thrown: int, sources: tuple[int, ...]) -> list[int]:
    """Every vortex count the adventurer may choose: each ±N source adds N, takes N away, or is left
    unused (never below 0)."""
    totals = {
        max(0, thrown + sum(sign * n for sign, n in zip(signs, sources, strict=True)))
        for signs in itertools.product((1, 0, -1), repeat=len(sources))
    }
    return sorted(totals, reverse=True)


def all_outcomes(cat: Catalog, state: State, step: HeroAttack) -> list[Outcome]:
    """Every way the adventurer may read the final throw; empty when no die reaches."""
    faces = {f.colour: f for f in (cat.face(s) for s in step.faces)}
    extra = bonuses(cat, state, step)
    thrown = sum(f.vortices for f in faces.values())
    found = []
    for colour in COLOURS:
        reach = faces[colour].eyes + extra.range
        if reach < step.distance:
            continue
        damage = sum(f.eyes for c, f in faces.items() if c != colour) + extra.damage
        found.extend(Outcome(colour, v, damage, reach) for v in vortex_totals(thrown, extra.vortex_sources))
    return found


def outcomes(cat: Catalog, state: State, step: HeroAttack) -> list[Outcome]:
    """The distinct readings (the same damage and vortices read with another die are one choice)."""
    found: dict[tuple[int, int], Outcome] = {}
    for option in all_outcomes(cat, state, step):
        found.setdefault((option.damage, option.vortices), option)
    return list(found.values())


# ------------------------------------------------------------------------------------- declaring


def declare(
    cat: Catalog,
    state: State,
    seat: int,
    number: int,
    distance: int,
    cards: tuple[str, ...],
    destruction: bool,
    ev: list[Event],
) -> State:
    hero = state.party[seat]
    name = hero_name(cat, state, seat)
    model = state.model(number)
    if model is None:
        fail(f"There is no enemy model {number} on the board")
    cards = tuple(dict.fromkeys((*hero.laid, *cards)))  # the cards laid on the pile for it go with it
    if not 1 <= distance <= MAX_DISTANCE:
        malformed(f"attack.distance: the enemy stands 1 to {MAX_DISTANCE} spaces away, not {distance}")
    if len(set(cards)) != len(cards) or any(c not in hero.cards for c in cards):
        fail(f"{name} holds {', '.join(hero.cards) or 'no chaos card'}")
    for card in cards:
        if not cat.card(card).for_attack:
            fail(f"{cat.card(card).title} is not used in an attack")
    if destruction and not hero.destruction:
        fail(f"{name} holds no destruction token")
    top = state.top
    reaction = isinstance(top, EnemyAttack) and top.stage == "react" and top.seat == seat
    if reaction:
        assert isinstance(top, EnemyAttack)
        if number != top.model:
            fail(f"A reaction attacks the enemy that attacked: {model_name(cat, top.model)}")
        state = pop(state)
    else:
        if state.steps or state.phase != ADVENTURERS:
            fail("An adventurer attacks in the adventurer phase, or as a reaction to an enemy's attack")
        if hero.actions < 1:
            fail(f"{name} has no action token left")
        hero = replace(hero, actions=hero.actions - 1, chaos_steps=0, stepped=False)
    state = set_hero(state, seat, replace(hero, destruction=hero.destruction and not destruction))
    state = ledgers.discard_cards(state, seat, cards)
    used = [cat.card(c).title for c in cards] + (["the destruction token"] if destruction else [])
    how = f", discarding {', '.join(used)}" if used else ""
    what = "reacts and attacks" if reaction else "attacks"
    ev.append(
        Event(
            "AttackDeclared",
            f"{name} {what} {model_name(cat, model)} {distance} "
            f"{'space' if distance == 1 else 'spaces'} away{how}",
            {"seat": seat, "model": number},
        )
    )
    return push(state, HeroAttack(seat, number, distance, cards, destruction, reaction))


# ------------------------------------------------------------------------------------- throwing


def throw_faces(cat: Catalog, colours: tuple[str, ...], faces: tuple[str, ...], who: str) -> tuple[str, ...]:
    """The thrown faces in ``colours`` order; raises for a throw of other dice."""
    parsed = []
    for symbol in faces:
        try:
            parsed.append(cat.face(symbol))
        except KeyError as exc:
            malformed(f"roll.faces: {exc.args[0]}")
    if sorted(f.colour for f in parsed) != sorted(colours):
        fail(f"{who} throws {' + '.join(colours)}, not {' + '.join(f.colour for f in parsed) or 'nothing'}")
    remaining = list(parsed)
    ordered: list[Face] = []
    for colour in colours:
        face = next(f for f in remaining if f.colour == colour)
        remaining.remove(face)
        ordered.append(face)
    return tuple(f.symbol for f in ordered)


def thrown(cat: Catalog, state: State, step: HeroAttack, faces: tuple[str, ...], ev: list[Event]) -> State:
    name = hero_name(cat, state, step.seat)
    if step.stage == "throw":
        ordered = throw_faces(cat, COLOURS, faces, name)
        ev.append(Event("Thrown", f"{name} throws {_faces(cat, ordered)}", {"faces": list(ordered)}))
        stage = "chaos-hit" if may_chaos_hit(cat, state, step) else "resolve"
        return replace_top(state, replace(step, faces=ordered, stage=stage))
    ordered = throw_faces(cat, step.rethrow, faces, name)
    new = dict(zip(step.rethrow, ordered, strict=True))
    final = tuple(new.get(cat.face(s).colour, s) for s in step.faces)
    ev.append(Event("Thrown", f"{name} throws again: {_faces(cat, ordered)}", {"faces": list(final)}))
    return replace_top(state, replace(step, faces=final, stage="resolve"))


def may_chaos_hit(cat: Catalog, state: State, step: HeroAttack) -> bool:
    hero = state.party[step.seat]
    return ledgers.may_use_skill(cat, state, hero, "chaos-hit") and hero.chaos >= 1


def chaos_hit(cat: Catalog, state: State, step: HeroAttack, dice: tuple[str, ...], ev: list[Event]) -> State:
    hero = state.party[step.seat]
    name = hero_name(cat, state, step.seat)
    if any(d not in COLOURS for d in dice) or len(set(dice)) != len(dice):
        malformed(f"chaos_hit.dice: each of {', '.join(COLOURS)} at most once")
    if len(dice) > min(hero.chaos, cat.rules.chaos_hit_dice):
        fail(
            f"{name} has {ledgers.count(hero.chaos, 'chaos token', 'chaos tokens')}: "
            "one for each die thrown again"
        )
    if not dice:
        ev.append(Event("ThrowKept", f"{name} keeps the throw", {"seat": step.seat}))
        return replace_top(state, replace(step, stage="resolve"))
    state = ledgers.spend_chaos(state, step.seat, len(dice))
    ev.append(
        Event(
            "ChaosHit",
            f"{name} uses a chaos hit: {' + '.join(dice)} thrown again "
            f"({ledgers.count(len(dice), 'chaos token', 'chaos tokens')} to the small chaos boards)",
            {},
        )
    )
    ordered = tuple(c for c in COLOURS if c in dice)
    return replace_top(state, replace(step, stage="rethrow", rethrow=ordered))


# ------------------------------------------------------------------------------------- resolving


def resolve(
    cat: Catalog, state: State, step: HeroAttack, range_die: str, vortices: int, ev: list[Event]
) -> State:
    options = all_outcomes(cat, state, step)
    chosen = next((o for o in options if o.range_die == range_die and o.vortices == vortices), None)
    if chosen is None:
        open_ = "; ".join(describe(cat, o) for o in outcomes(cat, state, step)) or "no die reaches"
        fail(f"That reading is not open: {open_}")
    return hit(cat, state, step, chosen, ev)


def describe(cat: Catalog, option: Outcome) -> str:
    """ "range blue (4) · 5 damage · 2 vortices: stunned"."""
    effect = ""
    if option.vortices >= cat.rules.critical_vortices:
        effect = ": critical hit"
    elif option.vortices >= cat.rules.stun_vortices:
        effect = ": stunned"
    vortices = ledgers.count(option.vortices, "vortex", "vortices")
    return f"range {option.range_die} ({option.range}) · {option.damage} damage · {vortices}{effect}"


def missed(cat: Catalog, state: State, step: HeroAttack, ev: list[Event]) -> State:
    """No die reaches: the attack fails, its chaos cards and destruction token are lost (V.G, X.5)."""
    name = hero_name(cat, state, step.seat)
    lost = " — its chaos cards and destruction token are lost" if step.cards or step.destruction else ""
    text = (
        f"{name}'s attack on {model_name(cat, step.model)} fails: no die reaches {step.distance} spaces{lost}"
    )
    ev.append(Event("AttackFailed", text, {"seat": step.seat, "model": step.model}))
    report = AttackReport(False, step.seat, step.model, step.faces, text, success=False)
    return evolve(pop(state), last_attack=report)


def hit(cat: Catalog, state: State, step: HeroAttack, chosen: Outcome, ev: list[Event]) -> State:
    model = state.model(step.model)
    assert model is not None
    rules = cat.rules
    name, target = hero_name(cat, state, step.seat), model_name(cat, model)
    card = cat.enemy(model.enemy)
    armour = card.armour_of(model.elite)
    critical = chosen.vortices >= rules.critical_vortices
    ignored = min(armour, rules.critical_ignores_armour) if critical else 0
    destroyed = ledgers.has_condition(model.conditions, DESTRUCTION)
    net = max(0, chosen.damage - (armour - ignored)) + (rules.destruction_damage if destroyed else 0)
    stunned = chosen.vortices >= rules.stun_vortices
    parts = [f"{chosen.damage} damage"]
    if armour:
        parts.append(
            f"− {armour - ignored} armour" + (f" ({ignored} ignored: critical hit)" if ignored else "")
        )
    if destroyed:
        parts.append(f"+ {rules.destruction_damage} (destruction token)")
    effect = " — critical hit" if critical else " — stunned" if stunned else ""
    sums = f"{' '.join(parts)} = {net}" if len(parts) > 1 else parts[0]
    text = (
        f"{name} hits {target} (range {chosen.range_die} {chosen.range} for {step.distance}): {sums}{effect}"
    )
    ev.append(Event("AttackHit", text, {"seat": step.seat, "model": step.model, "damage": net}))
    state = pop(state)
    if step.destruction:
        if destroyed:
            ev.append(
                Event("Destruction", f"{target} has a destruction token already: {name}'s is discarded", {})
            )
        else:
            half = ledgers.condition_side(cat, model)
            model = replace(model, conditions=(*model.conditions, Condition(DESTRUCTION, half)))
            state = evolve(
                state, models=tuple(model if m.number == model.number else m for m in state.models)
            )
            side = "half" if half else "full"
            ev.append(
                Event(
                    "Destruction", f"{name} places the destruction token under {target} ({side} side up)", {}
                )
            )
    state = ledgers.wound_model(cat, state, step.model, net, ev)
    killed = state.model(step.model) is None
    extra = bonuses(cat, state, step)
    state = ledgers.gain_life(cat, state, step.seat, extra.life, ev, "from the attack")
    report = AttackReport(
        False,
        step.seat,
        step.model,
        step.faces,
        text,
        chosen.range_die,
        net,
        chosen.vortices,
        stunned,
        critical,
        True,
        killed,
    )
    state = evolve(state, last_attack=report)
    if step.reaction or killed:
        return state
    if stunned:
        ev.append(Event("Stunned", f"{target} is stunned: no reaction", {"model": step.model}))
        return state
    sightings = (Sighting(step.seat, yes=step.distance),)
    return push(state, EnemyTurn(step.model, "reaction", sightings=sightings))


def _faces(cat: Catalog, faces: tuple[str, ...]) -> str:
    return ", ".join(cat.face(s).describe() for s in faces)


def faces_text(cat: Catalog, faces: tuple[str, ...]) -> str:
    return _faces(cat, faces)
