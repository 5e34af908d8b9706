"""Swiss standings: a point per game won (winners who tie share it), a point per bye; tie-break Median-Buchholz
(the sum of one's opponents' scores without the highest and the lowest), then the rating at the start."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction

import msgspec

from shared.tournaments.events import Seed


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    player_id: str
    points: float
    median_buchholz: float
    rating: float
    games: int


class Played(msgspec.Struct, frozen=True):
    """One finished game: who sat at the table and who won."""

    players: tuple[str, ...]
    winners: tuple[str, ...]


def points(games: Iterable[Played], byes: Iterable[str]) -> dict[str, Fraction]:
    score: dict[str, Fraction] = defaultdict(Fraction)
    for game in games:
        for player in game.players:
            score[player] += 0
        for winner in game.winners:
            score[winner] += Fraction(1, len(game.winners))
    for player in byes:
        score[player] += 1
    return score


def median_buchholz(opponent_scores: Sequence[Fraction]) -> Fraction:
    return sum(sorted(opponent_scores)[1:-1], Fraction(0))


def standings(seeds: Sequence[Seed], games: Sequence[Played], byes: Sequence[str]) -> list[Standing]:
    score = points(games, byes)
    opponents: dict[str, list[str]] = defaultdict(list)
    played: dict[str, int] = defaultdict(int)
    for game in games:
        for player in game.players:
            played[player] += 1
            opponents[player] += [other for other in game.players if other != player]
    order = {seed.player_id: i for i, seed in enumerate(seeds)}
    rating = {seed.player_id: seed.rating for seed in seeds}
    buchholz = {p: median_buchholz([score[o] for o in opponents[p]]) for p in order}
    ranked = sorted(order, key=lambda p: (-score[p], -buchholz[p], -rating[p], order[p]))
    return [Standing(rank=i + 1, player_id=p, points=float(score[p]), median_buchholz=float(buchholz[p]),
                     rating=rating[p], games=played[p]) for i, p in enumerate(ranked)]
