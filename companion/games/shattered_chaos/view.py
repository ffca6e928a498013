"""What the TV and the phones show of a Shattered Chaos adventure: plain JSON, nothing secret (a co-operative
game keeps no secrets between its players).

Each adventurer's ledgers, tokens, chaos cards and condition tokens; every enemy model's lives; the round
counter with its sections; the graveyard; the phase and what happens next; the enemy's decided action; the
attack under way with its odds; the final evaluation. The phone's odds before an attack are worked out from
``dice`` and each adventurer's ``attack`` bonuses (the same rule as ``odds.attack_odds``).
"""

from __future__ import annotations

from companion.engine import JSON, GameResult, Prompt
from companion.games.shattered_chaos import attacks, behaviour, ledgers
from companion.games.shattered_chaos.catalog import COLOURS, Catalog, EnemyAction
from companion.games.shattered_chaos.ledgers import count, hero_name, model_name
from companion.games.shattered_chaos.odds import attack_odds
from companion.games.shattered_chaos.state import (
    ADVENTURERS,
    CAMPAIGN,
    CHAOS,
    ENEMIES,
    OVER,
    EnemyAttack,
    EnemyTurn,
    Hero,
    HeroAttack,
    Model,
    State,
)

PHASE_TITLES = {
    ADVENTURERS: "Adventurer phase",
    ENEMIES: "Enemy phase",
    CHAOS: "Chaos phase",
    CAMPAIGN: "Final evaluation",
    OVER: "Adventure over",
}


def view(cat: Catalog, state: State, prompt: Prompt | None, result: GameResult) -> dict[str, JSON]:
    acting = {s for s in (prompt.players if prompt else ())}
    top = state.top
    return {
        "game": "shattered-chaos",
        "title": "Shattered Chaos",
        "players": [_player(cat, state, seat, hero, seat in acting) for seat, hero in enumerate(state.party)],
        "prompt": prompt.to_json() if prompt else None,
        "finished": state.phase == OVER,
        "result": _result(cat, state, result) if state.phase == OVER else None,
        "adventure": _adventure(cat, state),
        "round": state.round,
        "phase": state.phase,
        "phase_title": PHASE_TITLES[state.phase],
        "next": next_step(cat, state),
        "round_counter": {
            "marker": min(state.round, cat.last_round),
            "sections": [
                {"section": s.number, "rounds": list(s.rounds), "keep": s.keep, "draw": s.draw}
                for s in cat.sections
            ],
        },
        "starting": state.starting,
        "enemies": [_model(cat, state, m, top) for m in state.models],
        "enemy_cards": [_enemy_card(cat, state, e) for e in _cards_in_play(cat, state)],
        "placeable": _placeable(cat, state),
        "graveyard": [
            {"number": n, "name": model_name(cat, n), "counts": _weight(cat, e)} for e, n in state.graveyard
        ],
        "graveyard_draws": ledgers.graveyard_weight(cat, state),
        "stacks": [{"name": name, "left": len(cards)} for name, cards in state.stacks],
        "discarded": len(state.discard),
        "map_chaos": state.map_chaos,
        "decision": _decision(state),
        "decisions": list(state.decisions),
        "acting_enemy": top.model if isinstance(top, EnemyTurn) else None,
        "question": _question(cat, state, top) if isinstance(top, EnemyTurn) and top.asking else None,
        "attack": _attack(cat, state, top) if isinstance(top, HeroAttack) else None,
        "enemy_attack": _enemy_attack(cat, state, top) if isinstance(top, EnemyAttack) else None,
        "last_attack": _last_attack(cat, state),
        "narrator": [
            {
                "stack": s,
                "current": c[0] if c else None,
                "text": _narrator_text(cat, state, c),
                "left": len(c),
            }
            for s, c in state.narrator
        ],
        "revealed": list(state.revealed),
        "dice": {
            c: [{"symbol": f.symbol, "eyes": f.eyes, "vortices": f.vortices} for f in cat.die(c).faces]
            for c in COLOURS
        },
        "rules": {
            "stun_vortices": cat.rules.stun_vortices,
            "critical_vortices": cat.rules.critical_vortices,
            "critical_ignores_armour": cat.rules.critical_ignores_armour,
            "destruction_damage": cat.rules.destruction_damage,
            "action_tokens": cat.rules.action_tokens,
            "ledger_tokens": cat.rules.ledger_tokens,
            "hand_size": cat.rules.hand_size,
        },
        "skills": list(cat.adventure(state.adventure).skills),
        "evaluation": state.evaluation.to_json() if state.evaluation else None,
        "campaign": state.campaign.format(),
        "outcome": state.outcome,
    }


def _player(cat: Catalog, state: State, seat: int, hero: Hero, acting: bool) -> dict[str, JSON]:
    card = cat.adventurer(hero.card)
    ledger = cat.ledger(card.ledger)
    cards = [
        {
            "id": c,
            "title": cat.card(c).title,
            "stack": cat.card(c).stack,
            "bonus": cat.card(c).bonus,
            "amount": cat.card(c).amount,
            "value": cat.card(c).value,
            "laid": c in hero.laid,
        }
        for c in hero.cards
    ]
    return {
        "seat": seat,
        "name": state.names[seat],
        "colour": state.colours[seat],
        "active": acting,
        "score": {"total": card.start_life - (0 if hero.shadow else hero.life)},
        "adventurer": card.name,
        "adventurer_id": card.id,
        "motto": card.motto,
        "life": hero.life,
        "start_life": card.start_life,
        "max_life": card.max_life,
        "shadow": hero.shadow,
        "chaos_tokens": hero.chaos,
        "chaos": ledgers.chaos_value(cat, hero),
        "ledger": {"empty": ledger.empty, "values": list(ledger.values)},
        "actions": hero.actions,
        "cards": cards,
        "destruction": hero.destruction,
        "conditions": [{"kind": c.kind, "half": c.half} for c in hero.conditions],
        "talents": [{"id": t, "title": cat.talent(t).title} for t in hero.talents],
        "armour": ledgers.hero_armour(cat, hero),
        "starting": seat == state.starting,
        "chaos_steps": hero.chaos_steps,
        "stepped": hero.stepped,
        "attack": {
            "range": ledgers.talent_bonus(cat, hero, "range"),
            "damage": ledgers.talent_bonus(cat, hero, "damage"),
            "life": ledgers.talent_bonus(cat, hero, "life"),
            "vortex": ledgers.talent_sources(cat, hero, "vortex"),
        },
    }


def _adventure(cat: Catalog, state: State) -> dict[str, JSON]:
    adventure = cat.adventure(state.adventure)
    return {
        "number": adventure.number,
        "title": adventure.title,
        "compartment": adventure.compartment,
        "box": adventure.box,
    }


def _weight(cat: Catalog, enemy: str) -> int:
    return cat.rules.big_enemy_graveyard if cat.enemy(enemy).big else 1


def _model(cat: Catalog, state: State, model: Model, top: object) -> dict[str, JSON]:
    card = cat.enemy(model.enemy)
    return {
        "number": model.number,
        "name": model_name(cat, model),
        "enemy": card.id,
        "enemy_name": card.name,
        "elite": model.elite,
        "lives": model.lives,
        "max_lives": card.lives[state.seats],
        "armour": card.armour_of(model.elite),
        "size": card.size,
        "conditions": [{"kind": c.kind, "half": c.half} for c in model.conditions],
        "acting": isinstance(top, EnemyTurn | EnemyAttack) and top.model == model.number,
        "acted": state.phase == ENEMIES and model.number < state.enemy_after,
    }


def _cards_in_play(cat: Catalog, state: State) -> list[str]:
    listed = list(cat.adventure(state.adventure).enemies)
    listed += [m.enemy for m in state.models] + [e for e, _ in state.graveyard]
    return list(dict.fromkeys(listed))


def _placeable(cat: Catalog, state: State) -> list[dict[str, JSON]]:
    """Models the narrator may place now: the adventure's enemies first, neither on the board nor dead."""
    buried = {n for _, n in state.graveyard}
    listed = _cards_in_play(cat, state) + [e.id for e in cat.enemies]
    out: list[dict[str, JSON]] = []
    for enemy_id in dict.fromkeys(listed):
        card = cat.enemy(enemy_id)
        for number in (*card.models, *card.elite_models):
            if state.model(number) is None and number not in buried:
                out.append({"number": number, "name": model_name(cat, number)})
    return out


def _action_text(action: EnemyAction) -> str:
    return action.describe()


def _enemy_card(cat: Catalog, state: State, enemy_id: str) -> dict[str, JSON]:
    card = cat.enemy(enemy_id)
    return {
        "id": card.id,
        "name": card.name,
        "lives": card.lives[state.seats],
        "armour": card.armour,
        "size": card.size,
        "reactions": [[_action_text(a) for a in row] for row in card.reactions],
        "phase": [[_action_text(a) for a in row] for row in card.phase],
        "skills": [{"text": s.text, "elite": s.elite} for s in card.skills],
    }


def _decision(state: State) -> dict[str, JSON] | None:
    decision = state.decision
    if decision is None:
        return None
    return {
        "model": decision.model,
        "text": decision.text,
        "kind": decision.kind,
        "target": decision.target,
        "instruction": decision.instruction,
    }


def _question(cat: Catalog, state: State, top: EnemyTurn) -> dict[str, JSON]:
    action = behaviour.current_action(cat, state, top)
    return {
        "model": top.model,
        "asking": top.asking,
        "candidates": list(top.candidates),
        "action": action.describe() if action else "",
        "range": action.reach if action else 0,
        "chaos": {str(s): behaviour.chaos_of(cat, state, s) for s in top.candidates},
    }


def _attack(cat: Catalog, state: State, top: HeroAttack) -> dict[str, JSON]:
    model = state.model(top.model)
    extra = attacks.bonuses(cat, state, top)
    out: dict[str, JSON] = {
        "seat": top.seat,
        "model": top.model,
        "target": model_name(cat, top.model),
        "distance": top.distance,
        "stage": top.stage,
        "faces": list(top.faces),
        "rethrow": list(top.rethrow),
        "reaction": top.reaction,
        "cards": [cat.card(c).title for c in top.cards],
        "destruction": top.destruction,
    }
    if model is not None and top.stage == "throw":
        card = cat.enemy(model.enemy)
        destroyed = ledgers.has_condition(model.conditions, ledgers.DESTRUCTION)
        odds = attack_odds(
            cat,
            top.distance,
            extra.range,
            extra.damage,
            extra.vortex_sources,
            card.armour_of(model.elite),
            destroyed,
        )
        out["odds"] = odds.to_json()
    return out


def _enemy_attack(cat: Catalog, state: State, top: EnemyAttack) -> dict[str, JSON]:
    return {
        "model": top.model,
        "name": model_name(cat, top.model),
        "seat": top.seat,
        "dice": list(top.dice),
        "stage": top.stage,
        "special": top.special,
        "damage": top.damage,
    }


def _last_attack(cat: Catalog, state: State) -> dict[str, JSON] | None:
    report = state.last_attack
    if report is None:
        return None
    return {
        "by_enemy": report.by_enemy,
        "seat": report.seat,
        "model": report.model,
        "faces": list(report.faces),
        "text": report.text,
        "range_die": report.range_die,
        "damage": report.damage,
        "vortices": report.vortices,
        "stunned": report.stunned,
        "critical": report.critical,
        "success": report.success,
        "killed": report.killed,
    }


def _narrator_text(cat: Catalog, state: State, cards: tuple[str, ...]) -> str:
    if not cards:
        return ""
    return dict(cat.adventure(state.adventure).narrator).get(cards[0], "")


def next_step(cat: Catalog, state: State) -> str:
    """What happens after the phase at hand, for the TV."""
    if state.phase == ADVENTURERS:
        numbers = [m.number for m in state.models]
        who = ", ".join(model_name(cat, n) for n in numbers[:4]) + (" …" if len(numbers) > 4 else "")
        return f"Then the enemy phase: {who}" if numbers else "Then the enemy phase (no enemy on the board)"
    if state.phase == ENEMIES:
        waiting = [m.number for m in state.models if m.number > state.enemy_after]
        draws = ledgers.graveyard_weight(cat, state)
        chaos = f"the chaos phase ({count(draws, 'chaos card', 'chaos cards')} to draw)"
        return f"Next {model_name(cat, waiting[0])}, then {chaos}" if waiting else f"Then {chaos}"
    if state.phase == CHAOS:
        starting = (state.starting + 1) % state.seats
        return f"Then round {state.round + 1}: {hero_name(cat, state, starting)} is the starting player"
    if state.phase == CAMPAIGN:
        return "Keep the chaos cards from the campaign box, then close it"
    return "The adventure is over"


def _result(cat: Catalog, state: State, result: GameResult) -> dict[str, JSON]:
    won = state.outcome == "won"
    adventure = cat.adventure(state.adventure).title
    return {
        "winners": list(result.winners),
        "tie": False,
        "cooperative": True,
        "headline": f"{adventure} won!" if won else f"{adventure} lost",
        "reason": state.evaluation.sentence() if state.evaluation else "",
        "players": [{"seat": s.seat, "name": s.name, "details": dict(s.details)} for s in result.standings],
    }
