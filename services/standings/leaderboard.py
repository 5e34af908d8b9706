"""A tournament's leaderboard from its games: a win is 1 point, shared among joint winners; ties are broken by
Median-Buchholz (the sum of the opponents' points without the highest and the lowest), then by rating."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from fractions import Fraction

import msgspec

from shared.tournaments.scoring import median_buchholz


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
    byes: int = 0
    """Rounds the player sat out with a bye (each worth a point): only in tournaments run by matchmaking."""
    seed: int | None = None
    """1 = the best seed when the tournament started (the last tie-break); None: a tournament of game streams."""


def leaderboard(games: Iterable[TournamentGame], ratings: Mapping[str, float]) -> list[Placing]:
    points: dict[str, Fraction] = defaultdict(Fraction)
    played: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[str]] = defaultdict(list)
    for game in games:
        seated = [(seat, p) for seat, p in enumerate(game.players) if p]
        for _, player in seated:
            points.setdefault(player, Fraction(0))
        if game.running or game.winners is None:
            continue
        share = Fraction(1, len(game.winners)) if game.winners else Fraction(0)
        for seat, player in seated:
            played[player] += 1
            if seat in game.winners:
                points[player] += share
                won[player] += 1
            opponents[player] += [other for _, other in seated if other != player]
    buchholz = {p: median_buchholz([points[o] for o in opponents[p]]) for p in points}

    def order(player: str) -> tuple[Fraction, Fraction, float, str]:
        rating = ratings.get(player)
        return (-points[player], -buchholz[player], -(rating if rating is not None else float("-inf")), player)

    ranked = sorted(points, key=order)
    placings: list[Placing] = []
    for index, player in enumerate(ranked):
        previous = placings[-1] if placings else None
        tied = previous is not None and order(player)[:3] == order(previous.player_id)[:3]
        placings.append(Placing(rank=previous.rank if tied and previous else index + 1, player_id=player,
                                points=float(points[player]), median_buchholz=float(buchholz[player]),
                                rating=ratings.get(player), games=played[player], wins=won[player]))
    return placings
