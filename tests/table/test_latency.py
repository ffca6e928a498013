"""Tag to command latency with the worker thread, the real clock and the real Session (settle excluded)."""

from __future__ import annotations

import time
from pathlib import Path

from companion.engine import Player, Setup
from companion.games.chaos_marauders.zones import DISCARD
from companion.observations import ReaderId, TagSeen, TagUid
from companion.session import Command, Session
from companion.table import Table, TableConfig, TagRegistry

CARDS = (
    "crummy-snotling-slaves",
    "hobgoblin-musician",
    "grivziz-dirtballs",
    "claws-of-malal",
    "hak-veinthrobs-volunteers",
)
PLACEMENTS = 30


def test_settled_tags_reach_the_published_view_quickly(tmp_path: Path):
    db = tmp_path / "table.sqlite3"
    session = Session(db)
    session.start()
    registry = TagRegistry.open(db)
    config = TableConfig(settle_ms=20, removal_ms=40, readers=(DISCARD.zone(reader=ReaderId(5)),))
    table = Table(session, config, registry)
    feed = session.subscribe()
    try:
        setup = Setup("chaos-marauders", (Player("Grotsnik"), Player("Ugluk")))
        assert session.submit(Command(kind="new_game", source="control", payload=setup.to_json())).accepted
        table.start()
        to_view = []
        for i in range(PLACEMENTS):
            uid = TagUid(f"0400{i:04X}")
            registry.enrol(uid, "chaos-marauders", CARDS[i % len(CARDS)])
            target = session.view()["seq"] + 2  # the draw and the discard
            seen = time.monotonic()
            table.observe(TagSeen(ReaderId(5), uid, seen))
            while (view := feed.get(timeout=5)) is not None and view["seq"] < target:
                pass
            assert view is not None, f"placement {i} never reached the view: {session.view()['notices']}"
            # The first of the two inputs is what the TV shows as the card landing; measured to the second.
            to_view.append(time.monotonic() - seen - config.settle_ms / 1000)
            # The tag stays: the reader under the pile reads every card discarded onto it.
        figures = table.figures()
        to_view.sort()
        print("table figures:", figures, "to second published view p99 ms:", round(to_view[-1] * 1000, 2))
        assert figures["to_submit"]["count"] == 2 * PLACEMENTS
        # Medians, with room: the suite shares two cores with browsers; docs/table.md quotes the figures.
        assert figures["to_submit"]["p50_ms"] < 5
        assert to_view[len(to_view) // 2] < 0.1
    finally:
        table.stop()
        feed.close()
        session.stop()
        registry.close()
