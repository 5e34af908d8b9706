"""Table options of a Vortex race, recorded in its first event."""

from __future__ import annotations

import msgspec

from shared.games.vortex.board import Board


class Options(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.Options"):
    max_rounds: int | None = None
    """End the race after this many rounds; the phantom furthest in wins (timed tournaments). None: play to the end."""
    board: Board | None = None
    """An organiser's own board (see ``load_board``); None: the reference board."""
