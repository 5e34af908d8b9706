from __future__ import annotations

import pytest

from shared.games.draws import RecordedDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import KeepPowerChip, RerollWithPowerChip, UsePowerChip
from shared.games.hockeydice.dice import Symbol
from shared.games.hockeydice.events import PowerChipRerolled, RollWon, ShotCounted, ShotReason
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.state import Phase
from shared.games.rules import RuleViolation

from .helpers import CHECK, GOALIE_2, GOALIE_3, GOALIE_MASK, PUCK, REF, STICK, act, contest, dice, of_type, start

ADVANCED = HockeyOptions(power_chip_reroll=True)
WEAK = (STICK, STICK, PUCK, PUCK, CHECK, REF)
THREE_PUCKS = (PUCK, PUCK, PUCK, STICK, CHECK, REF)
THREE_STICKS = (STICK, STICK, STICK, PUCK, CHECK, REF)
FOUR_PUCKS = (PUCK,) * 4 + (STICK, CHECK)


def test_hockey_chip_reroll_off_by_default() -> None:
    _, tied = contest(start(chip=0), THREE_STICKS, THREE_PUCKS)
    assert all(not isinstance(command, RerollWithPowerChip) for command in rules.legal_commands(tied, 0))
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(tied, RerollWithPowerChip(seat=0, dice=(0,)), RecordedDraws())
    assert rejected.value.code == "hockey.chip.reroll-off"


def test_hockey_chip_reroll_offered_to_the_holder_on_any_roll() -> None:
    _, losing = contest(start(chip=0, options=ADVANCED), WEAK, THREE_PUCKS)
    assert losing.phase is Phase.CONTEST_CHIP
    legal = rules.legal_commands(losing, 0)
    assert KeepPowerChip(seat=0) in legal and UsePowerChip(seat=0) not in legal
    assert sum(isinstance(command, RerollWithPowerChip) for command in legal) == 63
    events, _ = act(losing, KeepPowerChip(seat=0))
    assert of_type(events, RollWon) == [RollWon(seat=1)]


def test_hockey_chip_reroll_replaces_the_named_dice_and_hands_the_chip_over() -> None:
    _, losing = contest(start(chip=0, options=ADVANCED), WEAK, THREE_PUCKS)
    events, after = act(losing, RerollWithPowerChip(seat=0, dice=(2, 3, 4, 5)), dice(STICK, STICK, STICK, PUCK))
    faces = (Symbol.STICK, Symbol.STICK, Symbol.STICK, Symbol.PUCK)
    assert events[0] == PowerChipRerolled(seat=0, dice=(2, 3, 4, 5), faces=faces)
    assert of_type(events, RollWon) == [RollWon(seat=0)]
    assert after.chip == 1
    assert after.puck == 1


def test_hockey_chip_reroll_tie_the_rerolling_team_loses() -> None:
    _, losing = contest(start(chip=0, options=ADVANCED), WEAK, THREE_PUCKS)
    events, after = act(losing, RerollWithPowerChip(seat=0, dice=(2, 3)), dice(STICK, CHECK))
    assert of_type(events, RollWon) == [RollWon(seat=1)]
    assert after.chip == 1
    assert after.puck == -2


def test_hockey_chip_reroll_only_once_per_roll() -> None:
    _, losing = contest(start(chip=0, options=ADVANCED), WEAK, THREE_PUCKS)
    _, after = act(losing, RerollWithPowerChip(seat=0, dice=(5,)), dice(CHECK))
    assert after.phase is Phase.ROLL
    assert rules.pending_seats(after) == frozenset({0, 1})


@pytest.mark.parametrize("bad", [(), (0, 0), (6,), (-1,)])
def test_hockey_chip_reroll_dice_must_be_own_dice_once(bad: tuple[int, ...]) -> None:
    _, losing = contest(start(chip=0, options=ADVANCED), WEAK, THREE_PUCKS)
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(losing, RerollWithPowerChip(seat=0, dice=bad), RecordedDraws())
    assert rejected.value.code == "hockey.chip.reroll-dice"


def test_hockey_chip_reroll_by_the_shooter_seed_example() -> None:
    """Three sticks on a shot: reroll the three other dice to beat the goaltender."""
    state = start(chip=0, options=ADVANCED, puck=3)
    _, contest_window = contest(state, FOUR_PUCKS, WEAK)
    _, shot_window = act(contest_window, KeepPowerChip(seat=0), dice(*(STICK,) * 3 + (PUCK,) * 3), dice(GOALIE_3))
    assert shot_window.phase is Phase.SHOT_CHIP
    events, after = act(shot_window, RerollWithPowerChip(seat=0, dice=(3, 4, 5)), dice(STICK, STICK, PUCK))
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=True, reason=ShotReason.BEAT_GOALIE)]
    assert after.score == (1, 0) and after.chip == 1


def test_hockey_chip_reroll_by_the_defense_rerolls_the_goaltender_die() -> None:
    state = start(chip=1, options=ADVANCED, puck=3)
    _, contest_window = contest(state, FOUR_PUCKS, WEAK)
    assert rules.pending_seats(contest_window) == frozenset({1})
    _, shot_window = act(contest_window, KeepPowerChip(seat=1), dice(*(STICK,) * 3 + (PUCK,) * 3), dice(GOALIE_2))
    assert rules.pending_seats(shot_window) == frozenset({1})
    assert [c for c in rules.legal_commands(shot_window, 1) if isinstance(c, RerollWithPowerChip)] == [
        RerollWithPowerChip(seat=1, dice=(0,))
    ]
    events, after = act(shot_window, RerollWithPowerChip(seat=1, dice=(0,)), dice(GOALIE_MASK))
    assert events[0] == PowerChipRerolled(seat=1, dice=(0,), goalie="mask")
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=False, reason=ShotReason.MASK)]
    assert after.chip == 0


def test_hockey_chip_reroll_tie_on_a_shot_the_rerolling_team_loses() -> None:
    state = start(chip=0, options=ADVANCED, puck=3)
    _, window = contest(state, FOUR_PUCKS, WEAK)
    _, shot_window = act(window, KeepPowerChip(seat=0), dice(STICK, PUCK, PUCK, PUCK, PUCK, PUCK), dice(GOALIE_3))
    events, _ = act(shot_window, RerollWithPowerChip(seat=0, dice=(1,)), dice(STICK))
    assert of_type(events, ShotCounted) == [ShotCounted(shooter=0, goal=False, reason=ShotReason.REROLL_TIE)]
