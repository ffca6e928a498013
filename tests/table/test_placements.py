"""Tags on readers become one game command each, after the settle window; doubts become notices."""

from __future__ import annotations

from companion.observations import ReaderId, TagGone, TagSeen, TagUid
from companion.session.contract import Outcome

from .table_fakes import toy_view

GRUNT_TAG = TagUid("04A1B2C3")
BOSS_TAG = TagUid("04D4E5F6")


def seen(table, clock, reader: int, uid: str) -> None:
    table.observe(TagSeen(ReaderId(reader), TagUid(uid), clock()))


def gone(table, clock, reader: int, uid: str) -> None:
    table.observe(TagGone(ReaderId(reader), TagUid(uid), clock()))


def after(table, clock, seconds: float) -> None:
    clock.advance(seconds)
    table.pump()


def test_a_settled_card_on_a_line_becomes_one_place_command(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.299)
    assert session.sent == []
    after(table, clock, 0.002)
    [command] = session.sent
    assert command.kind == "act" and command.source == "table"
    assert dict(command.payload) == {"kind": "place", "player": 0, "card": "grunt", "line": 1}
    assert command.observation["uid"] == GRUNT_TAG and command.observation["reader"] == 1
    assert command.observation["zone"]["zone"] == "line"
    after(table, clock, 5.0)
    assert len(session.sent) == 1  # a card lying still is placed once


def test_a_card_slid_across_two_readers_is_placed_only_where_it_stays(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.1)
    seen(table, clock, 1, GRUNT_TAG)  # touches the neighbour while still on the first
    after(table, clock, 0.05)
    gone(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.29)  # the first reader's window would have ended here
    assert session.sent == []
    after(table, clock, 0.02)
    [command] = session.sent
    assert command.payload["line"] == 1


def test_a_card_passing_over_a_reader_is_never_placed(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.2)
    gone(table, clock, 0, GRUNT_TAG)
    after(table, clock, 2.0)
    assert session.sent == []


def test_a_read_flicker_is_not_a_removal(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.31)
    session.current = toy_view(lines=[[["grunt"], []], [[], []]])
    gone(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.3)
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 2.0)
    assert len(session.sent) == 1
    assert session.notices() == []


def test_an_unknown_tag_gives_a_notice_and_no_command(table, session, clock):
    seen(table, clock, 1, "04AABBCC")
    after(table, clock, 0.31)
    assert session.sent == []
    assert session.notices() == [
        "Unknown card tag 04AABBCC on Grotsnik's line 2: enrol it on the control page"
    ]
    assert [t.uid for t in table.pending_tags()] == ["04AABBCC"]
    gone(table, clock, 1, "04AABBCC")
    after(table, clock, 0.5)
    assert session.notices() == []  # the stray card was taken away


def test_a_tag_on_two_readers_at_once_is_ambiguous_and_never_guessed(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 0, GRUNT_TAG)
    seen(table, clock, 2, GRUNT_TAG)
    after(table, clock, 1.0)
    assert session.sent == []
    assert session.notices() == [
        "Grunt reads on Grotsnik's line 1 and Ugluk's line 1 at once: move it onto one of them"
    ]
    gone(table, clock, 2, GRUNT_TAG)
    after(table, clock, 0.01)
    assert session.notices() == [] and session.sent == []
    after(table, clock, 0.3)  # now it must stay a full window on the one reader
    [command] = session.sent
    assert command.payload["line"] == 0 and command.payload["card"] == "grunt"


def test_reader_zones_map_to_line_discard_and_pad_actions(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    registry.enrol(BOSS_TAG, "toy", "boss")
    registry.enrol(TagUid("04000001"), "toy", "spell")
    seen(table, clock, 2, GRUNT_TAG)
    seen(table, clock, 3, BOSS_TAG)
    seen(table, clock, 4, "04000001")
    after(table, clock, 0.31)
    kinds = {c.payload["kind"]: dict(c.payload) for c in session.sent}
    assert kinds == {
        "place": {"kind": "place", "player": 0, "card": "grunt", "line": 0},
        "discard": {"kind": "discard", "player": 0, "card": "boss"},
        "draw": {"kind": "draw", "player": 0, "card": "spell"},
    }


def test_an_unmapped_reader_is_reported(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 9, GRUNT_TAG)
    after(table, clock, 0.31)
    assert session.sent == []
    assert session.notices() == ["A tag lies on reader 9, which the table configuration does not map"]
    gone(table, clock, 9, GRUNT_TAG)
    after(table, clock, 0.41)
    assert session.notices() == []


def test_lifting_a_card_the_engine_still_shows_raises_a_notice_until_put_back(
    table, session, registry, clock
):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.31)
    session.current = toy_view(lines=[[[], ["grunt"]], [[], []]])
    gone(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.41)
    assert session.notices() == ["Grunt lifted from P1's line 2"]
    seen(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.31)
    assert session.notices() == []
    assert len(session.sent) == 1  # putting it back is not a second placement


def test_a_removal_the_engine_expects_is_silent(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.31)
    session.current = toy_view(lines=[[[], []], [[], []]])  # a rule discarded it
    gone(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.41)
    assert session.notices() == []


def test_a_lifted_notice_clears_when_corrected_on_the_control_page(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.31)
    session.current = toy_view(lines=[[[], ["grunt"]], [[], []]])
    gone(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.41)
    assert session.notices()
    session.current = toy_view(lines=[[[], []], [[], []]])
    after(table, clock, 1.0)
    assert session.notices() == []


def test_cards_the_engine_already_shows_are_not_placed_again_after_a_resync(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    registry.enrol(TagUid("04000002"), "toy", "grunt")
    session.current = toy_view(lines=[[["grunt"], []], [[], []]])
    seen(table, clock, 0, GRUNT_TAG)  # the bridge re-sends what lies on the table after reconnecting
    after(table, clock, 0.31)
    assert session.sent == []
    seen(table, clock, 0, "04000002")  # a second copy is new
    after(table, clock, 0.31)
    [command] = session.sent
    assert command.payload["card"] == "grunt"


def test_a_refused_command_becomes_a_notice_and_calls_the_rejection_hooks(table, session, registry, clock):
    refused = []
    table.on_rejected(refused.append)
    session.outcomes.append(Outcome(accepted=False, reason="It is Ugluk's turn", error="illegal"))
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.31)
    assert [o.reason for o in refused] == ["It is Ugluk's turn"]
    assert session.notices() == ["grunt placed: refused — It is Ugluk's turn"]
    after(table, clock, 15.0)
    assert session.notices() == []  # one-off notices expire


def test_a_tag_of_another_game_is_not_played(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "heroscape", "grimnak")
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.31)
    assert session.sent == []
    assert "enrolled as grimnak of heroscape, not toy" in session.notices()[0]


def test_no_game_running_means_no_command(table, session, registry, clock):
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    session.current = {"seq": 0, "status": "no_game", "game": None, "notices": []}
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.31)
    assert session.sent == []
    assert session.notices() == ["Grunt put on P1's line 1, but no game is running"]


def test_the_mapper_learns_where_a_tag_last_settled(session, config, registry, clock):
    from companion.table import Table

    from .table_fakes import ToyMapper, games_of

    mapper = ToyMapper()
    table = Table(session, config, registry, clock=clock, games=games_of(mapper))
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.31)
    gone(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.41)
    seen(table, clock, 3, GRUNT_TAG)
    after(table, clock, 0.31)
    assert mapper.came_from == [None, "line"]


def test_a_tag_lifted_longer_ago_than_the_move_window_arrives_fresh(session, config, registry, clock):
    """A card taken off a line and back in play minutes later (eaten, reshuffled, drawn again) did not
    come from the line: as for the camera, came_from is the zone a card left within move_ms."""
    from companion.table import Table

    from .table_fakes import ToyMapper, games_of

    mapper = ToyMapper()
    table = Table(session, config, registry, clock=clock, games=games_of(mapper))
    registry.enrol(GRUNT_TAG, "toy", "grunt")
    seen(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.31)
    gone(table, clock, 0, GRUNT_TAG)
    after(table, clock, 0.41)  # the lift is reported
    after(table, clock, 120.0)
    seen(table, clock, 3, GRUNT_TAG)
    after(table, clock, 0.31)
    gone(table, clock, 3, GRUNT_TAG)  # carried on at once: from the discard reader to the line
    seen(table, clock, 1, GRUNT_TAG)
    after(table, clock, 0.31)
    assert mapper.came_from == [None, None, "discard"]
