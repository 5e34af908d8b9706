"""Building positions and feeding chosen dice. Player die faces: 1-2 stick, 3-4 puck, 5 check, 6 referee.
Goaltender die faces: 1-2 show 1, 3-4 show 2, 5 shows 3, 6 the mask."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from shared.games.draws import DiceRequest, Draw, RangeRequest, RecordedDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import Roll
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.state import HockeyState
from shared.games.rules import fold

STICK, PUCK, CHECK, REF = 1, 3, 5, 6
GOALIE_1, GOALIE_2, GOALIE_3, GOALIE_MASK = 1, 3, 5, 6


def dice(*values: int) -> Draw:
    return Draw(DiceRequest(6, len(values)), tuple(values))


def start(chip: int = 0, options: HockeyOptions | None = None, **changes: Any) -> HockeyState:
    events = rules.new_game(options or HockeyOptions(), 2, RecordedDraws([Draw(RangeRequest(0, 1), (chip,))]))
    state = fold(rules, events)
    assert state is not None
    return replace(state, **changes) if changes else state


def act(state: HockeyState, command: Any, *draws: Draw) -> tuple[list[Any], HockeyState]:
    """Decide with exactly these draws (all must be used), then fold the events."""
    recorded = RecordedDraws(list(draws))
    events = rules.decide(state, command, recorded)
    assert len(recorded.used) == len(draws), "the rules used fewer draws than given"
    for event in events:
        state = rules.evolve(state, event)
    return events, state


def contest(state: HockeyState, home: tuple[int, ...], away: tuple[int, ...], *more: Draw, seat: int = 0):
    return act(state, Roll(seat=seat), dice(*home), dice(*away), *more)


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]
