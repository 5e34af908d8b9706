"""The position of a game, and the facts about it that both decide and evolve rely on."""

from __future__ import annotations

from enum import StrEnum

import msgspec

from shared.games.hockeydice.dice import MASK, TEAM_DICE, Faces, GoalieFace, six_sticks, sticks, top_count
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.plays import Play, legal_plays
from shared.games.hockeydice.rink import Section


class Phase(StrEnum):
    ROLL = "roll"
    CONTEST_CHIP = "contest-chip"
    PLAY = "play"
    SHOT_CHIP = "shot-chip"
    SHOOTOUT = "shootout"
    OVER = "over"
    # Steps that decide always carries on through within one command:
    CONTEST_DECIDE = "contest-decide"
    PLAY_AUTO = "play-auto"
    APPLY = "apply"
    SHOT_DECIDE = "shot-decide"
    CLOCK = "clock"


AWAITING = frozenset({Phase.ROLL, Phase.CONTEST_CHIP, Phase.PLAY, Phase.SHOT_CHIP, Phase.SHOOTOUT, Phase.OVER})
CHIP_PHASES = frozenset({Phase.CONTEST_CHIP, Phase.SHOT_CHIP})


class Stage(StrEnum):
    REGULATION = "regulation"
    OVERTIME = "overtime"
    SHOOTOUT = "shootout"


class Shot(msgspec.Struct, frozen=True):
    shooter: int
    faces: Faces
    goalie: GoalieFace
    modifier: int


class HockeyState(msgspec.Struct, frozen=True, kw_only=True):
    options: HockeyOptions
    rink: tuple[Section, ...]
    team_dice: int = TEAM_DICE
    phase: Phase = Phase.ROLL
    stage: Stage = Stage.REGULATION
    period: int = 1
    shots: int = 0
    """Shots on goal in the current period."""
    shots_by: tuple[int, int] = (0, 0)
    score: tuple[int, int] = (0, 0)
    puck: int = 0
    chip: int = 0
    penalties: tuple[int, int] = (0, 0)
    """Penalties against each team: it rolls that many dice fewer."""
    rolls: tuple[Faces, Faces] | None = None
    shot: Shot | None = None
    chip_decided: bool = False
    tie_winner: int | None = None
    chip_rerolled_by: int | None = None
    roll_winner: int | None = None
    play_faces: Faces = ()
    free_rerolled: bool = False
    play: Play | None = None
    shootout_shots: tuple[int, int] = (0, 0)
    shootout_goals: tuple[int, int] = (0, 0)
    winner: int | None = None


def dice_count(state: HockeyState, seat: int) -> int:
    return max(1, state.team_dice - state.penalties[seat])


def six_sticks_seat(rolls: tuple[Faces, Faces]) -> int | None:
    """The one team that rolled six Hockey Sticks: it wins the roll, and scores, whatever the other rolled. When both
    did, neither is singled out and the roll is a tie like any other: the team that wins it scores."""
    home, away = six_sticks(rolls[0]), six_sticks(rolls[1])
    if home == away:
        return None
    return 0 if home else 1


def contest_tied(state: HockeyState) -> bool:
    assert state.rolls is not None
    if six_sticks_seat(state.rolls) is not None:
        return False
    return top_count(state.rolls[0]) == top_count(state.rolls[1])


def shot_value(shot: Shot) -> int:
    return sticks(shot.faces) + shot.modifier


def shot_tied(shot: Shot) -> bool:
    return not six_sticks(shot.faces) and shot.goalie != MASK and shot_value(shot) == shot.goalie


def current_tie(state: HockeyState) -> bool:
    """Whether the roll the Power Chip holder is answering is tied."""
    if state.phase is Phase.CONTEST_CHIP:
        return contest_tied(state)
    assert state.shot is not None
    return shot_tied(state.shot)


def own_dice(state: HockeyState, seat: int) -> int:
    """How many dice ``seat`` has in the roll on the table (the defense has only the goaltender die on a shot)."""
    if state.phase is Phase.CONTEST_CHIP:
        assert state.rolls is not None
        return len(state.rolls[seat])
    assert state.shot is not None
    return len(state.shot.faces) if seat == state.shot.shooter else 1


def chip_window(state: HockeyState, tied: bool) -> bool:
    """The holder must answer: always on a tie, and on any roll under the power_chip_reroll rule."""
    return not state.chip_decided and (tied or state.options.power_chip_reroll)


def winner_plays(state: HockeyState) -> tuple[Play, ...]:
    assert state.roll_winner is not None
    return legal_plays(
        state.play_faces, state.rink, state.puck, state.roll_winner, after_free_reroll=state.free_rerolled
    )


def shootout_shooter(state: HockeyState) -> int:
    """Home shoots first; then they alternate."""
    return 0 if state.shootout_shots[0] == state.shootout_shots[1] else 1


def shootout_winner(state: HockeyState) -> int | None:
    taken, goals = state.shootout_shots, state.shootout_goals
    if taken[0] == taken[1] and taken[0] >= state.options.shootout_shots and goals[0] != goals[1]:
        return 0 if goals[0] > goals[1] else 1
    return None


def leader(score: tuple[int, int]) -> int | None:
    if score[0] == score[1]:
        return None
    return 0 if score[0] > score[1] else 1
