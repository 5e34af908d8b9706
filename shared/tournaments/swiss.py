"""Swiss pairing at tables of any size: players in standing order, nobody meets anyone a second time when that can
be avoided.

An exact depth-first search seats the best-placed free player first and fills each table in standing order, so
the first solution keeps score groups together. A large field can trap that search in a dead end far from its
cause, so past a node budget it starts again from the standing order slightly shuffled (neighbours swapped, by a
fixed seed: the same standings always give the same pairing), and searches small fields to the end. Failing
that, a greedy seating is repaired by swapping players between nearby tables while that removes repeats; it is
exact only in what it never makes worse, so a large field with a crowded history may still see a repeat. A field
of more than ``SEARCH_TABLES`` tables is searched band by band down the standings (the search's depth is one call
per table), and the whole then repaired.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

Met = Mapping[str, frozenset[str]]
BUDGET = 20_000
RESTARTS = 3
EXHAUSTIVE_UP_TO = 12
SEARCH_TABLES = 200
"""Tables one search seats at most: beyond, the field is paired in bands of this many tables."""


class _OutOfBudget(Exception):
    pass


def met_from(tables: Sequence[Sequence[str]]) -> dict[str, frozenset[str]]:
    """Who has sat with whom, from every table so far."""
    met: dict[str, set[str]] = {}
    for table in tables:
        for player in table:
            met.setdefault(player, set()).update(p for p in table if p != player)
    return {p: frozenset(others) for p, others in met.items()}


def repeats(tables: Sequence[Sequence[str]], met: Met) -> int:
    """Pairs of players seated together again."""
    return sum(1 for table in tables for i, a in enumerate(table) for b in table[i + 1:]
               if b in met.get(a, frozenset()))


def pair(players: Sequence[str], sizes: Sequence[int], met: Met, budget: int = BUDGET) -> list[tuple[str, ...]]:
    """Seat ``players`` (best first) at tables of ``sizes`` (which sum to the number of players)."""
    if sum(sizes) != len(players):
        raise ValueError(f"{len(players)} players cannot fill tables of {list(sizes)}")
    if len(sizes) > SEARCH_TABLES:
        return _in_bands(players, sizes, met, budget)
    shuffle = random.Random(len(players))
    order = list(players)
    for _attempt in range(RESTARTS):
        try:
            found = _search(order, Counter(sizes), met, [budget])
        except _OutOfBudget:
            order = _jostled(list(players), shuffle)
            continue
        if found is not None:
            return found
        break
    else:
        if len(players) <= EXHAUSTIVE_UP_TO:
            found = _search(list(players), Counter(sizes), met, [10**9])
            if found is not None:
                return found
    return _repaired(_greedy(list(players), sorted(sizes, reverse=True), met), met)


def _in_bands(players: Sequence[str], sizes: Sequence[int], met: Met, budget: int) -> list[tuple[str, ...]]:
    """A large field, paired band by band down the standings (``SEARCH_TABLES`` tables each), then repaired as a
    whole: the search goes one table deeper per table, and a field of thousands of tables is deeper than Python
    lets a call go. Only a repeat across a band's edge is left to the repair."""
    ordered = sorted(sizes, reverse=True)
    tables: list[tuple[str, ...]] = []
    start = 0
    for first in range(0, len(ordered), SEARCH_TABLES):
        band = ordered[first:first + SEARCH_TABLES]
        seated = sum(band)
        tables += pair(players[start:start + seated], band, met, budget)
        start += seated
    return _repaired(tables, met)


def _repaired(tables: list[tuple[str, ...]], met: Met) -> list[tuple[str, ...]]:
    """Swap players between tables, nearest tables first, while a swap lowers the number of repeats."""
    seats = [list(t) for t in tables]

    def clashes(table: list[str]) -> int:
        return repeats([table], met)

    improved = True
    while improved:
        improved = False
        for i, table in enumerate(seats):
            if not clashes(table):
                continue
            for j in sorted(range(len(seats)), key=lambda k: (abs(k - i), k)):
                if j == i:
                    continue
                other = seats[j]
                before = clashes(table) + clashes(other)
                swap = next(((a, b) for a in range(len(table)) for b in range(len(other))
                             if clashes([*table[:a], other[b], *table[a + 1:]])
                             + clashes([*other[:b], table[a], *other[b + 1:]]) < before), None)
                if swap is not None:
                    a, b = swap
                    table[a], other[b] = other[b], table[a]
                    improved = True
                    if not clashes(table):
                        break
    return [tuple(t) for t in seats]


def _jostled(order: list[str], shuffle: random.Random) -> list[str]:
    """The standing order with some neighbours (and neighbours of neighbours) swapped."""
    for i in range(len(order) - 1):
        j = i + shuffle.choice((1, 1, 2))
        if j < len(order) and shuffle.random() < 0.3:
            order[i], order[j] = order[j], order[i]
    return order


def _search(free: list[str], sizes: Counter[int], met: Met, budget: list[int]) -> list[tuple[str, ...]] | None:
    if not free:
        return []
    first, rest = free[0], free[1:]
    for size in sorted((s for s, n in sizes.items() if n), reverse=True):
        sizes[size] -= 1
        for table, left in _tables(first, rest, size, met, budget):
            tail = _search(left, sizes, met, budget)
            if tail is not None:
                sizes[size] += 1
                return [table, *tail]
        sizes[size] += 1
    return None


Seated = Iterator[tuple[tuple[str, ...], list[str]]]


def _tables(first: str, rest: list[str], size: int, met: Met, budget: list[int]) -> Seated:
    """Every table of ``size`` with ``first`` and others from ``rest`` who have met nobody at it, in standing
    order; yields (table, players left)."""

    def extend(table: list[str], start: int) -> Seated:
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfBudget
        if len(table) == size:
            seated = set(table)
            yield tuple(table), [p for p in rest if p not in seated]
            return
        for i in range(start, len(rest)):
            candidate = rest[i]
            if all(candidate not in met.get(p, frozenset()) for p in table):
                yield from extend([*table, candidate], i + 1)

    yield from extend([first], 0)


def _greedy(free: list[str], sizes: list[int], met: Met) -> list[tuple[str, ...]]:
    tables = []
    for size in sizes:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(range(len(free)),
                       key=lambda i: (sum(free[i] in met.get(p, frozenset()) for p in table), i))
            table.append(free.pop(best))
        tables.append(tuple(table))
    return tables
