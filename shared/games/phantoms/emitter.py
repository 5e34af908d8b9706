"""Emitting events while folding them, and letting the season run on until it needs a manager."""

from __future__ import annotations

from typing import NoReturn

from shared.games.phantoms import events as ev
from shared.games.phantoms.auto import next_events
from shared.games.phantoms.evolve import evolve
from shared.games.phantoms.state import Season
from shared.games.rules import RuleViolation

SETTLE_LIMIT = 10_000


class Emitter:
    def __init__(self, state: Season | None) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, *events: ev.Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    @property
    def season(self) -> Season:
        assert self.state is not None
        return self.state


def settle(out: Emitter) -> None:
    for _ in range(SETTLE_LIMIT):
        more = next_events(out.season)
        if not more:
            return
        out.emit(*more)
    raise RuntimeError("the season does not settle")


def reject(code: str, message: str) -> NoReturn:
    raise RuleViolation(code, message)
