"""The enemies' behaviour tables (VI.B, VI.C): the companion decides what an enemy does and to whom.

The enemy tries the first action of each row from the top; the first it can perform picks the row (the
last row's first action, a move or a retreat, always can), and the other actions of that row follow, each
ignored when it cannot be performed. Whether an action can be performed, and at whom, depends on the map:
the engine asks the table only that, and only when its answer could change the decision:

* an attack: which adventurers the enemy sees within its range. Answers hold until the enemy moves, and
  an adventurer of lower chaos than one known to be in reach is never asked about (the highest chaos is
  the target whatever the answer);
* a charge: which adventurers it sees and can reach with its steps;
* a move or a retreat: which adventurer is closest (of several as close, the table's choice, VI.B).

Of several adventurers of equal highest chaos the players choose (VI.B, line 1858); nothing else is theirs.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.shattered_chaos import ledgers
from companion.games.shattered_chaos.catalog import Catalog, EnemyAction
from companion.games.shattered_chaos.ledgers import hero_name, model_name
from companion.games.shattered_chaos.refusals import fail
from companion.games.shattered_chaos.state import (
    Decision,
    EnemyAttack,
    EnemyTurn,
    Sighting,
    State,
    evolve,
    pop,
    push,
    replace_top,
)

KEPT_DECISIONS = 8


def rows(cat: Catalog, state: State, turn: EnemyTurn) -> tuple[tuple[EnemyAction, ...], ...]:
    model = state.model(turn.model)
    assert model is not None
    card = cat.enemy(model.enemy)
    return card.reactions if turn.mode == "reaction" else card.phase


def current_action(cat: Catalog, state: State, turn: EnemyTurn) -> EnemyAction | None:
    table = rows(cat, state, turn)
    if turn.row < 0:
        return table[turn.trying][0]
    row = table[turn.row]
    return row[turn.column] if turn.column < len(row) else None


def chaos_of(cat: Catalog, state: State, seat: int) -> int:
    return ledgers.chaos_value(cat, state.party[seat])


def by_chaos(cat: Catalog, state: State, seats: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Highest chaos first; seat order among equals."""
    return tuple(sorted(seats, key=lambda s: (-chaos_of(cat, state, s), s)))


# ------------------------------------------------------------------------------------------ advance


def advance(cat: Catalog, state: State, turn: EnemyTurn, ev: list[Event]) -> State:
    """Works the enemy's table as far as it can without the table's answer."""
    model = state.model(turn.model)
    if model is None:
        return pop(state)  # killed (or taken off) during its own turn: its turn is over
    action = current_action(cat, state, turn)
    if action is None:
        ev.append(Event("EnemyDone", f"{model_name(cat, model)} has acted", {"model": turn.model}))
        return pop(state)
    if turn.asking:
        return state
    if turn.eligible is None:
        return _find_eligible(cat, state, turn, action)
    if not turn.eligible:
        return _cannot(cat, state, turn, action, ev)
    return _choose_target(cat, state, turn, action, turn.eligible, ev)


def _find_eligible(cat: Catalog, state: State, turn: EnemyTurn, action: EnemyAction) -> State:
    everyone = tuple(range(state.seats))
    if action.always_possible and (action.target == "closest" or action.sight):
        if len(everyone) == 1:
            return replace_top(state, replace(turn, eligible=everyone))
        return replace_top(state, replace(turn, asking="closest", candidates=by_chaos(cat, state, everyone)))
    if action.always_possible:
        return replace_top(state, replace(turn, eligible=everyone))
    if action.kind == "charge":
        return replace_top(state, replace(turn, asking="reach", candidates=by_chaos(cat, state, everyone)))
    if not action.sight:
        return replace_top(state, replace(turn, asking="within", candidates=by_chaos(cat, state, everyone)))
    known = {s.seat: s.known(action.range) for s in turn.sightings}
    yes = [seat for seat in everyone if known.get(seat) is True]
    unknown = [seat for seat in everyone if known.get(seat) is None]
    if action.target == "highest-chaos" and yes:
        best = max(chaos_of(cat, state, s) for s in yes)
        unknown = [s for s in unknown if chaos_of(cat, state, s) >= best]
    if not unknown:
        return replace_top(state, replace(turn, eligible=by_chaos(cat, state, yes)))
    return replace_top(state, replace(turn, asking="sight", candidates=by_chaos(cat, state, unknown)))


def _cannot(cat: Catalog, state: State, turn: EnemyTurn, action: EnemyAction, ev: list[Event]) -> State:
    name = model_name(cat, turn.model)
    if turn.row < 0:
        ev.append(
            Event("EnemyCannot", f"{name} cannot {action.describe()}: the next row", {"model": turn.model})
        )
        return replace_top(state, replace(turn, trying=turn.trying + 1, eligible=None, candidates=()))
    ev.append(
        Event("EnemyCannot", f"{name} cannot {action.describe()}: nothing happens", {"model": turn.model})
    )
    return replace_top(state, replace(turn, column=turn.column + 1, eligible=None, candidates=()))


def _choose_target(
    cat: Catalog,
    state: State,
    turn: EnemyTurn,
    action: EnemyAction,
    eligible: tuple[int, ...],
    ev: list[Event],
) -> State:
    if action.target == "highest-chaos":
        best = max(chaos_of(cat, state, s) for s in eligible)
        tied = tuple(s for s in eligible if chaos_of(cat, state, s) == best)
        if len(tied) > 1:
            return replace_top(state, replace(turn, asking="tie", candidates=tied))
        return perform(cat, state, turn, action, tied[0], ev)
    if len(eligible) > 1:
        return replace_top(state, replace(turn, asking="nearest", candidates=eligible))
    return perform(cat, state, turn, action, eligible[0], ev)


# ------------------------------------------------------------------------------------------ answers


def answer_sighted(cat: Catalog, state: State, turn: EnemyTurn, seats: tuple[int, ...]) -> State:
    if turn.asking not in ("sight", "reach", "within"):
        fail("The companion is not asking which adventurers the enemy sees now")
    if len(set(seats)) != len(seats) or any(s not in turn.candidates for s in seats):
        names = ", ".join(hero_name(cat, state, s) for s in turn.candidates)
        fail(f"The question is about {names}")
    action = current_action(cat, state, turn)
    assert action is not None
    if turn.asking != "sight":
        return replace_top(
            state, replace(turn, asking="", candidates=(), eligible=by_chaos(cat, state, seats))
        )
    sightings = {s.seat: s for s in turn.sightings}
    for seat in turn.candidates:
        old = sightings.get(seat, Sighting(seat))
        if seat in seats:
            sightings[seat] = replace(old, yes=min(old.yes or action.range, action.range))
        else:
            sightings[seat] = replace(old, no=max(old.no, action.range))
    known = [s for s in range(state.seats) if sightings.get(s, Sighting(s)).known(action.range)]
    return replace_top(
        state,
        replace(
            turn,
            asking="",
            candidates=(),
            eligible=by_chaos(cat, state, known),
            sightings=tuple(sightings[k] for k in sorted(sightings)),
        ),
    )


def answer_closest(cat: Catalog, state: State, turn: EnemyTurn, seat: int, ev: list[Event]) -> State:
    if turn.asking not in ("closest", "nearest"):
        fail("The companion is not asking which adventurer is closest now")
    if seat not in turn.candidates:
        fail(f"The question is about {', '.join(hero_name(cat, state, s) for s in turn.candidates)}")
    action = current_action(cat, state, turn)
    assert action is not None
    turn = replace(turn, asking="", candidates=())
    state = replace_top(state, turn)
    if turn.eligible is None:  # "closest": the answer is who the action can reach
        return replace_top(state, replace(turn, eligible=(seat,)))
    return perform(cat, state, turn, action, seat, ev)


def answer_target(cat: Catalog, state: State, turn: EnemyTurn, seat: int, ev: list[Event]) -> State:
    if turn.asking != "tie":
        fail("No tie of chaos waits for the players' choice")
    if seat not in turn.candidates:
        fail(f"The tie is between {', '.join(hero_name(cat, state, s) for s in turn.candidates)}")
    action = current_action(cat, state, turn)
    assert action is not None
    turn = replace(turn, asking="", candidates=())
    return perform(cat, replace_top(state, turn), turn, action, seat, ev)


# ------------------------------------------------------------------------------------------ perform


def perform(
    cat: Catalog, state: State, turn: EnemyTurn, action: EnemyAction, seat: int, ev: list[Event]
) -> State:
    """The decided action: an attack is thrown next; a movement is the table's to make on the map."""
    name = model_name(cat, turn.model)
    target = hero_name(cat, state, seat)
    chaos = chaos_of(cat, state, seat)
    row = turn.trying if turn.row < 0 else turn.row
    column = 0 if turn.row < 0 else turn.column
    moved = not action.attacks
    turn = replace(
        turn,
        row=row,
        column=column + 1,
        eligible=None,
        asking="",
        candidates=(),
        sightings=() if moved else turn.sightings,
    )
    state = replace_top(state, turn)
    if action.attacks:
        verb = "uses its special attack on" if action.kind == "special" else "attacks"
        dice = " + ".join(action.dice)
        text = f"{name} {verb} {target} (chaos {chaos})" + (f" with {dice}" if dice else "")
        if action.text:
            text += f": {action.text}"
        state = _decided(state, Decision(turn.model, text, action.kind, seat), ev)
        special = (action.text or "special attack") if action.kind == "special" else ""
        step = EnemyAttack(
            turn.model, seat, action.dice, special, action.range, reaction_allowed=turn.mode == "phase"
        )
        return push(state, step)
    if action.kind == "charge":
        text = f"{name} charges {target} (chaos {chaos})"
        how = f"move it next to {target} by the fewest steps ({action.steps} at most)"
    elif action.kind == "move":
        text = f"{name} moves towards {target}, the closest adventurer"
        how = f"move it up to {action.steps} steps towards {target}, as far as it gets by the fewest steps"
    else:
        text = f"{name} retreats from {target}, the closest adventurer"
        how = (
            f"move it up to {action.steps} steps away from {target}, as far as it gets by the fewest steps; "
            f"it stays put if no space takes it farther"
        )
    return _decided(state, Decision(turn.model, text, action.kind, seat, how), ev)


def _decided(state: State, decision: Decision, ev: list[Event]) -> State:
    said = decision.text + (f": {decision.instruction}" if decision.instruction else "")
    ev.append(
        Event(
            "EnemyDecided", said, {"model": decision.model, "kind": decision.kind, "target": decision.target}
        )
    )
    decisions = (*state.decisions, said)[-KEPT_DECISIONS:]
    return evolve(state, decision=decision, decisions=decisions)


def start_turn(state: State, number: int, mode: str) -> State:
    return push(state, EnemyTurn(number, mode))
