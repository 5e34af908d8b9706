"""How many seats a game allows with given options, asked of its rules (they refuse a bad count first)."""

from __future__ import annotations

from typing import Any

from shared.games.draws import DrawsExhausted, RecordedDraws
from shared.games.rules import RuleViolation
from shared.messages.games import rules_of

MOST_SEATS = 10


def seat_range(game: str, options: Any) -> tuple[int, int] | None:
    """(least, most), or None when no count of seats is allowed (the options themselves are refused)."""
    rules = rules_of(game)
    allowed = []
    for seats in range(1, MOST_SEATS + 1):
        try:
            rules.new_game(options, seats, RecordedDraws([]))
        except DrawsExhausted:
            pass
        except RuleViolation:
            continue
        allowed.append(seats)
    return (min(allowed), max(allowed)) if allowed else None
