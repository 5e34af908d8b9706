"""Whose move it is, and what kind of move: derived from the state, never stored."""

from __future__ import annotations

from typing import Literal

from shared.games.phantoms.scoring import ROUNDS
from shared.games.phantoms.state import Game, Season

Step = Literal[
    "none", "opening", "turn", "trade-pick", "trade-return", "lineup", "choose", "flip", "claim", "rest", "auto",
]


def bull_seat(s: Season, g: Game) -> int | None:
    """The seat whose Sitting Bull is on the table waiting for its flip."""
    if g.bonus is not None or not any(s.piles):
        return None
    for side, card in enumerate(g.table):
        if card is not None and s.cards[card].special == "sitting_bull":
            return g.seats[side]
    return None


def claimant(s: Season, g: Game) -> int | None:
    """The seat whose Jolly Judge may claim this tied game."""
    if g.round <= ROUNDS or g.winner is not None or g.declined_block == g.block or g.score[0] != g.score[1]:
        return None
    for side, played in enumerate(g.judge):
        if played:
            return g.seats[side]
    return None


def block_over(g: Game) -> bool:
    return g.round > ROUNDS or g.winner is not None


def step(s: Season | None) -> tuple[Step, frozenset[int]]:
    if s is None or s.phase == "over":
        return "none", frozenset()
    if s.phase == "opening":
        if s.options.team_variant or s.picks >= 6 * s.seats:
            return "auto", frozenset()
        return "opening", frozenset({s.picks % s.seats})
    if (g := s.game) is not None:
        missing = frozenset(seat for seat, lineup in zip(g.seats, g.lineups, strict=True) if lineup is None)
        if missing:
            return "lineup", missing
        if g.table[0] is not None:
            seat = bull_seat(s, g)
            return ("flip", frozenset({seat})) if seat is not None else ("auto", frozenset())
        if block_over(g):
            seat = claimant(s, g)
            return ("claim", frozenset({seat})) if seat is not None else ("auto", frozenset())
        waiting = frozenset(seat for seat, card in zip(g.seats, g.chosen, strict=True) if card is None)
        return ("choose", waiting) if waiting else ("auto", frozenset())
    if s.replacements:
        return "auto", frozenset()
    if s.rest_due:
        return "rest", frozenset(s.rest_due)
    if s.phase == "regular":
        if s.trade is not None:
            return ("trade-pick" if s.trade.taken is None else "trade-return"), frozenset({s.turn})
        if not s.turn_done:
            return "turn", frozenset({s.turn})
    return "auto", frozenset()


def pending_seats(s: Season | None) -> frozenset[int]:
    return step(s)[1]


def allowed_opponents(s: Season, seat: int) -> list[int]:
    """The season play rule: only opponents you have initiated the fewest games against."""
    opponents = [o for o in range(s.seats) if o != seat and not s.managers[o].eliminated]
    counts = s.managers[seat].initiated
    fewest = min(counts[o] for o in opponents)
    return [o for o in opponents if counts[o] == fewest]
