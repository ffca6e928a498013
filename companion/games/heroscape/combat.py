"""Attacks, wounds and destruction; leaving-engagement attacks; falls.

An attack (rulebook, Attacking): the attacker rolls its Attack number of combat dice, plus one for a
height advantage (two when 10 or more levels above the defender's height), plus what glyphs and powers
add; the defender rolls its Defense likewise. Wounds are the skulls beyond the shields; a figure with
as many wounds as its Life is destroyed (squad figures have one). A special attack rolls its own dice and
is never modified by glyphs, other powers or height. The Basic Game has no wounds: any attack that gets
more skulls than shields destroys the defender.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.heroscape.catalog import ArmyCard, Catalog
from companion.games.heroscape.common import (
    acting_pool,
    acting_unit,
    fail,
    figure_label,
    opponents,
    owned_label,
    power_active,
    refuse_if_trapped,
    unit_label,
    who,
)
from companion.games.heroscape.dice import Parts, describe, parts_for, special_power, total
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.state import (
    D20,
    DESTROYED,
    EXITED,
    Figure,
    LastAttack,
    PendingAttack,
    State,
    Turn,
    evolve,
    push,
    set_figure,
)

MAJOR_FALL, MAJOR_FALL_DICE = 10, 3
EXTREME_FALL, EXTREME_FALL_SURVIVES = 20, 19
"""Falling: a drop 10 levels more than the figure's height rolls three dice; 20 more, the d20, and the
figure survives on 19 or 20."""

# ---------------------------------------------------------------------------------------- declare


def declare_attack(
    cat: Catalog,
    state: State,
    seat: int,
    attacker: FigureId,
    defender: FigureId,
    special: str | None,
    height: str,
    conditions: frozenset[str],
    ev: list[Event],
) -> State:
    turn = state.turn
    if turn is None or turn.step == "ending" or state.stack:
        fail("Attacks are made during a turn, when nothing else is waiting")
    if seat != turn.seat:
        fail(f"It is {who(state, turn.seat)}'s turn")
    pool = acting_pool(cat, state)
    if attacker not in pool:
        fail(f"{_name(cat, state, attacker)} cannot attack this turn")
    target = state.figure(defender)
    if target is None or not target.alive:
        fail(f"There is no {defender.format()} on the battlefield to attack")
    if not opponents(state, attacker.seat, defender.seat):
        fail("Attack an opponent's figure, not your own side's")
    if turn.no_attack:
        fail(f"{_stopped_by(cat, state)}: {cat.card(attacker.unit.card).title} cannot attack this turn")
    card = cat.card(attacker.unit.card)
    turn = _use_attack(cat, state, turn, card, attacker, defender, special)
    attack_parts, defense_parts = parts_for(cat, state, attacker, defender, special, height, conditions)
    attack, defense = total(attack_parts), total(defense_parts)
    how = "" if special is None else f" ({special_power(cat, state, attacker, special).name})"
    ev.append(
        Event(
            "AttackDeclared",
            f"{owned_label(cat, state, attacker)} attacks {owned_label(cat, state, defender)}{how}: "
            f"{attack} attack {_dice(attack)} ({describe(attack_parts)}) against "
            f"{defense} defense {_dice(defense)} ({describe(defense_parts)})",
            {
                "attacker": attacker.format(),
                "defender": defender.format(),
                "attack": attack,
                "defense": defense,
            },
        )
    )
    state = evolve(state, turn=replace(turn, step="attack"))
    pending = PendingAttack(
        attacker.format(),
        defender.format(),
        special,
        attack,
        defense,
        attack_parts=_frozen(attack_parts),
        defense_parts=_frozen(defense_parts),
    )
    return push(state, pending)


def _frozen(parts: Parts) -> tuple[tuple[str, int], ...]:
    return tuple(parts)


def _stopped_by(cat: Catalog, state: State) -> str:
    """The power that took the turn's attacks away (Stinger Drain)."""
    uid = acting_unit(state)
    power = cat.card(uid.card).power("d20") if uid is not None else None
    return power.name if power is not None else "This turn"


def _name(cat: Catalog, state: State, fid: FigureId) -> str:
    return owned_label(cat, state, fid) if state.figure(fid) is not None else fid.format()


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


def _use_attack(
    cat: Catalog,
    state: State,
    turn: Turn,
    card: ArmyCard,
    attacker: FigureId,
    defender: FigureId,
    special: str | None,
) -> Turn:
    """The turn with this attack counted; refuses one the figure may not make."""
    me = attacker.format()
    used = {fig: (power, n) for fig, power, n in turn.specials}
    distinct = set(turn.attackers)
    if me not in distinct and len(distinct) >= card.figures:
        fail(f"An order marker activates {card.figures} figures of {card.title}: they have all attacked")
    if special is None:
        if me in distinct:
            fail(f"{figure_label(cat, state, attacker)} has attacked this turn")
        return replace(turn, attackers=(*turn.attackers, me))
    power = special_power(cat, state, attacker, special)
    general = power.params.get("not_general")
    if general and cat.card(defender.unit.card).general == general:
        fail(f"{power.name} may not attack a figure who follows {general}")
    previous = used.get(me)
    if me in distinct and (previous is None or previous[0] != special):
        fail(f"{figure_label(cat, state, attacker)} has made its attack this turn")
    count = previous[1] if previous else 0
    if power.params.get("all_adjacent"):
        if (me, defender.format()) in turn.struck:
            fail(f"{power.name} strikes each adjacent figure once")
        struck = (*turn.struck, (me, defender.format()))
    else:
        if count >= power.number("uses", 1):
            uses = power.number("uses", 1)
            fail(f"{power.name} can be used {'once' if uses == 1 else f'{uses} times'} a turn")
        struck = turn.struck
    specials = (*(s for s in turn.specials if s[0] != me), (me, special, count + 1))
    attackers = turn.attackers if me in distinct else (*turn.attackers, me)
    return replace(turn, attackers=attackers, specials=specials, struck=struck)


def leaving_engagement(
    cat: Catalog, state: State, seat: int, attacker: FigureId, defender: FigureId, ev: list[Event]
) -> State:
    turn = state.turn
    if state.basic:
        fail("The Basic Game has no engagement rules")
    if turn is None or turn.step != "move" or state.stack:
        fail("Leaving-engagement attacks happen while the turn's figures move, before any attack")
    if defender not in acting_pool(cat, state):
        fail("Only a figure moving this turn can be attacked as it leaves an engagement")
    if attacker.seat != seat or not opponents(state, seat, defender.seat):
        fail("The engaged opponent's player rolls the leaving-engagement attack")
    figure = state.figure(attacker)
    if figure is None or not figure.alive:
        fail(f"{attacker.format()} is not on the battlefield")
    refuse_if_trapped(cat, state, defender)
    unit = state.unit(defender.unit)
    if unit is not None and power_active(cat, unit, "disengage"):
        fail(f"{figure_label(cat, state, defender)} is never attacked when leaving an engagement")
    ev.append(
        Event(
            "LeavingEngagement",
            f"{figure_label(cat, state, defender)} leaves its engagement with "
            f"{owned_label(cat, state, attacker)}, which rolls one die to wound it",
            {"attacker": attacker.format(), "defender": defender.format()},
        )
    )
    return push(state, PendingAttack(attacker.format(), defender.format(), None, 1, 0, kind="leaving"))


def fall_height(cat: Catalog, state: State, fid: FigureId) -> int:
    """The height a fall is measured against: the card's, times its climb (Climb X2: 'When moving up or
    down levels of terrain, Marrden Nagrubs may double their Height')."""
    card = cat.card(fid.unit.card)
    unit = state.unit(fid.unit)
    climb = card.power("climb")
    if unit is None or unit.negated or climb is None:
        return card.height
    return card.height * climb.number("factor", 1)


def fall(cat: Catalog, state: State, seat: int, fid: FigureId, levels: int, ev: list[Event]) -> State:
    """A figure moved down ``levels``: minor (the drop is its height or more: 1 die), major (10 more
    than its height: 3 dice), extreme (20 more: the d20, 19-20 survives). Fliers never fall."""
    figure = state.figure(fid)
    if state.basic:
        fail("The Basic Game has no falling rules")
    if figure is None or not figure.alive or fid.seat != seat:
        fail(f"{who(state, seat)} has no figure {fid.format()} on the battlefield")
    if fid not in acting_pool(cat, state) or state.turn is None or state.turn.step != "move" or state.stack:
        fail(f"{figure_label(cat, state, fid)} is not moving now: a figure falls while it moves")
    if levels < 0:
        fail("A drop is counted in levels down, from 0")
    refuse_if_trapped(cat, state, fid)
    unit = state.unit(fid.unit)
    name = figure_label(cat, state, fid)
    if unit is not None and power_active(cat, unit, "flying"):
        fail(f"{name} flies: no falling damage")
    height = fall_height(cat, state, fid)
    if levels < height:
        fail(f"A drop of {levels} is less than {name}'s height of {height}: no fall")
    if levels >= height + EXTREME_FALL:
        ev.append(
            Event(
                "Fell", f"{name} falls {levels} levels, an extreme fall: roll the d20 (19 or 20 survives)", {}
            )
        )
        return push(state, D20(seat, "extreme-fall", target=fid.format(), threshold=EXTREME_FALL_SURVIVES))
    dice = MAJOR_FALL_DICE if levels >= height + MAJOR_FALL else 1
    kind = "major" if dice == MAJOR_FALL_DICE else ""
    ev.append(
        Event(
            "Fell",
            f"{name} falls {levels} levels"
            + (", a major fall" if kind else "")
            + f": roll {dice} combat {_dice(dice)}, each skull a wound",
            {},
        )
    )
    return push(state, PendingAttack(fid.format(), fid.format(), None, dice, 0, kind="fall"))


# ------------------------------------------------------------------------------------------ rolls


def attack_rolled(cat: Catalog, state: State, faces: tuple[str, ...], ev: list[Event]) -> State:
    pending = state.top
    assert isinstance(pending, PendingAttack) and pending.skulls is None
    skulls = faces.count("skull")
    if pending.kind != "attack" or pending.defense_dice == 0:
        return resolve(cat, state, pending, faces, (), skulls, 0, ev)
    ev.append(
        Event("AttackRolled", f"{skulls} {'skull' if skulls == 1 else 'skulls'} rolled", {"skulls": skulls})
    )
    return evolve(state, stack=(*state.stack[:-1], replace(pending, skulls=skulls, attack_faces=faces)))


def defense_rolled(cat: Catalog, state: State, faces: tuple[str, ...], ev: list[Event]) -> State:
    pending = state.top
    assert isinstance(pending, PendingAttack) and pending.skulls is not None
    return resolve(
        cat, state, pending, pending.attack_faces, faces, pending.skulls, faces.count("shield"), ev
    )


def resolve(
    cat: Catalog,
    state: State,
    pending: PendingAttack,
    attack_faces: tuple[str, ...],
    defense_faces: tuple[str, ...],
    skulls: int,
    shields: int,
    ev: list[Event],
) -> State:
    state = evolve(state, stack=state.stack[:-1])
    defender = FigureId.parse(pending.defender)
    hits = max(0, skulls - shields)
    name = owned_label(cat, state, defender)
    wounds = (hits and 1) if pending.kind == "attack" and state.basic else hits
    verb = outcome_text(pending.kind, state.basic, pending.defense_dice, skulls, shields, wounds)
    ev.append(
        Event("AttackResolved", f"{name}: {verb}", {"skulls": skulls, "shields": shields, "wounds": wounds})
    )
    if state.basic and pending.kind == "attack":
        state, destroyed = (destroy(cat, state, defender, ev), True) if wounds else (state, False)
    else:
        state, destroyed = wound(cat, state, defender, wounds, ev)
    last = LastAttack(
        pending.attacker,
        pending.defender,
        pending.special,
        pending.attack_dice,
        pending.defense_dice,
        attack_faces,
        defense_faces,
        skulls,
        shields,
        wounds,
        destroyed,
        pending.kind,
        pending.attack_parts,
        pending.defense_parts,
    )
    return evolve(state, last_attack=last)


def outcome_text(kind: str, basic: bool, defense_dice: int, skulls: int, shields: int, wounds: int) -> str:
    """ "3 skulls against 1 shield, 2 wounds", "2 skulls against 2 shields, all blocked", "no skull,
    nothing to block" (whatever the shields), "1 skull, 1 wound" (a fall: no defense dice)."""
    if skulls == 0:
        return "no skull, nothing to block" if kind == "attack" and defense_dice else "no skull, no wound"
    against = f"{_count(skulls, 'skull')} against {_count(shields, 'shield')}"
    if kind != "attack" or defense_dice == 0:
        return f"{_count(skulls, 'skull')}, {_count(wounds, 'wound')}"
    if basic:
        return f"{against}, " + ("destroyed" if wounds else "all blocked")
    return f"{against}, " + (_count(wounds, "wound") if wounds else "all blocked")


# --------------------------------------------------------------------------------- wounds, deaths


def wound(cat: Catalog, state: State, fid: FigureId, count: int, ev: list[Event]) -> tuple[State, bool]:
    """``count`` wounds on a figure (a Hero's wound markers; a squad figure is destroyed by one);
    returns the state and whether the figure was destroyed."""
    figure = state.figure(fid)
    if figure is None or not figure.alive or count <= 0:
        return state, False
    life = cat.card(fid.unit.card).life
    carried = figure.wounds + count
    if carried >= life:
        return destroy(cat, state, fid, ev), True
    ev.append(
        Event(
            "Wounded",
            f"{owned_label(cat, state, fid)} has {_count(carried, 'wound')}: "
            f"{life - carried} of {life} life left",
            {"figure": fid.format(), "wounds": carried},
        )
    )
    return set_figure(state, fid, Figure(carried, figure.status)), False


def heal(cat: Catalog, state: State, fid: FigureId, count: int, ev: list[Event]) -> State:
    figure = state.figure(fid)
    if figure is None or not figure.alive or figure.wounds == 0:
        return state
    left = max(0, figure.wounds - count)
    ev.append(
        Event(
            "Healed",
            f"{figure_label(cat, state, fid)} heals {_count(figure.wounds - left, 'wound')} "
            f"({_count(left, 'wound')} left)",
            {"figure": fid.format(), "wounds": left},
        )
    )
    return set_figure(state, fid, Figure(left, figure.status))


def destroy(cat: Catalog, state: State, fid: FigureId, ev: list[Event], status: str = DESTROYED) -> State:
    """Takes a figure off the battlefield. For a common card the army holds several of, the destroyed
    figure fills a card that already has destroyed figures first (rulebook, Destroying a Common Figure):
    the figures trade places on the cards, so a living figure of the filled card now counts on this one
    and takes its number, with the glyph it stands on and what it did this turn."""
    card = cat.card(fid.unit.card)
    name = owned_label(cat, state, fid)
    target = _fill_first(state, fid) if card.common and status == DESTROYED else fid
    if target != fid:
        state = _trade_places(state, fid, target)
    figure = state.figure(target)
    assert figure is not None
    state = step_off(set_figure(state, target, Figure(min(figure.wounds, card.life), status)), target)
    if status == EXITED:
        ev.append(Event("FigureExited", f"{name} leaves the battlefield", {"figure": fid.format()}))
        return state
    filled = ""
    if target != fid:
        filled = (
            f"; it goes on the {unit_label(cat, state, target.unit)} card, which had lost a figure already,"
            f" and {figure_label(cat, state, target)} counts as {figure_label(cat, state, fid)} from now on"
        )
    ev.append(Event("FigureDestroyed", f"{name} is destroyed{filled}", {"figure": target.format()}))
    out = state.unit(target.unit)
    if out is not None and not out.alive:
        ev.append(
            Event(
                "CardOutOfPlay",
                f"{who(state, fid.seat)}'s {unit_label(cat, state, target.unit)} card has no figures left",
                {"unit": target.unit.format()},
            )
        )
    return state


def _fill_first(state: State, fid: FigureId) -> FigureId:
    """The figure slot the destroyed ``fid`` fills: a living figure's on a twin card that already lost
    one (``fid`` itself when no card must be filled first)."""
    twins = [(uid, unit) for uid, unit in state.units_of(fid.seat) if uid.card == fid.unit.card]
    if len(twins) < 2 or any(not f.alive for f in state.unit(fid.unit).figures):  # type: ignore[union-attr]
        return fid
    for uid, unit in twins:
        dead = any(not f.alive for f in unit.figures)
        if dead and unit.alive:
            return uid.figure(unit.living()[0])
    return fid


def _trade_places(state: State, a: FigureId, b: FigureId) -> State:
    """Figures ``a`` and ``b`` trade their places on the cards: each takes the other's number, with its
    wounds, the glyph it stands on and what it did this turn."""
    fa, fb = state.figure(a), state.figure(b)
    assert fa is not None and fb is not None
    state = set_figure(set_figure(state, a, fb), b, fa)
    names = {a.format(): b.format(), b.format(): a.format()}

    def swap(text: str) -> str:
        return names.get(text, text)

    glyph_list = tuple(replace(g, holder=swap(g.holder)) if g.holder else g for g in state.glyphs)
    turn = state.turn
    if turn is not None:
        turn = replace(
            turn,
            attackers=tuple(swap(x) for x in turn.attackers),
            specials=tuple((swap(f), p, n) for f, p, n in turn.specials),
            struck=tuple((swap(x), swap(y)) for x, y in turn.struck),
        )
    return evolve(state, glyphs=glyph_list, turn=turn)


def step_off(state: State, fid: FigureId) -> State:
    """The glyphs ``fid`` stood on no longer hold it."""
    me = fid.format()
    if not any(g.holder == me for g in state.glyphs):
        return state
    return evolve(state, glyphs=tuple(replace(g, holder=None) if g.holder == me else g for g in state.glyphs))


def figure_of_unit(uid: UnitId, number: int) -> FigureId:
    return uid.figure(number)
