"""Chaos Marauders (Games Workshop 1987 / 2009): card catalog, line rules, turn engine, scoring."""
