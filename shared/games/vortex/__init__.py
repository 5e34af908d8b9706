"""Phantom's Vortex: a race of 2-4 phantoms through the Outer Grounds, the Courtyard and the Temple."""

from __future__ import annotations

from shared.games.vortex.board import Board, BoardError
from shared.games.vortex.game import VortexRules, rules
from shared.games.vortex.load import load_board, reference_board
from shared.games.vortex.options import Options
from shared.games.vortex.validate import validate_board

__all__ = ["Board", "BoardError", "Options", "VortexRules", "load_board", "reference_board", "rules", "validate_board"]
