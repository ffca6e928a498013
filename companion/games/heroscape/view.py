"""The TV's and phones' picture of a HeroScape game: plain JSON, no secrets.

Order markers are shown only once revealed (a player who placed them shows ``markers_placed``); the
private view gives one seat its own markers. During a turn the view lists what the phone's attack form
offers: the figures that may still attack (with their attacks) and the targets (with the conditions a
player may declare for each).
"""

from __future__ import annotations

from companion.engine import JSON, PlayerId, Prompt
from companion.games.heroscape import first_turns
from companion.games.heroscape.armies import army_points
from companion.games.heroscape.catalog import Catalog, Scenario
from companion.games.heroscape.combat import outcome_text
from companion.games.heroscape.common import (
    acting_pool,
    figure_label,
    opponents,
    owned_label,
    team_of,
    unit_label,
    who,
)
from companion.games.heroscape.dice import CONDITIONS, declarable
from companion.games.heroscape.disputes import TOPICS, can_start, settled, topics
from companion.games.heroscape.forecast import attack_dice
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.odds import odds
from companion.games.heroscape.scenarios import (
    PROTECT_THE_WATERS_KILLS,
    destroyed_count,
    heroes,
    hive_destroyed,
)
from companion.games.heroscape.scoring import points_on_battlefield
from companion.games.heroscape.state import (
    ALIVE,
    EXITED,
    MARKERS,
    Ask,
    Contest,
    PendingAttack,
    State,
    Unit,
)

TITLE = "HeroScape: Swarm of the Marro"


def view(cat: Catalog, state: State, scenario: Scenario, prompt: Prompt | None) -> dict[str, JSON]:
    scores = points_on_battlefield(cat, state)
    active = state.turn.seat if state.turn is not None else None
    return {
        "game": "heroscape",
        "title": TITLE,
        "scenario": scenario.to_json(),
        "mode": "basic" if state.basic else "master",
        "round": state.round,
        "round_limit": state.round_limit,
        "phase": state.phase,
        "players": [_player(cat, state, seat, scores[seat], seat == active) for seat in range(state.seats)],
        "rolloff": _rolloff(state),
        "initiative": {"rolls": [list(r) for r in state.initiative_rolls], "order": list(state.order)},
        "draft": _draft(state),
        "turn": _turn(cat, state),
        "glyphs": _glyphs(cat, state),
        "glyph_catalog": [
            {"id": g.id, "title": g.title, "power": g.power, "lasts": g.lasts} for g in cat.glyphs
        ],
        "conditions": [{"id": k, "label": v} for k, v in CONDITIONS.items()],
        "last_attack": _last_attack(cat, state),
        "victory": victory_status(cat, state, scenario, scores),
        "pending_attack": _pending(cat, state),
        "rolloffs": _rolloffs(state),
        "flooded": state.flooded,
        "hive_controller": state.hive_controller,
        "rogue_hive": _unit(
            cat, state, UnitId(state.hive_controller or 0, state.hive.card, state.hive.copy), state.hive
        )
        if state.hive is not None
        else None,
        "prompt": prompt.to_json() if prompt else None,
        "finished": state.finished,
        "result": _result(cat, state) if state.finished else None,
    }


def _player(cat: Catalog, state: State, seat: int, score: float, active: bool) -> dict[str, JSON]:
    side = state.sides[seat]
    units = [(UnitId(seat, u.card, u.copy), u) for u in side.units]
    return {
        "seat": seat,
        "name": state.names[seat],
        "colour": state.colours[seat],
        "team": team_of(state, seat),
        "active": active,
        "out": side.out,
        "score": {"total": score, "cards": sum(1 for _, u in units if u.alive)},
        "army_points": army_points(cat, side),
        "limit": state.limits[seat],
        "ready": side.ready,
        "markers_placed": side.markers is not None,
        "army": [_unit(cat, state, uid, unit) for uid, unit in units],
    }


def _unit(cat: Catalog, state: State, uid: UnitId, unit: Unit) -> dict[str, JSON]:
    card = cat.card(unit.card)
    stats = card.basic if state.basic else card.master
    me = uid.format()
    revealed = []
    side = state.sides[uid.seat] if uid.seat < state.seats else None
    if side is not None and side.markers is not None:
        revealed = [MARKERS[i] for i in range(3) if side.revealed[i] and side.markers[i] == me]
    # Labels as figure_label gives them, without asking it figure by figure (every view, every card).
    first = (uid.copy - 1) * card.figures
    figures = [
        {
            "id": f"{me}/{n}",
            "label": card.short if card.hero else f"{card.short} {first + n}",
            "wounds": f.wounds,
            "status": f.status or "alive",
        }
        for n, f in enumerate(unit.figures, start=1)
    ]
    return {
        "unit": me,
        "card": card.id,
        "title": unit_label(cat, state, uid),
        "short": card.short,
        "hero": card.hero,
        "unique": card.unique,
        "size": card.size,
        "height": card.height,
        "life": card.life,
        "move": stats["move"],
        "range": stats["range"],
        "attack": stats["attack"],
        "defense": stats["defense"],
        "points": card.points,
        "living": sum(1 for f in unit.figures if f.status == ALIVE),
        "figures": figures,
        "negated": unit.negated,
        "revealed_markers": revealed,
        # No powers: the cards' words are in the catalog (the control page's, `companion cards`), not
        # in every update the TV and the phones receive.
    }


def _rolloff(state: State) -> dict[str, JSON] | None:
    r = state.rolloff
    if r is None or state.phase != "rolloff":
        return None
    return {
        "purpose": r.purpose,
        "rolls": [list(x) for x in r.rolls],
        "waiting": list(r.waiting),
        "contenders": list(r.contenders),
    }


def _draft(state: State) -> dict[str, JSON] | None:
    d = state.draft
    if d is None:
        return None
    return {"picker": d.order[d.index], "picks": d.picks, "order": list(d.order)}


def _turn(cat: Catalog, state: State) -> dict[str, JSON] | None:
    turn = state.turn
    if turn is None:
        return None
    first = first_turns.power_of(cat, state)
    # The phone's forms (attack, leaving engagement, fall, glyph) are offered while the turn waits for
    # its player: not while a roll or a question is pending, nor once the turn is ending.
    open_forms = not state.stack and turn.step not in ("ending", "after")
    pool = acting_pool(cat, state) if open_forms else []
    attackers = []
    # What may be declared depends on the card, not on which of its figures: worked out once a card.
    own: dict[UnitId, list[str]] = {}
    for fid in pool if not turn.no_attack else ():  # Stinger Drain's 1-4: no attack this turn
        card = cat.card(fid.unit.card)
        if fid.unit not in own:
            own[fid.unit] = [c for c in declarable(cat, state, fid, fid) if c.endswith("attacker")]
        specials = [
            {"id": pw.id, "name": pw.name, "not_general": pw.params.get("not_general")}
            for pw in card.powers_of("special-attack")
        ]
        attackers.append(
            {
                "id": fid.format(),
                "label": figure_label(cat, state, fid),
                "attacked": fid.format() in turn.attackers,
                "specials": specials,
                "conditions": own[fid.unit],
            }
        )
    targets = []
    for other in range(state.seats) if open_forms else ():
        if not opponents(state, turn.seat, other):
            continue
        for uid, unit in state.units_of(other):
            living = unit.living()
            if not living:
                continue
            general = cat.card(uid.card).general
            conditions = [
                c for c in declarable(cat, state, None, uid.figure(1)) if not c.endswith("attacker")
            ]
            targets.extend(
                {
                    "id": uid.figure(n).format(),
                    "label": owned_label(cat, state, uid.figure(n)),
                    "general": general,
                    "conditions": conditions,
                }
                for n in living
            )
    return {
        "player": turn.seat,
        "marker": turn.marker + 1 if turn.marker >= 0 else None,
        "unit": turn.unit,
        "title": unit_label(cat, state, UnitId.parse(turn.unit)),
        "step": turn.step,
        "first": turn.first,
        "first_power": first.name if first is not None else None,
        "attackers": attackers,
        "targets": targets,
        "movers": [{"id": f.format(), "label": figure_label(cat, state, f)} for f in pool],
    }


def _glyphs(cat: Catalog, state: State) -> list[dict[str, JSON]]:
    out = []
    for g in state.glyphs:
        glyph = cat.glyph(g.glyph)
        holder = FigureId.parse(g.holder) if g.holder else None
        out.append(
            {
                "id": glyph.id,
                "title": glyph.title,
                "power": glyph.power,
                "lasts": glyph.lasts,
                "text": glyph.text,
                "holder": g.holder,
                "holder_label": owned_label(cat, state, holder) if holder else None,
                "removed": g.removed,
            }
        )
    return out


def _last_attack(cat: Catalog, state: State) -> dict[str, JSON] | None:
    last = state.last_attack
    if last is None:
        return None
    return {
        "kind": last.kind,
        "attacker": last.attacker,
        "attacker_label": _label(cat, state, last.attacker),
        "defender": last.defender,
        "defender_label": _label(cat, state, last.defender),
        "special": last.special,
        "attack_dice": last.attack_dice,
        "defense_dice": last.defense_dice,
        "attack_faces": list(last.attack_faces),
        "defense_faces": list(last.defense_faces),
        "skulls": last.skulls,
        "shields": last.shields,
        "wounds": last.wounds,
        "destroyed": last.destroyed,
        "attack_parts": [[what, n] for what, n in last.attack_parts],
        "defense_parts": [[what, n] for what, n in last.defense_parts],
        "outcome": outcome_text(
            last.kind, state.basic, last.defense_dice, last.skulls, last.shields, last.wounds
        ),
    }


def _label(cat: Catalog, state: State, text: str) -> str:
    fid = FigureId.parse(text)
    return owned_label(cat, state, fid) if state.unit(fid.unit) is not None else text


def _pending(cat: Catalog, state: State) -> dict[str, JSON] | None:
    top = state.top
    if not isinstance(top, PendingAttack):
        return None
    return {
        "kind": top.kind,
        "attacker": top.attacker,
        "attacker_label": _label(cat, state, top.attacker),
        "defender": top.defender,
        "defender_label": _label(cat, state, top.defender),
        "attack_dice": top.attack_dice,
        "defense_dice": top.defense_dice,
        "stage": "attack" if top.skulls is None else "defense",
        "attack_faces": list(top.attack_faces),
        "skulls": top.skulls,
        "odds": odds(top.attack_dice, top.defense_dice) if top.kind == "attack" else None,
        "attack_parts": [[what, n] for what, n in top.attack_parts],
        "defense_parts": [[what, n] for what, n in top.defense_parts],
    }


def _rolloffs(state: State) -> dict[str, JSON]:
    """The roll-offs players may ask for (Line of Sight, Simultaneous Special Powers), the one under way
    and the last one settled, with the line the TV shows ("Line of sight: Ugluk wins 17–9")."""
    top = state.top
    pending = None
    if isinstance(top, Contest):
        pending = {
            "about": top.about,
            "label": TOPICS[top.about],
            "contenders": list(top.contenders),
            "rolls": [list(r) for r in top.rolls],
            "waiting": list(top.waiting),
            "again": top.again,
        }
    last = state.last_contest
    return {
        "topics": [{"id": k, "label": v} for k, v in topics(state).items()],
        "open": can_start(state),
        "pending": pending,
        "last": {
            "about": last.about,
            "label": TOPICS[last.about],
            "winner": last.winner,
            "loser": last.loser,
            "rolls": list(last.rolls),
            "text": settled(state, last),
            "recent": last.when == (state.round, state.turn_index),
        }
        if last is not None
        else None,
    }


def victory_status(cat: Catalog, state: State, scenario: Scenario, scores: list[float]) -> list[str]:
    """Where the scenario's victory stands, in short lines for the TV (the goal itself is in the
    scenario): the count a victory waits for, and who leads on points when the round limit decides."""
    lines: list[str] = []
    victory = scenario.victory
    first, second = (who(state, s) for s in (0, 1))
    if victory == "protect-the-waters":
        # The count the victory check uses: Player 2's figures destroyed, however it happened.
        lost = destroyed_count(state, 1)
        lines.append(f"{second}'s figures destroyed: {lost} of {PROTECT_THE_WATERS_KILLS}")
    elif victory == "unexpected-capture":
        lines.append(f"{first} has lost {destroyed_count(state, 0)} of 2 figures")
        lines.append(f"{first}'s Heroes standing: {heroes(cat, state, 0, ALIVE)}")
    elif victory == "ominous-beginnings":
        lines.append(f"{first}'s Heroes out of the pass: {heroes(cat, state, 0, EXITED)}")
    elif victory == "waters-of-life":
        lines.append("The Marro Hive is destroyed" if hive_destroyed(state) else f"{second}'s Hive stands")
    standing = [s for s in range(state.seats) if not state.sides[s].out and state.has_figures(s)]
    if state.started and len(standing) < state.seats:
        lines.append(f"Armies standing: {', '.join(who(state, s) for s in standing) or 'none'}")
    if state.round_limit and victory not in ("ominous-beginnings", "unexpected-capture", "waters-of-life"):
        best = max(scores, default=0)
        leaders = [who(state, s) for s in standing if scores[s] == best]
        if state.started and leaders:
            lines.append(f"Most points on the battlefield: {' & '.join(leaders)} ({best:g})")
    return lines


def _result(cat: Catalog, state: State) -> dict[str, JSON]:
    scores = points_on_battlefield(cat, state)
    teams = {team_of(state, s) for s in state.winners}
    return {
        "winners": list(state.winners),
        "tie": len(teams) > 1,
        "reason": state.reason,
        "players": [{"seat": s, "name": state.names[s], "points": scores[s]} for s in range(state.seats)],
    }


def private_view(cat: Catalog, state: State, seat: PlayerId) -> dict[str, JSON] | None:
    """What only ``seat`` may see: its order markers this round, its teammates' ("Teammates can look at
    each other's Markers", A Round of Play), when the Glyph of Ored took one of its markers from a card
    which markers lie there to name the one taken, and on its turn the dice of every attack it may
    declare (``forecast.attack_dice``: the phone's odds before declaring)."""
    if not 0 <= seat < state.seats:
        return None
    side = state.sides[seat]
    markers = _markers(cat, state, seat)
    teammates = [
        {"seat": mate, "name": who(state, mate), "markers": _markers(cat, state, mate)}
        for mate in range(state.seats)
        if mate != seat and not opponents(state, seat, mate)
    ]
    top = state.top
    lost_from = None
    if (
        isinstance(top, Ask)
        and top.purpose == "lose-marker"
        and top.seat == seat
        and side.markers is not None
    ):
        lost_from = [
            MARKERS[i]
            for i in range(4)
            if side.markers[i] == top.subject and not side.removed[i] and (i == 3 or not side.revealed[i])
        ]
    units = [
        {"unit": uid.format(), "title": unit_label(cat, state, uid), "alive": unit.alive}
        for uid, unit in state.units_of(seat)
    ]
    return {
        "seat": seat,
        "name": who(state, seat),
        "markers": markers,
        "teammates": teammates,
        "attack_dice": attack_dice(cat, state, seat),
        "lose_marker_options": lost_from,
        "units": units,
    }


def _markers(cat: Catalog, state: State, seat: int) -> dict[str, JSON] | None:
    """Where ``seat``'s order markers lie this round (None until placed): secret from opponents."""
    side = state.sides[seat]
    if side.markers is None:
        return None
    return {
        MARKERS[i]: {
            "unit": side.markers[i],
            "title": unit_label(cat, state, UnitId.parse(side.markers[i])),
            "revealed": i < 3 and side.revealed[i],
            "removed": side.removed[i],
        }
        for i in range(4)
    }
