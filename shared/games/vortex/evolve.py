"""Fold one event into the position. Never rolls: every outcome is in the event."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from shared.games.vortex.board import BLACK_STONE
from shared.games.vortex.events import (
    CoinsCollected,
    Dug,
    Event,
    GameStarted,
    MonsterBattled,
    MonsterKept,
    MonsterMoved,
    MonsterPlaced,
    PhantomMoved,
    PhantomTransported,
    RaceEnded,
    RecallRolled,
    Rolled,
    SentinelBattled,
    SentinelIgnored,
    TurnEnded,
    VortexDeclined,
    VortexTried,
)
from shared.games.vortex.state import MONSTERS, Phantom, State, sorted_monsters


def evolve(state: State | None, event: Event) -> State:
    if state is None:
        if not isinstance(event, GameStarted):
            raise ValueError(f"a Vortex stream must open with GameStarted, not {type(event).__name__}")
        return _start(event)
    match event:
        case GameStarted():
            raise ValueError("GameStarted may only open a stream")
        case Rolled(seat=seat, value=value):
            in_temple = state.phantoms[seat].region == "temple"
            return replace(state, roll=value, phase="direction" if in_temple else state.phase)
        case PhantomMoved(seat=seat, region=region, stone=stone):
            moved = state.with_phantom(replace(state.phantoms[seat], region=region, stone=stone))
            on_black = region == "temple" and stone == BLACK_STONE
            return replace(moved, roll=None, phase="vortex" if on_black else "magic")
        case (CoinsCollected(seat=seat, coins=coins) | Dug(seat=seat, coins=coins)
              | SentinelIgnored(seat=seat, coins=coins)):
            return state.with_phantom(replace(state.phantoms[seat], coins=coins))
        case MonsterBattled(seat=seat, owner=owner, won=won, coins=coins):
            state = state.with_phantom(replace(state.phantoms[seat], coins=coins))
            return _to_limbo(state, state.phantoms[owner]) if won else state
        case SentinelBattled(seat=seat, region=region, won=won, coins=coins):
            state = state.with_phantom(replace(state.phantoms[seat], coins=coins))
            if won:
                return replace(state, phase="spiral", spiral="purple" if region == "outer" else "orange")
            return state
        case VortexTried(outcome="mastered"):
            return state
        case VortexTried(outcome=colour):
            return replace(state, phase="spiral", spiral=colour)
        case VortexDeclined():
            return replace(state, phase="magic")
        case PhantomTransported(seat=seat, region=region, stone=stone, coins=coins):
            moved = state.with_phantom(replace(state.phantoms[seat], region=region, stone=stone, coins=coins))
            return replace(moved, phase="magic", spiral=None)
        case RecallRolled(seat=seat, recalled=recalled):
            if not recalled:
                return state
            return state.with_phantom(replace(state.phantoms[seat], hand=MONSTERS, limbo=()))
        case MonsterPlaced(seat=seat, monster=monster, headstone=headstone):
            phantom = state.phantoms[seat]
            hand = tuple(m for m in phantom.hand if m != monster)
            return state.with_phantom(replace(phantom, hand=hand, monster=monster, headstone=headstone))
        case MonsterMoved(seat=seat, headstone=headstone):
            return state.with_phantom(replace(state.phantoms[seat], headstone=headstone))
        case MonsterKept():
            return state
        case TurnEnded(next_seat=next_seat, round=round_):
            return replace(state, turn=next_seat, round=round_, phase="roll")
        case RaceEnded(winners=winners):
            return replace(state, phase="over", winners=winners, roll=None, spiral=None)
        case _:
            assert_never(event)


def _start(event: GameStarted) -> State:
    phantoms = tuple(Phantom(seat=seat, region="outer", stone=stone) for seat, stone in enumerate(event.starts))
    return State(options=event.options, board=event.board, phantoms=phantoms)


def _to_limbo(state: State, owner: Phantom) -> State:
    assert owner.monster is not None
    limbo = sorted_monsters([*owner.limbo, owner.monster])
    return state.with_phantom(replace(owner, limbo=limbo, monster=None, headstone=None))
