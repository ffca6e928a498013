"""Green cards resolved with the Cube, and Bilge Guttrot (card reference pp.7-12).

- Dagromm Flailbreath: up to four rolls; a Mark on roll k loses every (k+2)th card, counted over the
  lines top-left first, gaps skipped.
- Skyrr's Blowback: Eye discards the target line; Mark discards every line of the drawer.
- Odlugg Spleenripper: everyone rolls; exactly one Mark and he joins that player, who then rolls for
  each blue card and Sneaky Git in his lines. His holder rolls for each blue card he receives, and an
  opponent rolls before placing a Sneaky Git on him.
- Bilge Guttrot: reorganise all own lines, or lead his (even incomplete) line against a weaker line.
- Idol: six rolls when the game ends (any Mark: -90).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.engine import Event, Roll
from companion.games.chaos_marauders.actions import EYE, MARK, Blast, Decline, Reorganise
from companion.games.chaos_marauders.catalog import Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.flow import fail, line_name, put, receive, title, who
from companion.games.chaos_marauders.placement import reading_order, slot_error
from companion.games.chaos_marauders.state import (
    SLOTS,
    BilgeChoice,
    BlowbackTarget,
    BlueRolls,
    Board,
    GreenRoll,
    IdolRolls,
    Marker,
    OdluggEats,
    OdluggRolls,
    Pending,
    PlaceStep,
    State,
    clear_line,
    discard,
    evolve,
    pop,
    push,
    replace_top,
    set_board,
    set_cell,
)
from companion.games.chaos_marauders.targets import blast_targets

DAGROMM_ROLLS = 4
IDOL_ROLLS = 6


def roll_green(f: Facts, state: State, a: Roll, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, GreenRoll)
    if top.ability == "dagromm":
        return _dagromm(f, state, top, a.faces, ev)
    face = a.faces[0]
    state = discard(pop(state), top.card) if top.ability == "blowback" else pop(state)
    if top.ability == "blowback":
        if face == EYE:
            lost = tuple(c for c in state.boards[top.target][top.target_line] if c is not None)
            state = discard(clear_line(state, top.target, top.target_line), *lost)
            ev.append(
                Event(
                    "LineBlasted",
                    f"Skyrr's Blowback burns {who(state, top.target)}'s {line_name(top.target_line)}",
                    {"player": top.target, "line": top.target_line},
                )
            )
            return state
        lost = tuple(c for cells in state.boards[top.player] for c in cells if c is not None)
        for li in range(3):
            state = clear_line(state, top.player, li)
        ev.append(
            Event(
                "BlowbackExploded",
                f"Skyrr's Blowback explodes: {who(state, top.player)} loses everything",
                {},
            )
        )
        return discard(state, *lost)
    # "git-odlugg": an opponent places a Sneaky Git on Odlugg's holder only if Odlugg does not eat it.
    if face == MARK:
        ev.append(Event("GitEaten", "Odlugg eats the Sneaky Git", {}))
        return discard(state, top.card)
    return put(
        f, state, top.player, top.target, top.target_line, top.slot, top.card, top.player, "draw", False, ev
    )


def _dagromm(f: Facts, state: State, top: GreenRoll, faces: tuple[str, ...], ev: list[Event]) -> State:
    if len(faces) > DAGROMM_ROLLS - top.count:
        fail(f"Dagromm needs at most {DAGROMM_ROLLS - top.count} more rolls")
    if MARK in faces[:-1]:
        fail("Dagromm stops at the first Mark of Chaos")
    count = top.count + len(faces)
    if faces[-1] == MARK:
        every = count + 2
        order = reading_order(state.boards[top.player])
        lost = [order[i] for i in range(every - 1, len(order), every)]
        cards = tuple(state.boards[top.player][li][s] for li, s in lost)
        for li, s in lost:
            state = set_cell(state, top.player, li, s, None)
        ev.append(
            Event(
                "CardsLost",
                f"Mark of Chaos on roll {count}: {who(state, top.player)} loses every {_ordinal(every)} card "
                f"({len(lost)})",
                {"player": top.player, "every": every, "cards": list(cards)},
            )
        )
        return discard(pop(state), *(c for c in cards if c is not None), top.card)
    if count == DAGROMM_ROLLS:
        ev.append(Event("DagrommPleased", "Four Orcish Eyes: Dagromm leaves empty-handed", {}))
        return discard(pop(state), top.card)
    return replace_top(state, replace(top, count=count))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if n > 3 else {1: 'st', 2: 'nd', 3: 'rd'}[n]}"


def blast(f: Facts, state: State, a: Blast, ev: list[Event]) -> State:
    top = state.top
    if not isinstance(top, BlowbackTarget):
        fail("Skyrr's Blowback is not waiting for a target")
    if a.player != top.player:
        fail(f"It is {who(state, top.player)}'s Blowback")
    if (a.target, a.line) not in blast_targets(f, state, a.player):
        fail("Skyrr's Blowback aims at an opponent's line with cards and no Horned Rat Standard")
    ev.append(
        Event("BlowbackAimed", f"Skyrr's Blowback aims at {who(state, a.target)}'s {line_name(a.line)}", {})
    )
    return replace_top(state, GreenRoll(a.player, "blowback", top.card, 0, a.target, a.line))


def decline_blast(f: Facts, state: State, a: Decline, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, BlowbackTarget)
    ev.append(Event("Declined", f"{who(state, a.player)} does not use Skyrr's Blowback", {}))
    return discard(pop(state), top.card)


def odlugg_roll(f: Facts, state: State, a: Roll, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, OdluggRolls)
    if top.faces[a.player]:
        fail(f"{who(state, a.player)} has already rolled for Odlugg")
    faces = (*top.faces[: a.player], a.faces[0], *top.faces[a.player + 1 :])
    if not all(faces):
        return replace_top(state, replace(top, faces=faces))
    state = pop(state)
    marks = [seat for seat, face in enumerate(faces) if face == MARK]
    if len(marks) != 1:
        ev.append(Event("OdluggWandersOff", "Odlugg gets confused and walks off to the discard pile", {}))
        return discard(state, top.card)
    seat = marks[0]
    ev.append(Event("OdluggJoins", f"Odlugg joins {who(state, seat)}!", {"player": seat}))
    return receive(f, state, seat, (Pending(top.card),), "odlugg", seat == state.active, ev)


def odlugg_eats(f: Facts, state: State, a: Roll, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, OdluggEats)
    if len(a.faces) > len(top.spots):
        fail(f"Roll {len(top.spots)} times at most")
    for face, (li, s) in zip(a.faces, top.spots, strict=False):
        card = state.card_at(top.player, li, s)
        if face == MARK and card is not None:
            state = discard(set_cell(state, top.player, li, s, None), card)
            ev.append(Event("OdluggEats", f"Odlugg eats {who(state, top.player)}'s {title(f, card)}", {}))
    rest = top.spots[len(a.faces) :]
    return replace_top(state, replace(top, spots=rest)) if rest else pop(state)


def blue_rolls(f: Facts, state: State, a: Roll, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, BlueRolls)
    if len(a.faces) > len(top.cards):
        fail(f"Roll {len(top.cards)} times at most")
    state = pop(state)
    below = state.top
    assert isinstance(below, PlaceStep)
    cards = list(below.cards)
    for face, card in zip(a.faces, top.cards, strict=False):
        if face == MARK:
            cards.remove(next(p for p in cards if p.card == card))
            state = discard(state, card)
            ev.append(Event("OdluggEats", f"Odlugg eats the {title(f, card)}", {"card": card}))
    state = replace_top(state, replace(below, cards=tuple(cards))) if cards else pop(state)
    rest = top.cards[len(a.faces) :]
    return push(state, BlueRolls(top.player, rest)) if rest else state


def reorganise(f: Facts, state: State, a: Reorganise, ev: list[Event]) -> State:
    top = state.top
    if not isinstance(top, BilgeChoice):
        fail("Only Bilge Guttrot reorganises battle lines")
    if a.player != top.player:
        fail(f"It is {who(state, top.player)}'s Bilge Guttrot")
    if len(a.lines) != 3 or any(len(cells) != SLOTS for cells in a.lines):
        fail("A layout is three lines of twelve slots")
    old = state.boards[a.player]
    have = Counter(c for cells in old for c in cells if c is not None)
    want = Counter(c for cells in a.lines for c in cells if c is not None)
    if have != want:
        fail("Bilge reorganises the cards already in your lines, no more and no fewer")
    for li, cells in enumerate(a.lines):
        for s, card in enumerate(cells):
            if card is not None:
                error = slot_error(f, (*cells[:s], None, *cells[s + 1 :]), card, s)
                if error:
                    fail(f"{line_name(li).capitalize()}: {error}")
    # Git control markers follow their Gits in reading order (the cards are alike but the markers not).
    owners = [state.owner_at(a.player, li, s) for li, s in reading_order(old) if _is_git(f, old[li][s])]
    markers: list[Marker] = []
    for li, s in reading_order(a.lines):  # type: ignore[arg-type]
        if _is_git(f, a.lines[li][s]):
            owner = owners.pop(0)
            if owner is not None:
                markers.append((a.player, li, s, owner))
    board = tuple(tuple(cells) for cells in a.lines)
    state = set_board(pop(state), a.player, board, tuple(markers))  # type: ignore[arg-type]
    if a.player == state.active:
        state = _follow_moved_cards(state, old, board)  # type: ignore[arg-type]
    ev.append(Event("LinesReorganised", f"Bilge Guttrot sorts out {who(state, a.player)}'s lines", {}))
    return state


def _follow_moved_cards(state: State, old: Board, board: Board) -> State:
    """The turn's Chaos Marauders spot and just-drawn card, moved by a reorganisation: both are unique
    cards (the Marauders; Bilge himself, just drawn), found again in the new lines."""

    def moved(spot: tuple[int, int]) -> tuple[int, int]:
        card = old[spot[0]][spot[1]]
        found = [(li, s) for li, cells in enumerate(board) for s, c in enumerate(cells) if c == card]
        return found[0] if len(found) == 1 else spot

    changes: dict[str, object] = {}
    if state.marauders_at is not None:
        changes["marauders_at"] = moved(state.marauders_at)
    fresh = state.fresh
    if fresh is not None and fresh[1] >= 0 and old[fresh[1]][fresh[2]] == fresh[0]:
        changes["fresh"] = (fresh[0], *moved((fresh[1], fresh[2])))
    return evolve(state, **changes) if changes else state


def _is_git(f: Facts, card: str | None) -> bool:
    return card is not None and f.ability[card] == Ability.SNEAKY_GIT


def decline_bilge(f: Facts, state: State, a: Decline, ev: list[Event]) -> State:
    ev.append(Event("Declined", f"{who(state, a.player)} leaves Bilge Guttrot be", {}))
    return pop(state)


def idol_roll(f: Facts, state: State, a: Roll, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, IdolRolls)
    faces = top.faces + a.faces
    if len(faces) > IDOL_ROLLS:
        fail(f"The Idol needs {IDOL_ROLLS - len(top.faces)} more rolls at most")
    # One event per throw, so the TV's ticker and the history tell the six throws as they come.
    for number, face in enumerate(a.faces, start=len(top.faces) + 1):
        shown = "an Orcish Eye" if face == EYE else "a Mark of Chaos"
        ev.append(
            Event(
                "IdolRolled",
                f"{who(state, top.player)} rolled {shown} for the Idol ({number} of {IDOL_ROLLS})",
                {"player": top.player, "face": face, "number": number},
            )
        )
    # "must roll the Cube six times": all six are recorded, as scoring expects them.
    if len(faces) == IDOL_ROLLS:
        verdict = (
            "Kygor Sydewynder is angered: the Idol is worth -90" if MARK in faces else "the Idol is worth 90"
        )
        ev.append(Event("IdolJudged", verdict, {"player": top.player, "faces": list(faces)}))
        return evolve(state, stack=(), idol_faces=faces, finished=True)
    return replace_top(state, replace(top, faces=faces))
