"""Commands to events. Draws are asked for in a fixed order; the input state is never changed."""

from __future__ import annotations

from typing import assert_never

from shared.games.draws import Draws, integer, roll
from shared.games.hockeydice.commands import (
    ChoosePlay,
    Command,
    KeepPowerChip,
    RerollWithPowerChip,
    Roll,
    Shoot,
    UsePowerChip,
)
from shared.games.hockeydice.dice import MASK, SIDES, TEAM_DICE, goalie_face, player_faces, six_sticks
from shared.games.hockeydice.events import (
    ContestRolled,
    Event,
    GameStarted,
    PlayChosen,
    PowerChipKept,
    PowerChipRerolled,
    PowerChipTossed,
    PowerChipUsed,
)
from shared.games.hockeydice.options import HockeyOptions, validate
from shared.games.hockeydice.rink import RINK
from shared.games.hockeydice.rule_ids import (
    CHIP_NO_TIE,
    CHIP_NOT_HOLDER,
    CHIP_REROLL_DICE,
    CHIP_REROLL_OFF,
    GAME_NOT_STARTED,
    GAME_OVER,
    PLAY_NOT_AVAILABLE,
    RULES,
    SEAT_UNKNOWN,
    SETUP_TWO_TEAMS,
    SIX_STICKS_MASK,
    TURN_NOT_PENDING,
    TURN_WRONG_COMMAND,
)
from shared.games.hockeydice.state import (
    CHIP_PHASES,
    HockeyState,
    Phase,
    current_tie,
    dice_count,
    own_dice,
    shootout_shooter,
    winner_plays,
)
from shared.games.hockeydice.steps import Tape, settle, shot
from shared.games.rules import RuleViolation

TEAM = ("home", "away")
WAITING_FOR = {
    Phase.ROLL: "a roll",
    Phase.CONTEST_CHIP: "the Power Chip holder's choice",
    Phase.SHOT_CHIP: "the Power Chip holder's choice",
    Phase.PLAY: "the winning team's choice of play",
    Phase.SHOOTOUT: "a shoot-out shot",
}


def new_game(options: HockeyOptions | None, seats: int, draws: Draws) -> list[Event]:
    options = HockeyOptions() if options is None else options
    if seats != 2:
        raise RuleViolation(SETUP_TWO_TEAMS, "Hockey Championship is played by exactly two teams.")
    validate(options)
    holder = integer(draws, 0, 1)
    return [GameStarted(options=options, seats=seats, rink=RINK, team_dice=TEAM_DICE), PowerChipTossed(holder=holder)]


def _waiting(state: HockeyState, command: Command, phases: frozenset[Phase]) -> None:
    if state.phase not in phases:
        raise RuleViolation(
            TURN_WRONG_COMMAND,
            f"The game is waiting for {WAITING_FOR.get(state.phase, 'nothing')}, not {type(command).__name__}.",
        )


def _pending(seat: int, expected: int | None, what: str) -> None:
    if seat != expected:
        raise RuleViolation(TURN_NOT_PENDING, f"It is the {TEAM[expected or 0]} team's turn to {what}.")


def _reroll(tape: Tape, command: RerollWithPowerChip, draws: Draws) -> None:
    state = tape.state
    if not state.options.power_chip_reroll:
        raise RuleViolation(CHIP_REROLL_OFF, "Rerolling with the Power Chip is an advanced rule not used here.")
    dice, count = command.dice, own_dice(state, command.seat)
    if not dice or len(set(dice)) != len(dice) or any(not 0 <= index < count for index in dice):
        raise RuleViolation(CHIP_REROLL_DICE, f"Name each die to reroll once, numbered 0 to {count - 1}.")
    numbers = roll(draws, SIDES, len(dice))
    if state.phase is Phase.SHOT_CHIP and state.shot is not None and command.seat != state.shot.shooter:
        tape.emit(PowerChipRerolled(seat=command.seat, dice=dice,
                                    goalie=goalie_face(state.options.goalie_die, numbers[0])))
    else:
        tape.emit(PowerChipRerolled(seat=command.seat, dice=dice,
                                    faces=player_faces(state.options.player_die, numbers)))


def _why_untied(state: HockeyState) -> str:
    shot = state.shot if state.phase is Phase.SHOT_CHIP else None
    if shot is not None and six_sticks(shot.faces):
        return f" Six Hockey Sticks score, even against the Mask ({SIX_STICKS_MASK}: {RULES[SIX_STICKS_MASK]})"
    if shot is not None and shot.goalie == MASK:
        return " The goaltender's Mask is an automatic save."
    return ""


def _command(tape: Tape, command: Command, draws: Draws) -> None:
    state = tape.state
    match command:
        case Roll(seat=seat):
            _waiting(state, command, frozenset({Phase.ROLL}))
            layout = state.options.player_die
            home = player_faces(layout, roll(draws, SIDES, dice_count(state, 0)))
            away = player_faces(layout, roll(draws, SIDES, dice_count(state, 1)))
            tape.emit(ContestRolled(seat=seat, home=home, away=away))
        case UsePowerChip(seat=seat) | KeepPowerChip(seat=seat) | RerollWithPowerChip(seat=seat):
            _waiting(state, command, CHIP_PHASES)
            if seat != state.chip:
                raise RuleViolation(CHIP_NOT_HOLDER, f"The {TEAM[state.chip]} team holds the Power Chip.")
            match command:
                case UsePowerChip():
                    if not current_tie(state):
                        raise RuleViolation(CHIP_NO_TIE, "The Power Chip only breaks a tie, and this roll is not "
                                                         f"tied.{_why_untied(state)}")
                    tape.emit(PowerChipUsed(seat=seat))
                case KeepPowerChip():
                    tape.emit(PowerChipKept(seat=seat))
                case RerollWithPowerChip():
                    _reroll(tape, command, draws)
        case ChoosePlay(seat=seat, play=play):
            _waiting(state, command, frozenset({Phase.PLAY}))
            _pending(seat, state.roll_winner, "choose the play")
            plays = winner_plays(state)
            if play not in plays:
                offered = ", ".join(plays)
                raise RuleViolation(PLAY_NOT_AVAILABLE, f"That play is not on your dice here; choose: {offered}.")
            tape.emit(PlayChosen(seat=seat, play=play))
        case Shoot(seat=seat):
            _waiting(state, command, frozenset({Phase.SHOOTOUT}))
            _pending(seat, shootout_shooter(state), "shoot")
            shot(tape, draws, seat, 0)
        case _:
            assert_never(command)


def decide(state: HockeyState | None, command: Command, draws: Draws) -> list[Event]:
    if state is None:
        raise RuleViolation(GAME_NOT_STARTED, "The game has not started yet.")
    if state.phase is Phase.OVER:
        raise RuleViolation(GAME_OVER, "The game is over.")
    if command.seat not in (0, 1):
        raise RuleViolation(SEAT_UNKNOWN, "Seats are 0 (home) and 1 (away).")
    tape = Tape(state)
    _command(tape, command, draws)
    settle(tape, draws)
    return tape.events
