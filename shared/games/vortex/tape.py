"""Events as decide writes them, with the position they lead to (so later rules see earlier outcomes)."""

from __future__ import annotations

from shared.games.draws import Draws, roll
from shared.games.vortex.events import Event
from shared.games.vortex.evolve import evolve
from shared.games.vortex.state import State


class Tape:
    def __init__(self, state: State, draws: Draws) -> None:
        self.state = state
        self.draws = draws
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    def die(self) -> int:
        return roll(self.draws, 6, 1)[0]
