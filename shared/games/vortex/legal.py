"""The commands a seat may send now: every candidate the checks accept."""

from __future__ import annotations

from collections.abc import Iterator

from shared.games.rules import RuleViolation
from shared.games.vortex.checks import check
from shared.games.vortex.commands import (
    ChooseDirection,
    ChooseSpiral,
    Command,
    DeclineVortex,
    KeepMonster,
    MoveMonster,
    PlaceMonster,
    Roll,
    RollRecall,
    TryVortex,
)
from shared.games.vortex.state import State


def legal_commands(state: State | None, seat: int) -> list[Command]:
    if state is None or state.phase == "over" or seat != state.turn:
        return []
    legal = []
    for command in _candidates(state, seat):
        try:
            check(state, command)
        except RuleViolation:
            continue
        legal.append(command)
    return legal


def _candidates(state: State, seat: int) -> Iterator[Command]:
    match state.phase:
        case "roll":
            yield Roll(seat=seat)
        case "direction":
            yield ChooseDirection(seat=seat, direction="clockwise")
            yield ChooseDirection(seat=seat, direction="counterclockwise")
        case "vortex":
            yield TryVortex(seat=seat)
            yield DeclineVortex(seat=seat)
        case "spiral":
            assert state.spiral is not None
            for stone in state.board.spirals(state.spiral):
                yield ChooseSpiral(seat=seat, stone=stone)
        case "magic":
            yield RollRecall(seat=seat)
            yield KeepMonster(seat=seat)
            for headstone in state.free_headstones():
                yield MoveMonster(seat=seat, headstone=headstone)
                for monster in state.current.hand:
                    yield PlaceMonster(seat=seat, monster=monster, headstone=headstone)
        case "over":
            return
