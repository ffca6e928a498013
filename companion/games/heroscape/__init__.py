"""HeroScape Master Set 2, Swarm of the Marro: army building, rounds, order markers, attacks, glyphs,
scenarios and scoring (see docs/heroscape.md)."""
