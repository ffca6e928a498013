"""What the table must do next (the prompt) and every action the rules allow now (legal actions).

Questions about the map are the whole table's (any phone may answer); an adventurer's own choices (a chaos
hit, the range die, a chaos card, a reaction) are addressed to that adventurer's seat. The throw of an
enemy's dice is the table's (``RollRequest.anyone``): any die, any phone; it is entered for the attacked
adventurer's seat.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from companion.engine import Action, Choice, Prompt, RollRequest
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos import attacks, behaviour, enemy_attacks, ledgers, rounds
from companion.games.shattered_chaos.catalog import COLOURS, Catalog, bonus_text
from companion.games.shattered_chaos.ledgers import count, hero_name, model_name
from companion.games.shattered_chaos.state import (
    ADVENTURERS,
    CAMPAIGN,
    OVER,
    CampaignBox,
    Draw,
    EnemyAttack,
    EnemyTurn,
    GraveyardDraws,
    HeroAttack,
    NamePartner,
    State,
)


def faces_for(cat: Catalog, colours: Iterable[str]) -> tuple[str, ...]:
    """Every face the dice of these colours can show (each once), yellow first."""
    wanted = set(colours)
    return tuple(dict.fromkeys(s for c in COLOURS if c in wanted for s in cat.die(c).symbols))


def throw_of(cat: Catalog, colours: tuple[str, ...], anyone: bool = False) -> RollRequest:
    """A mixed throw of these coloured dice (docs/bundles.md, "Rolls"): the table fills one slot per die
    with a die of its colour (a second yellow is refused with a notice naming what is still missing) and
    the phone draws a row per die. ``anyone``: an enemy's throw, the table's rather than one player's."""
    dice = tuple(act.die_of(c) for c in colours)
    return RollRequest(act.ATTACK_DIE, len(dice), faces_for(cat, colours), dice=dice, anyone=anyone)


def everyone(state: State) -> tuple[int, ...]:
    return tuple(range(state.seats))


def _names(cat: Catalog, state: State, seats: Iterable[int]) -> str:
    listed = [hero_name(cat, state, s) for s in seats]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " or " + listed[-1]


# ------------------------------------------------------------------------------------------ prompt


def prompt(cat: Catalog, state: State) -> Prompt | None:
    if state.phase == OVER:
        return None
    top = state.top
    choices = tuple(Choice(label, action) for label, action in _choices(cat, state))
    if isinstance(top, HeroAttack):
        return _attack_prompt(cat, state, top, choices)
    if isinstance(top, EnemyTurn):
        return Prompt(f"enemy-{top.asking}", everyone(state), _question(cat, state, top), choices)
    if isinstance(top, EnemyAttack):
        return _enemy_attack_prompt(cat, state, top, choices)
    if isinstance(top, Draw):
        name = hero_name(cat, state, top.seat)
        why = {
            "chaos-call": "calls on CHAOS",
            "partner": "was named",
            "graveyard": "draws for a killed enemy",
        }
        text = f"{name} {why[top.reason]}: which chaos card came up, from the stack of their choice?"
        return Prompt("draw", (top.seat,), text, choices)
    if isinstance(top, NamePartner):
        text = f"{hero_name(cat, state, top.seat)}: name another adventurer who may also draw a chaos card"
        return Prompt("partner", (top.seat,), text, choices)
    if isinstance(top, CampaignBox) and state.evaluation is not None:
        where = cat.adventure(state.adventure).compartment
        text = (
            f"Draw {state.evaluation.draw} chaos cards from the campaign box ({where}), keep "
            f"{state.evaluation.keep}: enter the silver and gold cards kept ({top.kept} of {top.keep}), "
            "then close the box"
        )
        return Prompt("campaign", everyone(state), text, choices)
    if isinstance(top, GraveyardDraws):
        return Prompt("chaos-phase", everyone(state), "The chaos phase", choices)
    acting = tuple(s for s, h in enumerate(state.party) if h.actions)
    left = sum(h.actions for h in state.party)
    text = (
        f"Round {state.round}, adventurer phase: act in any order "
        f"({count(left, 'action token', 'action tokens')} left)"
    )
    return Prompt("adventurers", acting, text, choices)


def _attack_prompt(cat: Catalog, state: State, top: HeroAttack, choices: tuple[Choice, ...]) -> Prompt:
    name, target = hero_name(cat, state, top.seat), model_name(cat, top.model)
    if top.stage == "throw":
        away = count(top.distance, "space", "spaces")
        text = f"{name} throws the yellow, red and blue dice at {target} ({away})"
        return Prompt("throw", (top.seat,), text, roll=throw_of(cat, COLOURS))
    if top.stage == "rethrow":
        text = f"{name} throws {' + '.join(top.rethrow)} again (chaos hit)"
        return Prompt("rethrow", (top.seat,), text, roll=throw_of(cat, top.rethrow))
    if top.stage == "chaos-hit":
        text = f"{name}: throw dice again with a chaos hit? ({attacks.faces_text(cat, top.faces)})"
        return Prompt("chaos-hit", (top.seat,), text, choices)
    away = count(top.distance, "space", "spaces")
    text = f"{name}: which die is the range, for {away}? ({attacks.faces_text(cat, top.faces)})"
    return Prompt("resolve", (top.seat,), text, choices)


def _question(cat: Catalog, state: State, top: EnemyTurn) -> str:
    name = model_name(cat, top.model)
    action = behaviour.current_action(cat, state, top)
    assert action is not None
    who = _names(cat, state, top.candidates)
    spaces = count(action.range, "space", "spaces")
    if (
        top.row >= 0
        and top.column > 0
        and not behaviour.rows(cat, state, top)[top.row][top.column - 1].attacks
    ):
        name = f"When it has moved, {name}"
    if top.asking == "sight":
        return f"{name} would {action.describe()}: which of {who} does it see within {spaces}?"
    if top.asking == "within":
        return f"{name} would {action.describe()}: which of {who} stand within {spaces} of it?"
    if top.asking == "reach":
        return (
            f"{name} would charge ({action.steps} steps): which of {who} does it see and can it reach, to "
            "stand next to them?"
        )
    if top.asking == "closest":
        return f"{name} would {action.kind}: which adventurer is closest to it by steps? (a tie: your choice)"
    if top.asking == "nearest":
        return f"{name}: which of {who} is closest to it by steps?"
    chaos = behaviour.chaos_of(cat, state, top.candidates[0])
    return f"{who} have the same chaos ({chaos}): whom does {name} {action.kind}? (the rules leave it to you)"


def _enemy_attack_prompt(cat: Catalog, state: State, top: EnemyAttack, choices: tuple[Choice, ...]) -> Prompt:
    name, target = model_name(cat, top.model), hero_name(cat, state, top.seat)
    if top.stage == "armour":
        text = f"{name} attacks {target}: discard chaos cards for armour before the throw?"
        return Prompt("armour", (top.seat,), text, choices)
    if top.stage == "throw":
        text = f"Throw {' + '.join(top.dice)} for {name}'s attack on {target}"
        return Prompt("enemy-throw", (top.seat,), text, roll=throw_of(cat, top.dice, anyone=True))
    if top.stage == "redirect":
        text = f"{target} is a shadow: which adventurer suffers the {top.damage} damage?"
        return Prompt("redirect", everyone(state), text, choices)
    return Prompt("react", (top.seat,), f"{target} may react: attack {name}, or not", choices)


# ------------------------------------------------------------------------------------------ choices


def _choices(cat: Catalog, state: State) -> list[tuple[str, Action]]:
    top = state.top
    if isinstance(top, HeroAttack):
        return _attack_choices(cat, state, top)
    if isinstance(top, EnemyTurn):
        return _turn_choices(cat, state, top)
    if isinstance(top, EnemyAttack):
        return _enemy_attack_choices(cat, state, top)
    if isinstance(top, Draw):
        return [*draw_choices(cat, state, top.seat), ("Draw no chaos card", act.DeclineDraw(top.seat))]
    if isinstance(top, NamePartner):
        others = [s for s in everyone(state) if s != top.seat and rounds.can_draw(cat, state, s)]
        named = [(hero_name(cat, state, s), act.Partner(top.seat, s)) for s in others]
        return [*named, ("Nobody", act.Partner(top.seat, None))]
    if isinstance(top, CampaignBox):
        return [("Close the campaign box", act.CloseCampaign())]
    if top is None and state.phase == ADVENTURERS:
        out: list[tuple[str, Action]] = []
        for seat, hero in enumerate(state.party):
            if hero.actions:
                name = hero_name(cat, state, seat)
                out += [
                    (f"{name} moves", act.Move(seat)),
                    (f"{name} interacts", act.Interact(seat)),
                    (f"{name} calls on CHAOS", act.ChaosCall(seat)),
                ]
        return out
    return []


def _subsets(items: tuple[str, ...], most: int) -> list[tuple[str, ...]]:
    return [c for n in range(min(most, len(items)) + 1) for c in itertools.combinations(items, n)]


def _attack_choices(cat: Catalog, state: State, top: HeroAttack) -> list[tuple[str, Action]]:
    if top.stage == "chaos-hit":
        most = min(state.party[top.seat].chaos, cat.rules.chaos_hit_dice)
        out: list[tuple[str, Action]] = [("Keep the throw", act.ChaosHit(top.seat, ()))]
        for dice in _subsets(COLOURS, most)[1:]:
            out.append(
                (
                    f"Throw {' + '.join(dice)} again ({count(len(dice), 'chaos token', 'chaos tokens')})",
                    act.ChaosHit(top.seat, dice),
                )
            )
        return out
    if top.stage == "resolve":
        return [
            (attacks.describe(cat, o), act.Resolve(top.seat, o.range_die, o.vortices))
            for o in attacks.outcomes(cat, state, top)
        ]
    return []


def _turn_choices(cat: Catalog, state: State, top: EnemyTurn) -> list[tuple[str, Action]]:
    if top.asking in ("sight", "reach", "within"):
        out: list[tuple[str, Action]] = []
        for seats in itertools.chain.from_iterable(
            itertools.combinations(top.candidates, n) for n in range(len(top.candidates) + 1)
        ):
            label = "None of them" if not seats else " and ".join(hero_name(cat, state, s) for s in seats)
            out.append((label, act.Sighted(top.model, seats)))
        return out
    if top.asking in ("closest", "nearest"):
        return [(hero_name(cat, state, s), act.Closest(top.model, s)) for s in top.candidates]
    if top.asking == "tie":
        return [(hero_name(cat, state, s), act.Target(top.model, s)) for s in top.candidates]
    return []


def _enemy_attack_choices(cat: Catalog, state: State, top: EnemyAttack) -> list[tuple[str, Action]]:
    if top.stage == "armour":
        held = enemy_attacks.armour_cards(cat, state, top.seat)
        out: list[tuple[str, Action]] = [("No chaos card", act.ArmourCards(top.seat, ()))]
        for cards in _subsets(held, len(held))[1:]:
            label = " + ".join(cat.card(c).title for c in cards)
            out.append((label, act.ArmourCards(top.seat, cards)))
        return out
    if top.stage == "redirect":
        return [(hero_name(cat, state, s), act.Redirect(s)) for s in state.living() if s != top.seat]
    if top.stage == "react":
        target = model_name(cat, top.model)
        out = [
            (f"Attack {target}, {count(d, 'space', 'spaces')} away", act.Attack(top.seat, top.model, d))
            for d in range(1, max(1, top.reach) + 1)
        ]
        return [*out, ("No reaction", act.DeclineReaction(top.seat))]
    return []


def draw_choices(cat: Catalog, state: State, seat: int) -> list[tuple[str, Action]]:
    """One choice per kind of card still in the stacks (cards alike are alike to draw)."""
    out: list[tuple[str, Action]] = []
    for stack, cards in state.stacks:
        kinds: dict[tuple[str, str, int], list[str]] = {}
        for card_id in cards:
            card = cat.card(card_id)
            kinds.setdefault((card.value, card.bonus, card.amount), []).append(card_id)
        for (value, bonus, amount), ids in kinds.items():
            label = f"{stack.title()}: {value} {bonus_text(bonus, amount)} ({len(ids)} left)"
            out.append((label, act.DrawCard(seat, ids[0])))
    return out


# ------------------------------------------------------------------------------------------ legal


def legal(cat: Catalog, state: State) -> list[Action]:
    """Every action the rules allow now: the answers to the question waiting, the declarations open, the
    discards and the narrator's entries (open inputs such as the attack distance within reach)."""
    if state.phase == OVER:
        return []
    top = state.top
    if state.phase == CAMPAIGN:
        out: list[Action] = [act.CloseCampaign()]
        if isinstance(top, CampaignBox) and top.kept < top.keep:
            out += [act.KeepCard(f"{v}{c.number}") for c in cat.bronze() for v in "sg"]
        for seat, hero in enumerate(state.party):
            held = set(hero.talents) | set(state.campaign.talents_of(hero.card))
            out += [act.GainTalent(seat, t.id) for t in cat.talents if t.id not in held]
        return out
    out = [a for _, a in _choices(cat, state)]
    if isinstance(top, HeroAttack) and top.stage in ("throw", "rethrow"):
        out += _throws(cat, top.seat, COLOURS if top.stage == "throw" else top.rethrow)
    if isinstance(top, EnemyAttack) and top.stage == "throw":
        out += _throws(cat, top.seat, top.dice)
    if isinstance(top, Draw):
        out += [
            act.DrawCard(top.seat, c)
            for _, cards in state.stacks
            for c in cards
            if rounds.can_draw(cat, state, top.seat)
        ]
    if top is None and state.phase == ADVENTURERS:
        out += _declarations(cat, state)
    for seat, hero in enumerate(state.party):
        out += [act.DiscardCard(seat, card) for card in hero.cards]
        if rounds.may_attack_next(state, seat):
            out += [act.LayCard(seat, c) for c in hero.cards if cat.card(c).for_attack and c not in hero.laid]
    out += _narrator(cat, state)
    return list(dict.fromkeys(out))


def _throws(cat: Catalog, seat: int, colours: tuple[str, ...]) -> list[Action]:
    """Every distinct throw of these dice."""
    per_die = [cat.die(c).symbols for c in colours]
    return [act.Roll(seat, act.ATTACK_DIE, faces) for faces in dict.fromkeys(itertools.product(*per_die))]


def _declarations(cat: Catalog, state: State) -> list[Action]:
    out: list[Action] = []
    top_eyes = max(f.eyes for c in COLOURS for f in cat.die(c).faces)
    for seat, hero in enumerate(state.party):
        if hero.actions:
            attack_cards = tuple(c for c in hero.cards if cat.card(c).for_attack)
            reach = (
                top_eyes
                + ledgers.talent_bonus(cat, hero, "range")
                + ledgers.card_bonus(cat, attack_cards, "range")
            )
            for model in state.models:
                for cards in _subsets(attack_cards, len(attack_cards)):
                    for destruction in (False, True) if hero.destruction else (False,):
                        out += [
                            act.Attack(seat, model.number, d, cards, destruction) for d in range(1, reach + 1)
                        ]
            if ledgers.may_use_skill(cat, state, hero, "chaos-step"):
                most = min(hero.chaos, cat.rules.chaos_steps - hero.chaos_steps)
                out += [act.ChaosStep(seat, n) for n in range(1, most + 1)]
            if ledgers.talent_bonus(cat, hero, "step") and not hero.stepped:
                out.append(act.TalentStep(seat))
            out += [act.StepCard(seat, c) for c in hero.cards if cat.card(c).bonus == "step"]
        room = 0 if hero.shadow else min(cat.rules.ledger_tokens - hero.chaos, state.map_chaos)
        out += [act.PickUp(seat, n) for n in range(1, room + 1)]
        if (
            ledgers.may_use_skill(cat, state, hero, "destroy")
            and not hero.destruction
            and hero.chaos >= cat.rules.destroy_cost
        ):
            out.append(act.Destroy(seat))
    return out


def _narrator(cat: Catalog, state: State) -> list[Action]:
    """The narrator's entries and corrections the table may make at any moment of the adventure."""
    buried = {n for _, n in state.graveyard}
    out: list[Action] = []
    for enemy in cat.enemies:
        for number in (*enemy.models, *enemy.elite_models):
            if state.model(number) is None and number not in buried:
                out.append(act.PlaceEnemy(number))
    for model in state.models:
        out += [act.RemoveEnemy(model.number), act.SetLives(model.number, 0)]
    out += [act.PlaceChaos(1), act.EndAdventure("won"), act.EndAdventure("lost")]
    out += [act.ReadNarrator(cards[0]) for _, cards in state.narrator if cards]
    return out
