"""Swiss standings: a point per game won (winners who tie share it), a point per bye; tie-break Median-Buchholz
(the sum of one's opponents' scores without the highest and the lowest), then the rating at the start."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from math import lcm

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


ZERO = Fraction(0)


def median_buchholz(opponent_scores: Sequence[Fraction]) -> Fraction:
    return sum(sorted(opponent_scores)[1:-1], ZERO) if len(opponent_scores) > 2 else ZERO


def standings(seeds: Sequence[Seed], games: Sequence[Played], byes: Sequence[str]) -> list[Standing]:
    """Scored in whole units of a point (``unit`` of them a point, so that every shared point is whole): exactly the
    order and figures of Fractions, at a fraction of their cost (a 10,000-player field is placed again after every
    fold batch of its results)."""
    unit = lcm(1, *{len(game.winners) for game in games if game.winners})
    score: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[str]] = defaultdict(list)
    played: dict[str, int] = defaultdict(int)
    for game in games:
        for winner in game.winners:
            score[winner] += unit // len(game.winners)
        for player in game.players:
            played[player] += 1
            opponents[player] += [other for other in game.players if other != player]
    for player in byes:
        score[player] += unit
    rows = []
    for i, seed in enumerate(seeds):
        faced = [score[o] for o in opponents[seed.player_id]]
        buchholz = sum(faced) - max(faced) - min(faced) if len(faced) > 2 else 0
        rows.append((score[seed.player_id], buchholz, seed.rating, -i, seed.player_id))
    rows.sort(reverse=True)  # best first; players tied on all three in seed order
    return [Standing(rank=n, player_id=p, points=points_ / unit, median_buchholz=buchholz / unit, rating=rating,
                     games=played[p]) for n, (points_, buchholz, rating, _, p) in enumerate(rows, start=1)]
