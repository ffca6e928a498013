"""Scoring (rulebook, Scoring): each player scores the full points of every army card with figures still
on the battlefield, even one surviving squad figure. Partial credit (a setup option, our addition for
closer games): each card scores its points times the share of its life still standing: a squad's living
figures out of its figures, a Hero's life left out of its Life. Scores are kept exact (fractions) and
shown to one decimal."""

from __future__ import annotations

from fractions import Fraction

from companion.games.heroscape.catalog import Catalog
from companion.games.heroscape.state import State, Unit


def card_score(cat: Catalog, unit: Unit, partial: bool) -> Fraction:
    card = cat.card(unit.card)
    if not unit.alive:
        return Fraction(0)
    if not partial:
        return Fraction(card.points)
    if card.hero:
        figure = unit.figures[0]
        return Fraction(card.points * (card.life - figure.wounds), card.life)
    return Fraction(card.points * sum(f.alive for f in unit.figures), card.figures)


def exact_scores(cat: Catalog, state: State) -> list[Fraction]:
    """Each seat's score; a Rogue Hive belongs to no army and scores for nobody."""
    if not state.partial_credit:  # whole cards: whole numbers (and no fractions to add for every view)
        return [
            Fraction(sum(cat.card(u.card).points for u in state.sides[seat].units if u.alive))
            for seat in range(state.seats)
        ]
    return [
        sum((card_score(cat, unit, state.partial_credit) for unit in state.sides[seat].units), Fraction(0))
        for seat in range(state.seats)
    ]


def points_on_battlefield(cat: Catalog, state: State) -> list[float]:
    return [round(float(score), 1) for score in exact_scores(cat, state)]
