"""Commands to events. Draws are taken in a fixed order; the input state is never changed."""

from __future__ import annotations

from typing import Literal, assert_never

from shared.games.draws import Draws
from shared.games.vortex.board import STONE_COINS, RegionName
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
from shared.games.vortex.events import (
    Event,
    MonsterKept,
    MonsterMoved,
    MonsterPlaced,
    PhantomTransported,
    RaceEnded,
    RecallRolled,
    Rolled,
    TurnEnded,
    VortexDeclined,
    VortexTried,
)
from shared.games.vortex.landing import WIN_FACES, move
from shared.games.vortex.state import State, furthest_in
from shared.games.vortex.tape import Tape

VORTEX_MASTERED = (1, 2)
VORTEX_ORANGE = (3, 4)
TRANSPORT_COINS = {"purple": STONE_COINS["purple"], "orange": 0}


def decide(state: State | None, command: Command, draws: Draws) -> list[Event]:
    check(state, command)
    assert state is not None
    tape = Tape(state, draws)
    seat = command.seat
    match command:
        case Roll():
            value = tape.die()
            tape.add(Rolled(seat=seat, value=value))
            if state.current.region != "temple":
                move(tape, value, "clockwise")
        case ChooseDirection(direction=direction):
            assert state.roll is not None
            move(tape, state.roll, direction)
        case ChooseSpiral(stone=stone):
            colour = state.spiral
            assert colour is not None
            region: RegionName = "courtyard" if colour == "purple" else "temple"
            tape.add(PhantomTransported(seat=seat, region=region, stone=stone, coins=transport_coins(state, colour)))
        case TryVortex():
            dice = tape.die()
            outcome: Literal["mastered", "orange", "purple"] = (
                "mastered" if dice in VORTEX_MASTERED else "orange" if dice in VORTEX_ORANGE else "purple")
            tape.add(VortexTried(seat=seat, roll=dice, outcome=outcome))
            if outcome == "mastered":
                tape.add(RaceEnded(winners=(seat,), reason="vortex"))
        case DeclineVortex():
            tape.add(VortexDeclined(seat=seat))
        case RollRecall():
            dice = tape.die()
            tape.add(RecallRolled(seat=seat, roll=dice, recalled=dice in WIN_FACES))
            if dice not in WIN_FACES:
                _end_turn(tape)
        case PlaceMonster(monster=monster, headstone=headstone):
            tape.add(MonsterPlaced(seat=seat, monster=monster, headstone=headstone))
            _end_turn(tape)
        case MoveMonster(headstone=headstone):
            phantom = state.current
            assert phantom.monster is not None and phantom.headstone is not None
            tape.add(MonsterMoved(seat=seat, monster=phantom.monster, start=phantom.headstone, headstone=headstone))
            _end_turn(tape)
        case KeepMonster():
            phantom = state.current
            assert phantom.monster is not None and phantom.headstone is not None
            tape.add(MonsterKept(seat=seat, monster=phantom.monster, headstone=phantom.headstone))
            _end_turn(tape)
        case _:
            assert_never(command)
    return tape.events


def transport_coins(state: State, colour: str) -> int:
    """Reading vortex.knock-back.coins (RULES.md): a purple spiral gives the three coins its stone shows, after a
    Sentinel or a knock-back alike; a Sentinel's transport to an orange spiral costs all coins, the VORTEX's
    knock-back to one (the phantom is in the Temple already) leaves the coins as they are (0 on our boards)."""
    if colour == "orange" and state.current.region == "temple":
        return state.current.coins
    return TRANSPORT_COINS[colour]


def _end_turn(tape: Tape) -> None:
    state = tape.state
    next_seat = (state.turn + 1) % len(state.phantoms)
    max_rounds = state.options.max_rounds
    if next_seat == 0 and max_rounds is not None and state.round >= max_rounds:
        tape.add(RaceEnded(winners=furthest_in(state.phantoms), reason="max_rounds"))
    else:
        tape.add(TurnEnded(seat=state.turn, next_seat=next_seat, round=state.round + (next_seat == 0)))

