"""Hockey Championship (Sports Dice: Hockey) as pure rules; ``rules`` is the game's GameRules."""

from __future__ import annotations

from typing import Any

from shared.games.hockeydice.bots import BOTS
from shared.games.hockeydice.commands import COMMAND_TYPES, Command
from shared.games.hockeydice.decide import decide, new_game
from shared.games.hockeydice.events import EVENT_TYPES, Event
from shared.games.hockeydice.evolve import evolve
from shared.games.hockeydice.legal import legal_commands, pending_seats
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.render import render
from shared.games.hockeydice.state import HockeyState, Phase
from shared.games.hockeydice.view import view
from shared.games.rules import GameRules


class HockeyRules:
    name = "hockeydice"
    options_type = HockeyOptions
    bots: dict[str, Any] = BOTS
    event_types = EVENT_TYPES
    command_types = COMMAND_TYPES

    new_game = staticmethod(new_game)
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    view = staticmethod(view)
    legal_commands = staticmethod(legal_commands)
    pending_seats = staticmethod(pending_seats)
    render = staticmethod(render)

    @staticmethod
    def initial_state() -> HockeyState | None:
        return None

    @staticmethod
    def visible_to(event: Event) -> frozenset[int] | None:
        return None

    @staticmethod
    def is_over(state: HockeyState | None) -> bool:
        return state is not None and state.phase is Phase.OVER

    @staticmethod
    def winners(state: HockeyState | None) -> tuple[int, ...]:
        return () if state is None or state.winner is None else (state.winner,)


rules: GameRules[HockeyState, Command, Event] = HockeyRules()

__all__ = ["rules", "HockeyRules"]
