"""Turn order, rounds, rejected commands and the ``max_rounds`` option."""

from __future__ import annotations

import pytest

from shared.games.rules import RuleViolation
from shared.games.vortex import rules
from shared.games.vortex.commands import KeepMonster, PlaceMonster, Roll
from shared.games.vortex.events import RaceEnded, TurnEnded

from .support import act, at, dice, monster, put, started


def test_turn_not_your_turn() -> None:
    """vortex.turn.not-your-turn: only the seat whose turn it is may act."""
    with pytest.raises(RuleViolation) as caught:
        rules.decide(started(), Roll(seat=2), dice(3))
    assert caught.value.code == "vortex.turn.not-your-turn"
    assert "seat 0" in caught.value.message
    assert rules.legal_commands(started(), 2) == []


def test_turn_out_of_phase() -> None:
    """vortex.turn.out-of-phase: the Magic phase comes after the roll, not before."""
    with pytest.raises(RuleViolation) as caught:
        rules.decide(started(), PlaceMonster(seat=0, monster="skeletal-hand", headstone="O1"), dice())
    assert caught.value.code == "vortex.turn.out-of-phase"
    assert "roll" in caught.value.message


def test_turn_rejected_command_changes_nothing() -> None:
    state = started()
    before = rules.view(state, None)
    with pytest.raises(RuleViolation):
        rules.decide(state, Roll(seat=1), dice(3))
    assert rules.view(state, None) == before


def test_turn_order_and_rounds() -> None:
    """vortex.turn.order: seats play in order 0, 1, ...; a round ends when every phantom has had a turn."""
    state = started(2)
    played = []
    for headstone in ("O1", "O2", None, None):
        seat = state.turn
        played.append((state.round, seat))
        _, state = act(put(state, seat, stone=12 * seat), Roll(seat=seat), 2)  # lands on a plain stone
        _, state = act(state, PlaceMonster(seat=seat, monster="skeletal-hand", headstone=headstone) if headstone
                       else KeepMonster(seat=seat))
    assert played == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert (state.round, state.turn) == (3, 0)


def test_race_max_rounds_default_off() -> None:
    """vortex.race.max-rounds: the option is off by default."""
    state = at(monster(started(2), 1, "skeletal-hand", "O1"), turn=1, phase="magic", round=500)
    events, _ = act(state, KeepMonster(seat=1))
    assert events[-1] == TurnEnded(seat=1, next_seat=0, round=501)


def test_race_max_rounds_ends_after_last_turn_of_last_round() -> None:
    """vortex.race.max-rounds: "the race ends after that many rounds and the phantom furthest in ... wins"."""
    state = started(3, max_rounds=5)
    state = put(state, 0, region="courtyard", stone=3, coins=1)
    state = put(state, 1, region="outer", stone=3, coins=9)
    state = monster(state, 2, "skeletal-hand", "O1")
    mid = at(state, turn=1, phase="magic", round=5)
    mid = monster(mid, 1, "skeletal-hand", "O2")
    events, after = act(mid, KeepMonster(seat=1))
    assert events[-1] == TurnEnded(seat=1, next_seat=2, round=5) and not rules.is_over(after)
    events, after = act(at(state, turn=2, phase="magic", round=5), KeepMonster(seat=2))
    assert events[-1] == RaceEnded(winners=(0,), reason="max_rounds")
    assert rules.is_over(after) and after.winners == (0,)


def test_race_max_rounds_then_coins_break_ties_of_region() -> None:
    """vortex.race.max-rounds: "Temple > Courtyard > Outer Grounds, then coins"."""
    state = started(2, max_rounds=1)
    state = put(put(state, 0, coins=4), 1, coins=7)
    state = at(monster(state, 1, "skeletal-hand", "O1"), turn=1, phase="magic")
    events, _ = act(state, KeepMonster(seat=1))
    assert events[-1] == RaceEnded(winners=(1,), reason="max_rounds")


def test_race_max_rounds_full_tie_is_shared() -> None:
    """vortex.race.max-rounds (decision): phantoms level on region and coins share the win."""
    state = started(2, max_rounds=1)
    state = put(put(state, 0, region="temple", stone=3, coins=0), 1, region="temple", stone=9, coins=0)
    state = at(monster(state, 1, "skeletal-hand", "O1"), turn=1, phase="magic")
    events, _ = act(state, KeepMonster(seat=1))
    assert events[-1] == RaceEnded(winners=(0, 1), reason="max_rounds")


def test_game_not_started() -> None:
    """vortex.game.not-started: no command before the opening event."""
    with pytest.raises(RuleViolation) as caught:
        rules.decide(rules.initial_state(), Roll(seat=0), dice(1))
    assert caught.value.code == "vortex.game.not-started"
    assert rules.legal_commands(None, 0) == [] and rules.pending_seats(None) == frozenset()
