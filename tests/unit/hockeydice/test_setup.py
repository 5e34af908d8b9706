from __future__ import annotations

import msgspec
import pytest

from shared.games.draws import DiceRequest, Draw, DrawsExhausted, RangeRequest, RecordedDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import Roll
from shared.games.hockeydice.dice import GOALIE_DIE, MASK, PLAYER_DIE, Symbol
from shared.games.hockeydice.events import GameStarted, PowerChipTossed
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.rink import RINK
from shared.games.hockeydice.state import Phase
from shared.games.rules import RuleViolation

from .helpers import start


def test_hockey_setup_teams_first_event_records_options_dice_and_rink() -> None:
    options = HockeyOptions(power_chip_reroll=True)
    events = rules.new_game(options, 2, RecordedDraws([_toss(1)]))
    first = events[0]
    assert isinstance(first, GameStarted)
    assert first.options == options
    assert first.options.player_die == PLAYER_DIE
    assert first.options.goalie_die == GOALIE_DIE
    assert first.rink == RINK
    assert first.team_dice == 6


def test_hockey_setup_teams_reference_dice_of_rules_md() -> None:
    assert PLAYER_DIE.count(Symbol.STICK) == 2
    assert PLAYER_DIE.count(Symbol.PUCK) == 2
    assert PLAYER_DIE.count(Symbol.CHECK) == 1
    assert PLAYER_DIE.count(Symbol.PENALTY) == 1
    assert GOALIE_DIE == (1, 1, 2, 2, 3, MASK)
    assert [(section.name, section.shot_modifier) for section in RINK] == [
        ("neutral", None),
        ("point", -1),
        ("circle", 0),
        ("slot", 1),
    ]


def test_hockey_setup_teams_each_team_rolls_six_dice() -> None:
    with pytest.raises(DrawsExhausted) as asked:
        rules.decide(start(), Roll(seat=0), RecordedDraws())
    assert asked.value.request == DiceRequest(6, 6)


def test_hockey_setup_puck_centre_at_start() -> None:
    state = start()
    assert state.puck == 0
    assert rules.view(state, None).puck_section == "centre"
    assert state.period == 1 and state.shots == 0 and state.score == (0, 0)


@pytest.mark.parametrize("holder", [0, 1])
def test_hockey_setup_chip_toss_gives_the_chip(holder: int) -> None:
    events = rules.new_game(HockeyOptions(), 2, RecordedDraws([_toss(holder)]))
    assert events[1] == PowerChipTossed(holder=holder)
    assert start(chip=holder).chip == holder


def test_hockey_setup_chip_toss_is_a_recorded_draw() -> None:
    with pytest.raises(DrawsExhausted) as asked:
        rules.new_game(HockeyOptions(), 2, RecordedDraws())
    assert asked.value.request == RangeRequest(0, 1)


def test_hockey_setup_two_teams_only() -> None:
    with pytest.raises(RuleViolation) as rejected:
        rules.new_game(HockeyOptions(), 3, RecordedDraws([_toss(0)]))
    assert rejected.value.code == "hockey.setup.two-teams"


@pytest.mark.parametrize(
    "options",
    [
        HockeyOptions(player_die=(Symbol.STICK,) * 5),
        HockeyOptions(goalie_die=(1, 2, 3)),
        HockeyOptions(goalie_die=(1, 1, 2, 2, -3, MASK)),
        HockeyOptions(periods=0),
        HockeyOptions(overtime_shots=-1),
    ],
)
def test_hockey_options_invalid_rejected(options: HockeyOptions) -> None:
    with pytest.raises(RuleViolation) as rejected:
        rules.new_game(options, 2, RecordedDraws([_toss(0)]))
    assert rejected.value.code == "hockey.options.invalid"


def test_hockey_options_defaults_and_json_round_trip() -> None:
    options = HockeyOptions()
    assert (options.periods, options.shots_per_period, options.overtime_shots, options.shootout_shots) == (3, 5, 5, 3)
    assert options.power_chip_reroll is False
    assert msgspec.json.decode(msgspec.json.encode(options), type=HockeyOptions) == options


def test_hockey_game_not_started_rejects_commands() -> None:
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(None, Roll(seat=0), RecordedDraws())
    assert rejected.value.code == "hockey.game.not-started"


def test_hockey_game_over_rejects_commands() -> None:
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(start(phase=Phase.OVER, winner=0), Roll(seat=0), RecordedDraws())
    assert rejected.value.code == "hockey.game.over"


def test_hockey_seat_unknown_rejected() -> None:
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(start(), Roll(seat=2), RecordedDraws())
    assert rejected.value.code == "hockey.seat.unknown"


def _toss(holder: int) -> Draw:
    return Draw(RangeRequest(0, 1), (holder,))
