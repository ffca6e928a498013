"""Raid at the table: a card laid from a player's hand onto a territory or an enemy model is that
player's play; the ready buttons; the party's dice need no mapper (the roll request says it all).

Whose card is it? The table says where a card last lay (``came_from``): the hand it left.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.bundle import Act, BaseMapper, ButtonRole, LivePosition, Note, Press, Translation, Zone
from tests.bundles.raid.bundle import CARDS, ENEMY, HAND, READY, TERRITORY
from tests.bundles.raid.engine import Play, Ready, State


class RaidMapper(BaseMapper):
    def __init__(self) -> None:
        super().__init__({card: title for card, (title, _) in CARDS.items()})

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        if zone.kind not in (TERRITORY, ENEMY) or not isinstance(position.state, State):
            return None
        place = _place(zone)
        return [plan[0] for plan in position.state.plans if plan is not None and plan[1] == place]

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: Zone | None) -> Translation:
        if zone.kind == HAND:
            return None  # a card in hand is not played
        where = zone.label(position.names)
        if came_from is None or came_from.kind != HAND or came_from.player is None:
            return Note(
                f"{self.shown_title(card_id)} on {where}: lay it from your hand, so the table knows whose"
            )
        player = came_from.player
        return Act(
            Play(player, card_id, _place(zone)),
            f"{position.name(player)}'s {self.shown_title(card_id)} on {where}",
        )

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        if zone.kind == HAND:
            return None
        return Note(f"{self.shown_title(card_id)} lifted from {zone.label(position.names)}: put it back")

    def pressed(self, role: ButtonRole, presses: Sequence[Press], position: LivePosition) -> Translation:
        seat = presses[0].seat if presses else None
        if role != READY or seat is None:
            return Note(f"Raid has no {role.title} button", level="info")
        return Act(Ready(seat), f"{position.name(seat)} is ready")


def _place(zone: Zone) -> str:
    """The engine's name of the place a territory or enemy zone watches."""
    return str(zone["territory"]) if zone.kind == TERRITORY else f"model {zone['model']}"
