"""The TV's picture of a Chaos Marauders game: plain JSON, scores as they would stand if it ended now.

The Chaos Marauders card placed by the active player this turn is shown face-down ("hidden"): the
rules let him keep it only if nobody spots it, so the screen must not spot it for them.
"""

from __future__ import annotations

from collections import Counter

from companion.engine import JSON, Prompt
from companion.games.chaos_marauders import lines as line_rules
from companion.games.chaos_marauders.catalog import GAME, TITLE, Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.placement import count_ability, line_has
from companion.games.chaos_marauders.result import provisional_score
from companion.games.chaos_marauders.scoring import PlayerScore, Tribe
from companion.games.chaos_marauders.state import AttackOffer, BilgeChoice, PlaceStep, State
from companion.games.chaos_marauders.targets import idol_holder


def view(f: Facts, state: State, prompt: Prompt | None) -> dict[str, JSON]:
    scores = _scores(f, state)
    top = state.top
    drawn = _drawn(f, state)
    pending = [_card(f, p.card, p.owner) for p in top.cards] if isinstance(top, PlaceStep) else []
    players = []
    for seat in range(state.seats):
        board = state.boards[seat]
        plague = count_ability(f, board, Ability.PLAGUE_LORDS)
        hidden = state.marauders_at if seat == state.active else None
        lines_json = []
        for li, cells in enumerate(board):
            complete = line_rules.is_complete(cells, f.catalog)
            slots: list[JSON] = []
            for s, card in enumerate(cells):
                if card is None:
                    slots.append(None)
                elif hidden == (li, s):
                    slots.append({"id": "hidden", "title": "A card", "hidden": True})
                else:
                    slots.append(_card(f, card, state.owner_at(seat, li, s)))
            lines_json.append(
                {
                    "index": li,
                    "slots": slots,
                    "complete": complete,
                    "attack_value": line_rules.attack_value(cells, f.catalog, plague),
                    "can_attack": _can_attack(state, seat, li),
                    "protected": line_has(f, cells, Ability.HORNED_RAT_STANDARD),
                    "card_count": line_rules.card_count(cells),
                }
            )
        players.append(
            {
                "seat": seat,
                "name": state.names[seat],
                "colour": state.colours[seat],
                "active": seat == state.active and not state.finished,
                "score": scores[seat],
                "lines": lines_json,
                "chaos_marauders_hidden": hidden is not None,
            }
        )
    return {
        "game": GAME,
        "title": TITLE,
        "round": state.round,
        "active": state.active,
        "draw_pile": sum(state.pile),
        "draw_pile_cards": {f.ids[i]: n for i, n in enumerate(state.pile) if n},
        "discard_pile": {
            "count": len(state.discard),
            "top": _card(f, state.discard[-1], None) if state.discard else None,
            "cards": dict(Counter(state.discard)),
        },
        "drawn_card": drawn,
        "pending_cards": pending,
        "players": players,
        "prompt": prompt.to_json() if prompt else None,
        "finished": state.finished,
        "first_to_complete": state.first_to_complete,
    }


def _drawn(f: Facts, state: State) -> dict[str, JSON] | None:
    """The card the active player drew and has not placed yet (being placed or resolved)."""
    top = state.top
    if isinstance(top, PlaceStep):
        card = top.cards[0].card if top.source == "draw" and top.cards else None
    else:
        card = getattr(top, "card", None)
    if card is None:
        return None
    if f.ability[card] == Ability.CHAOS_MARAUDERS:
        return {"id": "hidden", "title": "A card", "hidden": True}  # let the table spot it, not the TV
    return _card(f, card, None)


_MEMO_LIMIT = 10_000


def _card(f: Facts, card: str, owner: int | None) -> dict[str, JSON]:
    """A card's JSON, built once per (card, owner) and shared by every view (views are never
    modified once built: they are encoded and sent)."""
    known = f.card_views.get((card, owner))
    if known is None:
        known = f.card_views[(card, owner)] = _card_json(f, card, owner)
    return known


def _card_json(f: Facts, card: str, owner: int | None) -> dict[str, JSON]:
    c = f.card[card]
    return {
        "id": c.id,
        "title": c.title,
        "colour": c.colour.value,
        "attack": c.attack,
        "vp": c.vp,
        "symbol": c.symbol,
        "role": c.role.value if c.role else None,
        "machine": c.machine,
        "part": c.part.value if c.part else None,
        "owner": owner,
    }


def _can_attack(state: State, seat: int, line: int) -> bool:
    """The line is offered an attack right now (just completed, or led by Bilge Guttrot)."""
    top = state.top
    return isinstance(top, AttackOffer | BilgeChoice) and top.player == seat and top.line == line


def _tribes(state: State) -> list[Tribe]:
    return [Tribe(state.names[s], tuple(state.boards[s])) for s in range(state.seats)]


def _scores(f: Facts, state: State) -> list[dict[str, JSON]]:
    """Each tribe's breakdown as if the game ended now (an Idol still awaiting its rolls counts 0).
    Most views repeat the previous one's boards: each breakdown is remembered by what decides it."""
    out = []
    for seat, tribe in enumerate(_tribes(state)):
        first = state.first_to_complete == seat
        rolls = state.idol_faces if state.idol_faces is not None and idol_holder(f, state) == seat else None
        key = (tribe, first, rolls)
        score = f.tribe_scores.get(key)
        if score is None:
            if len(f.tribe_scores) > _MEMO_LIMIT:
                f.tribe_scores.clear()
            score = f.tribe_scores[key] = _score(f, tribe, first, rolls).to_json()
        out.append(score)
    return out


def _score(f: Facts, tribe: Tribe, first: bool, rolls: tuple[str, ...] | None) -> PlayerScore:
    return provisional_score(f, tribe, first, rolls)
