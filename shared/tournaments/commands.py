"""What may be asked of a tournament."""

from __future__ import annotations

import msgspec

from shared.tournaments.formats import Format


class CreateTournament(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.CreateTournament"):
    tournament_id: str
    name: str
    game: str
    options: msgspec.Raw = msgspec.Raw(b"{}")
    format: Format
    max_players: int
    seats: tuple[int, int]
    """The seats the game allows (least, most), checked against the format by the caller's knowledge of games."""
    turn_seconds: float | None = None
    """None: ``DEFAULT_TURN_SECONDS`` (every tournament game has a turn timer)."""
    client_seed_seconds: float | None = None
    organiser: str | None = None
    """The player creating it; None: the league itself."""


class Register(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.Register"):
    player_id: str
    bot: str | None = None


class Start(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.Start"):
    ratings: dict[str, float] = {}
    """Rating ordinals of the registered players (absent: 0)."""
    by: str | None = None
    """The player asking, who must be the organiser; None: the league itself, which may start any tournament."""


class RecordResult(msgspec.Struct, frozen=True, kw_only=True, tag="tournament.RecordResult"):
    game_id: str
    winners: tuple[int, ...]
    """Winning seats, from the game's ``engine.GameEnded``."""


Command = CreateTournament | Register | Start | RecordResult
