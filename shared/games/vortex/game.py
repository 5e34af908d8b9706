"""The Vortex rules object that satisfies ``shared.games.rules.GameRules``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.games.draws import Draws
from shared.games.rules import GameRules, Viewer
from shared.games.vortex.bots import BOTS
from shared.games.vortex.commands import COMMAND_TYPES, Command
from shared.games.vortex.decide import decide
from shared.games.vortex.events import EVENT_TYPES, Event
from shared.games.vortex.evolve import evolve
from shared.games.vortex.legal import legal_commands
from shared.games.vortex.options import Options
from shared.games.vortex.render import render
from shared.games.vortex.setup import new_game
from shared.games.vortex.state import State
from shared.games.vortex.view import View, view, visible_to


class VortexRules:
    name = "vortex"
    options_type = Options
    bots: dict[str, Any] = BOTS
    event_types = EVENT_TYPES
    command_types = COMMAND_TYPES

    def new_game(self, options: Options, seats: int, draws: Draws) -> list[Event]:
        return new_game(options, seats, draws)

    def decide(self, state: State | None, command: Command, draws: Draws) -> list[Event]:
        return decide(state, command, draws)

    def evolve(self, state: State | None, event: Event) -> State:
        return evolve(state, event)

    def initial_state(self) -> State | None:
        return None

    def view(self, state: State, viewer: Viewer) -> View:
        return view(state, viewer)

    def legal_commands(self, state: State | None, seat: int) -> Sequence[Command]:
        return legal_commands(state, seat)

    def visible_to(self, event: Event) -> frozenset[int] | None:
        return visible_to(event)

    def pending_seats(self, state: State | None) -> frozenset[int]:
        if state is None or state.phase == "over":
            return frozenset()
        return frozenset({state.turn})

    def is_over(self, state: State | None) -> bool:
        return state is not None and state.phase == "over"

    def winners(self, state: State | None) -> tuple[int, ...]:
        return state.winners if state is not None else ()

    def render(self, state: State) -> str:
        return render(state)


rules: GameRules[State, Command, Event] = VortexRules()
