"""Fielding a legal six (3F 2D 1G); in the team variant Troll and Bear may play as forwards."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from shared.games.phantoms.cards import FLEXIBLE, LINEUP, Card


def is_flexible(card: Card, team_variant: bool) -> bool:
    return team_variant and card.special in FLEXIBLE


def can_field(cards: list[Card], team_variant: bool) -> bool:
    flexible = sum(is_flexible(c, team_variant) for c in cards)
    fixed = [c for c in cards if not is_flexible(c, team_variant)]
    f = sum(c.position == "F" for c in fixed)
    d = sum(c.position == "D" for c in fixed)
    g = sum(c.position == "G" for c in fixed)
    return g >= 1 and max(0, 3 - f) + max(0, 2 - d) <= flexible


def lineup_ok(cards: list[Card], forwards: set[str], team_variant: bool) -> bool:
    if len(cards) != 6 or len({c.id for c in cards}) != 6:
        return False
    counts = {"F": 0, "D": 0, "G": 0}
    for c in cards:
        if c.id in forwards:
            if not is_flexible(c, team_variant):
                return False
            counts["F"] += 1
        else:
            counts[c.position] += 1
    return counts == LINEUP


def lineups(cards: list[Card], team_variant: bool) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every legal (six, Troll/Bear-as-forward) choice from ``cards``."""
    ordered = sorted(cards, key=lambda c: c.id)
    for six in combinations(ordered, 6):
        flex = [c.id for c in six if is_flexible(c, team_variant)]
        for k in range(len(flex) + 1):
            for forwards in combinations(flex, k):
                if lineup_ok(list(six), set(forwards), team_variant):
                    yield tuple(c.id for c in six), forwards


def best_lineup(cards: list[Card], team_variant: bool) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The legal six with the highest total value; None when none can be fielded."""
    best: tuple[float, tuple[str, ...], tuple[str, ...]] | None = None
    by_position: dict[str, list[Card]] = {"F": [], "D": [], "G": []}
    for c in sorted(cards, key=lambda c: (-c.value, c.id)):
        by_position[c.position].append(c)
    flex = [c for c in cards if is_flexible(c, team_variant)]
    for k in range(len(flex) + 1):
        for as_forward in combinations(flex, k):
            moved = {c.id for c in as_forward}
            fs = [c for c in by_position["F"]] + list(as_forward)
            ds = [c for c in by_position["D"] if c.id not in moved]
            fs.sort(key=lambda c: (-c.value, c.id))
            if len(fs) < 3 or len(ds) < 2 or not by_position["G"]:
                continue
            six = fs[:3] + ds[:2] + by_position["G"][:1]
            total = sum(c.value for c in six)
            forwards = tuple(sorted(c.id for c in six if c.id in moved))
            if best is None or total > best[0]:
                best = (total, tuple(c.id for c in six), forwards)
    return None if best is None else (best[1], best[2])
