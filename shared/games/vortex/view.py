"""Everything in a Vortex race is public: one view for players and spectators alike."""

from __future__ import annotations

import msgspec

from shared.games.rules import Viewer
from shared.games.vortex.board import Board
from shared.games.vortex.events import Event, SpiralColour
from shared.games.vortex.state import Phantom, Phase, State


class View(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.View"):
    board: Board
    phantoms: tuple[Phantom, ...]
    turn: int
    round: int
    phase: Phase
    roll: int | None
    spiral: SpiralColour | None
    winners: tuple[int, ...]
    max_rounds: int | None


def view(state: State, viewer: Viewer) -> View:
    return View(
        board=state.board,
        phantoms=state.phantoms,
        turn=state.turn,
        round=state.round,
        phase=state.phase,
        roll=state.roll,
        spiral=state.spiral,
        winners=state.winners,
        max_rounds=state.options.max_rounds,
    )


def visible_to(event: Event) -> frozenset[int] | None:
    return None
