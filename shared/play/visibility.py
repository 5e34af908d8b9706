from __future__ import annotations

from typing import Any

from shared.games.rules import GameRules

NOBODY: tuple[int, ...] = ()


def visibility_of(rules: GameRules, event: Any) -> tuple[int, ...] | None:
    seats = rules.visible_to(event)
    return None if seats is None else tuple(sorted(seats))
