"""The folded state of a season. Frozen; ``evolve`` returns a new one."""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.games.phantoms.cards import Card
from shared.games.phantoms.options import Options

Phase = Literal["opening", "regular", "postseason", "over"]
Piles = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""Forwards, defense, goalies; top card first."""


class Manager(msgspec.Struct, frozen=True, kw_only=True):
    cards: tuple[str, ...] = ()
    """His team: six in the basic game, all his players (resting ones too) in the team variant."""
    resting: tuple[str, ...] = ()
    team: str | None = None
    wins: int = 0
    goals_for: int = 0
    goals_against: int = 0
    initiated: tuple[int, ...] = ()
    """Regular-season games he initiated against each seat (the season play rule)."""
    eliminated: bool = False


class Result(msgspec.Struct, frozen=True, kw_only=True):
    home: int
    away: int
    home_goals: int
    away_goals: int
    winner: int | None
    kind: str
    claimed: bool = False
    forfeit: bool = False
    sudden_deaths: int = 0


class PendingTrade(msgspec.Struct, frozen=True, kw_only=True):
    opponent: int
    order: tuple[str, ...]
    taken: str | None = None


class RoundRecord(msgspec.Struct, frozen=True, kw_only=True):
    block: int
    round: int
    cards: tuple[str, str]
    values: tuple[float, float]
    goal: int | None
    injured: tuple[str, ...]


class Game(msgspec.Struct, frozen=True, kw_only=True):
    home: int
    away: int
    kind: str
    lineups: tuple[tuple[str, ...] | None, tuple[str, ...] | None]
    """The six each side plays (filled at once in the basic game, by FieldTeam in the team variant)."""
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    """Not yet played in this block."""
    block: int = 0
    """0 is regulation; 1, 2, ... are sudden-death games."""
    round: int = 1
    chosen: tuple[str | None, str | None] = (None, None)
    table: tuple[str | None, str | None] = (None, None)
    swapped: bool = False
    bonus: float | None = None
    """Sitting Bull's flipped value this round (None: not flipped yet)."""
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    claimed: bool = False
    judge: tuple[bool, bool] = (False, False)
    declined_block: int = -1
    injured: tuple[tuple[int, str], ...] = ()
    to_replace: tuple[tuple[int, str], ...] = ()
    """Injured, in order, not yet replaced: regulation ones before sudden death, sudden-death ones after the game
    (until then they play on)."""
    history: tuple[RoundRecord, ...] = ()

    def side(self, seat: int) -> int:
        return 0 if seat == self.home else 1

    @property
    def seats(self) -> tuple[int, int]:
        return (self.home, self.away)


class Stage(msgspec.Struct, frozen=True, kw_only=True):
    purpose: str
    mode: str
    teams: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    byes: tuple[int, ...] = ()
    wins_needed: int = 1
    games: tuple[Result, ...] = ()


class Season(msgspec.Struct, frozen=True, kw_only=True):
    options: Options
    cards: dict[str, Card]
    seats: int
    managers: tuple[Manager, ...]
    injury_rule: Literal["draft", "out_for_season"] = "draft"
    """How injured players are replaced, as the season's first event records (RULES.md, by edition)."""
    phase: Phase = "opening"
    turn: int = 0
    picks: int = 0
    piles: Piles = ((), (), ())
    out: tuple[str, ...] = ()
    """Players out of the game: injured ones out for the season (Power Play), eliminated teams, unused team-variant
    cards."""
    injuries: tuple[str, ...] = ()
    trade: PendingTrade | None = None
    game: Game | None = None
    replacements: tuple[tuple[int, str], ...] = ()
    rest_due: tuple[int, ...] = ()
    rest_pool: tuple[tuple[str, ...], ...] = ()
    rest_must: tuple[tuple[str, ...], ...] = ()
    turn_done: bool = False
    results: tuple[Result, ...] = ()
    leader: int | None = None
    stage: Stage | None = None
    champion: int | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self.champion is None else (self.champion,)

    @property
    def edition(self) -> str:
        return self.options.edition

    def pile(self, position: str) -> tuple[str, ...]:
        return self.piles["FDG".index(position)]
