"""Chaos Marauders by hand on a phone: a card drawn and placed in two taps, three at most for a rare
one; counted by tests/browser/taps.py over the first moves of a seeded demo game."""

from __future__ import annotations

import pytest

from .taps import measure

pytestmark = pytest.mark.browser


def test_a_card_is_two_taps_and_every_move_has_a_control(browser, table):
    report = measure(browser, table, seed=1, players=4, actions=70).report()
    assert report["not_on_phone"] == {}  # every move of the game can be made on the phone
    assert max(report["card_taps"]) <= 3  # a rare card: its first letter, the card, the slot
    assert report["cards_in_two_taps_or_fewer"] >= 0.6
    assert report["taps_per_card"] < report["legacy_taps_per_card"] - 1
    assert report["by_move"]["place"][1] == report["by_move"]["place"][0]  # a slot is one tap
