"""Chaos Marauders at the table: what a card on a line, the discard pile or the pad means.

* line reader -> ``place`` for the player the prompt names (the engine implies the draw when the
  card was laid straight from the pile); ``slot`` from the reader's config or None, in which case the
  engine places it in the only open slot or asks which. A line of another player -> ``target``.
* discard reader -> ``discard`` of the card waiting to be placed; a card laid there straight from
  the pile is drawn first, then discarded (two inputs, the second only if the first is accepted);
  a card moved there from its line while a war machine's crew must make room -> ``make_room``.
  A card a rule already discarded needs nothing: the engine has it on the discard pile.
* pad -> ``draw``: the card just drawn, shown to the table (green cards are resolved from here).
* shout button -> ``shout``; next button -> ``decline`` when the prompt offers it.

Everything is read from the engine's state and prompt, never from the TV's picture. Chaos Marauders
placed by the active player is secret until someone shouts, so every notice calls it "a card" (the
engine's own events do the same).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.bundle import Act, LivePosition, Note, Translation, Zone
from companion.engine import JSON, Action, PlayerId
from companion.games.chaos_marauders.actions import Discard, MakeRoom
from companion.games.chaos_marauders.cards import Colour
from companion.games.chaos_marauders.catalog import Ability, load_catalog
from companion.games.chaos_marauders.state import LINES, SLOTS, PlaceStep, State
from companion.games.chaos_marauders.zones import DISCARD, LINE, PAD


class ChaosMaraudersMapper:
    rolls_one_at_a_time = True  # one Cube at the table: the Idol's six rolls are six throws

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
        cells = _line(position, zone.player, zone.line)
        if zone.slot is not None:
            cells = cells[zone.slot : zone.slot + 1]
        return [card for card in cells if card is not None]

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: str | None) -> Translation:
        player = _player(position)
        if player is None:
            return Note("The game is over: cards on the readers are not played", level="info")
        what = f"{self.shown_title(card_id)} on {zone.label(position.names)}"
        if zone.kind == LINE:
            assert zone.player is not None and zone.line is not None
            if zone.line >= LINES or (zone.slot is not None and zone.slot >= SLOTS):
                return Note(f"Reader {zone.reader} is set to a line or slot Chaos Marauders does not have")
            payload: dict[str, JSON] = {"kind": "place", "player": player, "card": card_id, "line": zone.line}
            payload["slot"] = zone.slot
            payload["target"] = zone.player if zone.player != player else None
            return Act(payload, what)
        if zone.kind == DISCARD:
            return self._discarded(player, card_id, position, what, came_from)
        if zone.kind != PAD:
            return Note(f"Chaos Marauders has no {zone.kind.title}: reader {zone.reader} is not played")
        if _awaits_draw(position):
            return Act({"kind": "draw", "player": player, "card": card_id}, what)
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

    def shout(self, player: PlayerId, position: LivePosition) -> Translation:
        return Act({"kind": "shout", "player": player}, f"{position.name(player)}'s shout")

    def next_action(self, position: LivePosition) -> Translation:
        for label, action in position.choice_payloads():
            if action.get("kind") == "decline":
                return Act(action, label or "Decline")
        return Note("Nothing to decline now: answer the prompt on the control page", level="info")

    # ------------------------------------------------------------------------------------ helpers

    def _discarded(
        self, player: int, card_id: str, position: LivePosition, what: str, came_from: str | None
    ) -> Translation:
        for action in _choices(position):
            if isinstance(action, Discard) and action.card == card_id:
                return Act(_format(position, action), what)
        room = self._room_for(card_id, position)
        if room is not None:
            return Act(room, what)
        if came_from in (LINE.name, PAD.name):
            # Leaving play: a rule discarded it (a mismatch was already flagged when it was lifted).
            return None
        state = _state(position)
        on_top = bool(state.discard) and state.discard[-1] == card_id
        if _awaits_draw(position) and not (came_from is None and on_top):
            draw = {"kind": "draw", "player": player, "card": card_id}
            if card_id in self._green and state.round == 1:
                return Act(draw, what)  # first round: the draw itself discards a green card unresolved
            discard = Act({"kind": "discard", "player": player, "card": card_id}, what)
            return Act(draw, what, then=discard)
        if on_top:
            return None  # the engine discarded it already (since before the table started watching)
        return Note(f"{what}: the game has no {self.shown_title(card_id)} to discard now")

    def _room_for(self, card_id: str, position: LivePosition) -> dict[str, JSON] | None:
        """The prompt's ``make_room`` answer that discards ``card_id`` from its placer's lines."""
        for action in _choices(position):
            if isinstance(action, MakeRoom) and 0 <= action.slot < SLOTS:
                if _line(position, action.player, action.line)[action.slot] == card_id:
                    return _format(position, action)
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


def _player(position: LivePosition) -> int | None:
    prompt = position.prompt
    return int(prompt.players[0]) if prompt is not None and prompt.players else None


def _awaits_draw(position: LivePosition) -> bool:
    prompt = position.prompt
    return prompt is not None and prompt.kind == "draw"


def _choices(position: LivePosition) -> list[Action]:
    prompt = position.prompt
    return [choice.action for choice in prompt.choices] if prompt is not None else []


def _format(position: LivePosition, action: Action) -> dict[str, JSON]:
    assert position.game is not None
    return position.game.format_action(action)


def _drawn_card(state: State) -> str | None:
    """The card the active player drew and has not placed yet (being placed or resolved)."""
    top = state.top
    if isinstance(top, PlaceStep):
        return top.cards[0].card if top.source == "draw" and top.cards else None
    card = getattr(top, "card", None)
    return card if isinstance(card, str) else None
