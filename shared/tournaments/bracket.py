"""Single elimination: a bracket seeded so that the best seeds meet last, byes to the top seeds, best-of-N series."""

from __future__ import annotations

from collections.abc import Sequence


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """Seed numbers (1-based) down the bracket: 1 and 2 can meet only in the final, 1-4 only in the semis."""
    positions = [1]
    while len(positions) < size:
        total = 2 * len(positions) + 1
        positions = [p for seed in positions for p in (seed, total - seed)]
    return positions


def first_round(seeded: Sequence[str]) -> list[tuple[str, ...]]:
    """The first round's pairs in bracket order, best seed first; the seeds the field is short of are byes, so a
    pair of one is a player who goes through without playing."""
    positions = seed_positions(bracket_size(len(seeded)))
    pairs = []
    for a, b in zip(positions[::2], positions[1::2], strict=True):
        pairs.append(tuple(seeded[s - 1] for s in (a, b) if s <= len(seeded)))
    return pairs


def next_round(winners: Sequence[str]) -> list[tuple[str, ...]]:
    """The pairs of the next round from the winners of this one, in bracket order."""
    return [tuple(winners[i:i + 2]) for i in range(0, len(winners), 2)]


def rounds_needed(players: int) -> int:
    return max(1, (bracket_size(players) - 1).bit_length())


def series_winner(players: Sequence[str], winners: Sequence[Sequence[str]], best_of: int,
                  seed_order: Sequence[str]) -> str | None:
    """Who has won the series, or None while it goes on. A game both (or neither) won counts for nobody; after
    ``2 * best_of`` games without a decision the better seed goes through."""
    needed = best_of // 2 + 1
    wins = {p: sum(1 for w in winners if list(w) == [p]) for p in players}
    for player in players:
        if wins[player] >= needed:
            return player
    if len(winners) >= 2 * best_of:
        return min(players, key=lambda p: (-wins[p], seed_order.index(p)))
    return None


def series_seats(pair: Sequence[str], game_number: int) -> tuple[str, ...]:
    """Seats swap every game of a series."""
    return tuple(pair) if game_number % 2 == 1 else tuple(reversed(pair))
