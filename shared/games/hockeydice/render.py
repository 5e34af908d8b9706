"""A text picture of a position, for ``league replay`` in a terminal."""

from __future__ import annotations

from shared.games.hockeydice.dice import Faces, Symbol
from shared.games.hockeydice.legal import pending_seats
from shared.games.hockeydice.state import HockeyState, Phase, Stage, dice_count, winner_plays
from shared.games.hockeydice.view import shots_in_period

TEAM = ("HOME", "AWAY")
LETTER = {Symbol.STICK: "S", Symbol.PUCK: "P", Symbol.CHECK: "C", Symbol.PENALTY: "R"}
WAITING = {
    Phase.ROLL: "roll",
    Phase.CONTEST_CHIP: "use, keep or reroll with the Power Chip",
    Phase.SHOT_CHIP: "use, keep or reroll with the Power Chip",
    Phase.SHOOTOUT: "take a shoot-out shot",
}


def _faces(faces: Faces) -> str:
    return "".join(LETTER[face] for face in faces)


def _cell(state: HockeyState, puck: int) -> str:
    if puck == 0:
        label = "centre"
    else:
        section = state.rink[abs(puck) - 1]
        modifier = "" if section.shot_modifier is None else f"{section.shot_modifier:+d}"
        label = f"{section.name}{modifier}"
    return f"*{label}*" if puck == state.puck else f" {label} "


def _rink(state: HockeyState) -> str:
    size = len(state.rink)
    cells = "|".join(_cell(state, puck) for puck in range(-size, size + 1))
    return f"HOME goal ||{cells}|| AWAY goal   (HOME attacks ->, puck *marked*)"


def _clock(state: HockeyState) -> str:
    match state.stage:
        case Stage.REGULATION:
            return f"Period {state.period}/{state.options.periods}  shot {state.shots}/{shots_in_period(state)}"
        case Stage.OVERTIME:
            return f"Overtime  shot {state.shots}/{shots_in_period(state)}"
        case Stage.SHOOTOUT:
            taken, goals = state.shootout_shots, state.shootout_goals
            return f"Shoot-out  shots {taken[0]}-{taken[1]}  goals {goals[0]}-{goals[1]}"


def _next(state: HockeyState) -> str:
    if state.phase is Phase.OVER and state.winner is not None:
        return f"Final: {TEAM[state.winner]} wins"
    seats = " or ".join(TEAM[seat] for seat in sorted(pending_seats(state)))
    if state.phase is Phase.PLAY:
        return f"Next: {seats} to choose a play ({', '.join(winner_plays(state))})"
    return f"Next: {seats} to {WAITING.get(state.phase, state.phase)}"


def render(state: HockeyState) -> str:
    home, away = state.score
    lines = [
        f"HOME {home} - {away} AWAY   {_clock(state)}",
        f"Shots on goal: HOME {state.shots_by[0]}  AWAY {state.shots_by[1]}   Power Chip: {TEAM[state.chip]}",
        f"Dice: HOME {dice_count(state, 0)}  AWAY {dice_count(state, 1)}"
        f"   Penalties: HOME {state.penalties[0]}  AWAY {state.penalties[1]}",
        _rink(state),
    ]
    if state.rolls is not None:
        home_roll, away_roll = _faces(state.rolls[0]), _faces(state.rolls[1])
        lines.append(f"Roll: HOME {home_roll}  AWAY {away_roll}   (S stick, P puck, C check, R referee)")
    if state.roll_winner is not None:
        play = f": {state.play}" if state.play is not None else ""
        lines.append(f"{TEAM[state.roll_winner]} won the roll with {_faces(state.play_faces)}{play}")
    if state.shot is not None:
        shot = state.shot
        lines.append(
            f"Shot by {TEAM[shot.shooter]}: {_faces(shot.faces)} {shot.modifier:+d} vs goaltender {shot.goalie}"
        )
    lines.append(_next(state))
    return "\n".join(lines)
