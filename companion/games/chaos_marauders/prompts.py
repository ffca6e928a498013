"""What the table must do next: the prompt for the top step, and every legal answer as data.

Open inputs are not enumerated: a draw is listed once per card title still in the pile, a card laid
straight on a reader (Place instead of Draw) is the same draw, and Bilge's reorganisation is a whole
layout. Several Cube faces in one Roll are accepted where several rolls are due, but listed as one.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from companion.engine import Action, Choice, DicePolicy, Prompt, Roll, RollRequest
from companion.games.chaos_marauders.actions import (
    CUBE,
    EYE,
    FACES,
    MARK,
    Attack,
    Blast,
    Decline,
    Discard,
    Draw,
    ForceDiscard,
    MakeRoom,
    Pick,
    Place,
    Shout,
)
from companion.games.chaos_marauders.catalog import Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.flow import must_place
from companion.games.chaos_marauders.make_room import room_spots
from companion.games.chaos_marauders.placement import gits_wait, needs_near, open_slots, tribe_full
from companion.games.chaos_marauders.specials_picks import shout_refusal
from companion.games.chaos_marauders.state import (
    SLOTS,
    AttackOffer,
    AttackRoll,
    BilgeChoice,
    BlowbackTarget,
    BlueRolls,
    CardChoice,
    GreenRoll,
    IdolRolls,
    OdluggEats,
    OdluggRolls,
    PlaceStep,
    State,
)
from companion.games.chaos_marauders.targets import (
    attack_targets,
    blast_targets,
    git_spots,
    steal_targets,
    stick_targets,
    take_targets,
)

# Enum members as module constants: a class attribute lookup on an Enum is slow on the hot path.
_ABILITY_CHAOS_MARAUDERS = Ability.CHAOS_MARAUDERS
_ABILITY_IDOL = Ability.IDOL
_ABILITY_SNEAKY_GIT = Ability.SNEAKY_GIT

ONE_ROLL = RollRequest(CUBE, 1, FACES, DicePolicy.ONE_BY_ONE)
"""One Cube at the table: every roll is a throw of its own (the Idol's six are six throws)."""


# Actions are immutable values: the few thousand distinct ones are built once and reused, because
# constructing frozen dataclasses was the largest cost of listing legal actions.
@functools.cache
def rolls(seat: int) -> tuple[Action, ...]:
    """``seat``'s two one-roll answers: an Orcish Eye, a Mark of Chaos."""
    return (Roll(seat, CUBE, (EYE,)), Roll(seat, CUBE, (MARK,)))  # type: ignore[arg-type]


@functools.cache
def _decline(seat: int) -> Decline:
    return Decline(seat)  # type: ignore[arg-type]


@functools.cache
def _discard(seat: int, card: str) -> Discard:
    return Discard(seat, card)  # type: ignore[arg-type]


@functools.cache
def _make_room(seat: int, line: int, slot: int) -> MakeRoom:
    return MakeRoom(seat, line, slot)  # type: ignore[arg-type]


@functools.cache
def _pick(player: int, target: int, line: int, slot: int) -> Pick:
    return Pick(player, target, line, slot)  # type: ignore[arg-type]


@functools.cache
def _shouts(seats: int, active: int) -> tuple[Shout, ...]:
    return tuple(Shout(seat) for seat in range(seats) if seat != active)  # type: ignore[arg-type]


@functools.cache
def draw_action(seat: int, card: str) -> Draw:
    return Draw(seat, card)  # type: ignore[arg-type]


@functools.cache
def _places(seat: int, card: str, line: int, target: int | None) -> tuple[Place, ...]:
    """The twelve placements of ``card`` on one line, indexed by slot."""
    return tuple(Place(seat, card, line, slot, target) for slot in range(SLOTS))  # type: ignore[arg-type]


def legal(f: Facts, state: State) -> list[Action]:
    if state.finished:
        return []
    top = state.top
    out: list[Action] = []
    if top is None:
        active = state.active
        out = [draw_action(active, card) for card, n in zip(f.ids, state.pile, strict=True) if n]
    elif isinstance(top, PlaceStep):
        out = place_options(f, state, top)
    elif isinstance(top, AttackOffer):
        out = [
            Attack(top.player, top.line, q, m)
            for q, m in attack_targets(f, state, top.player, top.line, top.bilge)
        ]  # type: ignore[arg-type]
        out.append(_decline(top.player))
    elif isinstance(top, CardChoice):
        out = [_pick(top.player, *spot) for spot in _choice_spots(f, state, top)]
        out.append(_decline(top.player))
    elif isinstance(top, BlowbackTarget):
        out = [Blast(top.player, q, m) for q, m in blast_targets(f, state, top.player)]  # type: ignore[arg-type]
        out.append(_decline(top.player))
    elif isinstance(top, BilgeChoice):
        out = [
            Attack(top.player, top.line, q, m)
            for q, m in attack_targets(f, state, top.player, top.line, True)
        ]  # type: ignore[arg-type]
        out.append(_decline(top.player))
    elif isinstance(top, OdluggRolls):
        for seat, face in enumerate(top.faces):
            if not face:
                out.extend(rolls(seat))
    else:
        out = list(rolls(top.player))
    if state.first_to_complete is None:
        out.extend(_interjections(f, state))
    return out


def _interjections(f: Facts, state: State) -> list[Action]:
    """Shouts and Sneaky Git threats: answers from players other than the one the prompt names."""
    out: list[Action] = []
    if shout_refusal(f, state) is None:
        out.extend(_shouts(state.seats, state.active))
    out.extend(_forced_discards(state))
    return out


def _forced_discards(state: State) -> list[ForceDiscard]:
    """Each Git owner's forced discard of the active player's just-drawn card."""
    if state.fresh is None:
        return []
    active = state.active
    return [ForceDiscard(o, li, s) for seat, li, s, o in state.markers if seat == active]  # type: ignore[arg-type]


def may_interject(f: Facts, state: State) -> bool:
    """Does :func:`legal` list any interjection (a shout, a forced discard) now?"""
    return shout_refusal(f, state) is None or bool(_forced_discards(state))


def place_options(f: Facts, state: State, top: PlaceStep) -> list[Action]:
    """The placing player's own answers to a PlaceStep: placements, discards, a Git's assassination."""
    seat = top.player
    if len(top.cards) == 1 and not reaches_opponents(f, top.cards[0].card, top.source):
        return _own_options(f, state, top, top.cards[0].card)
    cards = [p.card for p in top.cards if not gits_wait(f, top, p.card)]
    out: list[Action] = []
    for card in dict.fromkeys(cards):
        ability = f.ability[card]
        drawn = top.source == "draw"
        opponents = [q for q in range(state.seats) if q != seat]
        if drawn and ability == _ABILITY_SNEAKY_GIT:
            targets = opponents
        elif ability == _ABILITY_IDOL:
            targets = [seat, *opponents]
        else:
            targets = [seat]
        lines = _asked_lines(f, state, top, card, targets)
        placeable = False
        for target in targets:
            board = state.boards[target]
            if tribe_full(f, board, card):
                continue
            near = needs_near(f, card, seat, target)
            for li in lines:
                slots = open_slots(f, board[li], card, near)
                if slots:
                    placeable = True
                    row = _places(seat, card, li, None if target == seat else target)
                    out.extend([row[s] for s in slots])
        if not (placeable and must_place(f, state, top, card)):
            out.extend(_no_slot_options(f, state, top, card, placeable))
        if drawn and ability == _ABILITY_SNEAKY_GIT:
            out.extend(_pick(seat, seat, li, s) for li, s in git_spots(f, state, seat))
    # Two machine cards may need the same room made; every other answer is listed once already
    # (one card title at a time), so only those are deduplicated.
    if sum(1 for a in out if type(a) is MakeRoom) > 1:
        return list(dict.fromkeys(out))
    return out


def _asked_lines(
    f: Facts, state: State, top: PlaceStep, card: str, targets: Sequence[int]
) -> tuple[int, ...]:
    """The lines a "which slot?" question offers for ``card``: the line whose reader the card was laid
    on, or all three when that line takes no card of the step's ``card`` (a crew's machine cards
    waiting with it), so a card that must be placed is never offered only its discard."""
    hint = top.hint_line
    if hint is None:
        return (0, 1, 2)
    seat = top.player
    if any(open_slots(f, state.boards[t][hint], card, needs_near(f, card, seat, t)) for t in targets):
        return (hint,)
    return (0, 1, 2)


def reaches_opponents(f: Facts, card: str, source: str) -> bool:
    """May ``card`` go in an opponent's lines? A drawn Sneaky Git must (and may assassinate one's own
    Git instead); the Idol may, however it was received (card reference: Idol, "when a player
    receives the Idol")."""
    ability = f.ability[card]
    return ability == _ABILITY_IDOL or (ability == _ABILITY_SNEAKY_GIT and source == "draw")


def _own_options(f: Facts, state: State, top: PlaceStep, card: str) -> list[Action]:
    """``place_options`` for one card going in its placer's own lines (the common case), same order."""
    seat = top.player
    board = state.boards[seat]
    out: list[Action] = []
    placeable = False
    lines = _asked_lines(f, state, top, card, (seat,))
    if tribe_full(f, board, card):
        lines = ()  # a fourth Sneaky Git: no line of this tribe takes it
    near = needs_near(f, card, seat, seat)  # a won or stolen Git
    for li in lines:
        slots = open_slots(f, board[li], card, near)
        if slots:
            placeable = True
            out.extend(map(_places(seat, card, li, None).__getitem__, slots))
    if not (placeable and must_place(f, state, top, card)):
        out.extend(_no_slot_options(f, state, top, card, placeable))
    return out


def _no_slot_options(f: Facts, state: State, top: PlaceStep, card: str, placeable: bool) -> list[Action]:
    """The discard of ``card``, or where its crew must make room for it, the discards that do."""
    spots = [] if placeable else room_spots(f, state, top, card)
    if spots:
        return [_make_room(top.player, li, s) for li, s in spots]
    return [_discard(top.player, card)]


def _choice_spots(f: Facts, state: State, top: CardChoice) -> list[tuple[int, int, int]]:
    if top.ability == "stick":
        return stick_targets(f, state, top.player)
    if top.ability == "steal":
        return steal_targets(f, state, top.player)
    assert top.versus is not None
    return take_targets(state, top.versus)


# -------------------------------------------------------------------------------------------- prompt


def prompt(f: Facts, state: State) -> Prompt | None:
    if state.finished:
        return None
    top = state.top
    names = state.names

    def choices() -> tuple[Choice, ...]:
        own = [a for a in legal(f, state) if not isinstance(a, Shout | ForceDiscard)]
        return tuple(Choice(label(f, state, a), a) for a in own)

    if top is None:
        name = names[state.active]
        return Prompt("draw", (state.active,), f"{name}: draw a card")  # type: ignore[arg-type]
    if isinstance(top, PlaceStep):
        options = choices()
        return Prompt("place", (top.player,), _place_text(f, state, top, options), options)  # type: ignore[arg-type]
    if isinstance(top, AttackOffer):
        text = f"{names[top.player]}: line {top.line + 1} is complete. Attack, or decline?"
        return Prompt("attack", (top.player,), text, choices())  # type: ignore[arg-type]
    if isinstance(top, BilgeChoice):
        options = choices()
        may_lead = any(isinstance(c.action, Attack) for c in options)
        lead = f" or lead line {top.line + 1} to attack" if may_lead else ""
        text = f"{names[top.player]}: Bilge Guttrot may reorganise your lines{lead}"
        return Prompt("bilge", (top.player,), text, options)  # type: ignore[arg-type]
    if isinstance(top, CardChoice):
        texts = {
            "stick": "Bozlum Pigstickers: discard a purple card of an opponent, or decline",
            "steal": "Venemous Creeps: take a non-purple card from an opponent, or decline",
            "take": f"false shout: take any card from {names[top.versus or 0]}'s lines, or decline",
        }
        return Prompt(top.ability, (top.player,), f"{names[top.player]}: {texts[top.ability]}", choices())  # type: ignore[arg-type]
    if isinstance(top, BlowbackTarget):
        text = f"{names[top.player]}: aim Skyrr's Blowback at an opponent's line, or decline"
        return Prompt("blast", (top.player,), text, choices())  # type: ignore[arg-type]
    return _roll_prompt(f, state)


def _place_text(f: Facts, state: State, top: PlaceStep, options: Sequence[Choice]) -> str:
    """What the placing player is asked; ``options`` are the prompt's choices (the step's answers)."""
    name = state.names[top.player]
    first = top.cards[0].card
    if top.hint_line is not None:
        return f"{name}: {f.card[first].title} in line {top.hint_line + 1}: which slot?"
    # The cards that may be answered now: won Sneaky Gits before the other captured cards.
    ready = [p.card for p in top.cards if not gits_wait(f, top, p.card)]
    if len(set(ready)) == 1 and not any(isinstance(c.action, Place) for c in options):
        return _unplaceable_text(f, state, top, ready[0])
    # A discard is mentioned only where one is a choice: a card that must be placed when it can be
    # (a drawn red card, spotted Marauders, a won Git...) is not offered one the engine then refuses.
    discardable = any(isinstance(c.action, Discard) for c in options)
    or_discard = " (or discard)" if discardable else ""
    if top.source == "draw" and f.ability[first] == _ABILITY_SNEAKY_GIT:
        others = ["assassinate a Git in your own lines"] if git_spots(f, state, top.player) else []
        others += ["discard it"] if discardable else []
        rest = "".join(f", {other}" for other in others[:-1]) + (f" or {others[-1]}" if others else "")
        return f"{name}: place the Sneaky Git in an opponent's line (within three spaces of a card){rest}"
    if f.ability[first] == _ABILITY_IDOL and len(top.cards) == 1:
        return f"{name}: place the Idol in one of your lines or an opponent's (within three spaces of a card)"
    if top.source == "draw" and f.ability[first] == _ABILITY_CHAOS_MARAUDERS:
        return f"{name}: place the card you drew{or_discard}"  # quietly: the others must spot it
    cramped = next((card for card in ready if room_spots(f, state, top, card)), None)
    if cramped is not None:
        return f"{name}: no open slot takes {f.card[cramped].title}: discard one of your cards to make room"
    what = ", ".join(f.card[card].title for card in ready)
    verb = {"capture": "place the captured", "steal": "place the stolen", "shout": "place"}.get(
        top.source, "place"
    )
    near = (
        " (a Sneaky Git within three spaces of a card)"
        if _ABILITY_SNEAKY_GIT in map(f.ability.get, ready)
        else ""
    )
    return f"{name}: {verb} {what}{near}{or_discard}"


def _unplaceable_text(f: Facts, state: State, top: PlaceStep, card: str) -> str:
    """No slot takes ``card``, the one card to answer now (a fourth duplicate, a symbol in every line,
    full lines, no card for a Git to stand near)."""
    name = state.names[top.player]
    ability = f.ability[card]
    if top.source == "draw" and ability == _ABILITY_SNEAKY_GIT and git_spots(f, state, top.player):
        return f"{name}: the Sneaky Git fits no opponent's line: assassinate a Git of yours, or discard it"
    if room_spots(f, state, top, card):
        return f"{name}: no open slot takes {f.card[card].title}: discard one of your cards to make room"
    # The Chaos Marauders stay unnamed: the others must spot them.
    what = (
        "the card you drew"
        if ability == _ABILITY_CHAOS_MARAUDERS and top.source == "draw"
        else f.card[card].title
    )
    ends = top.source == "draw" and top.player == state.active
    return f"{name}: {what} cannot be placed: discard it" + (" (your turn ends)" if ends else "")


def _roll_prompt(f: Facts, state: State) -> Prompt:
    top = state.top
    names = state.names
    if isinstance(top, OdluggRolls):
        waiting = tuple(seat for seat, face in enumerate(top.faces) if not face)
        return Prompt("roll", waiting, "Odlugg Spleenripper: everyone rolls the Cube!", roll=ONE_ROLL)  # type: ignore[arg-type]
    assert top is not None and not isinstance(
        top, PlaceStep | AttackOffer | BilgeChoice | CardChoice | BlowbackTarget
    )
    name = names[top.player]
    if isinstance(top, AttackRoll):
        text = (
            f"{name}: roll the Cube for line {top.line + 1}'s attack "
            f"on {names[top.target]}'s line {top.target_line + 1}"
        )
        return Prompt("roll", (top.player,), text, roll=ONE_ROLL)  # type: ignore[arg-type]
    if isinstance(top, GreenRoll):
        texts = {
            "dagromm": f"Dagromm Flailbreath: roll {top.count + 1} of 4",
            "blowback": f"Skyrr's Blowback at {names[top.target]}'s line {top.target_line + 1}",
            "git-odlugg": f"will Odlugg eat the Sneaky Git placed on {names[top.target]}?",
        }
        return Prompt("roll", (top.player,), f"{name}: roll the Cube! {texts[top.ability]}", roll=ONE_ROLL)  # type: ignore[arg-type]
    if isinstance(top, OdluggEats):
        n = len(top.spots)
        text = f"{name}: Odlugg is hungry: roll the Cube for each blue card and Sneaky Git ({n} left)"
        return Prompt("roll", (top.player,), text, roll=RollRequest(CUBE, n, FACES, DicePolicy.ONE_BY_ONE))  # type: ignore[arg-type]
    if isinstance(top, BlueRolls):
        text = f"{name}: Odlugg eyes the booty: roll the Cube for {f.card[top.cards[0]].title}"
        return Prompt(
            "roll", (top.player,), text, roll=RollRequest(CUBE, len(top.cards), FACES, DicePolicy.ONE_BY_ONE)
        )  # type: ignore[arg-type]
    assert isinstance(top, IdolRolls)
    left = 6 - len(top.faces)
    times = "once more" if left == 1 else f"{left} more times"
    text = f"{name}: the Idol! Roll the Cube {times} (any Mark of Chaos: -90)"
    return Prompt("roll", (top.player,), text, roll=RollRequest(CUBE, left, FACES, DicePolicy.ONE_BY_ONE))  # type: ignore[arg-type]


def _hidden(f: Facts, state: State, card: str) -> bool:
    """Is ``card`` the active player's own drawn Chaos Marauders, unnamed until a shout? (Spotted,
    they are named: the shout told the table.)"""
    top = state.top
    return f.ability[card] == _ABILITY_CHAOS_MARAUDERS and not (
        isinstance(top, PlaceStep) and top.source == "shout"
    )


def label(f: Facts, state: State, a: Action) -> str:
    names = state.names
    if isinstance(a, Place):
        whose = "" if a.target is None else f"{names[a.target]}'s "
        what = "Drawn card" if _hidden(f, state, a.card) else f.card[a.card].title
        return f"{what}: {whose}line {a.line + 1}, slot {(a.slot or 0) + 1}"
    if isinstance(a, Discard):
        if a.card is None or _hidden(f, state, a.card):
            return "Discard"
        return f"Discard {f.card[a.card].title}"
    if isinstance(a, Attack):
        return f"Attack {names[a.target]}'s line {a.target_line + 1}"
    if isinstance(a, Blast):
        return f"Blast {names[a.target]}'s line {a.line + 1}"
    if isinstance(a, Pick):
        card = state.card_at(a.target, a.line, a.slot)
        what = f.card[card].title if card else "?"
        return f"{names[a.target]}'s {what} (line {a.line + 1}, slot {a.slot + 1})"
    if isinstance(a, Roll):
        return "Orcish Eye" if a.faces == (EYE,) else "Mark of Chaos"
    if isinstance(a, Decline):
        return "Decline"
    if isinstance(a, MakeRoom):
        card = state.card_at(a.player, a.line, a.slot)
        what = f.card[card].title if card else "?"
        return f"Make room: discard {what} (line {a.line + 1}, slot {a.slot + 1})"
    return a.kind
