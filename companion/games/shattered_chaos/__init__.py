"""Shattered Chaos: the co-operative adventure, with the companion running its enemies and its ledgers."""
