"""How a tournament is played: Swiss over many tables, or single elimination with best-of-N series."""

from __future__ import annotations

import math

import msgspec


class Swiss(msgspec.Struct, frozen=True, kw_only=True, tag="swiss"):
    table_size: int = 2
    min_table_size: int | None = None
    """Smallest table allowed when the players do not divide evenly; None: ``table_size`` (the rest get byes)."""
    rounds: int | None = None
    """None: ``default_rounds`` for the field at the start."""


class Elimination(msgspec.Struct, frozen=True, kw_only=True, tag="elimination"):
    best_of: int = 1
    """Each match is a series: the first to win ``best_of // 2 + 1`` games goes through."""


Format = Swiss | Elimination


def default_rounds(players: int, table_size: int) -> int:
    """About log2 of the field (one fewer at tables of more than two), never more than the rounds that can be
    played without anyone meeting a player twice."""
    if players < 2:
        return 1
    wanted = math.ceil(math.log2(players)) - (1 if table_size > 2 else 0)
    most = max(1, (players - 1) // max(1, table_size - 1))
    return max(1, min(wanted, most))


def table_sizes(players: int, size: int, min_size: int) -> tuple[list[int], int]:
    """(sizes of the tables, number of byes) to seat ``players`` at tables of ``min_size`` to ``size``."""
    if players < min_size:
        return [], players
    tables = math.ceil(players / size)
    if players // tables >= min_size:
        return [players // tables + (1 if i < players % tables else 0) for i in range(tables)], 0
    return [size] * (players // size), players % size
