from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.tournaments.formats import default_rounds, table_sizes
from shared.tournaments.swiss import Met, met_from, pair, repeats


def seatings(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat the players at tables of these sizes (brute force, for small fields)."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for size in set(sizes):
        left_sizes = list(sizes)
        left_sizes.remove(size)

        for table in choose([first], rest, 0, size):
            left = [p for p in rest if p not in table]
            for tail in seatings(left, left_sizes):
                yield [tuple(table), *tail]


def choose(table: list[str], rest: list[str], start: int, size: int) -> Iterator[list[str]]:
    if len(table) == size:
        yield table
        return
    for i in range(start, len(rest)):
        yield from choose([*table, rest[i]], rest, i + 1, size)


def repeat_free_exists(players: Sequence[str], sizes: Sequence[int], met: Met) -> bool:
    return any(repeats(s, met) == 0 for s in seatings(players, sizes))


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[str], list[int], list[tuple[str, ...]]]:
    size = draw(st.sampled_from([2, 3, 4]))
    count = draw(st.integers(min_value=size, max_value=10 if size == 2 else 9))
    players = [f"p{i}" for i in range(count)]
    sizes, byes = table_sizes(count, size, 2)
    seated = count - byes
    history: list[tuple[str, ...]] = []
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        order = draw(st.permutations(players))
        at = 0
        for table_size in sizes:
            history.append(tuple(order[at:at + table_size]))
            at += table_size
    order = draw(st.permutations(players))
    return list(order[:seated]), sizes, history


@settings(max_examples=150, deadline=None)
@given(histories())
def test_pairing_never_repeats_an_opponent_when_a_seating_without_repeats_exists(
    case: tuple[list[str], list[int], list[tuple[str, ...]]]
) -> None:
    players, sizes, history = case
    met = met_from(history)
    tables = pair(players, sizes, met)
    assert sorted(p for t in tables for p in t) == sorted(players)
    assert Counter(len(t) for t in tables) == Counter(sizes)
    if repeat_free_exists(players, sizes, met):
        assert repeats(tables, met) == 0


def test_when_every_seating_repeats_the_fallback_still_seats_everyone_once() -> None:
    players = ["a", "b", "c", "d"]
    met = met_from([("a", "b"), ("c", "d"), ("a", "c"), ("b", "d"), ("a", "d"), ("b", "c")])
    tables = pair(players, [2, 2], met)
    assert sorted(p for t in tables for p in t) == players and repeats(tables, met) == 2


def test_the_first_round_seats_the_field_in_order_of_standing() -> None:
    players = [f"p{i}" for i in range(8)]
    assert pair(players, [4, 4], {}) == [("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7")]


def test_64_players_at_tables_of_4_play_the_default_5_rounds_without_meeting_anyone_twice() -> None:
    assert default_rounds(64, 4) == 5
    for seed in range(10):
        rng = random.Random(seed)
        score = Counter[str]()
        history: list[tuple[str, ...]] = []
        players = [f"p{i}" for i in range(64)]
        for _ in range(5):
            order = sorted(players, key=lambda p: (-score[p], players.index(p)))
            tables = pair(order, [4] * 16, met_from(history))
            assert repeats(tables, met_from(history)) == 0
            history += tables
            for table in tables:
                score[rng.choice(table)] += 1


def test_tables_are_as_even_as_the_smallest_table_allows_and_the_rest_get_byes() -> None:
    assert table_sizes(10, 4, 2) == ([4, 3, 3], 0)
    assert table_sizes(10, 4, 4) == ([4, 4], 2)
    assert table_sizes(7, 2, 2) == ([2, 2, 2], 1)
    assert table_sizes(64, 4, 4) == ([4] * 16, 0)
    assert table_sizes(1, 2, 2) == ([], 1)


def test_a_field_of_10000_players_is_paired_in_standing_order_without_repeats_in_a_later_round() -> None:
    players = [f"p{n:05d}" for n in range(10_000)]
    first = pair(players, [2] * 5_000, {})
    assert first[:3] == [("p00000", "p00001"), ("p00002", "p00003"), ("p00004", "p00005")]
    assert first[-1] == ("p09998", "p09999")
    # Round two: the same standing order, so every natural pair would be a rematch.
    met = met_from(first)
    second = pair(players, [2] * 5_000, met)
    assert sorted(p for t in second for p in t) == players
    assert repeats(second, met) == 0
