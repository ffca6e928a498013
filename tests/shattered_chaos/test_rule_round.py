"""The round (VII) and the adventurer phase's actions and skills (V.B, V.F, V.G), with their lines."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine import IllegalActionError
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.state import ADVENTURERS, CHAOS, ENEMIES, Condition

from .rules_support import (
    BASTION,
    DEADEYE,
    GAME,
    RAIDER,
    STALKER,
    apply,
    enemies,
    new,
    spend_all,
    texts,
    with_hero,
)


def test_setup_two_action_tokens_two_chaos_tokens_start_lives() -> None:
    """VIII.11-13 (lines 2684-2690): 2 action tokens, 2 chaos tokens, the clip on the start value; round 1."""
    state = new()
    for hero in state.party:
        card = GAME.catalog.adventurer(hero.card)
        assert (hero.actions, hero.chaos, hero.life) == (2, 2, card.start_life)
    assert state.round == 1 and state.phase == ADVENTURERS


def test_the_adventurer_phase_ends_when_every_action_token_is_turned() -> None:
    """VII.1 line 2584: any order, an adventurer need not finish before another starts; when all action tokens
    are turned, the adventurer phase ends."""
    state = enemies(new(), 21)
    state, _ = apply(state, act.Move(BASTION), act.Move(DEADEYE), act.Move(BASTION))
    with pytest.raises(IllegalActionError, match="no action token left"):
        GAME.apply(state, act.Move(BASTION))
    state = spend_all(state)
    assert state.phase == ENEMIES


def test_no_enemy_on_the_board_the_enemy_phase_passes() -> None:
    state = spend_all(new())
    assert state.phase == ADVENTURERS and state.round == 2


def test_the_chaos_phase_draws_a_card_per_killed_enemy_clockwise_from_the_starting_player() -> None:
    """VII.3.2 and example 1 (lines 2540-2565): 4 killed enemies, Bastion starts: Bastion, the next
    clockwise..., one holding 2 chaos cards abstains; then the graveyard is emptied (line 2501); the round
    marker moves and the starting player card passes clockwise (line 2502)."""
    state = enemies(new(), 21, 22, 23, 24)
    for number in (21, 22, 23, 24):
        state, _ = apply(state, act.SetLives(number, 0))
    state = with_hero(state, RAIDER, cards=("b1", "b2"))
    state = spend_all(state)
    assert state.phase == CHAOS and all(h.actions == 2 for h in state.party)  # turned back (line 2498)
    assert GAME.prompt(state).players == (BASTION,)
    state, _ = apply(state, act.DrawCard(BASTION, "b3"))
    assert GAME.prompt(state).players == (DEADEYE,)
    state, events = apply(state, act.DrawCard(DEADEYE, "b4"))
    assert "Raider holds 2 chaos cards: no chaos card" in texts(events)
    assert GAME.prompt(state).players == (STALKER,)
    state, events = apply(state, act.DrawCard(STALKER, "b25"))
    assert state.graveyard == () and state.round == 2 and state.starting == DEADEYE
    assert "Deadeye is the starting player" in texts(events)
    assert state.party[STALKER].cards == ("b25",) and "b25" not in state.stack("flexible")


def test_a_big_enemy_in_the_graveyard_counts_three_draws() -> None:
    """X.2 line 3042."""
    state = enemies(new(), 41)
    state, _ = apply(state, act.SetLives(41, 0))
    state = spend_all(state)
    assert state.steps[0].total == 3 and state.steps[0].done == 1  # the first of 3 draws under way


def test_condition_tokens_turn_to_the_half_side_then_go() -> None:
    """X.4 line 3066: full side turned to the half side in the chaos phase; a half side discarded."""
    state = enemies(new(), 21, 41)
    state, _ = apply(
        state, act.PlaceCondition("poison", adventurer=BASTION), act.PlaceCondition("poison", model=41)
    )
    assert state.model(41).conditions == (
        Condition("poison", True),
    )  # half side under a big enemy (line 3060)
    state = spend_all(state)
    state = _through_enemy_phase(state)
    assert (
        state.party[BASTION].conditions == (Condition("poison", True),) and state.model(41).conditions == ()
    )


def _through_enemy_phase(state):
    """Answers the enemies' questions with "nobody" and the closest with the first adventurer."""
    while state.phase == ENEMIES:
        top = state.top
        if top.asking in ("closest", "nearest"):
            state, _ = apply(state, act.Closest(top.model, top.candidates[0]))
        else:
            state, _ = apply(state, act.Sighted(top.model, ()))
    return state


def test_a_chaos_call_gives_a_chaos_token_a_card_and_another_adventurers_card() -> None:
    """V.B.3 (line 779): a chaos token, a chaos card of his choice, another adventurer who may also draw."""
    state, _ = apply(new(), act.ChaosCall(BASTION))
    assert state.party[BASTION].chaos == 3 and state.party[BASTION].actions == 1
    assert GAME.prompt(state).kind == "draw" and GAME.prompt(state).players == (BASTION,)
    state, _ = apply(state, act.DrawCard(BASTION, "b13"))
    prompt = GAME.prompt(state)
    assert prompt.kind == "partner" and {c.label for c in prompt.choices} >= {"Deadeye", "Nobody"}
    state, _ = apply(state, act.Partner(BASTION, STALKER), act.DrawCard(STALKER, "b31"))
    assert state.party[BASTION].cards == ("b13",) and state.party[STALKER].cards == ("b31",)
    assert not state.steps


def test_at_most_two_chaos_cards() -> None:
    """V.G line 1549: up to 2 chaos cards on the adventurer card."""
    state = with_hero(new(), BASTION, cards=("b1", "b2"))
    state, events = apply(state, act.ChaosCall(BASTION))
    assert "holds 2 chaos cards" in texts(events) and GAME.prompt(state).kind == "partner"


def test_a_chaos_card_discarded_unused_gives_a_chaos_token() -> None:
    """V.G line 1571: at any time, for a chaos token from a small chaos board."""
    state = with_hero(new(), DEADEYE, cards=("b1",), chaos=1)
    state, _ = apply(state, act.DiscardCard(DEADEYE, "b1"))
    assert state.party[DEADEYE].cards == () and state.party[DEADEYE].chaos == 2 and state.discard == ("b1",)


def test_chaos_steps_before_an_action_cost_a_token_each_and_no_action_token() -> None:
    """V.F.1 line 1255: up to 4 steps before one action, one chaos token each; no action token (line 1262)."""
    state = with_hero(new(), BASTION, chaos=4)
    state, _ = apply(state, act.ChaosStep(BASTION, 3))
    assert state.party[BASTION].chaos == 1 and state.party[BASTION].actions == 2
    with pytest.raises(IllegalActionError, match="Up to 4 chaos steps"):
        GAME.apply(with_hero(state, BASTION, chaos=4), act.ChaosStep(BASTION, 2))
    state, _ = apply(state, act.Move(BASTION))
    state, _ = apply(with_hero(state, BASTION, chaos=4), act.ChaosStep(BASTION, 4))  # a new action: 4 again


def test_stalker_steps_once_before_each_action() -> None:
    """V.E line 1212: one step before each of her actions."""
    state, events = apply(new(), act.TalentStep(STALKER))
    assert "Stalker moves 1 step (talent)" in texts(events)
    with pytest.raises(IllegalActionError, match="already"):
        GAME.apply(state, act.TalentStep(STALKER))
    state, _ = apply(state, act.Move(STALKER), act.TalentStep(STALKER))
    with pytest.raises(IllegalActionError, match="no talent"):
        GAME.apply(state, act.TalentStep(BASTION))


def test_chaos_tokens_on_the_map_are_picked_up_by_adventurers() -> None:
    """V.B.1 line 666: an adventurer on or across a space with chaos tokens picks up as many as he chooses."""
    state = replace(new(), map_chaos=3)
    state, _ = apply(state, act.PickUp(BASTION, 2))
    assert state.party[BASTION].chaos == 4 and state.map_chaos == 1
    with pytest.raises(IllegalActionError, match="room"):
        GAME.apply(state, act.PickUp(BASTION, 1))  # a ledger holds 4 (line 518)
    with pytest.raises(IllegalActionError, match="on the map"):
        GAME.apply(state, act.PickUp(DEADEYE, 2))
    state, _ = apply(state, act.PlaceChaos(2), act.PickUp(DEADEYE, 2))
    assert state.party[DEADEYE].chaos == 4


def test_an_interaction_turns_an_adventure_token_and_names_its_card() -> None:
    """V.B.2: the number on the token's back names the adventure card to read."""
    state, events = apply(new(), act.Interact(DEADEYE, "6"))
    assert "read adventure card 6" in texts(events) and state.revealed == ("6",)
    assert state.party[DEADEYE].actions == 1


def test_a_setup_the_rules_do_not_allow_is_refused() -> None:
    from companion.engine import Player, Setup, SetupError

    def setup(players: int, **options):
        return Setup(
            "shattered-chaos", tuple(Player(f"P{i}") for i in range(players)), tuple(options.items())
        )

    for bad, message in [
        (setup(3), "4 or 5 adventurers"),
        (setup(4, adventurers="Bastion, Bastion, Raider, Stalker"), "once"),
        (setup(4, adventurers="Bastion, Gandalf, Raider, Stalker"), "not an adventurer"),
        (setup(4, adventurers="Bastion, Raider"), "one adventurer per player"),
        (setup(4, adventure=11), "adventure must be"),
        (setup(4, starting=5), "starting"),
        (setup(4, campaign="adventures: 1X2"), "campaign log"),
        (setup(4, weather="fine"), "unknown options"),
    ]:
        with pytest.raises(SetupError, match=message):
            GAME.new_game(bad)
    five = GAME.new_game(setup(5, starting=5))
    assert five.starting == 4 and len(five.party) == 5


def test_narrator_stacks_and_adventure_cards_from_the_owners_data(tmp_path) -> None:
    """IV.1: narrator cards read in alphabetical and numerical order, a stack's current card first, a card
    put onto another stack on a card's say; V.B.2: an interaction names the adventure card to read."""
    from companion.games.shattered_chaos.engine import ShatteredChaos

    path = tmp_path / "owner.toml"
    path.write_text(
        """
[[adventures]]
number = 1
narrator = [{ card = "A 1.1", text = "Place gremlins 21 and 22." }, { card = "A 1.2" }, { card = "B 1" }]
adventure_cards = { "6" = "You find a healing spring: +2 lives." }
provenance = "my adventure 1 deck"
""",
        encoding="utf-8",
    )
    engine = ShatteredChaos.with_owner_data(path)
    from companion.engine import Player, Setup

    state = engine.new_game(Setup("shattered-chaos", tuple(Player(f"P{i}") for i in range(4)), ()))
    assert state.narrator == (("A", ("A 1.1", "A 1.2")), ("B", ("B 1",)))
    view = engine.view(state)
    assert view["narrator"][0] == {
        "stack": "A",
        "current": "A 1.1",
        "text": "Place gremlins 21 and 22.",
        "left": 2,
    }
    with pytest.raises(IllegalActionError, match="current card"):
        engine.apply(state, act.ReadNarrator("A 1.2"))
    state, events = engine.apply(state, act.ReadNarrator("A 1.1"))
    assert state.narrator[0] == ("A", ("A 1.2",)) and "next on stack A: A 1.2" in texts(list(events))
    state, _ = engine.apply(state, act.MoveNarrator("B 1", "A"))
    assert state.narrator == (("A", ("B 1", "A 1.2")), ("B", ()))
    state, events = engine.apply(state, act.Interact(DEADEYE, "6"))
    assert "You find a healing spring" in texts(list(events))
