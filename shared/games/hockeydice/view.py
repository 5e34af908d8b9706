"""The public view: everything in Hockey Championship is on the table, so everyone sees the same."""

from __future__ import annotations

import msgspec

from shared.games.hockeydice.dice import Faces
from shared.games.hockeydice.legal import pending_seats
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.rink import offense_seat, section_at
from shared.games.hockeydice.state import HockeyState, Phase, Shot, Stage, dice_count, winner_plays
from shared.games.rules import Viewer


class HockeyView(msgspec.Struct, frozen=True, kw_only=True, tag="hockeydice.HockeyView"):
    phase: Phase
    stage: Stage
    period: int
    shots: int
    shots_in_period: int
    shots_by: tuple[int, int]
    score: tuple[int, int]
    puck: int
    puck_section: str
    offense: tuple[int, ...]
    power_chip: int
    penalties: tuple[int, int]
    dice: tuple[int, int]
    rolls: tuple[Faces, Faces] | None
    roll_winner: int | None
    plays: tuple[Play, ...]
    shot: Shot | None
    shootout_shots: tuple[int, int]
    shootout_goals: tuple[int, int]
    pending: tuple[int, ...]
    winner: int | None


def shots_in_period(state: HockeyState) -> int:
    match state.stage:
        case Stage.REGULATION:
            return state.options.shots_per_period
        case Stage.OVERTIME:
            return state.options.overtime_shots
        case Stage.SHOOTOUT:
            return state.options.shootout_shots


def view(state: HockeyState, viewer: Viewer = None) -> HockeyView:
    on_offense = offense_seat(state.puck)
    section = section_at(state.rink, state.puck)
    return HockeyView(
        phase=state.phase,
        stage=state.stage,
        period=state.period,
        shots=state.shots,
        shots_in_period=shots_in_period(state),
        shots_by=state.shots_by,
        score=state.score,
        puck=state.puck,
        puck_section=section.name if section else "centre",
        offense=(0, 1) if on_offense is None else (on_offense,),
        power_chip=state.chip,
        penalties=state.penalties,
        dice=(dice_count(state, 0), dice_count(state, 1)),
        rolls=state.rolls,
        roll_winner=state.roll_winner,
        plays=winner_plays(state) if state.phase is Phase.PLAY else (),
        shot=state.shot,
        shootout_shots=state.shootout_shots,
        shootout_goals=state.shootout_goals,
        pending=tuple(sorted(pending_seats(state))),
        winner=state.winner,
    )
