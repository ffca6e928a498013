"""Table Companion: reads a physical tabletop game, runs its rules and serves a live scoreboard."""

__version__ = "0.1.0"
