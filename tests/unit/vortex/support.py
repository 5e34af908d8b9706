"""Helpers for Vortex rule tests: a started race, positions set by hand, and dice fixed in advance."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from shared.games.draws import DiceRequest, Draw, RecordedDraws
from shared.games.rules import fold
from shared.games.vortex import Board, Options, load_board, rules
from shared.games.vortex.board import REFERENCE_PATH
from shared.games.vortex.commands import Command
from shared.games.vortex.events import Event
from shared.games.vortex.state import State


def started(seats: int = 4, **options: Any) -> State:
    state = fold(rules, rules.new_game(Options(**options), seats, RecordedDraws()))
    assert state is not None
    return state


def reference_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE_PATH.read_text())
    return data


def board_with(change: Callable[[dict[str, Any]], Any]) -> Board:
    """The reference board after ``change`` edits its JSON data."""
    data = reference_data()
    change(data)
    return load_board(data)


def dice(*values: int) -> RecordedDraws:
    return RecordedDraws([Draw(DiceRequest(6, 1), (v,)) for v in values])


def put(state: State, seat: int = 0, **changes: Any) -> State:
    """The same position with one phantom changed (region, stone, coins, hand, limbo, monster, headstone)."""
    return state.with_phantom(replace(state.phantoms[seat], **changes))


def at(state: State, **changes: Any) -> State:
    """The same position with state fields changed (turn, phase, round...)."""
    return replace(state, **changes)


def monster(state: State, seat: int, kind: str, headstone: str) -> State:
    """``seat`` has ``kind`` standing on ``headstone`` (taken from its hand)."""
    phantom = state.phantoms[seat]
    hand = tuple(m for m in phantom.hand if m != kind)
    return put(state, seat, hand=hand, monster=kind, headstone=headstone)


def act(state: State, command: Command, *rolls: int) -> tuple[list[Event], State]:
    """Decide with exactly these die rolls (all of them must be used), then fold the events."""
    draws = dice(*rolls)
    events = rules.decide(state, command, draws)
    assert len(draws.used) == len(rolls), f"decide used {len(draws.used)} of the rolls {rolls}"
    for event in events:
        state = rules.evolve(state, event)
    return events, state


def of_type(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
