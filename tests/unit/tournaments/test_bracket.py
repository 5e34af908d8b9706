from __future__ import annotations

from shared.tournaments.bracket import (
    first_round,
    next_round,
    rounds_needed,
    seed_positions,
    series_seats,
    series_winner,
)


def test_the_best_seeds_can_meet_only_in_the_last_rounds() -> None:
    assert seed_positions(2) == [1, 2]
    assert seed_positions(4) == [1, 4, 2, 3]
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_a_field_short_of_a_power_of_two_gives_byes_to_the_top_seeds() -> None:
    seeded = ["s1", "s2", "s3", "s4", "s5", "s6"]
    assert first_round(seeded) == [("s1",), ("s4", "s5"), ("s2",), ("s3", "s6")]
    assert first_round(seeded[:5]) == [("s1",), ("s4", "s5"), ("s2",), ("s3",)]
    assert [rounds_needed(n) for n in (2, 3, 4, 5, 8, 9, 64)] == [1, 2, 2, 3, 3, 4, 6]


def test_winners_meet_their_bracket_neighbours_next() -> None:
    assert next_round(["s1", "s4", "s2", "s3"]) == [("s1", "s4"), ("s2", "s3")]


def test_a_best_of_3_series_ends_at_two_wins_and_a_tied_game_counts_for_nobody() -> None:
    seeds = ["a", "b"]
    assert series_winner(["a", "b"], [("a",)], 3, seeds) is None
    assert series_winner(["a", "b"], [("a",), ("b",)], 3, seeds) is None
    assert series_winner(["a", "b"], [("a",), ("b",), ("b",)], 3, seeds) == "b"
    assert series_winner(["a", "b"], [("a", "b"), ("a",), ()], 3, seeds) is None
    assert series_winner(["a", "b"], [("a",), ("a",)], 3, seeds) == "a"
    assert series_winner(["a", "b"], [("b",)], 1, seeds) == "b"


def test_a_series_that_never_decides_goes_to_the_better_seed_after_twice_its_length() -> None:
    assert series_winner(["a", "b"], [("a", "b")] * 5, 3, ["b", "a"]) is None
    assert series_winner(["a", "b"], [("a", "b")] * 6, 3, ["b", "a"]) == "b"


def test_seats_swap_every_game_of_a_series() -> None:
    assert [series_seats(("a", "b"), n) for n in (1, 2, 3)] == [("a", "b"), ("b", "a"), ("a", "b")]
