"""Seed Movement phase: the roll, clockwise rings, the two-way Temple."""

from __future__ import annotations

import pytest

from shared.games.rules import RuleViolation
from shared.games.vortex import rules
from shared.games.vortex.commands import ChooseDirection, Roll
from shared.games.vortex.events import PhantomMoved, Rolled

from .support import act, dice, of_type, put, started


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_move_exact_roll(value: int) -> None:
    """vortex.move.exact-roll: "Roll one dice and move that number ... You must move the entire number rolled." """
    state = put(started(), 0, stone=0, coins=0)
    rolls = [value] + ([6] if value == 4 else [])  # stone 4 is a shovel stone: one dig roll
    events, after = act(state, Roll(seat=0), *rolls)
    assert of_type(events, Rolled) == [Rolled(seat=0, value=value)]
    assert after.phantoms[0].stone == value
    assert of_type(events, PhantomMoved)[0].steps == value


def test_move_clockwise_in_outer_grounds_wraps_round_the_ring() -> None:
    """vortex.move.clockwise: "In the Outer Grounds and the Courtyard you must move in a clockwise direction." """
    state = put(started(), 0, stone=22)
    _, after = act(state, Roll(seat=0), 4)
    assert (after.phantoms[0].region, after.phantoms[0].stone) == ("outer", 2)


def test_move_clockwise_in_courtyard() -> None:
    """vortex.move.clockwise: the Courtyard ring (16 stones) is walked clockwise too; no direction to choose."""
    state = put(started(), 0, region="courtyard", stone=14, coins=0)
    events, after = act(state, Roll(seat=0), 4)
    assert of_type(events, PhantomMoved) == [PhantomMoved(seat=0, region="courtyard", start=14, stone=2, steps=4,
                                                          direction="clockwise")]
    assert after.phase == "magic"


def test_move_no_direction_outside_temple() -> None:
    """vortex.move.clockwise: a direction cannot be chosen outside the Temple."""
    state = started()
    with pytest.raises(RuleViolation) as caught:
        rules.decide(state, ChooseDirection(seat=0, direction="counterclockwise"), dice())
    assert caught.value.code == "vortex.turn.out-of-phase"


def test_move_temple_roll_then_choose_direction() -> None:
    """vortex.move.temple-any-direction: "In the Temple you may move in any direction": chosen after the roll."""
    state = put(started(), 0, region="temple", stone=4, coins=0)
    events, rolled = act(state, Roll(seat=0), 3)
    assert events == [Rolled(seat=0, value=3)]
    assert rolled.phase == "direction" and rolled.roll == 3
    _, ccw = act(rolled, ChooseDirection(seat=0, direction="counterclockwise"))
    _, cw = act(rolled, ChooseDirection(seat=0, direction="clockwise"))
    assert ccw.phantoms[0].stone == 1
    assert cw.phantoms[0].stone == 7


def test_move_temple_whole_roll_one_direction_round_the_ring() -> None:
    """vortex.move.temple-any-direction: "must move the entire number rolled in that direction (no doubling back)"."""
    state = put(started(), 0, region="temple", stone=2, coins=0)
    _, rolled = act(state, Roll(seat=0), 5)
    events, after = act(rolled, ChooseDirection(seat=0, direction="counterclockwise"))
    assert of_type(events, PhantomMoved) == [PhantomMoved(seat=0, region="temple", start=2, stone=9, steps=5,
                                                          direction="counterclockwise")]
    assert after.phantoms[0].stone == 9 and after.phase == "magic"


def test_move_temple_direction_must_be_a_direction() -> None:
    state = put(started(), 0, region="temple", stone=2, coins=0)
    _, rolled = act(state, Roll(seat=0), 5)
    with pytest.raises(RuleViolation) as caught:
        rules.decide(rolled, ChooseDirection(seat=0, direction="up"), dice())  # type: ignore[arg-type]
    assert caught.value.code == "vortex.move.temple-direction"


def test_move_temple_cannot_roll_twice() -> None:
    state = put(started(), 0, region="temple", stone=2, coins=0)
    _, rolled = act(state, Roll(seat=0), 5)
    with pytest.raises(RuleViolation) as caught:
        rules.decide(rolled, Roll(seat=0), dice(1))
    assert caught.value.code == "vortex.turn.out-of-phase"


def test_phantom_share_stone() -> None:
    """vortex.phantom.share-stone: "A phantom may share a stone" — landing on another phantom is allowed."""
    state = put(started(), 0, stone=14)
    _, after = act(state, Roll(seat=0), 4)
    assert after.phantoms[0].stone == after.phantoms[3].stone == 18
