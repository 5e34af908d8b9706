"""The end of a period, of overtime, of the shoot-out, and of the game."""

from __future__ import annotations

from typing import Literal, assert_never

from shared.games.hockeydice.events import Event, GameEnded, PeriodEnded
from shared.games.hockeydice.state import HockeyState, Stage, leader, shootout_winner


def period_over(state: HockeyState) -> bool:
    """Whether the shot just counted ends the period, overtime or shoot-out."""
    match state.stage:
        case Stage.REGULATION:
            return state.shots >= state.options.shots_per_period
        case Stage.OVERTIME:
            return leader(state.score) is not None or state.shots >= state.options.overtime_shots
        case Stage.SHOOTOUT:
            return shootout_winner(state) is not None
        case _:
            assert_never(state.stage)


def clock_events(state: HockeyState) -> list[Event]:
    ahead = leader(state.score)
    options = state.options
    match state.stage:
        case Stage.REGULATION:
            if state.period < options.periods:
                return [PeriodEnded(period=state.period, next="period")]
            if ahead is not None:
                return [PeriodEnded(period=state.period, next="final"), _ended(state, ahead, "regulation")]
            return [PeriodEnded(period=state.period, next="overtime" if options.overtime_shots > 0 else "shootout")]
        case Stage.OVERTIME:
            if ahead is not None:
                return [_ended(state, ahead, "overtime")]
            return [PeriodEnded(period=state.period, next="shootout")]
        case Stage.SHOOTOUT:
            winner = shootout_winner(state)
            assert winner is not None
            return [_ended(state, winner, "shootout")]
        case _:
            assert_never(state.stage)


def _ended(state: HockeyState, winner: int, stage: Literal["regulation", "overtime", "shootout"]) -> GameEnded:
    return GameEnded(winner=winner, decided_in=stage, score=state.score, shootout_goals=state.shootout_goals)
