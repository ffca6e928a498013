"""What the table must do next (the prompt), with its choices or dice, for every moment of the game.

Where the answers are few they are the prompt's choices; where they are open (what was drawn from the tribe
cup, a levy, a move, the damage's assignment) the prompt names the task and the phone's form offers the
answers (the view and the private view list them).
"""

from __future__ import annotations

from companion.engine import Choice, PlayerId, Prompt, RollRequest
from companion.games.orcwars_too import flow
from companion.games.orcwars_too.actions import (
    GOLD,
    AnswerTrade,
    AssignDamage,
    Choose,
    ChooseStrategy,
    Done,
    DrawGold,
)
from companion.games.orcwars_too.aftermath import automatic_allocation, automatic_survivor
from companion.games.orcwars_too.battle import Need, describe, strategy_options
from companion.games.orcwars_too.common import by_identity, plural, who
from companion.games.orcwars_too.counters import STRATEGY_NAMES, GameData
from companion.games.orcwars_too.economy import ARMY, HAND, SETUP_HAND, TREASURY
from companion.games.orcwars_too.state import (
    CAMPAIGN,
    DISCARD,
    RAMPAGE,
    REINFORCE,
    ROLLOFF,
    SETUP,
    STEP_NAMES,
    TRADING,
    TURN,
    State,
    Step,
)
from companion.games.orcwars_too.turns import draws_owed, unit_count

DIE_FACES = {
    die: tuple(str(n) for n in range(1, int(die[1:]) + 1)) for die in ("d3", "d6", "d8", "d10", "d12", "d20")
}


def p(seat: int) -> PlayerId:
    return PlayerId(seat)


def roll(die: str) -> RollRequest:
    return RollRequest(die, 1, DIE_FACES[die])


@by_identity()
def prompt(data: GameData, state: State) -> Prompt | None:
    if state.finished:
        return None
    top = state.top
    if top is not None:
        return _step_prompt(data, state, top)
    need = flow.battle_need(data, state)
    if need is not None:
        return _battle_prompt(data, state, need)
    if state.phase == SETUP:
        waiting = tuple(p(s) for s in range(state.seats) if state.setups[s].stage != "ready")
        low, high = data.rules.bosses
        return Prompt(
            "setup",
            waiting,
            f"Setup: take {low}-{high} bosses, draw to {data.rules.setup_units} chips, "
            "trade units for gold if you "
            "like, then say you are ready",
            tuple(
                Choice(f"{who(state, s)} is ready", Done(s)) for s in waiting if _may_be_ready(data, state, s)
            ),
        )
    if state.phase == ROLLOFF and state.rolloff is not None:
        waiting = state.rolloff.waiting
        rollers = " and ".join(who(state, s) for s in waiting)
        what = "who goes first" if state.rolloff.purpose == "start" else "who goes first this turn"
        text = (
            f"{rollers}: roll a d6 each for {what}"
            if len(waiting) > 1
            else f"{rollers}: roll a d6 for {what}"
        )
        return Prompt("rolloff", tuple(p(s) for s in waiting), text, roll=roll("d6"))
    if state.phase == TURN:
        return _turn_prompt(data, state)
    return None


def _may_be_ready(data: GameData, state: State, seat: int) -> bool:
    return state.setups[seat].stage in ("draw", "trade") and not draws_owed(data, state, seat)


def _turn_prompt(data: GameData, state: State) -> Prompt | None:
    if state.step == TRADING:
        if state.offer is not None:
            offer = state.offer
            text = f"{who(state, offer.partner)}: accept {who(state, offer.seat)}'s offer? (see your phone)"
            choices = tuple(
                Choice(label, AnswerTrade(p(offer.partner), yes))
                for label, yes in (("Accept", True), ("Decline", False))
            )
            return Prompt("answer_trade", (p(offer.partner),), text, choices)
        waiting = tuple(p(s) for s in range(state.seats) if s not in state.traded)
        text = "Trading: chiefs with leaders side by side may trade hands and gold; say when you are done"
        return Prompt(
            "trading",
            waiting,
            text,
            tuple(Choice(f"{who(state, s)} is done trading", Done(s)) for s in waiting),
        )
    turn = state.current
    if turn is None:
        return None
    seat, name = turn.seat, who(state, turn.seat)
    done = (Choice("Done", Done(p(seat))),)
    if turn.step == REINFORCE:
        if draws_owed(data, state, seat):
            return Prompt(
                "reinforce",
                (p(seat),),
                f"{name}: draw {plural(draws_owed(data, state, seat), 'free reinforcement')} "
                "from the tribe cup",
            )
        more = data.rules.extra_draws - turn.bought
        text = f"{name}: buy up to {more} more units ({data.rules.extra_cost} gold each), or go on"
        return Prompt("buy", (p(seat),), text, done)
    if turn.step == CAMPAIGN:
        return Prompt(
            "campaign",
            (p(seat),),
            f"{name}: {STEP_NAMES[CAMPAIGN].lower()}; done when your leaders are",
            done,
        )
    if turn.step == RAMPAGE:
        return Prompt(
            "rampage", (p(seat),), f"{name}: {STEP_NAMES[RAMPAGE].lower()}; done when finished", done
        )
    if turn.step == DISCARD:
        over = unit_count(data, state.hands[seat]) - data.rules.hand_limit
        return Prompt(
            "discard", (p(seat),), f"{name}: discard {plural(over, 'unit')} down to {data.rules.hand_limit}"
        )
    return None


# --------------------------------------------------------------------------------------------- steps


def _step_prompt(data: GameData, state: State, step: Step) -> Prompt:
    seat, name = step.seat, who(state, step.seat)
    leader = data.name(step.leader) if step.leader else ""
    if step.purpose == "gold":
        where = {
            HAND: "for the hand",
            SETUP_HAND: "for the hand (a caravan goes on the board)",
            ARMY: f"for {leader}'s army",
            TREASURY: f"for the {data.name(step.subject)}'s treasury",
        }[step.options[0]]
        text = f"{name}: draw {plural(step.count, 'gold chip')} from the gold pile {where}"
        return Prompt("draw_gold", (p(seat),), text, _gold_choices(data, state, seat))
    if step.purpose == "draw":
        owed = draws_owed(data, state, seat)
        return Prompt("draw", (p(seat),), f"{name}: draw {plural(owed, 'chip')} from the tribe cup")
    if step.purpose == "check":
        arriving = data.name(step.options[0]) if step.options else "the newcomer"
        what = {
            "levy": "to levy units not native to him",
            "claim": "to claim the troops left behind",
            "keep": f"to keep troops native to {arriving}",
            "rampage-leader": "to rampage for gold",
            "rampage-army": "to keep his army's gold",
        }[step.subject]
        die = data.rules.authority_die
        text = f"{name}: authority check for {leader} {what}: roll {die}, {step.target} or less"
        return Prompt("check", (p(seat),), text, roll=roll(data.rules.authority_die))
    if step.purpose == "runaway":
        choices = tuple(Choice(data.name(u), Choose(p(seat), u)) for u in step.options)
        return Prompt(
            "choose",
            (p(seat),),
            f"{name}: draw one of {leader}'s units at random: it runs home with the gold",
            choices,
        )
    if step.purpose == "caravan-power":
        again = " again (power is the roll - 1)" if step.rolls else ""
        return Prompt(
            "roll",
            (p(seat),),
            f"{name}: roll a d6{again} for the {data.name(step.subject)}'s power",
            roll=roll("d6"),
        )
    if step.purpose == "underground":
        text = f"{name}: roll the d20 for where {leader}'s army comes up" + (
            "" if step.count else " (no reroll)"
        )
        return Prompt("roll", (p(seat),), text, roll=roll("d20"))
    if step.purpose == "pass-check":
        die = data.rules.survivability_die
        return Prompt(
            "roll",
            (p(seat),),
            f"{name}: {leader} slips through on {die} {step.target} or less",
            roll=roll(die),
        )
    texts = {
        "surface": f"{name}: {leader}'s army comes up in {data.board.name(step.territory)}: "
        "keep it, or roll again once?",
        "pass": f"{name}: let {leader} pass through {data.board.name(step.territory)}?",
        "pass-attack": f"{name}: {leader} is caught in {data.board.name(step.territory)}: attack him?",
        "engage": f"{name}: {leader} meets enemies in {data.board.name(step.territory)}: fight?",
        "engage-enemy": f"{name}: {leader} enters {data.board.name(step.territory)}: do you want the battle?",
    }
    labels = {
        "keep": "Keep this place",
        "reroll": "Roll again",
        "allow": "Let him pass",
        "refuse": "Refuse",
        "attack": "Attack him",
        "let pass": "Let him go",
        "fight": "Fight",
        "no battle": "No battle",
    }
    choices = tuple(Choice(labels.get(o, _target_label(state, o)), Choose(p(seat), o)) for o in step.options)
    return Prompt("choose", (p(seat),), texts[step.purpose], choices)


def _target_label(state: State, option: str) -> str:
    if option.startswith("seat:"):
        return f"Attack {who(state, int(option[5:]))}"
    return option


def _gold_choices(data: GameData, state: State, seat: int) -> tuple[Choice, ...]:
    out = [Choice("Gold", DrawGold(p(seat), GOLD))] if state.gold_pile else []
    out += [Choice(f"Caravan: {data.name(c)}", DrawGold(p(seat), c)) for c in state.caravan_pile]
    return tuple(out)


# -------------------------------------------------------------------------------------------- battle


def _battle_prompt(data: GameData, state: State, need: Need) -> Prompt:
    fight = state.battle
    assert fight is not None
    seats = tuple(p(s) for s in need.seats)
    side = fight.side(need.side) if need.side else None
    label = describe(data, state, side) if side is not None else ""
    if need.kind == "strategy":
        choices = []
        for seat in need.seats:
            name = "defender" if fight.defender.owner == seat and fight.attacker.owner != seat else "attacker"
            for option in strategy_options(fight.side(name), name == "defender"):
                choices.append(
                    Choice(f"{who(state, seat)}: {STRATEGY_NAMES[option]}", ChooseStrategy(p(seat), option))
                )  # type: ignore[arg-type]
        waiting = " and ".join(who(state, s) for s in need.seats)
        return Prompt(
            "strategy", seats, f"{waiting}: choose your strategy in secret on your phone", tuple(choices)
        )
    if need.die:
        return Prompt("roll", seats, _rolls_text(data, state, need), roll=roll(need.die))
    if need.kind == "assign":
        parts = need.parts or (need,)
        damage = " and ".join(f"{who(state, part.seats[0])} {part.target}" for part in parts)
        text = f"Assign the damage your side took ({damage}; no unit more than its power)"
        if len(parts) == 1:
            text = f"{who(state, need.seats[0])}: assign the {need.target} damage your side took "
            text += "(no unit more than its power)"
        choices = tuple(choice for part in parts for choice in _assign_choices(data, part))
        return Prompt("assign", seats, text, choices)
    texts = {
        "biggest": f"{who(state, need.seats[0])}: your biggest units tie; which race counts?",
        "loser": "Which side retreats? (the table decides)",
        "retreat": f"{label}: retreat to which free territory?",
        "escape": f"{data.name(need.subject)} escaped: to which free territory?",
    }
    choices = tuple(
        Choice(_option_label(data, o), Choose(seats[0] if seats else p(0), o)) for o in need.options
    )
    return Prompt("choose", seats, texts[need.kind], choices)


def _option_label(data: GameData, option: str) -> str:
    if option in data.board:
        return data.board.name(option)
    return {"none": "No free territory borders", "attacker": "The attacker", "defender": "The defender"}.get(
        option, option.capitalize()
    )


def _rolls_text(data: GameData, state: State, need: Need) -> str:
    """One roll's sentence; several thrown together each with who throws it."""
    fight = state.battle
    assert fight is not None
    if not need.parts:  # a sentence of its own: "The rebels: roll a d6", not "the rebels"
        text = _roll_text(
            data, state, need, describe(data, state, fight.side(need.side)) if need.side else ""
        )
        return text[:1].upper() + text[1:]
    said = []
    for part in need.parts:
        roller = who(state, part.seats[0])
        text = _roll_text(
            data, state, part, describe(data, state, fight.side(part.side)) if part.side else ""
        )
        said.append(text if text.startswith(roller) else f"{roller}: {text}")
    return "Together: " + "; ".join(said)


def _roll_text(data: GameData, state: State, need: Need, label: str) -> str:
    subject = data.name(need.subject) if need.subject else ""
    texts = {
        "caravan-strategy": f"Roll the d3 for {label}'s strategy (1 charge, 2 careful, 3 clever)",
        "authority": f"{label}: leadership check, roll {need.die}, {need.target} or less (8 always fails)",
        "strategy-roll": f"{label}: roll a d6 for the real strategy"
        + (f" ({need.target:+d})" if need.target else "")
        + ": 3 or less charge, 4-5 careful, 6+ clever",
        "stupidity": f"{subject}: roll a d6 for troll stupidity ({need.target} or less: stupid)",
        "surrender": f"{label}: the damage exceeds its power: "
        f"roll a d6 (1-{need.target}: the troops surrender)",
        "survival": f"{subject} rolls to survive: d6 {need.target} or less",
        "fate": f"{subject} is destroyed: survivability, roll {need.die}, {need.target} or less to escape",
        "caves": f"{label} flees the fortress into the caves: roll the d20 (no reroll)",
        "regeneration": f"{subject}: roll a d6, {need.target}+ regenerates",
        "trolls": f"{subject}: authority check to take the trolls, {need.die} {need.target} or less",
    }
    return texts[need.kind]


def _assign_choices(data: GameData, need: Need) -> tuple[Choice, ...]:
    """Two ready-made assignments for a phone without the form: strongest first and weakest first."""
    seat = p(need.seats[0])
    weakest = sorted(need.options, key=lambda u: (data.counter(u).power, u))
    out = []
    for label, shares in (
        ("Strongest first", automatic_allocation(data, need.options, need.target)),
        ("Weakest first", _in_order(data, weakest, need.target)),
    ):
        out.append(
            Choice(label, AssignDamage(seat, tuple(sorted(shares.items())), automatic_survivor(data, shares)))
        )
    return tuple(out)


def _in_order(data: GameData, units: list[str], amount: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for unit in units:
        if amount <= 0:
            break
        share = min(amount, data.counter(unit).power)
        out[unit] = share
        amount -= share
    return out
