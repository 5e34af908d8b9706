"""Whether a command is allowed now: raises RuleViolation(rule id, sentence) or returns. Needs no draws."""

from __future__ import annotations

from typing import assert_never

from shared.games.rules import RuleViolation
from shared.games.vortex.board import REGION_TITLES
from shared.games.vortex.commands import (
    ChooseDirection,
    ChooseSpiral,
    Command,
    DeclineVortex,
    KeepMonster,
    MonsterKind,
    MoveMonster,
    PlaceMonster,
    Roll,
    RollRecall,
    TryVortex,
)
from shared.games.vortex.state import MONSTER_NAMES, Phantom, Phase, State

KNOCK_BACK = (
    "(reading vortex.knock-back.coins, RULES.md Phantom's Vortex: knocked back by the VORTEX to a purple spiral, "
    "your coins become the three its stone shows, as after a Sentinel; to an orange spiral they stay as they are.)"
)
EXPECTED: dict[Phase, str] = {
    "roll": "roll the die",
    "direction": "choose a direction for your roll in the Temple",
    "vortex": "try for control of the Vortex, or decline",
    "spiral": "choose the spiral you are transported to",
    "magic": "place, move or keep a monster (or roll to recall them from limbo)",
    "over": "nothing: the race is over",
}


def check(state: State | None, command: Command) -> None:
    if state is None:
        raise RuleViolation("vortex.game.not-started", "The race has not started yet.")
    if state.phase == "over":
        raise RuleViolation("vortex.game.over", "The race is over.")
    if command.seat != state.turn:
        raise RuleViolation("vortex.turn.not-your-turn", f"It is seat {state.turn}'s turn, not seat {command.seat}'s.")
    phantom = state.current
    match command:
        case Roll():
            _phase(state, "roll")
        case ChooseDirection(direction=direction):
            _phase(state, "direction")
            if direction not in ("clockwise", "counterclockwise"):
                raise RuleViolation("vortex.move.temple-direction", "Walk the Temple clockwise or counterclockwise.")
        case ChooseSpiral(stone=stone):
            _phase(state, "spiral")
            _spiral(state, stone)
        case TryVortex() | DeclineVortex():
            _phase(state, "vortex")
        case RollRecall():
            _phase(state, "magic")
            if phantom.monster is not None or phantom.hand:
                raise RuleViolation(
                    "vortex.magic.recall-only-all-in-limbo",
                    "You roll to recall only when all three of your monsters are in limbo.",
                )
        case PlaceMonster(monster=monster, headstone=headstone):
            _phase(state, "magic")
            _place(state, phantom, monster, headstone)
        case MoveMonster(headstone=headstone):
            _phase(state, "magic")
            if phantom.monster is None:
                raise RuleViolation("vortex.magic.no-monster-on-board", "You have no monster on the board to move.")
            if headstone == phantom.headstone:
                raise RuleViolation(
                    "vortex.magic.same-headstone", "Your monster is already there; keep it to leave it where it is."
                )
            _free_headstone(state, headstone)
        case KeepMonster():
            _phase(state, "magic")
            if phantom.monster is None:
                raise RuleViolation(
                    "vortex.magic.must-place",
                    "You have no monster on the board: place one (or roll to recall them if all are in limbo).",
                )
        case _:
            assert_never(command)


def _phase(state: State, wanted: Phase) -> None:
    if state.phase != wanted:
        raise RuleViolation("vortex.turn.out-of-phase", f"Not now: you must {EXPECTED[state.phase]}.")


def _spiral(state: State, stone: int) -> None:
    colour = state.spiral
    assert colour is not None
    stones = state.board.spirals(colour)
    if stone not in stones:
        region = REGION_TITLES["courtyard" if colour == "purple" else "temple"]
        raise RuleViolation(
            f"vortex.spiral.not-{colour}",
            f"Stone {stone} of the {region} is not {'an' if colour == 'orange' else 'a'} {colour} spiral; "
            f"choose one of {', '.join(map(str, stones))}. "
            f"{KNOCK_BACK}",
        )


def _place(state: State, phantom: Phantom, monster: MonsterKind, headstone: str) -> None:
    if phantom.monster is not None:
        raise RuleViolation(
            "vortex.magic.one-monster", "You already have a monster on the board: move it or leave it where it is."
        )
    if not phantom.hand:
        raise RuleViolation("vortex.magic.recall-first", "All your monsters are in limbo: roll to get them back first.")
    if monster not in phantom.hand:
        name = MONSTER_NAMES.get(monster, monster)
        raise RuleViolation("vortex.magic.monster-in-limbo", f"Your {name} is in limbo; place another monster.")
    _free_headstone(state, headstone)


def _free_headstone(state: State, headstone: str) -> None:
    if state.board.headstone(headstone) is None:
        raise RuleViolation(
            "vortex.magic.no-such-headstone",
            f"There is no headstone {headstone!r}: monsters stand on the headstones of the Outer Grounds and the "
            f"Courtyard ({', '.join(state.board.headstone_ids)}), never in the Temple.",
        )
    if state.monster_on(headstone) is not None:
        raise RuleViolation("vortex.magic.headstone-taken", f"Headstone {headstone} already has a monster.")
