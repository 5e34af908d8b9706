"""The standings projections, by name."""

from __future__ import annotations

from services.standings.projections.base import Projection
from services.standings.projections.boards import Boards
from services.standings.projections.counters import Counters
from services.standings.projections.games import Games
from services.standings.projections.leaderboards import Leaderboards
from services.standings.projections.players import Players
from services.standings.projections.ratings import Ratings
from services.standings.projections.rounds import Rounds
from services.standings.projections.season_boards import SeasonBoards
from services.standings.projections.seasons import Seasons
from services.standings.projections.tournaments import Tournaments

PROJECTIONS: dict[str, Projection] = {
    p.name: p for p in (Seasons(), Tournaments(), Leaderboards(), Ratings(), Boards(), Counters(), Players(),
                        Games(), Rounds(), SeasonBoards())}
