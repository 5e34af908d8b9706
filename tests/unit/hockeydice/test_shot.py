from __future__ import annotations

import pytest

from shared.games.draws import DiceRequest, DrawsExhausted, RecordedDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import ChoosePlay, KeepPowerChip, Roll, UsePowerChip
from shared.games.hockeydice.events import PowerChipUsed, ShotCounted, ShotReason, ShotRolled
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.state import Phase

from .helpers import (
    CHECK,
    GOALIE_1,
    GOALIE_2,
    GOALIE_3,
    GOALIE_MASK,
    PUCK,
    REF,
    STICK,
    act,
    contest,
    dice,
    of_type,
    start,
)

WEAK = (STICK, STICK, PUCK, PUCK, CHECK, REF)
FOUR_PUCKS = (PUCK,) * 4 + (STICK, CHECK)


def sticks(count: int) -> tuple[int, ...]:
    return (STICK,) * count + (PUCK,) * (6 - count)


def shot_from_slot(state, shooter_sticks: int, goalie: int):
    """A Saucer Pass from the circle reaches the goal: a shot from the slot (+1)."""
    return contest(state, FOUR_PUCKS, WEAK, dice(*sticks(shooter_sticks)), dice(goalie))


def test_hockey_shot_sticks_total_plus_the_section_modifier() -> None:
    events, _ = shot_from_slot(start(puck=3), 2, GOALIE_3)
    shot = of_type(events, ShotRolled)[0]
    assert shot.faces.count("stick") == 2 and shot.modifier == 1 and shot.goalie == 3


def test_hockey_shot_defense_rolls_the_goaltender_die_only() -> None:
    recorded = RecordedDraws([dice(*FOUR_PUCKS), dice(*WEAK), dice(*sticks(2))])
    with pytest.raises(DrawsExhausted) as asked:
        rules.decide(start(puck=3), _roll(), recorded)
    assert asked.value.request == DiceRequest(6, 1)


@pytest.mark.parametrize(("count", "goalie"), [(1, GOALIE_1), (2, GOALIE_2), (3, GOALIE_3), (5, GOALIE_3)])
def test_hockey_shot_goal_when_sticks_beat_the_goaltender(count: int, goalie: int) -> None:
    events, after = shot_from_slot(start(puck=3), count, goalie)
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=True, reason=ShotReason.BEAT_GOALIE)]
    assert after.score == (1, 0)


@pytest.mark.parametrize(("count", "goalie"), [(0, GOALIE_2), (1, GOALIE_3), (0, GOALIE_3)])
def test_hockey_shot_blocked_when_the_goaltender_is_higher(count: int, goalie: int) -> None:
    events, after = shot_from_slot(start(puck=3), count, goalie)
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=False, reason=ShotReason.BLOCKED)]
    assert after.score == (0, 0)


def test_hockey_shot_point_modifier_subtracts_one() -> None:
    """Three sticks from the point count two: a tie with a goaltender 2, not a goal."""
    _, waiting = contest(start(puck=2), sticks(4), WEAK)
    events, tied = act(waiting, ChoosePlay(seat=0, play=Play.SHOOT), dice(*sticks(3)), dice(GOALIE_2))
    assert of_type(events, ShotCounted) == []
    assert tied.phase is Phase.SHOT_CHIP


@pytest.mark.parametrize("count", [0, 3, 5])
def test_hockey_shot_mask_is_an_automatic_save(count: int) -> None:
    events, after = shot_from_slot(start(puck=3), count, GOALIE_MASK)
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=False, reason=ShotReason.MASK)]
    assert after.score == (0, 0)


def test_hockey_chart_six_sticks_beats_the_mask_on_a_shot() -> None:
    events, after = shot_from_slot(start(puck=3), 6, GOALIE_MASK)
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=True, reason=ShotReason.SIX_STICKS)]
    assert after.score == (1, 0)


@pytest.mark.parametrize(
    ("holder", "command", "goal"), [(0, "use", True), (0, "keep", False), (1, "use", False), (1, "keep", True)]
)
def test_hockey_shot_tie_broken_by_the_power_chip(holder: int, command: str, goal: bool) -> None:
    _, tied = shot_from_slot(start(puck=3, chip=holder), 1, GOALIE_2)
    assert tied.phase is Phase.SHOT_CHIP
    assert rules.pending_seats(tied) == frozenset({holder})
    answer = UsePowerChip(seat=holder) if command == "use" else KeepPowerChip(seat=holder)
    events, after = act(tied, answer)
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=goal, reason=ShotReason.POWER_CHIP)]
    assert after.score == ((1, 0) if goal else (0, 0))
    assert after.chip == (1 - holder if command == "use" else holder)
    assert (of_type(events, PowerChipUsed) != []) == (command == "use")


@pytest.mark.parametrize("goalie", [GOALIE_2, GOALIE_MASK])
def test_hockey_shot_after_puck_to_centre_and_one_shot_counted(goalie: int) -> None:
    _, after = shot_from_slot(start(puck=3, shots=2, shots_by=(1, 1)), 3, goalie)
    assert after.puck == 0
    assert after.shots == 3
    assert after.shots_by == (2, 1)
    assert after.phase is Phase.ROLL


def _roll() -> Roll:
    return Roll(seat=0)


def test_hockey_shot_six_sticks_mask_six_dice_of_sticks_beat_the_mask_five_and_the_slot_do_not() -> None:
    """Reading hockey.shot.six-sticks-mask: six sticks on the dice beat the Mask; five plus the Slot's +1 is 6 in
    total but not six sticks, and the Mask saves it."""
    events, after = shot_from_slot(start(puck=3), 6, GOALIE_MASK)
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=True,
                                                        reason=ShotReason.SIX_STICKS)] and after.score == (1, 0)
    events, after = shot_from_slot(start(puck=3), 5, GOALIE_MASK)
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=False,
                                                        reason=ShotReason.MASK)] and after.score == (0, 0)


def test_hockey_shot_six_sticks_mask_refusal_of_the_power_chip_says_the_reading() -> None:
    from shared.games.hockeydice.options import HockeyOptions
    from shared.games.rules import RuleViolation

    state = start(puck=3, chip=1, options=HockeyOptions(power_chip_reroll=True))
    _, shot = act(state, Roll(seat=0), dice(*FOUR_PUCKS), dice(*WEAK))
    _, shot = act(shot, KeepPowerChip(seat=1), dice(*sticks(6)), dice(GOALIE_MASK))
    assert shot.phase is Phase.SHOT_CHIP
    with pytest.raises(RuleViolation) as refused:
        rules.decide(shot, UsePowerChip(seat=1), RecordedDraws())
    assert refused.value.code == "hockey.chip.no-tie" and "hockey.shot.six-sticks-mask" in refused.value.message
