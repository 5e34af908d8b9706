"""Tournaments (stream ``tournament-<id>``) and the matchmaking service's NATS requests (``league.matchmaking.*``)."""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.messages.registry import registry
from shared.tournaments.events import EVENT_TYPES
from shared.tournaments.formats import Elimination, Format, Swiss
from shared.tournaments.scoring import Standing
from shared.tournaments.view import Entrant, GameResult, RoundView, TableView, TournamentView

registry.register_all(EVENT_TYPES)

__all__ = [
    "CreateTournamentRequest", "Elimination", "Entrant", "GameResult", "GetTournament", "JoinQueue", "LeaveQueue",
    "QueueStatus", "QueueTicket", "RegisterPlayer", "RoundView", "Standing", "StartTournament", "Swiss",
    "TableView", "TournamentRef", "TournamentView", "tournament_stream",
]


def tournament_stream(tournament_id: str) -> str:
    return f"tournament-{tournament_id}"


class CreateTournamentRequest(msgspec.Struct, frozen=True, kw_only=True):
    """``league.matchmaking.create``, answered with a TournamentRef."""

    name: str
    game: str
    format: Format
    max_players: int
    options: msgspec.Raw = msgspec.Raw(b"{}")
    tournament_id: str | None = None
    """Chosen by the caller to make a retry safe; None: the service picks one."""
    turn_seconds: float | None = None
    """Turn timer of every game (people who do not act in time get the default bot's move); None: the league's
    default (``shared.tournaments.decide.DEFAULT_TURN_SECONDS``)."""
    client_seed_seconds: float | None = None
    """Every game waits this long (at most) for its seated players' client seeds; None: no seed window."""
    organiser: str | None = None
    """The player creating it, the only player who may start it; None: the league itself."""


class TournamentRef(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    version: int


class RegisterPlayer(msgspec.Struct, frozen=True, kw_only=True):
    """``league.matchmaking.register``, answered with a TournamentRef. Registering again is a no-op."""

    tournament_id: str
    player_id: str
    bot: str | None = None


class StartTournament(msgspec.Struct, frozen=True, kw_only=True):
    """``league.matchmaking.start``: seeds by rating and opens round 1; answered with the TournamentView."""

    tournament_id: str
    player_id: str | None = None
    """The player asking (the gateway's authenticated caller), refused unless the organiser; None: the league."""


class GetTournament(msgspec.Struct, frozen=True, kw_only=True):
    """``league.matchmaking.get``, answered with the TournamentView."""

    tournament_id: str


class JoinQueue(msgspec.Struct, frozen=True, kw_only=True):
    """``league.matchmaking.queue.join``: wait for a quick-play table of ``seats``; answered with a QueueTicket."""

    player_id: str
    game: str
    seats: int
    options: msgspec.Raw = msgspec.Raw(b"{}")
    bot: str | None = None


class LeaveQueue(msgspec.Struct, frozen=True, kw_only=True):
    """``league.matchmaking.queue.leave``, answered with a QueueTicket."""

    player_id: str


class QueueStatus(msgspec.Struct, frozen=True, kw_only=True):
    """``league.matchmaking.queue.status``, answered with a QueueTicket."""

    player_id: str


class QueueTicket(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    status: Literal["waiting", "seated", "absent"]
    game_id: str | None = None
    """The quick-play game the player was last seated at."""
