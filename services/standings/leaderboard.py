"""A tournament's leaderboard from its games: a win is 1 point, shared among joint winners; ties are broken by
Median-Buchholz (the sum of the opponents' points without the highest and the lowest), then by rating."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

import msgspec


class TournamentGame(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    round: int | None
    table: int | None
    game: str
    players: tuple[str | None, ...]
    winners: tuple[int, ...] | None
    running: bool


class Placing(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    player_id: str
    points: float
    median_buchholz: float
    rating: float | None
    games: int
    wins: int


def median_buchholz(opponent_points: list[float]) -> float:
    if len(opponent_points) <= 2:
        return 0.0
    ordered = sorted(opponent_points)
    return sum(ordered[1:-1])


def leaderboard(games: Iterable[TournamentGame], ratings: Mapping[str, float]) -> list[Placing]:
    points: dict[str, float] = defaultdict(float)
    played: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[str]] = defaultdict(list)
    for game in games:
        seated = [(seat, p) for seat, p in enumerate(game.players) if p]
        for _, player in seated:
            points.setdefault(player, 0.0)
        if game.running or game.winners is None:
            continue
        share = 1.0 / len(game.winners) if game.winners else 0.0
        for seat, player in seated:
            played[player] += 1
            if seat in game.winners:
                points[player] += share
                won[player] += 1
            opponents[player] += [other for _, other in seated if other != player]
    buchholz = {p: median_buchholz([points[o] for o in opponents[p]]) for p in points}

    def order(player: str) -> tuple[float, float, float, str]:
        rating = ratings.get(player)
        return (-points[player], -buchholz[player], -(rating if rating is not None else float("-inf")), player)

    ranked = sorted(points, key=order)
    placings: list[Placing] = []
    for index, player in enumerate(ranked):
        previous = placings[-1] if placings else None
        tied = previous is not None and order(player)[:3] == order(previous.player_id)[:3]
        placings.append(Placing(rank=previous.rank if tied and previous else index + 1, player_id=player,
                                points=points[player], median_buchholz=buchholz[player],
                                rating=ratings.get(player), games=played[player], wins=won[player]))
    return placings
