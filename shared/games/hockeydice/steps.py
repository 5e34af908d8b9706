"""What follows a command without a team's choice: rolls won, plays applied, shots taken, the clock."""

from __future__ import annotations

from typing import assert_never

from shared.games.draws import Draws, roll
from shared.games.hockeydice.clock import clock_events
from shared.games.hockeydice.dice import MASK, SIDES, Symbol, goalie_face, player_faces, six_sticks, top_count
from shared.games.hockeydice.events import (
    Event,
    FreeRerolled,
    PenaltyCalled,
    PlayChosen,
    PuckMoved,
    RollWon,
    ShotCounted,
    ShotReason,
    ShotRolled,
)
from shared.games.hockeydice.evolve import evolve
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.rink import attack_sign, depth, position, section_at
from shared.games.hockeydice.state import (
    AWAITING,
    HockeyState,
    Phase,
    dice_count,
    shot_value,
    six_sticks_seat,
    winner_plays,
)


class Tape:
    def __init__(self, state: HockeyState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)


def shot(tape: Tape, draws: Draws, shooter: int, modifier: int) -> None:
    options = tape.state.options
    faces = player_faces(options.player_die, roll(draws, SIDES, dice_count(tape.state, shooter)))
    goalie = goalie_face(options.goalie_die, roll(draws, SIDES, 1)[0])
    tape.emit(ShotRolled(shooter=shooter, faces=faces, goalie=goalie, modifier=modifier))


def _tie_winner(state: HockeyState) -> int:
    if state.tie_winner is not None:
        return state.tie_winner
    assert state.chip_rerolled_by is not None, "a tie is always answered by the Power Chip holder"
    return 1 - state.chip_rerolled_by


def _contest_winner(state: HockeyState) -> int:
    assert state.rolls is not None
    if (sticks := six_sticks_seat(state.rolls)) is not None:
        return sticks
    home, away = top_count(state.rolls[0]), top_count(state.rolls[1])
    if home != away:
        return 0 if home > away else 1
    return _tie_winner(state)


def _shot_result(state: HockeyState) -> ShotCounted:
    taken = state.shot
    assert taken is not None
    if six_sticks(taken.faces):
        return ShotCounted(shooter=taken.shooter, goal=True, reason=ShotReason.SIX_STICKS)
    if taken.goalie == MASK:
        return ShotCounted(shooter=taken.shooter, goal=False, reason=ShotReason.MASK)
    value = shot_value(taken)
    if value != taken.goalie:
        goal = value > taken.goalie
        return ShotCounted(shooter=taken.shooter, goal=goal,
                           reason=ShotReason.BEAT_GOALIE if goal else ShotReason.BLOCKED)
    reason = ShotReason.POWER_CHIP if state.tie_winner is not None else ShotReason.REROLL_TIE
    return ShotCounted(shooter=taken.shooter, goal=_tie_winner(state) == taken.shooter, reason=reason)


def _apply(tape: Tape, draws: Draws) -> None:
    state = tape.state
    seat, play = state.roll_winner, state.play
    assert seat is not None and play is not None
    sign = attack_sign(seat)
    match play:
        case Play.SIX_STICKS:
            tape.emit(ShotCounted(shooter=seat, goal=True, reason=ShotReason.SIX_STICKS))
        case Play.ADVANCE:
            tape.emit(PuckMoved(seat=seat, to=state.puck + sign))
        case Play.SHOOT:
            section = section_at(state.rink, state.puck)
            assert section is not None and section.shot_modifier is not None
            shot(tape, draws, seat, section.shot_modifier)
        case Play.SAUCER_PASS:
            target, last = depth(state.puck, seat) + 2, len(state.rink)
            tape.emit(PuckMoved(seat=seat, to=position(seat, min(target, last))))
            if target > last:
                modifier = state.rink[last - 1].shot_modifier
                shot(tape, draws, seat, modifier or 0)
        case Play.PUSH_BACK_1:
            tape.emit(PuckMoved(seat=seat, to=state.puck + sign))
        case Play.PUSH_BACK_2:
            tape.emit(PuckMoved(seat=seat, to=state.puck + 2 * sign))
        case Play.FREE_REROLL:
            dice = tuple(index for index, face in enumerate(state.play_faces) if face is Symbol.CHECK)
            faces = player_faces(state.options.player_die, roll(draws, SIDES, len(dice)))
            tape.emit(FreeRerolled(seat=seat, dice=dice, faces=faces))
        case Play.PENALTY:
            tape.emit(PenaltyCalled(seat=seat, against=1 - seat))
        case _:
            assert_never(play)


def settle(tape: Tape, draws: Draws) -> None:
    """Carry the game on until it waits for a team's command."""
    while tape.state.phase not in AWAITING:
        state = tape.state
        match state.phase:
            case Phase.CONTEST_DECIDE:
                tape.emit(RollWon(seat=_contest_winner(state)))
            case Phase.PLAY_AUTO:
                assert state.roll_winner is not None
                (play,) = winner_plays(state)
                tape.emit(PlayChosen(seat=state.roll_winner, play=play))
            case Phase.APPLY:
                _apply(tape, draws)
            case Phase.SHOT_DECIDE:
                tape.emit(_shot_result(state))
            case Phase.CLOCK:
                tape.emit(*clock_events(state))
            case _:
                raise AssertionError(f"no automatic step from {state.phase}")
