"""Seed SETUP, and the opening event."""

from __future__ import annotations

import pytest

from shared.games.draws import RecordedDraws
from shared.games.rules import RuleViolation
from shared.games.vortex import Options, reference_board, rules
from shared.games.vortex.events import GameStarted
from shared.games.vortex.state import MONSTERS

from .support import started


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_phantoms_two_to_four(seats: int) -> None:
    """vortex.setup.phantoms: "one of four phantoms" — 2 to 4 phantoms race."""
    assert len(started(seats).phantoms) == seats


@pytest.mark.parametrize("seats", [0, 1, 5])
def test_setup_phantoms_rejects_other_counts(seats: int) -> None:
    with pytest.raises(RuleViolation) as caught:
        rules.new_game(Options(), seats, RecordedDraws())
    assert caught.value.code == "vortex.setup.phantoms"


def test_setup_coins_start_on_two() -> None:
    """vortex.setup.coins-two: "Players begin with their marker coins on TWO." """
    assert [p.coins for p in started().phantoms] == [2, 2, 2, 2]


@pytest.mark.parametrize(("seats", "starts"), [(2, [0, 12]), (3, [0, 6, 12]), (4, [0, 6, 12, 18])])
def test_setup_phantom_on_green_spiral(seats: int, starts: list[int]) -> None:
    """vortex.setup.green-spiral: "Each player's phantom should be placed on one of the green spirals." """
    state = started(seats)
    greens = reference_board().spirals("green")
    assert [p.stone for p in state.phantoms] == starts
    assert all(p.region == "outer" and p.stone in greens for p in state.phantoms)


def test_setup_three_monsters_each() -> None:
    """vortex.setup.monsters: "a Skeletal Hand, a Skeletal Warrior, and a Thing From Beyond", none on the board."""
    for phantom in started().phantoms:
        assert phantom.hand == MONSTERS
        assert phantom.monster is None and phantom.limbo == ()


def test_setup_first_event_records_options_and_board() -> None:
    """vortex.setup.recorded: the first event holds the options and the full board, for replay and audit."""
    options = Options(max_rounds=30)
    event = rules.new_game(options, 2, RecordedDraws())[0]
    assert isinstance(event, GameStarted)
    assert event.options == options and event.board == reference_board() and event.seats == 2


def test_setup_seat_zero_rolls_first() -> None:
    """vortex.turn.order: seat 0 begins; the turn starts with the Movement phase."""
    state = started()
    assert state.turn == 0 and state.phase == "roll" and state.round == 1
    assert rules.pending_seats(state) == frozenset({0})


def test_options_max_rounds_must_be_positive() -> None:
    with pytest.raises(RuleViolation) as caught:
        rules.new_game(Options(max_rounds=0), 2, RecordedDraws())
    assert caught.value.code == "vortex.options.max-rounds"
