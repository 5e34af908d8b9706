from __future__ import annotations

from shared.games.rules import C, E, GameRules, S

NOBODY: tuple[int, ...] = ()


def visibility_of(rules: GameRules[S, C, E], event: E) -> tuple[int, ...] | None:
    seats = rules.visible_to(event)
    return None if seats is None else tuple(sorted(seats))
