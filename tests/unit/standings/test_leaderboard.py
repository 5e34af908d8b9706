from __future__ import annotations

from services.standings.leaderboard import TournamentGame, leaderboard


def game(players: tuple[str, ...], winners: tuple[int, ...] | None, running: bool = False) -> TournamentGame:
    return TournamentGame(game_id="-".join(players), round=1, table=1, game="vortex", players=players,
                          winners=winners, running=running)


def test_a_win_is_one_point_and_joint_winners_share_it() -> None:
    board = leaderboard([game(("a", "b", "c"), (0,)), game(("a", "b", "c"), (1, 2))], {})
    assert {p.player_id: p.points for p in board} == {"a": 1.0, "b": 0.5, "c": 0.5}


def test_shares_are_exact_fractions_so_equal_scores_tie_and_the_points_add_up() -> None:
    three_way = ("a", "b", "c")
    games = [game(three_way, (0, 1, 2)), game(three_way, (0, 1, 2)), game(three_way, (0, 1, 2)),
             game(("d", "e", "f"), (0,))]
    board = {p.player_id: p for p in leaderboard(games, {})}
    assert board["a"].points == board["b"].points == board["c"].points == 1.0
    assert board["a"].rank == board["b"].rank == board["c"].rank == 1 and board["d"].rank == 4


def test_equal_points_are_split_by_median_buchholz() -> None:
    games = [game(("a", "p1"), (0,)), game(("a", "p2"), (1,)), game(("a", "p3"), (1,)),
             game(("b", "q1"), (0,)), game(("b", "q2"), (1,)), game(("b", "q3"), (1,)),
             game(("p2", "z1"), (0,)), game(("p2", "z2"), (0,)), game(("p3", "z3"), (0,))]
    board = {p.player_id: p for p in leaderboard(games, {"b": 50.0})}
    assert board["a"].points == board["b"].points == 1.0
    assert (board["a"].median_buchholz, board["b"].median_buchholz) == (2.0, 1.0)
    assert board["a"].rank < board["b"].rank


def test_equal_points_and_median_buchholz_are_split_by_rating() -> None:
    games = [game(("a", "x"), (0,)), game(("b", "y"), (0,))]
    board = leaderboard(games, {"a": 1.0, "b": 5.0})
    assert [p.player_id for p in board][:2] == ["b", "a"] and board[0].rank == 1 and board[1].rank == 2


def test_a_tie_on_every_criterion_shares_the_rank_and_running_games_score_nothing() -> None:
    board = leaderboard([game(("a", "b"), None, running=True)], {})
    assert [(p.rank, p.points, p.games) for p in board] == [(1, 0.0, 0), (1, 0.0, 0)]
