"""The fold: each event gives a new state; no draws, no checks."""

from __future__ import annotations

from typing import TypeVar, assert_never

from msgspec.structs import replace

from shared.games.hockeydice.clock import period_over
from shared.games.hockeydice.events import (
    ContestRolled,
    Event,
    FreeRerolled,
    GameEnded,
    GameStarted,
    PenaltyCalled,
    PeriodEnded,
    PlayChosen,
    PowerChipKept,
    PowerChipRerolled,
    PowerChipTossed,
    PowerChipUsed,
    PuckMoved,
    RollWon,
    ShotCounted,
    ShotRolled,
)
from shared.games.hockeydice.state import (
    HockeyState,
    Phase,
    Shot,
    Stage,
    chip_window,
    contest_tied,
    shot_tied,
    winner_plays,
)

T = TypeVar("T")


def _with(pair: tuple[int, int], seat: int, add: int) -> tuple[int, int]:
    return (pair[0] + add, pair[1]) if seat == 0 else (pair[0], pair[1] + add)


def _patched(faces: tuple[T, ...], dice: tuple[int, ...], new: tuple[T, ...]) -> tuple[T, ...]:
    changed = list(faces)
    for index, face in zip(dice, new, strict=True):
        changed[index] = face
    return tuple(changed)


def _settled(state: HockeyState, phase: Phase) -> HockeyState:
    """The roll is over; its dice, winner, play and shot stay visible until the next roll."""
    return replace(state, phase=phase, chip_decided=False, tie_winner=None, chip_rerolled_by=None)


def _after_play_faces(state: HockeyState) -> HockeyState:
    plays = winner_plays(state)
    if not plays:
        return _settled(state, Phase.ROLL)
    return replace(state, phase=Phase.PLAY if len(plays) > 1 else Phase.PLAY_AUTO)


def _shot_counted(state: HockeyState, event: ShotCounted) -> HockeyState:
    goal = 1 if event.goal else 0
    if state.stage is Stage.SHOOTOUT:
        state = replace(
            state,
            shootout_shots=_with(state.shootout_shots, event.shooter, 1),
            shootout_goals=_with(state.shootout_goals, event.shooter, goal),
        )
    else:
        state = replace(
            state,
            shots=state.shots + 1,
            shots_by=_with(state.shots_by, event.shooter, 1),
            score=_with(state.score, event.shooter, goal),
            puck=0,
            penalties=(0, 0),
        )
    waiting = Phase.SHOOTOUT if state.stage is Stage.SHOOTOUT else Phase.ROLL
    return _settled(state, Phase.CLOCK if period_over(state) else waiting)


def evolve(state: HockeyState | None, event: Event) -> HockeyState:
    if state is None:
        assert isinstance(event, GameStarted), "a game's first event is GameStarted"
        return HockeyState(options=event.options, rink=event.rink, team_dice=event.team_dice)
    match event:
        case GameStarted():
            raise AssertionError("GameStarted can only open a game")
        case PowerChipTossed(holder=holder):
            return replace(state, chip=holder)
        case ContestRolled(home=home, away=away):
            state = replace(
                _settled(state, state.phase),
                rolls=(home, away),
                roll_winner=None,
                play_faces=(),
                free_rerolled=False,
                play=None,
                shot=None,
            )
            window = chip_window(state, contest_tied(state))
            return replace(state, phase=Phase.CONTEST_CHIP if window else Phase.CONTEST_DECIDE)
        case PowerChipUsed(seat=seat):
            next_phase = Phase.CONTEST_DECIDE if state.phase is Phase.CONTEST_CHIP else Phase.SHOT_DECIDE
            return replace(state, chip=1 - seat, chip_decided=True, tie_winner=seat, phase=next_phase)
        case PowerChipKept(seat=seat):
            if state.phase is Phase.CONTEST_CHIP:
                tied, next_phase = contest_tied(state), Phase.CONTEST_DECIDE
            else:
                assert state.shot is not None
                tied, next_phase = shot_tied(state.shot), Phase.SHOT_DECIDE
            return replace(state, chip_decided=True, tie_winner=1 - seat if tied else None, phase=next_phase)
        case PowerChipRerolled(seat=seat, dice=dice, faces=faces, goalie=goalie):
            state = replace(state, chip=1 - seat, chip_decided=True, chip_rerolled_by=seat)
            if state.phase is Phase.CONTEST_CHIP:
                assert state.rolls is not None
                rolls = list(state.rolls)
                rolls[seat] = _patched(rolls[seat], dice, faces)
                return replace(state, rolls=(rolls[0], rolls[1]), phase=Phase.CONTEST_DECIDE)
            assert state.shot is not None
            if goalie is not None:
                shot = replace(state.shot, goalie=goalie)
            else:
                shot = replace(state.shot, faces=_patched(state.shot.faces, dice, faces))
            return replace(state, shot=shot, phase=Phase.SHOT_DECIDE)
        case RollWon(seat=seat):
            assert state.rolls is not None
            return _after_play_faces(replace(state, roll_winner=seat, play_faces=state.rolls[seat]))
        case PlayChosen(play=play):
            return replace(state, play=play, phase=Phase.APPLY)
        case PuckMoved(to=to):
            return _settled(replace(state, puck=to), Phase.ROLL)
        case PenaltyCalled(against=against):
            return _settled(replace(state, penalties=_with(state.penalties, against, 1)), Phase.ROLL)
        case FreeRerolled(dice=dice, faces=faces):
            state = replace(state, play_faces=_patched(state.play_faces, dice, faces), free_rerolled=True, play=None)
            return _after_play_faces(state)
        case ShotRolled(shooter=shooter, faces=faces, goalie=goalie, modifier=modifier):
            shot = Shot(shooter, faces, goalie, modifier)
            state = replace(state, shot=shot, chip_decided=False, tie_winner=None, chip_rerolled_by=None)
            return replace(state, phase=Phase.SHOT_CHIP if chip_window(state, shot_tied(shot)) else Phase.SHOT_DECIDE)
        case ShotCounted():
            return _shot_counted(state, event)
        case PeriodEnded(period=period, next=following):
            following_period = replace(state, period=period + 1, shots=0)
            match following:
                case "period":
                    return replace(following_period, stage=Stage.REGULATION, phase=Phase.ROLL)
                case "overtime":
                    return replace(following_period, stage=Stage.OVERTIME, phase=Phase.ROLL)
                case "shootout":
                    return replace(
                        following_period,
                        stage=Stage.SHOOTOUT,
                        phase=Phase.SHOOTOUT,
                        rolls=None,
                        roll_winner=None,
                        play=None,
                    )
                case "final":
                    return replace(state, phase=Phase.CLOCK)
                case _:
                    assert_never(following)
        case GameEnded(winner=winner):
            return replace(state, winner=winner, phase=Phase.OVER)
        case _:
            assert_never(event)
