"""A matchmaking tournament's state made by its own rules, for tests that need one without the service."""

from __future__ import annotations

from shared.tournaments.commands import Command
from shared.tournaments.decide import decide
from shared.tournaments.state import State, evolve


def apply(state: State | None, command: Command) -> State:
    for event in decide(state, command):
        state = evolve(state, event)
    assert state is not None
    return state
