"""HeroScape at the table: army cards laid on a player's army reader, dice, the next button.

* army reader -> while armies are gathered, ``add_card`` for that player (in a draft, only on the
  picker's turn); a card lifted from a premade army still being gathered -> ``remove_card``. Once the
  battle has begun a card on the reader needs nothing (it is in the army) or raises a notice.
* dice -> the engine's roll prompts (several combat dice are gathered into one roll).
* next button -> "Done moving", then "End the turn"; in a question that may be declined, decline.

The map is not read: figures move on the battlefield, not on readers.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.bundle import Act, ButtonRole, LivePosition, Note, Press, Translation, Zone
from companion.games.heroscape.actions import AddCard, Decline, EndTurn, Moved, RemoveCard
from companion.games.heroscape.armies import card_problem
from companion.games.heroscape.catalog import default_catalog
from companion.games.heroscape.ids import UnitId
from companion.games.heroscape.state import State
from companion.games.heroscape.zones import ARMY


class HeroScapeMapper:
    def __init__(self) -> None:
        self._catalog = default_catalog()
        self._titles = {card.id: card.title for card in self._catalog.cards}

    def card_title(self, card_id: str) -> str:
        return self._titles[card_id]

    def card_ids(self) -> Sequence[str]:
        return list(self._titles)

    def shown_title(self, card_id: str) -> str:
        return self._titles[card_id]

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        state = _state(position)
        if zone.kind != ARMY or zone.player is None or zone.player >= state.seats:
            return None
        return [unit.card for unit in state.sides[zone.player].units]

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: Zone | None) -> Translation:
        state = _state(position)
        if zone.kind != ARMY or zone.player is None or zone.player >= state.seats:
            return Note(f"HeroScape reads army cards only: {zone.source} is not played")
        seat = zone.player
        what = f"{self.shown_title(card_id)} on {zone.label(position.names)}"
        if state.phase == "rolloff" and not state.started and not state.sides[seat].ready:
            # The draft's opening roll (or the placement roll) comes first: nothing is picked yet.
            asked = position.prompt.text if position.prompt is not None else "the roll-off"
            return Note(f"{what}: not yet ({asked})")
        if state.phase == "draft" and state.draft is not None:
            picker = state.draft.order[state.draft.index]
            if picker != seat:
                return Note(f"{what}: it is {position.name(picker)}'s pick")
        elif state.phase != "army" or state.sides[seat].ready:
            if card_id in (unit.card for unit in state.sides[seat].units):
                return None  # already in the army: a card put back, or the reader re-read
            return Note(f"{what}: {self.shown_title(card_id)} is not in {position.name(seat)}'s army")
        scenario = self._catalog.scenario(state.scenario)
        problem = card_problem(self._catalog, state, scenario, seat, card_id, state.sets)
        if problem:
            return Note(f"{what}: {problem}")
        return Act(AddCard(seat, card_id), what)

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        state = _state(position)
        if zone.kind != ARMY or zone.player is None or zone.player >= state.seats:
            return None
        seat = zone.player
        side = state.sides[seat]
        copies = [u for u in side.units if u.card == card_id]
        if state.phase == "army" and not side.ready and copies:
            unit = UnitId(seat, card_id, max(u.copy for u in copies)).format()
            return Act(RemoveCard(seat, unit), f"{self.shown_title(card_id)} put back")
        return Note(f"{self.shown_title(card_id)} lifted from {zone.label(position.names)}: put it back")

    def pressed(self, role: ButtonRole, presses: Sequence[Press], position: LivePosition) -> Translation:
        return Note(f"HeroScape has no {role.title} button", level="info")  # it declares none

    def next_action(self, position: LivePosition) -> Translation:
        prompt, game = position.prompt, position.game
        if prompt is None or game is None:
            return Note("Nothing to move on from", level="info")
        for choice in prompt.choices:
            if isinstance(choice.action, Moved | EndTurn | Decline):
                return Act(choice.action, choice.label)
        return Note("Nothing to move on from now: answer on the control page", level="info")


def _state(position: LivePosition) -> State:
    state = position.state
    assert isinstance(state, State), "the HeroScape mapper reads HeroScape positions only"
    return state
