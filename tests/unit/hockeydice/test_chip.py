from __future__ import annotations

import pytest

from shared.games.draws import RecordedDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import KeepPowerChip, Roll, UsePowerChip
from shared.games.hockeydice.events import PowerChipKept, PowerChipUsed, RollWon
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.state import Phase
from shared.games.rules import RuleViolation

from .helpers import CHECK, PUCK, REF, STICK, act, contest, of_type, start

THREE_STICKS = (STICK, STICK, STICK, PUCK, CHECK, REF)
THREE_PUCKS = (PUCK, PUCK, PUCK, STICK, CHECK, REF)
WEAK = (STICK, STICK, PUCK, PUCK, CHECK, REF)


@pytest.mark.parametrize("holder", [0, 1])
def test_hockey_chip_tie_holder_decides(holder: int) -> None:
    _, tied = contest(start(chip=holder), THREE_STICKS, THREE_PUCKS)
    assert tied.phase is Phase.CONTEST_CHIP
    assert rules.pending_seats(tied) == frozenset({holder})
    assert set(rules.legal_commands(tied, holder)) == {UsePowerChip(seat=holder), KeepPowerChip(seat=holder)}
    assert rules.legal_commands(tied, 1 - holder) == []


@pytest.mark.parametrize("holder", [0, 1])
def test_hockey_chip_tie_using_it_wins_the_roll(holder: int) -> None:
    _, tied = contest(start(chip=holder), THREE_STICKS, THREE_PUCKS)
    events, _ = act(tied, UsePowerChip(seat=holder))
    assert events[:2] == [PowerChipUsed(seat=holder), RollWon(seat=holder)]


@pytest.mark.parametrize("holder", [0, 1])
def test_hockey_chip_hand_over_after_use(holder: int) -> None:
    _, tied = contest(start(chip=holder), THREE_STICKS, THREE_PUCKS)
    _, after = act(tied, UsePowerChip(seat=holder))
    assert after.chip == 1 - holder


@pytest.mark.parametrize("holder", [0, 1])
def test_hockey_chip_keep_lets_the_opponent_win(holder: int) -> None:
    _, tied = contest(start(chip=holder), THREE_STICKS, THREE_PUCKS)
    events, after = act(tied, KeepPowerChip(seat=holder))
    assert events[:2] == [PowerChipKept(seat=holder), RollWon(seat=1 - holder)]
    assert after.chip == holder


def test_hockey_chip_not_holder_rejected() -> None:
    _, tied = contest(start(chip=0), THREE_STICKS, THREE_PUCKS)
    for command in (UsePowerChip(seat=1), KeepPowerChip(seat=1)):
        with pytest.raises(RuleViolation) as rejected:
            rules.decide(tied, command, RecordedDraws())
        assert rejected.value.code == "hockey.chip.not-holder"


def test_hockey_chip_no_tie_rejected() -> None:
    _, open_window = contest(start(chip=0, options=HockeyOptions(power_chip_reroll=True)), THREE_STICKS, WEAK)
    assert open_window.phase is Phase.CONTEST_CHIP
    assert UsePowerChip(seat=0) not in rules.legal_commands(open_window, 0)
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(open_window, UsePowerChip(seat=0), RecordedDraws())
    assert rejected.value.code == "hockey.chip.no-tie"


def test_hockey_chip_only_asked_on_a_tie_without_the_advanced_rule() -> None:
    events, after = contest(start(chip=1), THREE_STICKS, WEAK)
    assert of_type(events, RollWon) == [RollWon(seat=0)]
    assert after.phase is Phase.ROLL


def test_hockey_turn_wrong_command_while_chip_pending() -> None:
    _, tied = contest(start(chip=0), THREE_STICKS, THREE_PUCKS)
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(tied, Roll(seat=0), RecordedDraws())
    assert rejected.value.code == "hockey.turn.wrong-command"
