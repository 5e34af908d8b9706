"""What every game exposes, and the one error a rejected command raises."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import msgspec

from shared.games.draws import Draws

Viewer = int | None
"""A seat index, or None for a spectator (public facts only)."""

S = TypeVar("S")
"""A game's state (``None`` before its first event)."""
C = TypeVar("C", bound=msgspec.Struct)
"""A game's command union."""
E = TypeVar("E", bound=msgspec.Struct)
"""A game's event union."""


class RuleViolation(Exception):
    """A command the rules reject. ``code`` is a rule id from RULES.md's naming (e.g. ``poti.trade.same-type``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class GameRules(Protocol[S, C, E]):
    """The interface of one game's rules module (``shared.games.<name>.rules``).

    - ``new_game(options, seats, draws)`` -> events that open the game (first event records options and seats).
    - ``decide(state, command, draws)`` -> events; raises RuleViolation and changes nothing when illegal.
    - ``evolve(state, event)`` -> new state; ``initial_state()`` is the fold's start (None before the first event).
    - ``view(state, viewer)`` -> what that seat (or a spectator) may see.
    - ``legal_commands(state, seat)`` -> the commands that seat may send now (for bots and UIs).
    - ``visible_to(event)`` -> None when public, else the seats that may read it before the game ends.
    - ``pending_seats(state)`` -> the seats that may act now (several while choices are simultaneous).
    - ``is_over(state)`` -> whether the game has ended; ``winners(state)`` -> the winning seats once it has.
    - ``render(state)`` -> a text picture of the position (for ``league replay`` in a terminal).
    - ``bots`` -> {"random": bot, "greedy": bot}; a bot is ``(state, seat, rng: random.Random) -> command``
      choosing among ``legal_commands``.

    Optionally ``event_versions`` ({event type: stored schema version above 1}) and ``upcasters`` ({(stored name,
    version): lift one version up}), registered with the event types (``shared.messages.games``).

    Every command has a ``seat: int`` field naming the seat that sends it. Events, commands, options and views are
    frozen msgspec Structs tagged ``"<game>.<ClassName>"`` so that tags are unique across the registry.
    """

    @property
    def name(self) -> str: ...
    @property
    def options_type(self) -> type[Any]: ...
    @property
    def bots(self) -> dict[str, Any]: ...
    @property
    def event_types(self) -> tuple[type[msgspec.Struct], ...]: ...
    @property
    def command_types(self) -> tuple[type[msgspec.Struct], ...]: ...

    def new_game(self, options: Any, seats: int, draws: Draws) -> list[E]: ...
    def decide(self, state: S | None, command: C, draws: Draws) -> list[E]: ...
    def evolve(self, state: S | None, event: E) -> S: ...
    def initial_state(self) -> S | None: ...
    def view(self, state: S, viewer: Viewer) -> Any: ...
    def legal_commands(self, state: S | None, seat: int) -> Sequence[C]: ...
    def visible_to(self, event: E) -> frozenset[int] | None: ...
    def pending_seats(self, state: S | None) -> frozenset[int]: ...
    def is_over(self, state: S | None) -> bool: ...
    def winners(self, state: S | None) -> tuple[int, ...]: ...
    def render(self, state: S) -> str: ...


AnyRules = GameRules[Any, Any, Any]
"""The rules of a game named at run time (a stream's ``GameOpened``, a request's ``game``)."""


def fold(rules: GameRules[S, C, E], events: Sequence[E]) -> S | None:
    state = rules.initial_state()
    for event in events:
        state = rules.evolve(state, event)
    return state
