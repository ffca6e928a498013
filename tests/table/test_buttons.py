"""Buttons become commands: a game's own role gathered over its window and handed over in press
order (the toy game's shout: first press wins), undo, confirm and next."""

from __future__ import annotations

from companion.observations import ButtonId, ButtonPressed

from .table_fakes import toy_view


def press(table, name: str, at: float, source: str = "gpio") -> None:
    table.observe(ButtonPressed(ButtonId(name), at, source))


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
    assert command.observation["role"] == "shout"
    assert [p["player"] for p in command.observation["presses"]] == [0, 1]  # in press order


def test_a_configured_window_replaces_the_game_s_and_zero_hands_each_press_over_at_once(
    session, registry, clock
):
    from companion.table import Table, TableConfig

    from .table_fakes import toy_games

    config = TableConfig(button_windows=(("shout", 0),))
    table = Table(session, config, registry, clock=clock, games=toy_games)
    press(table, "shout:1", clock())
    table.pump()
    assert [dict(c.payload) for c in session.sent] == [{"kind": "shout", "player": 1}]


def test_a_button_the_running_game_does_not_have_is_a_notice(table, session, clock):
    press(table, "horn:0", clock())  # another game's role, or a typo in the layout
    press(table, "shout", clock())  # the shout is one button per seat
    table.pump()
    assert session.sent == []
    assert "Toy has no 'horn:0' button" in session.notices()
    assert "Toy has no 'shout' button" in session.notices()


def test_a_repeated_press_by_the_same_player_counts_once(table, session, clock):
    press(table, "shout:1", clock())
    press(table, "shout:1", clock() + 0.002)
    table.pump()  # the window opens when the first press reaches the table
    clock.advance(0.05)
    table.pump()
    assert [dict(c.payload) for c in session.sent] == [{"kind": "shout", "player": 1}]


def test_shout_buttons_on_the_microcontroller_make_firmware_shouts(table, session, clock):
    # All of a table's shout buttons are on one device (two clocks cannot be compared: docs/table.md).
    press(table, "shout:1", clock() + 0.002, source="firmware")
    press(table, "shout:0", clock() + 0.001, source="firmware")
    table.pump()  # the window opens when the first press reaches the table
    clock.advance(0.05)
    table.pump()
    [command] = session.sent
    assert (command.source, dict(command.payload)) == ("firmware", {"kind": "shout", "player": 0})


def test_buttons_on_the_microcontroller_are_logged_as_firmware(table, session, clock):
    press(table, "undo", clock(), source="firmware")
    table.pump()
    [command] = session.sent
    assert (command.kind, command.source) == ("undo", "firmware")


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
    assert session.notices() == [
        "Several choices (Take 1; Take 2): press next to step through them, or pick one on the control page"
    ]


def test_next_uses_the_games_move_on_action(table, session, clock):
    decline = {"label": "Decline", "action": {"kind": "decline", "player": 0}}
    attack = {"label": "Attack", "action": {"kind": "attack", "player": 0}}
    session.current = toy_view(
        prompt={"kind": "offer", "players": [0], "text": "", "choices": [attack, decline], "roll": None}
    )
    press(table, "next", clock())
    table.pump()
    assert [dict(c.payload) for c in session.sent] == [{"kind": "decline", "player": 0}]


def _offer(seq: int, *numbers: int) -> dict:
    choices = [{"label": f"Take {n}", "action": {"kind": "pick", "n": n}} for n in numbers]
    view = toy_view(prompt={"kind": "pick", "players": [0], "text": "", "choices": choices, "roll": None})
    return {**view, "seq": seq}


def test_next_steps_through_the_choices_and_confirm_takes_the_one_shown(table, session, clock):
    session.current = _offer(7, 1, 2, 3)
    for _ in range(4):
        press(table, "next", clock())
        table.pump()
    assert session.sent == []
    assert (
        session.notices()[-1] == "Next button: Take 1 (choice 1 of 3). Press Confirm to take it"
    )  # round and back
    press(table, "next", clock())
    press(table, "confirm", clock())
    table.pump()
    [command] = session.sent
    assert (command.source, dict(command.payload)) == ("gpio", {"kind": "pick", "n": 2})


def test_a_choice_shown_before_the_game_moved_on_is_never_taken(table, session, clock):
    session.current = _offer(7, 1, 2)
    press(table, "next", clock())
    press(table, "next", clock())
    table.pump()
    session.current = _offer(8, 1, 2)  # another input was accepted meanwhile (the control page)
    press(table, "confirm", clock())
    table.pump()
    assert session.sent == []
    press(table, "next", clock())  # the cursor starts again at the new prompt's first choice
    table.pump()
    assert session.notices()[-1] == "Next button: Take 1 (choice 1 of 2). Press Confirm to take it"


def test_next_with_nothing_to_decline_or_choose_says_so(table, session, clock):
    press(table, "next", clock())
    table.pump()
    assert session.sent == [] and session.notices() == ["Nothing to decline now"]


def test_one_notice_names_the_choice_shown_and_goes_when_the_game_moves_on(table, session, clock):
    session.current = _offer(7, 1, 2, 3)
    press(table, "next", clock())
    press(table, "next", clock())
    table.pump()
    assert session.notices() == ["Next button: Take 2 (choice 2 of 3). Press Confirm to take it"]
    assert session.devices["table"]["choice"] == {
        "label": "Take 2",
        "action": {"kind": "pick", "n": 2},
        "index": 2,
        "count": 3,
    }
    session.current = _offer(8, 1, 2, 3)
    table.pump()
    assert session.notices() == []
    assert session.devices["table"]["choice"] is None


def test_microcontroller_buttons_are_named_by_the_config(session, registry, clock):
    from companion.table import Table, TableConfig

    from .table_fakes import toy_games

    config = TableConfig(buttons=(("3", "undo"), ("0", "shout:1")))
    table = Table(session, config, registry, clock=clock, games=toy_games)
    press(table, "3", clock())
    press(table, "0", 12.5)  # the device's own clock: only used to order shouts against each other
    table.pump()
    clock.advance(0.05)
    table.pump()
    assert [(c.kind, dict(c.payload)) for c in session.sent] == [
        ("undo", {}),
        ("act", {"kind": "shout", "player": 1}),
    ]
