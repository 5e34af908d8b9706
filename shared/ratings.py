"""Player ratings: OpenSkill (Plackett-Luce), updated from each ended game's result. The one place both matchmaking
(seeding, quick-play bands) and standings (ratings and history) compute them, so they always agree."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


class Rating(msgspec.Struct, frozen=True):
    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma

    @property
    def ordinal(self) -> float:
        """A conservative single number (mu - 3 sigma) to sort and band players by."""
        return self.mu - 3 * self.sigma


def ranks_from_winners(seats: int, winners: Sequence[int]) -> list[int]:
    """Winners share first place, everyone else shares second (our games name winners, not full orders)."""
    return [1 if seat in winners else 2 for seat in range(seats)]


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """New ratings after one game, one player per seat; ``ranks`` 1 = best, equal ranks are ties."""
    if len(ratings) != len(ranks):
        raise ValueError("one rank per rating")
    if len(ratings) < 2:
        return list(ratings)
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    return [Rating(team[0].mu, team[0].sigma) for team in _MODEL.rate(teams, ranks=list(ranks))]
