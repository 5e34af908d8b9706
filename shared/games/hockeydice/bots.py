"""Bots: ``(state, seat, rng) -> command``, always one of ``legal_commands``."""

from __future__ import annotations

import random

from shared.games.hockeydice.commands import (
    ChoosePlay,
    Command,
    KeepPowerChip,
    RerollWithPowerChip,
    UsePowerChip,
)
from shared.games.hockeydice.dice import MASK, Faces, Symbol, top_count, top_symbols
from shared.games.hockeydice.legal import legal_commands
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.state import HockeyState, Phase, current_tie, shot_value

PLAY_VALUE = {
    Play.SIX_STICKS: 100,
    Play.SAUCER_PASS: 55,
    Play.SHOOT: 50,
    Play.ADVANCE: 45,
    Play.PUSH_BACK_2: 30,
    Play.PUSH_BACK_1: 25,
    Play.PENALTY: 20,
    Play.FREE_REROLL: 10,
}
SYMBOL_VALUE = {Symbol.STICK: 4, Symbol.PUCK: 3, Symbol.PENALTY: 2, Symbol.CHECK: 1}


def random_bot(state: HockeyState, seat: int, rng: random.Random) -> Command:
    """A uniform choice of the kind of command, then of its arguments (63 possible rerolls weigh as one kind)."""
    legal = list(legal_commands(state, seat))
    kind = rng.choice(sorted({type(command).__name__ for command in legal}))
    return rng.choice([command for command in legal if type(command).__name__ == kind])


def _play_value(state: HockeyState, play: Play) -> int:
    if play is Play.SHOOT:
        section = state.rink[abs(state.puck) - 1]
        return PLAY_VALUE[play] + 10 * (section.shot_modifier or 0)
    return PLAY_VALUE[play]


def _keep_best(faces: Faces) -> tuple[int, ...]:
    """The dice not showing the team's most useful top symbol."""
    best = max(top_symbols(faces), key=SYMBOL_VALUE.__getitem__)
    return tuple(index for index, face in enumerate(faces) if face is not best)


def _chip(state: HockeyState, seat: int, legal: list[Command]) -> Command:
    if current_tie(state):
        return UsePowerChip(seat=seat)
    reroll: tuple[int, ...] = ()
    if state.phase is Phase.CONTEST_CHIP and state.rolls is not None:
        mine, theirs = state.rolls[seat], state.rolls[1 - seat]
        if top_count(mine) < top_count(theirs):
            reroll = _keep_best(mine)
    elif state.shot is not None:
        shot = state.shot
        scoring = shot.goalie != MASK and shot_value(shot) > shot.goalie
        if seat == shot.shooter and not scoring:
            reroll = tuple(index for index, face in enumerate(shot.faces) if face is not Symbol.STICK)
        elif seat != shot.shooter and scoring:
            reroll = (0,)
    command = RerollWithPowerChip(seat=seat, dice=reroll)
    return command if reroll and command in legal else KeepPowerChip(seat=seat)


def greedy_bot(state: HockeyState, seat: int, rng: random.Random) -> Command:
    """Wins ties with the chip, rerolls with it only when losing, and takes the play with the most immediate gain."""
    legal = list(legal_commands(state, seat))
    if state.phase is Phase.PLAY:
        plays = [command for command in legal if isinstance(command, ChoosePlay)]
        return max(plays, key=lambda command: _play_value(state, command.play))
    if state.phase in (Phase.CONTEST_CHIP, Phase.SHOT_CHIP):
        return _chip(state, seat, legal)
    return legal[0]


BOTS = {"random": random_bot, "greedy": greedy_bot}
