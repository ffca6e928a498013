"""Chaos Marauders at the table: what a card on a line, the discard pile or the pad means.

* line reader -> ``place`` for the player the prompt names (the engine implies the draw when the
  card was laid straight from the pile); ``slot`` from the reader's config or None, in which case the
  engine places it in the only open slot or asks which. A line of another player -> ``target``.
* discard reader -> ``discard`` of the card waiting to be placed; a card laid there straight from
  the pile is drawn first, then discarded (two inputs, the second only if the first is accepted);
  a card moved there from its line while a war machine's crew must make room -> ``make_room``.
  A card a rule already discarded needs nothing: the engine has it on the discard pile.
* pad -> ``draw``: the card just drawn, shown to the table (green cards are resolved from here).
* shout buttons (one per seat) -> ``shout`` for the first press: presses within the role's window
  are handed over in the order they were pressed, and the TV says by how much the winner led.
* next button -> ``decline`` when the prompt offers it.

Everything is read from the engine's state and prompt, never from the TV's picture. Chaos Marauders
placed by the active player is secret until someone shouts, so every notice calls it "a card" (the
engine's own events do the same).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.bundle import Act, ButtonRole, LivePosition, Note, Press, Translation, Zone
from companion.engine import Action, PlayerId
from companion.games.chaos_marauders.actions import Decline, Discard, Draw, MakeRoom, Place, Shout
from companion.games.chaos_marauders.cards import Colour
from companion.games.chaos_marauders.catalog import Ability, load_catalog
from companion.games.chaos_marauders.state import LINES, SLOTS, PlaceStep, State
from companion.games.chaos_marauders.zones import DISCARD, LINE, PAD, SHOUT


class ChaosMaraudersMapper:
    def __init__(self) -> None:
        catalog = load_catalog()
        self._titles = {card.id: card.title for card in catalog}
        self._secret = {card.id for card in catalog if card.ability == Ability.CHAOS_MARAUDERS}
        self._green = {card.id for card in catalog if card.colour is Colour.GREEN}

    def card_title(self, card_id: str) -> str:
        return self._titles[card_id]

    def card_ids(self) -> Sequence[str]:
        return list(self._titles)

    def shown_title(self, card_id: str) -> str:
        return "A card" if card_id in self._secret else self._titles[card_id]

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        if zone.kind == DISCARD:
            return list(_state(position).discard)  # bottom to top: a card still lying there is not new
        if zone.kind != LINE:
            return None
        cells = _line(position, zone.player, zone.get("line"))
        slot = zone.get("slot")
        if slot is not None:
            cells = cells[slot : slot + 1]
        return [card for card in cells if card is not None]

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: Zone | None) -> Translation:
        player = _player(position)
        if player is None:
            return Note("The game is over: cards on the readers are not played", level="info")
        what = f"{self.shown_title(card_id)} on {zone.label(position.names)}"
        if zone.kind == LINE:
            owner, line = zone.player, zone["line"]
            assert owner is not None and isinstance(line, int)
            target = owner if owner != player else None
            return Act(Place(player, card_id, line, zone.get("slot"), target), what)
        if zone.kind == DISCARD:
            return self._discarded(player, card_id, position, what, came_from)
        if zone.kind != PAD:
            return Note(f"Chaos Marauders has no {zone.kind.title}: {zone.source} is not played")
        if _awaits_draw(position):
            return Act(Draw(player, card_id), what)
        if _drawn_card(_state(position)) == card_id:
            return None  # the card being placed was shown on the pad: nothing new
        return Note(f"{what}: no card is to be drawn now", level="info")

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        if zone.kind != LINE:
            return None
        place = zone.label(position.names)
        if self._room_for(card_id, position) is not None:
            title = self.shown_title(card_id)
            return Note(f"{title} lifted from {place}: lay it on the discard pile to make room")
        return Note(
            f"{self.shown_title(card_id)} lifted from {place} — put it back or correct it on the control page"
        )

    def pressed(self, role: ButtonRole, presses: Sequence[Press], position: LivePosition) -> Translation:
        """The shout race: the earliest press wins; when it was close, the TV says by how much."""
        if role != SHOUT or not presses or presses[0].seat is None:
            return Note(f"Chaos Marauders has no {role.title} button", level="info")
        winner = presses[0]
        assert winner.seat is not None
        margin = ""
        if len(presses) > 1 and presses[1].seat is not None:
            lead_ms = (presses[1].at - winner.at) * 1000
            margin = (
                f"{position.name(winner.seat)} shouted first, {lead_ms:.0f} ms ahead of "
                f"{position.name(presses[1].seat)}"
            )
        return Act(Shout(winner.seat), f"{position.name(winner.seat)}'s shout", note=margin)

    def next_action(self, position: LivePosition) -> Translation:
        prompt = position.prompt
        for choice in prompt.choices if prompt is not None else ():
            if isinstance(choice.action, Decline):
                return Act(choice.action, choice.label or "Decline")
        return Note("Nothing to decline now: answer the prompt on the control page", level="info")

    # ------------------------------------------------------------------------------------ helpers

    def _discarded(
        self, player: PlayerId, card_id: str, position: LivePosition, what: str, came_from: Zone | None
    ) -> Translation:
        for action in _choices(position):
            if isinstance(action, Discard) and action.card == card_id:
                return Act(action, what)
        room = self._room_for(card_id, position)
        if room is not None:
            return Act(room, what)
        if came_from is not None and came_from.kind in (LINE, PAD):
            # Leaving play: a rule discarded it (a mismatch was already flagged when it was lifted).
            return None
        state = _state(position)
        on_top = bool(state.discard) and state.discard[-1] == card_id
        if _awaits_draw(position) and not (came_from is None and on_top):
            draw = Draw(player, card_id)
            if card_id in self._green and state.round == 1:
                return Act(draw, what)  # first round: the draw itself discards a green card unresolved
            return Act(draw, what, then=Act(Discard(player, card_id), what))
        if on_top:
            return None  # the engine discarded it already (since before the table started watching)
        return Note(f"{what}: the game has no {self.shown_title(card_id)} to discard now")

    def _room_for(self, card_id: str, position: LivePosition) -> MakeRoom | None:
        """The prompt's ``make_room`` answer that discards ``card_id`` from its placer's lines."""
        for action in _choices(position):
            if isinstance(action, MakeRoom) and 0 <= action.slot < SLOTS:
                if _line(position, action.player, action.line)[action.slot] == card_id:
                    return action
        return None


def _state(position: LivePosition) -> State:
    state = position.state
    assert isinstance(state, State), "the Chaos Marauders mapper reads Chaos Marauders positions only"
    return state


def _line(position: LivePosition, seat: int | None, line: int | None) -> tuple[str | None, ...]:
    state = _state(position)
    if seat is None or line is None or not 0 <= seat < state.seats or not 0 <= line < LINES:
        return ()
    return state.boards[seat][line]


def _player(position: LivePosition) -> PlayerId | None:
    prompt = position.prompt
    return prompt.players[0] if prompt is not None and prompt.players else None


def _awaits_draw(position: LivePosition) -> bool:
    prompt = position.prompt
    return prompt is not None and prompt.kind == "draw"


def _choices(position: LivePosition) -> list[Action]:
    prompt = position.prompt
    return [choice.action for choice in prompt.choices] if prompt is not None else []


def _drawn_card(state: State) -> str | None:
    """The card the active player drew and has not placed yet (being placed or resolved)."""
    top = state.top
    if isinstance(top, PlaceStep):
        return top.cards[0].card if top.source == "draw" and top.cards else None
    card = getattr(top, "card", None)
    return card if isinstance(card, str) else None
