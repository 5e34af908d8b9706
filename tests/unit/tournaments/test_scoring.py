from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.tournaments.events import Seed
from shared.tournaments.scoring import Played, median_buchholz, standings


def test_median_buchholz_drops_the_best_and_the_worst_opponent() -> None:
    assert median_buchholz([Fraction(3), Fraction(1), Fraction(2), Fraction(0)]) == 3
    assert median_buchholz([Fraction(2), Fraction(5)]) == 0
    assert median_buchholz([]) == 0


def points(games: list[Played], byes: list[str]) -> dict[str, Fraction]:
    """The rule in Fractions: what ``standings`` must give, in whole units or not."""
    score: dict[str, Fraction] = {}
    for game in games:
        for winner in game.winners:
            score[winner] = score.get(winner, Fraction(0)) + Fraction(1, len(game.winners))
    for player in byes:
        score[player] = score.get(player, Fraction(0)) + 1
    return score


def test_winners_who_tie_share_the_point_and_a_bye_is_worth_a_win() -> None:
    table = standings([Seed(p, 0.0) for p in "abcd"], [Played(("a", "b", "c"), ("a", "b")),
                                                       Played(("c", "d"), ("c",))], ["d"])
    assert {s.player_id: s.points for s in table} == {"a": 0.5, "b": 0.5, "c": 1, "d": 1}


def test_standings_by_points_then_median_buchholz_then_rating_worked_by_hand() -> None:
    # Three rounds of six players at tables of two:
    #   r1: a-b a, c-d c, e-f e    r2: a-c a, b-e b, d-f f    r3: a-f f, c-e c, b-d b
    # points: a 2, b 2, c 2, f 2, e 1, d 0
    # opponents' points: a: b2 c2 f2 -> MB 2; b: a2 e1 d0 -> MB 1; c: d0 a2 e1 -> MB 1;
    #                    f: e1 d0 a2 -> MB 1; e: f2 b2 c2 -> MB 2; d: c2 f2 b2 -> MB 2
    games = [Played(("a", "b"), ("a",)), Played(("c", "d"), ("c",)), Played(("e", "f"), ("e",)),
             Played(("a", "c"), ("a",)), Played(("b", "e"), ("b",)), Played(("d", "f"), ("f",)),
             Played(("a", "f"), ("f",)), Played(("c", "e"), ("c",)), Played(("b", "d"), ("b",))]
    seeds = [Seed("a", 1.0), Seed("b", 0.0), Seed("c", 3.0), Seed("d", 0.0), Seed("e", 0.0), Seed("f", 2.0)]
    table = standings(seeds, games, [])
    assert [(s.player_id, s.points, s.median_buchholz) for s in table] == [
        ("a", 2, 2), ("c", 2, 1), ("f", 2, 1), ("b", 2, 1), ("e", 1, 2), ("d", 0, 2)]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6] and table[0].games == 3


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_standings_are_best_first_and_players_tied_on_points_buchholz_and_rating_stay_in_seed_order(
    data: st.DataObject,
) -> None:
    players = [f"p{n}" for n in range(data.draw(st.integers(2, 30)))]
    seeds = [Seed(player_id=p, rating=data.draw(st.sampled_from([0.0, 1.0, 2.5]))) for p in players]
    tables = data.draw(st.lists(st.lists(st.sampled_from(players), min_size=2, max_size=8, unique=True), max_size=60))
    games = [Played(tuple(t), tuple(data.draw(st.lists(st.sampled_from(t), max_size=len(t), unique=True))))
             for t in tables]
    byes = data.draw(st.lists(st.sampled_from(players), max_size=3))
    score = points(games, byes)
    opponents = {p: [o for g in games if p in g.players for o in g.players if o != p] for p in players}
    seed = {s.player_id: n for n, s in enumerate(seeds)}
    placed = standings(seeds, games, byes)
    assert [s.rank for s in placed] == list(range(1, len(players) + 1))
    zero = Fraction(0)
    assert [s.player_id for s in placed] == sorted(players, key=lambda p: (
        -score.get(p, zero), -median_buchholz([score.get(o, zero) for o in opponents[p]]), -seed_rating(seeds, p),
        seed[p]))
    # Scored in whole units, the figures are the Fractions' own.
    assert [(s.points, s.median_buchholz) for s in placed] == [
        (float(score.get(s.player_id, zero)), float(median_buchholz([score.get(o, zero) for o in
                                                                     opponents[s.player_id]]))) for s in placed]


def seed_rating(seeds: list[Seed], player: str) -> float:
    return next(s.rating for s in seeds if s.player_id == player)
