"""The ``GameRules`` object for Phantoms of the Ice and Power Play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.games.draws import Draws
from shared.games.phantoms import events as ev
from shared.games.phantoms.bots import BOTS
from shared.games.phantoms.commands import COMMAND_TYPES, Command
from shared.games.phantoms.decide import decide
from shared.games.phantoms.evolve import evolve
from shared.games.phantoms.legal import legal_commands
from shared.games.phantoms.options import Options
from shared.games.phantoms.render import render
from shared.games.phantoms.setup import new_game
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import pending_seats
from shared.games.phantoms.view import SeasonView, view
from shared.games.rules import GameRules


class PhantomsRules:
    name = "phantoms"
    options_type = Options
    bots: dict[str, Any] = BOTS
    event_types = ev.EVENT_TYPES
    command_types = COMMAND_TYPES
    event_versions = ev.SCHEMA
    upcasters = ev.UPCASTERS

    def new_game(self, options: Options, seats: int, draws: Draws) -> list[ev.Event]:
        return list(new_game(options, seats, draws))

    def decide(self, state: Season | None, command: Command, draws: Draws) -> list[ev.Event]:
        return list(decide(state, command, draws))

    def evolve(self, state: Season | None, event: ev.Event) -> Season:
        return evolve(state, event)

    def initial_state(self) -> Season | None:
        return None

    def view(self, state: Season, viewer: int | None) -> SeasonView:
        return view(state, viewer)

    def legal_commands(self, state: Season | None, seat: int) -> Sequence[Command]:
        return legal_commands(state, seat)

    def visible_to(self, event: ev.Event) -> frozenset[int] | None:
        return ev.visible_to(event)

    def pending_seats(self, state: Season | None) -> frozenset[int]:
        return pending_seats(state)

    def is_over(self, state: Season | None) -> bool:
        return state is not None and state.phase == "over"

    def winners(self, state: Season | None) -> tuple[int, ...]:
        return state.winners if state is not None else ()

    def render(self, state: Season) -> str:
        return render(state)


rules: GameRules[Season, Command, ev.Event] = PhantomsRules()
