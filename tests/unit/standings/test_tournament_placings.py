"""The leaderboard of a tournament run by matchmaking, from its own events: byes score, a knockout is no points
table, and the order is always the tournament's own."""

from __future__ import annotations

import random

from services.standings.placings import knockout_order, placings
from shared.tournaments.commands import CreateTournament, RecordResult, Register, Start
from shared.tournaments.formats import Elimination, Format, Swiss
from shared.tournaments.rounds import elimination_ranking, swiss_standings
from shared.tournaments.state import State
from tests.tournament_states import apply

RATINGS = {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5, "e": 0.2}


def started(fmt: Format, players: str) -> State:
    state = apply(None, CreateTournament(tournament_id="t1", name="Cup", game="hockeydice", format=fmt,
                                         max_players=len(players), seats=(2, 2)))
    for player in players:
        state = apply(state, Register(player_id=player))
    return apply(state, Start(ratings=RATINGS))


def won_by(state: State, player: str) -> State:
    game = next(g for g in state.games if g.winners is None and player in g.players)
    return apply(state, RecordResult(game_id=game.game_id, winners=(game.players.index(player),)))


def board(state: State) -> list[tuple[str, float, int]]:
    return [(p.player_id, p.points, p.byes) for p in placings(state)]


def test_a_bye_scores_a_point_on_the_leaderboard_as_in_the_tournament_standings() -> None:
    # Three players at tables of two, two rounds. Round 1: a-b, c has the bye; round 2: a-c, b has the bye.
    state = started(Swiss(table_size=2), "abc")
    assert board(state) == [("c", 1.0, 1), ("a", 0.0, 0), ("b", 0.0, 0)]
    state = won_by(state, "a")
    assert state.byes == ((1, "c"), (2, "b"))
    state = won_by(state, "c")
    assert state.ranking == ("c", "a", "b")
    assert board(state) == [("c", 2.0, 1), ("a", 1.0, 0), ("b", 1.0, 1)]
    placed = placings(state)
    assert [(p.rank, p.games, p.wins, p.seed, p.rating) for p in placed] == [
        (1, 1, 1, 3, 1.0), (2, 2, 1, 1, 3.0), (3, 1, 0, 2, 2.0)]
    standings = swiss_standings(state)
    assert [(p.player_id, p.points, p.median_buchholz) for p in placed] == [
        (s.player_id, s.points, s.median_buchholz) for s in standings]


def test_a_knockout_is_placed_by_how_far_each_player_went_not_by_points() -> None:
    # a has the bye; c beats b 2-1, then a beats c 2-1 in the final. Points: a 1 + 2 = 3, c 2 + 1 = 3, b 1, and
    # Median-Buchholz would put c (8) above a (3): as a points table the champion would be second.
    state = started(Elimination(best_of=3), "abc")
    for winner in "cbc":
        state = won_by(state, winner)
    assert [p.player_id for p in placings(state)] == ["a", "c", "b"]
    for winner in "aca":
        state = won_by(state, winner)
    assert [s.player_id for s in swiss_standings(state)] == ["c", "a", "b"]
    assert state.ranking == ("a", "c", "b")
    assert board(state) == [("a", 3.0, 1), ("c", 3.0, 0), ("b", 1.0, 0)]


def test_every_leaderboard_on_the_way_follows_the_tournament_and_ends_in_its_ranking() -> None:
    rng = random.Random(7)
    for fmt in (Swiss(table_size=2), Elimination(best_of=1), Elimination(best_of=3)):
        for _ in range(20):
            state = started(fmt, "abcde")
            while not state.finished:
                game = rng.choice([g for g in state.games if g.winners is None])
                state = won_by(state, rng.choice(game.players))
                order = [p.player_id for p in placings(state)]
                if isinstance(fmt, Swiss) and not state.finished:
                    assert order == [s.player_id for s in swiss_standings(state)]
            assert [p.player_id for p in placings(state)] == list(state.ranking or ())
            if isinstance(fmt, Elimination):
                assert knockout_order(state, fmt) == list(elimination_ranking(state))
            assert sum(p.points for p in placings(state)) == len(state.games) + len(state.byes)
