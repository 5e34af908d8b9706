"""Opening a race: 2-4 phantoms on green spirals, the board and options recorded in the first event."""

from __future__ import annotations

from shared.games.draws import Draws
from shared.games.rules import RuleViolation
from shared.games.vortex.board import GREEN_STONES, BoardError
from shared.games.vortex.events import Event, GameStarted
from shared.games.vortex.load import reference_board
from shared.games.vortex.options import Options
from shared.games.vortex.validate import validate_board

MIN_PHANTOMS, MAX_PHANTOMS = 2, 4


def new_game(options: Options, seats: int, draws: Draws) -> list[Event]:
    """Seat i starts on a green spiral spread evenly round the Outer Grounds; seat 0 moves first. Uses no draws."""
    if not MIN_PHANTOMS <= seats <= MAX_PHANTOMS:
        raise RuleViolation("vortex.setup.phantoms", f"Phantom's Vortex is for 2 to 4 phantoms, not {seats}.")
    if options.max_rounds is not None and options.max_rounds < 1:
        raise RuleViolation("vortex.options.max-rounds", "max_rounds must be at least 1 (or unset).")
    board = options.board if options.board is not None else reference_board()
    try:
        validate_board(board)
    except BoardError as e:
        raise RuleViolation("vortex.board.invalid", f"This board cannot be played: {e}.") from e
    starts = tuple(GREEN_STONES[i * len(GREEN_STONES) // seats] for i in range(seats))
    return [GameStarted(options=options, seats=seats, board=board, starts=starts)]
