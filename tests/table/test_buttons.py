"""Buttons become commands: first shout wins by its own timestamp, undo, confirm and next."""

from __future__ import annotations

from table_fakes import toy_view

from companion.observations import ButtonId, ButtonPressed


def press(table, name: str, at: float) -> None:
    table.observe(ButtonPressed(ButtonId(name), at))


def test_the_earliest_shout_wins_even_when_it_arrives_second(table, session, clock):
    t = clock()
    press(table, "shout:1", t + 0.004)  # reached the queue first, pressed 3 ms later
    press(table, "shout:0", t + 0.001)
    table.pump()
    assert session.sent == []  # the window is still open
    clock.advance(0.041)
    table.pump()
    [command] = session.sent
    assert (command.source, dict(command.payload)) == ("gpio", {"kind": "shout", "player": 0})
    assert [p["player"] for p in command.observation["presses"]] == [0, 1]
    assert "Grotsnik shouted first, 3 ms ahead of Ugluk" in session.notices()


def test_a_repeated_press_by_the_same_player_counts_once(table, session, clock):
    press(table, "shout:1", clock())
    press(table, "shout:1", clock() + 0.002)
    table.pump()  # the window opens when the first press reaches the table
    clock.advance(0.05)
    table.pump()
    assert [dict(c.payload) for c in session.sent] == [{"kind": "shout", "player": 1}]


def test_undo_button_asks_the_session_to_undo(table, session, clock):
    press(table, "undo", clock())
    table.pump()
    [command] = session.sent
    assert (command.kind, command.source) == ("undo", "gpio")


def test_confirm_answers_a_prompt_with_a_single_choice(table, session, clock):
    only = {"label": "End the turn", "action": {"kind": "decline", "player": 0}}
    session.current = toy_view(
        prompt={"kind": "offer", "players": [0], "text": "", "choices": [only], "roll": None}
    )
    press(table, "confirm", clock())
    table.pump()
    [command] = session.sent
    assert dict(command.payload) == {"kind": "decline", "player": 0}


def test_confirm_never_picks_among_several_choices(table, session, clock):
    choices = [{"label": f"Take {n}", "action": {"kind": "pick", "n": n}} for n in (1, 2)]
    session.current = toy_view(
        prompt={"kind": "pick", "players": [0], "text": "", "choices": choices, "roll": None}
    )
    press(table, "confirm", clock())
    table.pump()
    assert session.sent == []
    assert session.notices() == ["Several choices (Take 1; Take 2): pick one on the control page"]


def test_next_uses_the_games_move_on_action(table, session, clock):
    press(table, "next", clock())
    table.pump()
    assert [dict(c.payload) for c in session.sent] == [{"kind": "decline", "player": 0}]


def test_microcontroller_buttons_are_named_by_the_config(session, registry, clock):
    from table_fakes import toy_mappers

    from companion.table import Table, TableConfig

    config = TableConfig(buttons=(("3", "undo"), ("0", "shout:1")))
    table = Table(session, config, registry, clock=clock, mappers=toy_mappers)
    press(table, "3", clock())
    press(table, "0", 12.5)  # the device's own clock: only used to order shouts against each other
    table.pump()
    clock.advance(0.05)
    table.pump()
    assert [(c.kind, dict(c.payload)) for c in session.sent] == [
        ("undo", {}),
        ("act", {"kind": "shout", "player": 1}),
    ]
