from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.draws import RecordedDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import Shoot
from shared.games.hockeydice.events import GameEnded, PeriodEnded, ShotRolled
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.state import HockeyState, Phase, Stage
from shared.games.rules import RuleViolation

from .helpers import CHECK, GOALIE_1, GOALIE_MASK, PUCK, REF, STICK, act, contest, dice, of_type, start

WEAK = (STICK, STICK, PUCK, PUCK, CHECK, REF)
FOUR_PUCKS = (PUCK,) * 4 + (STICK, CHECK)


def goal(state: HockeyState, seat: int):
    home, away = ((STICK,) * 6, WEAK) if seat == 0 else (WEAK, (STICK,) * 6)
    return contest(state, home, away)


def miss(state: HockeyState):
    """Home's Saucer Pass from the circle reaches the goal; the mask saves."""
    return contest(replace(state, puck=3), FOUR_PUCKS, WEAK, dice(*(PUCK,) * 6), dice(GOALIE_MASK))


def shootout_shot(state: HockeyState, seat: int, scores: bool):
    faces = (STICK,) * 6 if scores else (PUCK,) * 6
    return act(state, Shoot(seat=seat), dice(*faces), dice(GOALIE_MASK if not scores else GOALIE_1))


def test_hockey_period_length_five_shots_then_reset() -> None:
    state = start()
    for shot in range(1, 5):
        _, state = miss(state)
        assert (state.period, state.shots) == (1, shot)
    events, state = miss(state)
    assert of_type(events, PeriodEnded) == [PeriodEnded(period=1, next="period")]
    assert (state.period, state.shots, state.stage) == (2, 0, Stage.REGULATION)


def test_hockey_period_length_six_sticks_goal_counts_as_a_shot() -> None:
    events, state = goal(start(shots=4), 1)
    assert of_type(events, PeriodEnded) == [PeriodEnded(period=1, next="period")]
    assert state.score == (0, 1) and state.period == 2


def test_hockey_end_regulation_after_three_periods_the_leader_wins() -> None:
    state = start()
    for _ in range(14):
        _, state = miss(state)
    _, state = goal(state, 1)
    assert state.phase is Phase.OVER and rules.is_over(state)
    assert state.winner == 1
    assert state.shots_by[0] + state.shots_by[1] == 15


def test_hockey_end_regulation_game_ended_event() -> None:
    events, state = miss(start(period=3, shots=4, score=(2, 1)))
    assert of_type(events, PeriodEnded) == [PeriodEnded(period=3, next="final")]
    assert of_type(events, GameEnded) == [
        GameEnded(winner=0, decided_in="regulation", score=(2, 1), shootout_goals=(0, 0))]
    assert rules.pending_seats(state) == frozenset()
    assert rules.legal_commands(state, 0) == [] and rules.legal_commands(state, 1) == []


def test_hockey_end_overtime_after_a_tied_regulation() -> None:
    events, state = miss(start(period=3, shots=4, score=(1, 1)))
    assert of_type(events, PeriodEnded) == [PeriodEnded(period=3, next="overtime")]
    assert state.stage is Stage.OVERTIME and state.period == 4 and state.shots == 0
    assert not rules.is_over(state)


def test_hockey_end_overtime_first_goal_wins() -> None:
    state = start(period=4, stage=Stage.OVERTIME, score=(2, 2))
    _, state = miss(state)
    events, state = goal(state, 1)
    assert of_type(events, GameEnded) == [
        GameEnded(winner=1, decided_in="overtime", score=(2, 3), shootout_goals=(0, 0))]
    assert state.winner == 1 and state.shots == 2


def test_hockey_end_overtime_five_shots_without_goal_go_to_shootout() -> None:
    state = start(period=4, stage=Stage.OVERTIME, score=(2, 2))
    for _ in range(4):
        _, state = miss(state)
        assert state.stage is Stage.OVERTIME
    events, state = miss(state)
    assert of_type(events, PeriodEnded) == [PeriodEnded(period=4, next="shootout")]
    assert state.stage is Stage.SHOOTOUT and state.phase is Phase.SHOOTOUT
    assert rules.pending_seats(state) == frozenset({0})


def _shootout() -> HockeyState:
    return start(period=5, stage=Stage.SHOOTOUT, phase=Phase.SHOOTOUT, score=(2, 2))


def test_hockey_end_shootout_teams_alternate_home_first() -> None:
    state = _shootout()
    for expected in (0, 1, 0, 1):
        assert rules.pending_seats(state) == frozenset({expected})
        assert rules.legal_commands(state, expected) == [Shoot(seat=expected)]
        _, state = shootout_shot(state, expected, False)


def test_hockey_end_shootout_wrong_team_rejected() -> None:
    with pytest.raises(RuleViolation) as rejected:
        rules.decide(_shootout(), Shoot(seat=1), RecordedDraws())
    assert rejected.value.code == "hockey.turn.not-pending"


def test_hockey_end_shootout_shot_has_no_rink_modifier() -> None:
    events, _ = shootout_shot(_shootout(), 0, False)
    assert of_type(events, ShotRolled)[0].modifier == 0
    assert len(of_type(events, ShotRolled)[0].faces) == 6


def test_hockey_end_shootout_three_shots_each_most_goals_wins() -> None:
    state = _shootout()
    plan = [(0, True), (1, False), (0, True), (1, False), (0, False)]
    for seat, scores in plan:
        events, state = shootout_shot(state, seat, scores)
        assert of_type(events, GameEnded) == []
    events, state = shootout_shot(state, 1, True)
    assert of_type(events, GameEnded) == [
        GameEnded(winner=0, decided_in="shootout", score=(2, 2), shootout_goals=(2, 1))]
    assert state.shootout_shots == (3, 3)
    assert state.score == (2, 2)


def test_hockey_end_shootout_alternate_until_one_leads_after_equal_shots() -> None:
    state = _shootout()
    for seat in (0, 1, 0, 1, 0, 1):
        _, state = shootout_shot(state, seat, True)
    assert not rules.is_over(state)
    _, state = shootout_shot(state, 0, True)
    _, state = shootout_shot(state, 1, True)
    assert not rules.is_over(state)
    events, state = shootout_shot(state, 0, False)
    assert of_type(events, GameEnded) == []
    events, state = shootout_shot(state, 1, True)
    assert of_type(events, GameEnded) == [
        GameEnded(winner=1, decided_in="shootout", score=(2, 2), shootout_goals=(4, 5))]


def test_hockey_options_periods_and_shots_are_table_options() -> None:
    state = start(options=HockeyOptions(periods=1, shots_per_period=2, overtime_shots=0))
    _, state = miss(state)
    events, state = miss(state)
    assert of_type(events, PeriodEnded) == [PeriodEnded(period=1, next="shootout")]
    assert state.stage is Stage.SHOOTOUT
