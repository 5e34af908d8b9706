"""What happens to a tournament, stored in its stream ``tournament-<id>``. Stored names are a contract."""

from __future__ import annotations

from typing import get_args

import msgspec

from shared.tournaments.formats import Format


class TournamentCreated(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.TournamentCreated"):
    tournament_id: str
    name: str
    game: str
    options: msgspec.Raw
    """The game's table options (JSON), the same for every table."""
    format: Format
    max_players: int
    turn_seconds: float | None = None
    """Each game's turn timer: a player who does not act in time gets the default bot's move."""
    client_seed_seconds: float | None = None
    """Each game waits this long (at most) for its seated players' client seeds before its opening."""
    organiser: str | None = None
    """The player who created it, the only player who may start it. None: created by the league itself (and every
    tournament created before organisers were recorded): no player may start it, only the league."""


class PlayerRegistered(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.PlayerRegistered"):
    player_id: str
    bot: str | None = None
    """A bot kind ("greedy", "random"): the engine plays this player's seats."""


class Seed(msgspec.Struct, frozen=True):
    player_id: str
    rating: float
    """The player's rating ordinal when the tournament started."""


class TournamentStarted(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.TournamentStarted"):
    seeds: tuple[Seed, ...]
    """Best first: the order of the first pairing and the last tie-break."""
    rounds: int
    """Swiss: the rounds to play; elimination: the rounds of the bracket."""


class Seating(msgspec.Struct, frozen=True):
    table: int
    game_id: str
    players: tuple[str, ...]
    """By seat."""


class RoundStarted(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.RoundStarted"):
    round: int
    tables: tuple[Seating, ...]
    byes: tuple[str, ...] = ()
    bracket: tuple[tuple[str, ...], ...] = ()
    """Elimination: the round's pairs in bracket order (a pair of one is a bye)."""


class SeriesGameStarted(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.SeriesGameStarted"):
    """The next game of a best-of-N series at a table."""

    round: int
    seating: Seating


class ResultRecorded(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.ResultRecorded"):
    round: int
    table: int
    game_id: str
    winners: tuple[str, ...]


class RoundCompleted(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.RoundCompleted"):
    round: int


class TournamentFinished(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.TournamentFinished"):
    ranking: tuple[str, ...]


Event = (
    TournamentCreated | PlayerRegistered | TournamentStarted | RoundStarted | SeriesGameStarted | ResultRecorded
    | RoundCompleted | TournamentFinished
)
EVENT_TYPES: tuple[type, ...] = get_args(Event)
