"""A tournament table as the rounds view shows it: a single game's winners, or a best-of-N series' winner."""

from __future__ import annotations

from services.standings.leaderboard import TournamentGame
from services.standings.rounds_read import table_of


def game(n: int, players: tuple[str, ...], winners: tuple[int, ...] | None) -> TournamentGame:
    return TournamentGame(game_id=f"g{n}", round=1, table=1, game="hockeydice", players=players, winners=winners,
                          running=winners is None)


def test_a_best_of_three_series_is_won_by_the_first_to_two_wins() -> None:
    games = [game(1, ("ann", "bob"), (0,)), game(2, ("bob", "ann"), (0,)), game(3, ("ann", "bob"), (0,))]
    table = table_of(1, games, 3, ["ann", "bob"])
    assert table["wins"] == {"ann": 2, "bob": 1} and table["winners"] == ["ann"] and not table["running"]


def test_a_series_still_being_played_has_no_winner_yet() -> None:
    games = [game(1, ("ann", "bob"), (1,)), game(2, ("bob", "ann"), None)]
    table = table_of(1, games, 3, ["ann", "bob"])
    assert table["wins"] == {"ann": 0, "bob": 1} and table["winners"] == [] and table["running"]


def test_a_swiss_table_is_taken_by_its_game_winners_shared_when_they_tie() -> None:
    table = table_of(2, [game(1, ("ann", "bob", "cid"), (0, 2))], None, [])
    assert table["winners"] == ["ann", "cid"] and table["table"] == 2
