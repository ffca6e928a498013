"""Answers to the engine's questions: a choice, a declaration, a decline or a secret marker for an asked
player (``Ask``), and the d20 rolls the engine waits for (``D20``), each handed to the rule that asked."""

from __future__ import annotations

from companion.engine import Action, Event
from companion.games.heroscape import combat, first_turns, glyphs, powers, rounds, scenarios
from companion.games.heroscape.actions import Choose, Declare, Decline, LoseMarker
from companion.games.heroscape.catalog import Catalog
from companion.games.heroscape.common import fail, figure_label
from companion.games.heroscape.ids import FigureId
from companion.games.heroscape.state import D20 as D20Step
from companion.games.heroscape.state import Ask, State, pop, push

NEEDS_AN_ANSWER = (
    "lose-marker",
    "wannok-wound",
    "rebirth",
    "drain-destroy",
    "flood",
    "siren",
    "siren-adjacent",
)
"""Questions a player may not decline: the rules say what must happen, the player says which."""


def answer(cat: Catalog, state: State, ask: Ask, a: Action, ev: list[Event]) -> State:
    """The asked player's answer to ``ask`` (the step on top of the stack)."""
    purpose, seat = ask.purpose, ask.seat
    if isinstance(a, LoseMarker):
        if purpose != "lose-marker":
            fail("No marker was taken")
        return glyphs.marker_lost(state, seat, a.marker, ev)
    if isinstance(a, Decline):
        if purpose in NEEDS_AN_ANSWER:
            fail("This needs an answer")
        if purpose in first_turns.KINDS:
            return first_turns.declined(state)
        return pop(state)
    if isinstance(a, Declare):
        wanted = {"flood": "flooded", "siren": "siren", "siren-adjacent": "siren-adjacent"}.get(purpose)
        if a.fact != wanted:
            fail(f"The answer here is a '{wanted}' declaration" if wanted else "Answer the question asked")
        state = pop(state)
        if purpose == "flood":
            state = scenarios.flooded(cat, state, seat, a.figures, ev)
        elif purpose == "siren":
            state = scenarios.siren_wound(cat, state, seat, a.figures, ev)
        else:
            state = scenarios.adjacent_wounds(cat, state, seat, a.figures, ev)
        return rounds.ask_each(state, purpose, [s for s in ask.seats if state.has_figures(s)], ask.source)
    assert isinstance(a, Choose)
    option = a.option
    if purpose in first_turns.KINDS:
        return first_turns.choose_first(cat, state, seat, option, ev)
    if purpose == "drain-destroy":
        return powers.drain_chosen(cat, state, seat, ask.subject, option, ev)
    if purpose == "nilrend":
        return glyphs.nilrend_chosen(cat, state, seat, option, ev)
    if purpose == "ored":
        return glyphs.ored_chosen(cat, state, seat, option, ev)
    if purpose == "wannok":
        return glyphs.wannok_chosen(state, seat, option, ev)
    if purpose == "wannok-wound":
        fid = FigureId.parse(option)
        if fid.seat != seat or state.figure(fid) is None or not state.figure(fid).alive:  # type: ignore[union-attr]
            fail("Choose one of your figures on the battlefield")
        state, _ = combat.wound(cat, pop(state), fid, 1, ev)
        return state
    if purpose == "rebirth":
        if option not in powers.rebirth_cards(cat, state, seat):
            fail("Choose a squad with a destroyed figure")
        return powers.revive(cat, pop(state), seat, option, ev)
    if purpose == "rebirth-offer" and option == "roll":
        power = powers.rebirth_offered(cat, state)
        assert power is not None and state.turn is not None
        ev.append(
            Event(
                "PowerUsed",
                f"{power.name}: roll the d20 (it works on {power.number('threshold')} or higher)",
                {},
            )
        )
        return push(
            pop(state), D20Step(seat, "power", power.id, state.turn.unit, "", power.number("threshold"))
        )
    if purpose == "drink" and option == "roll":
        return push(pop(state), D20Step(seat, "drink", "waters-of-life", target=ask.subject))
    fail("That is not one of the choices")


def d20_rolled(cat: Catalog, state: State, step: D20Step, value: int, ev: list[Event]) -> State:
    """The d20 the engine waited for, handed to the rule that asked for it."""
    if step.purpose == "power":
        return powers.power_rolled(cat, state, step, value, ev)
    if step.purpose == "glyph":
        return glyphs.glyph_rolled(cat, state, step, value, ev)
    if step.purpose == "wannok":
        return glyphs.wannok_rolled(cat, state, step, value, ev)
    if step.purpose == "drink":
        return scenarios.drink_rolled(cat, state, step, value, ev)
    if step.purpose == "flood":
        return scenarios.flood_rolled(state, step, value, list(state.order), ev)
    fid = FigureId.parse(step.target)  # an extreme fall
    state = pop(state)
    if value >= step.threshold:
        ev.append(
            Event("FallSurvived", f"{figure_label(cat, state, fid)} rolls {value} and survives the fall", {})
        )
        return state
    ev.append(Event("FallFatal", f"{figure_label(cat, state, fid)} rolls {value}: the fall is fatal", {}))
    return combat.destroy(cat, state, fid, ev)
