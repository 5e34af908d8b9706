"""What the gateway's routes take and give. Request bodies are decoded strictly: an unknown field is an error."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from shared.fairness import CLIENT_SEED_MAX_BYTES
from shared.games.phantoms.commands import TimeOut
from shared.messages.engine import GameView

ENGINE_ONLY_COMMANDS: frozenset[type] = frozenset({TimeOut})
"""Commands only the league sends (the turn timer's move for a seat whose time ran out); a player's is refused."""
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[\w .'-]+$")]
GameName = Literal["hockeydice", "phantoms", "vortex"]
"""The games the league hosts (``shared.messages.games.GAMES``; a unit test keeps the two the same)."""


class RegisterPlayer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name


class Registered(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    token: str
    """Send it as ``Authorization: Bearer <token>``; only its hash is kept."""
    expires_at: datetime
    """After this the token is refused; rotate it before (POST /v1/players/me/token)."""


class Me(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    token_expires_at: datetime
    """When the token you sent stops working (rotate it before)."""


class TokenIssued(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    token: str
    """The new token, shown once; the one it replaces is refused from now on, on every gateway."""
    expires_at: datetime


class NewGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    game: GameName
    seats: Annotated[int, msgspec.Meta(ge=1, le=16)]
    options: dict[str, Any] = {}
    players: list[str | None] = []
    """Player id per seat; the creator is seated at seat 0 when this is empty."""
    bots: list[str | None] = []
    turn_seconds: Annotated[float, msgspec.Meta(ge=1, le=86_400)] | None = None
    client_seed_seconds: Annotated[float, msgspec.Meta(ge=1, le=3_600)] | None = None
    """Hold the opening until every seated player has sent a client seed (POST .../client-seed), or this long."""


class ClientSeed(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    client_seed: Annotated[str, msgspec.Meta(min_length=1, max_length=CLIENT_SEED_MAX_BYTES)]
    """Any text of yours (at most 64 bytes of UTF-8): the RNG mixes it into every draw of the game."""


class ClientSeedTaken(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    duplicate: bool
    """True when this seat had already sent this very seed: nothing new recorded."""
    started: bool
    """The game has started (this was the last seed missing)."""


class GameCreated(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    duplicate: bool = False
    """True when this answers a retry (the same Idempotency-Key): the game opened by the first request."""
    commitment: str | None = None
    """sha256 of the game's secret dice seed: note it, and `league audit --commitment` proves the seed unchanged."""


class CommandDone(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    duplicate: bool
    """True when this Idempotency-Key was seen before: the first result, nothing new appended."""
    ended: bool
    view: GameView | None = None
    """Your view of the game now (right after your move, or as it stands when this was a retry), with your legal
    moves (``legal``): what ``GET /v1/games/{game_id}`` would show you."""


class Error(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    message: str
