"""What the table must do next (the prompt) and every action the rules allow now (legal actions).

Where the answers are few they are the prompt's choices (labels people read); where they are open
(an attack: any figure of the turn against any opponent's, with what the map says) the prompt names the
task and the view lists what the phone's form offers. Legal actions list every choice, and for open
inputs one action per distinct answer: each attack (with the conditions it needs), each marker layout
(at most MARKER_LAYOUTS of them), each distinct throw of the dice asked for.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from companion.engine import Action, Choice, PlayerId, Prompt, Roll, RollRequest
from companion.games.heroscape import first_turns
from companion.games.heroscape.actions import (
    COMBAT,
    COMBAT_FACES,
    D20,
    D20_FACES,
    AddCard,
    ArmyReady,
    Attack,
    Choose,
    ChooseCard,
    Declare,
    Decline,
    Dispute,
    EndTurn,
    Fall,
    LeaveGlyph,
    LeavingEngagement,
    LoseMarker,
    Moved,
    PlaceMarkers,
    StopOnGlyph,
    UsePower,
)
from companion.games.heroscape.armies import affordable, army_points, own_cards
from companion.games.heroscape.catalog import Catalog, Scenario
from companion.games.heroscape.combat import EXTREME_FALL, MAJOR_FALL
from companion.games.heroscape.common import (
    acting_pool,
    acting_unit,
    figure_label,
    living_figures,
    opponents,
    owned_label,
    unit_label,
    who,
)
from companion.games.heroscape.dice import ADJACENT, adjacency_required
from companion.games.heroscape.disputes import TOPICS, can_start, topics
from companion.games.heroscape.glyphs import nilrend_targets, ored_targets, wannok_victims
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.powers import drain_victims, rebirth_cards, targets, usable_power, works_on
from companion.games.heroscape.rounds import basic_seat, must_place, playing_seats
from companion.games.heroscape.state import D20 as D20Step
from companion.games.heroscape.state import MARKERS, Ask, Contest, PendingAttack, State

MARKER_LAYOUTS = 256
BASIC_FIRST_DICE = 6
"""The Basic Game: each player rolls six combat dice; the most skulls goes first."""


def p(seat: int) -> PlayerId:
    return PlayerId(seat)


def combat_throws(count: int) -> list[tuple[str, ...]]:
    """One throw per distinct count of skulls, shields and blanks."""
    return [tuple(t) for t in itertools.combinations_with_replacement(COMBAT_FACES, count)]


# ------------------------------------------------------------------------------------------ prompt


def prompt(cat: Catalog, state: State, scenario: Scenario, sets: int) -> Prompt | None:
    if state.finished:
        return None
    top = state.top
    if isinstance(top, PendingAttack):
        return _attack_prompt(cat, state, top)
    if isinstance(top, D20Step):
        return Prompt("d20", (p(top.seat),), _d20_text(cat, state, top), roll=RollRequest(D20, 1, D20_FACES))
    if isinstance(top, Ask):
        return _ask_prompt(cat, state, top)
    if isinstance(top, Contest):
        return _contest_prompt(state, top)
    if state.phase == "rolloff" and state.rolloff is not None:
        return _rolloff_prompt(state)
    if state.phase == "draft" and state.draft is not None:
        seat = state.draft.order[state.draft.index]
        return Prompt(
            "draft", (p(seat),), _draft_text(cat, state, seat), _choices(cat, state, scenario, sets)
        )
    if state.phase == "army":
        waiting = tuple(p(s) for s in range(state.seats) if not state.sides[s].ready)
        limit = max(state.limits) if state.limits else 0
        return Prompt(
            "army",
            waiting,
            f"Gather your armies: lay each army card on your army reader (up to {limit} points)",
        )
    if state.phase == "markers":
        return Prompt(
            "order_markers", tuple(p(s) for s in must_place(state)), "Place your order markers on your phones"
        )
    if state.phase == "turns":
        return _turn_prompt(cat, state)
    return None


def _attack_prompt(cat: Catalog, state: State, step: PendingAttack) -> Prompt:
    attacker, defender = FigureId.parse(step.attacker), FigureId.parse(step.defender)
    if step.skulls is None:
        n = step.attack_dice
        what = {
            "attack": f"attack {'die' if n == 1 else 'dice'} for {figure_label(cat, state, attacker)}",
            "leaving": "die for the leaving-engagement attack",
            "fall": f"{'die' if n == 1 else 'dice'} for the fall",
        }[step.kind]
        text = f"{who(state, attacker.seat)}: roll {n} {what}"
        return Prompt("attack_roll", (p(attacker.seat),), text, roll=RollRequest(COMBAT, n, COMBAT_FACES))
    n = step.defense_dice
    dice = "die" if n == 1 else "dice"
    text = f"{who(state, defender.seat)}: roll {n} defense {dice} for {figure_label(cat, state, defender)}"
    return Prompt("defense_roll", (p(defender.seat),), text, roll=RollRequest(COMBAT, n, COMBAT_FACES))


def _d20_text(cat: Catalog, state: State, step: D20Step) -> str:
    name = who(state, step.seat)
    texts = {
        "power": f"roll the d20 for {_power_said(cat, step)}",
        "glyph": f"roll the d20 for the {cat.glyph(step.source).title} "
        f"(it works on {step.threshold} or higher)"
        if cat.has_glyph(step.source)
        else "roll the d20",
        "extreme-fall": "roll the d20 for the extreme fall (19-20 survives)",
        "drink": "roll the d20 to drink from the Waters of Life",
        "flood": f"roll the d20 (the wall of water floods on {step.threshold} or lower)",
        "wannok": "roll the d20 for the Glyph of Wannok",
    }
    return f"{name}: {texts.get(step.purpose, 'roll the d20')}"


def _power_said(cat: Catalog, step: D20Step) -> str:
    """ "Stinger Drain (1-4: a Stinger is destroyed ...; 10 or higher: +1 attack)"."""
    if step.purpose != "power":
        return ""  # the texts are all worked out, only the step's purpose's is said
    card = cat.card(UnitId.parse(step.unit).card)
    power = next((p for p in card.powers if p.id == step.source), None)
    if power is None:
        return f"the power (it works on {step.threshold} or higher)"
    return f"{power.name} ({works_on(power)})"


def _rolloff_prompt(state: State) -> Prompt:
    rolloff = state.rolloff
    assert rolloff is not None
    seat = rolloff.waiting[0]
    if rolloff.purpose == "first":
        return Prompt(
            "rolloff",
            (p(seat),),
            f"Who goes first: {who(state, seat)} rolls six combat dice (the most skulls goes first)",
            roll=RollRequest(COMBAT, BASIC_FIRST_DICE, COMBAT_FACES),
        )
    what = {
        "draft": "who drafts first",
        "initiative": "initiative",
        "hive": "who controls the Marro Hive",
        "placement": "who places first",
    }
    everyone = playing_seats(state) if rolloff.purpose == "initiative" else playing(state)
    again = " again (a tie)" if rolloff.rolls == () and len(rolloff.contenders) < len(everyone) else ""
    text = (
        f"{what.get(rolloff.purpose, rolloff.purpose).capitalize()}: {who(state, seat)} rolls the d20{again}"
    )
    return Prompt("rolloff", (p(seat),), text, roll=RollRequest(D20, 1, D20_FACES))


def _contest_prompt(state: State, contest: Contest) -> Prompt:
    seat = contest.waiting[0]
    other = next(s for s in contest.contenders if s != seat)
    again = " again (a tie)" if contest.again else ""
    text = (
        f"{TOPICS[contest.about]}: {who(state, seat)} rolls the d20{again} against "
        f"{who(state, other)}; the higher roll wins"
    )
    return Prompt("rolloff", (p(seat),), text, roll=RollRequest(D20, 1, D20_FACES))


def playing(state: State) -> list[int]:
    return [s for s in range(state.seats) if not state.sides[s].out]


def _draft_text(cat: Catalog, state: State, seat: int) -> str:
    draft = state.draft
    assert draft is not None
    points = army_points(cat, state.sides[seat])
    cards = "a card" if draft.picks == 1 else f"{draft.picks} cards"
    return f"{who(state, seat)} drafts {cards} ({points} of {state.limits[seat]} points), or passes"


def _ask_prompt(cat: Catalog, state: State, ask: Ask) -> Prompt:
    seat = ask.seat
    name = who(state, seat)
    options = ask_choices(cat, state, ask)
    texts: dict[str, Callable[[], str]] = {
        "hive-mind": lambda: f"Hive Mind: does {name} take a turn with a Marro squad before the Hive?",
        "life-bonding": lambda: (
            f"Hivelord Life Bonding: does {name} take a turn with a Hivelord before the "
            f"{_unit_name(cat, state, ask.subject)}?"
        ),
        "drain-destroy": lambda: f"Stinger Drain: {name}, which of your Stingers is destroyed?",
        "nilrend": lambda: f"Glyph of Nilrend: {name}, choose an opponent's unique card to negate",
        "ored": lambda: f"Glyph of Ored: {name}, take a marker from which opponent's card?",
        "lose-marker": lambda: (
            f"{name}, tell your phone which marker was taken from {_unit_name(cat, state, ask.subject)}"
        ),
        "wannok": lambda: f"Glyph of Wannok: {name}, choose an opponent to wound one of his figures",
        "wannok-wound": lambda: f"Glyph of Wannok: {name}, choose one of your figures to wound",
        "rebirth": lambda: f"Marro Rebirth: {name}, which squad gets a figure back?",
        "rebirth-offer": lambda: f"Marro Rebirth: does {name} roll for a destroyed Marro to return?",
        "drink": lambda: (
            f"Waters of Life: does {name}'s {_figure_name(cat, state, ask.subject)} "
            "end the turn in the water?"
        ),
        "flood": lambda: (
            f"The flood: {name}, which of your figures stand on Level 1 or in water? They are swept away"
        ),
        "siren": lambda: f"The Siren's Call: {name}, wound one of your figures within 7 spaces of the Hive",
        "siren-adjacent": lambda: (
            f"The Siren's Call: did any of {name}'s figures end the turn adjacent to the infected Hive?"
        ),
    }
    text = texts.get(ask.purpose, lambda: f"{name}: choose")()
    return Prompt(ask.purpose, (p(seat),), text, tuple(options))


def _unit_name(cat: Catalog, state: State, text: str) -> str:
    return unit_label(cat, state, UnitId.parse(text)) if text else "a card"


def _figure_name(cat: Catalog, state: State, text: str) -> str:
    return figure_label(cat, state, FigureId.parse(text)) if text else "the figure"


def ask_choices(cat: Catalog, state: State, ask: Ask) -> list[Choice]:
    seat = p(ask.seat)
    decline = Choice("No" if ask.purpose in ("drink", "rebirth-offer") else "Decline", Decline(seat))
    purpose = ask.purpose
    if purpose in first_turns.KINDS:
        own = _unit_name(cat, state, ask.subject)
        out = [
            Choice(
                f"{power.name}: {unit_label(cat, state, uid)} first",
                Choose(seat, first_turns.option(power, uid)),
            )
            for power, uid in first_turns.offers(cat, state)
        ]
        return [*out, Choice(f"No: {own} take their own turn", Decline(seat))]
    if purpose == "drain-destroy":
        return [
            Choice(f"Destroy {figure_label(cat, state, f)}", Choose(seat, f.format()))
            for f in drain_victims(state, ask.seat, ask.subject)
        ]
    if purpose == "nilrend":
        return [
            Choice(f"Negate {who(state, u.seat)}'s {unit_label(cat, state, u)}", Choose(seat, u.format()))
            for u in nilrend_targets(cat, state, ask.seat)
        ] + [decline]
    if purpose == "ored":  # "you may remove": taking none is allowed
        return [
            Choice(f"{who(state, UnitId.parse(u).seat)}'s {_unit_name(cat, state, u)}", Choose(seat, u))
            for u in ored_targets(state, ask.seat)
        ] + [decline]
    if purpose == "wannok":
        return [
            Choice(f"{who(state, o)} wounds a figure", Choose(seat, str(o)))
            for o in wannok_victims(state, ask.seat)
        ] + [decline]
    if purpose == "wannok-wound":
        return [
            Choice(f"Wound {figure_label(cat, state, f)}", Choose(seat, f.format()))
            for f in living_figures(state, ask.seat)
        ]
    if purpose == "rebirth":
        return [
            Choice(f"A {cat.card(c).title} figure", Choose(seat, c))
            for c in rebirth_cards(cat, state, ask.seat)
        ]
    if purpose in ("rebirth-offer", "drink"):
        return [Choice("Yes: roll the d20", Choose(seat, "roll")), decline]
    if purpose == "siren":
        figures = living_figures(state, ask.seat)
        out = [
            Choice(f"Wound {figure_label(cat, state, f)}", Declare(seat, "siren", (f.format(),)))
            for f in figures
        ]
        return [*out, Choice("None within 7 spaces", Declare(seat, "siren", ()))]
    if purpose == "siren-adjacent":
        figures = [f for f in acting_pool(cat, state) if state.figure(f) and state.figure(f).alive]  # type: ignore[union-attr]
        out = [
            Choice(
                f"{figure_label(cat, state, f)} is adjacent", Declare(seat, "siren-adjacent", (f.format(),))
            )
            for f in figures
        ]
        return [Choice("None", Declare(seat, "siren-adjacent", ())), *out]
    if purpose == "flood":
        return [Choice("None of mine", Declare(seat, "flooded", ()))]
    return []


def _turn_prompt(cat: Catalog, state: State) -> Prompt | None:
    turn = state.turn
    if state.basic and turn is None:
        seat = basic_seat(state)
        options = [
            Choice(unit_label(cat, state, uid), ChooseCard(p(seat), uid.format()))
            for uid, unit in state.units_of(seat)
            if unit.alive
        ]
        return Prompt(
            "choose_card",
            (p(seat),),
            f"{who(state, seat)}: choose an army card for this turn",
            tuple(options),
        )
    if turn is None or turn.step in ("ending", "after"):
        return None
    uid = acting_unit(state)
    assert uid is not None
    title = unit_label(cat, state, uid)
    marker = f" {turn.marker + 1}" if turn.marker >= 0 else ""
    step = "move, then attack" if turn.step == "move" else "attack, or end the turn"
    first = first_turns.power_of(cat, state)
    if first is not None:
        step = f"{first.name} turn: {step}"
    text = f"{who(state, turn.seat)}'s turn{marker}, {title}: {step}"
    return Prompt("turn", (p(turn.seat),), text, tuple(turn_choices(cat, state)))


def turn_choices(cat: Catalog, state: State) -> list[Choice]:
    turn = state.turn
    assert turn is not None
    seat = p(turn.seat)
    out = []
    if turn.step == "move" and not state.basic:
        out.append(Choice("Done moving", Moved(seat)))
    uid = acting_unit(state)
    assert uid is not None
    for power in () if state.basic else cat.card(uid.card).powers_of("d20"):
        try:
            usable_power(cat, state, turn.seat, power.id, uid.format())
        except ValueError:
            continue
        if power.params["target"] == "none":
            out.append(Choice(f"{power.name}: roll the d20", UsePower(seat, power.id, uid.format())))
        for aim in targets(cat, state, power):
            label = f"{power.name}: {owned_label(cat, state, aim)}"
            out.append(Choice(label, UsePower(seat, power.id, uid.format(), aim.format())))
    out.extend(_bonding_choices(cat, state))
    out.append(
        Choice(
            "End the turn"
            if turn.first is None
            else f"End this turn, then {_unit_name(cat, state, turn.unit)}",
            EndTurn(seat),
        )
    )
    return out


def _bonding_choices(cat: Catalog, state: State) -> list[Choice]:
    """Hivelord Life Bonding on the Hivelord's turn, before it moves: each Nagrub it may take."""
    turn = state.turn
    power = first_turns.power_of(cat, state)
    if turn is None or power is None or power.kind != "life-bonding":
        return []
    own = UnitId.parse(turn.unit)
    try:
        first_turns.bonding_power(cat, state, own, power.id)
    except ValueError:
        return []
    return [
        Choice(
            f"{power.name}: destroy {figure_label(cat, state, f)} to remove a wound",
            UsePower(p(turn.seat), power.id, turn.unit, f.format()),
        )
        for f in first_turns.bonding_targets(state, turn.seat, own.card)
    ]


def _choices(cat: Catalog, state: State, scenario: Scenario, sets: int) -> tuple[Choice, ...]:
    draft = state.draft
    assert draft is not None
    seat = draft.order[draft.index]
    cards = affordable(cat, state, scenario, seat, sets)
    out = [Choice(f"{cat.card(c).title} ({cat.card(c).points})", AddCard(p(seat), c)) for c in cards]
    if not own_cards(state, scenario, seat):
        return tuple(out)  # an army passes only once it has a card
    return (*out, Choice("Pass: my army is complete", ArmyReady(p(seat))))


# ----------------------------------------------------------------------------------- legal actions


def legal(cat: Catalog, state: State, scenario: Scenario, sets: int) -> list[Action]:
    asked = prompt(cat, state, scenario, sets)
    if asked is None:
        return []
    out: list[Action] = [c.action for c in asked.choices]
    if asked.roll is not None:
        throws = combat_throws(asked.roll.count) if asked.roll.die == COMBAT else [(f,) for f in D20_FACES]
        out.extend(Roll(pl, asked.roll.die, t) for pl in asked.players for t in throws)
    if asked.kind == "army":
        for seat in asked.players:
            out.extend(AddCard(seat, c) for c in affordable(cat, state, scenario, seat, sets))
            if own_cards(state, scenario, seat):
                out.append(ArmyReady(seat))
    elif asked.kind == "order_markers":
        for seat in asked.players:
            out.extend(marker_layouts(state, seat))
    elif asked.kind == "turn":
        out.extend(attacks(cat, state))
    elif asked.kind == "flood" and isinstance(state.top, Ask):
        # The phone ticks the figures the water sweeps away; here each one alone, and all of them.
        mine = [f.format() for f in living_figures(state, state.top.seat)]
        seat = p(state.top.seat)
        out.extend(Declare(seat, "flooded", (f,)) for f in mine)
        out.append(Declare(seat, "flooded", tuple(mine)))
    elif asked.kind == "lose-marker" and isinstance(state.top, Ask):
        # The victim names the marker on their own phone (no public choice would keep it secret).
        out.extend(lost_markers(state, state.top))
    return out


def lost_markers(state: State, ask: Ask) -> list[LoseMarker]:
    """The face-down markers on the card the Glyph of Ored took one from."""
    side = state.sides[ask.seat]
    if side.markers is None:
        return []
    return [
        LoseMarker(p(ask.seat), MARKERS[i])  # type: ignore[arg-type]
        for i in range(4)
        if side.markers[i] == ask.subject and not side.removed[i] and (i == 3 or not side.revealed[i])
    ]


def declarations(cat: Catalog, state: State, scenario: Scenario) -> list[Action]:
    """What players may declare of the map at this moment (roll-offs, falls, leaving-engagement attacks,
    glyphs, a scenario's facts): open inputs with too many answers to list as legal actions, one of each kind
    per figure, for random play to try (the engine still judges each)."""
    out: list[Action] = rolloffs(state)
    turn = state.turn
    if state.finished or state.stack or turn is None:
        return out
    seat = turn.seat
    pool = acting_pool(cat, state)
    if not state.basic and turn.step == "move":
        for fid in pool:
            height = cat.card(fid.unit.card).height
            drops = (0, MAJOR_FALL, EXTREME_FALL)  # a fall, a major fall, an extreme fall
            out.extend(Fall(p(seat), fid.format(), height + extra) for extra in drops)
            out.extend(
                LeavingEngagement(p(enemy.seat), enemy.format(), fid.format())
                for enemy in opponents_figures(state, seat)[:3]
            )
            out.extend(StopOnGlyph(p(seat), fid.format(), glyph.id) for glyph in cat.glyphs)
        for held in state.glyphs:
            if held.holder is not None and FigureId.parse(held.holder).seat == seat:
                out.append(LeaveGlyph(p(seat), held.glyph, ("friend-adjacent",)))
    if scenario.has("exit-zone") and seat == 0:
        out.extend(Declare(p(0), "exited", (fid.format(),)) for fid in pool)
    if scenario.has("zone-control"):
        out.append(Declare(p(0), "zone"))
    if scenario.has("water-spaces"):
        out.append(Declare(p(1), "water"))
    return out


def rolloffs(state: State) -> list[Action]:
    """Every roll-off a player may ask an opponent for now (a Line of Sight dispute, Simultaneous
    Special Powers)."""
    if not can_start(state):
        return []
    return [
        Dispute(p(seat), p(other), about)  # type: ignore[arg-type]
        for seat in playing(state)
        for other in playing(state)
        if opponents(state, seat, other)
        for about in topics(state)
    ]


def marker_layouts(state: State, seat: int) -> list[PlaceMarkers]:
    units = [uid.format() for uid, unit in state.units_of(seat) if unit.alive]
    layouts = itertools.islice(itertools.product(units, repeat=4), MARKER_LAYOUTS)
    return [PlaceMarkers(p(seat), tuple(layout)) for layout in layouts]  # type: ignore[arg-type]


def attacks(cat: Catalog, state: State) -> list[Attack]:
    """Every attack the turn's figures may still make, each with the conditions it needs: what
    ``combat.declare_attack`` accepts, worked out once for the position rather than tried one by one."""
    turn = state.turn
    if turn is None or state.stack or turn.no_attack or turn.step in ("ending", "after"):
        return []
    pool = acting_pool(cat, state)
    if not pool:
        return []
    activated = cat.card(pool[0].unit.card).figures
    distinct = set(turn.attackers)
    used = {fig: (power, n) for fig, power, n in turn.specials}
    defenders = opponents_figures(state, turn.seat)
    adjacent = {d: (ADJACENT,) if adjacency_required(cat, state, d) else () for d in defenders}
    seat = p(turn.seat)
    out = []
    for attacker in pool:
        me = attacker.format()
        if me not in distinct and len(distinct) >= activated:
            continue  # the order marker's figures have all attacked
        if me not in distinct:
            out.extend(Attack(seat, me, d.format(), None, "none", adjacent[d]) for d in defenders)
        unit = state.unit(attacker.unit)
        if state.basic or unit is None or unit.negated:
            continue
        for power in cat.card(attacker.unit.card).powers_of("special-attack"):
            previous = used.get(me)
            if me in distinct and (previous is None or previous[0] != power.id):
                continue  # it made another attack this turn
            count = previous[1] if previous else 0
            sweeping = bool(power.params.get("all_adjacent"))
            if not sweeping and count >= power.number("uses", 1):
                continue
            general = power.params.get("not_general")
            for d in defenders:
                if general and cat.card(d.unit.card).general == general:
                    continue
                if sweeping and (me, d.format()) in turn.struck:
                    continue
                out.append(Attack(seat, me, d.format(), power.id, "none", ()))
    return out


def opponents_figures(state: State, seat: int) -> list[FigureId]:
    return [
        f
        for other in range(state.seats)
        if opponents(state, seat, other)
        for f in living_figures(state, other)
    ]
