"""The RNG service's stream ``rng-<game_id>`` and its NATS requests (DESIGN.md "Dice / RNG audit")."""

from __future__ import annotations

import msgspec

from shared.games.draws import DrawRequest
from shared.messages.registry import registry


class SeedCommitted(msgspec.Struct, frozen=True, kw_only=True, tag="rng.SeedCommitted"):
    game_id: str
    commitment: str
    """sha256 of the server seed, hex; public before any draw."""
    recipe_version: str
    seats: int


class ClientSeedAdded(msgspec.Struct, frozen=True, kw_only=True, tag="rng.ClientSeedAdded"):
    seat: int
    client_seed: str


class Drawn(msgspec.Struct, frozen=True, kw_only=True, tag="rng.Drawn"):
    nonce: int
    request: DrawRequest
    values: tuple[int, ...]


class SeedRevealed(msgspec.Struct, frozen=True, kw_only=True, tag="rng.SeedRevealed"):
    server_seed: str
    """hex"""


RngEvent = SeedCommitted | ClientSeedAdded | Drawn | SeedRevealed
registry.register_all([SeedCommitted, ClientSeedAdded, Drawn, SeedRevealed])


def rng_stream(game_id: str) -> str:
    return f"rng-{game_id}"


class CreateSeed(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seats: int
    auth: str


class AddClientSeed(msgspec.Struct, frozen=True, kw_only=True):
    """A seated player's client seed, passed on by the engine (which checked the seat). Idempotent: the same seed
    for the same seat again changes nothing."""

    game_id: str
    seat: int
    client_seed: str
    auth: str
    """HMAC-SHA256(engine key, signed fields), hex: only the engine speaks for a seat."""


class DrawNumbers(msgspec.Struct, frozen=True, kw_only=True):
    """Draw ``nonce`` of a game. Idempotent: asking again for a nonce already drawn returns the recorded draw, so
    an engine that crashed between drawing and appending gets the same numbers back and cannot fish."""

    game_id: str
    nonce: int
    request: DrawRequest
    issued_at: float
    auth: str
    """HMAC-SHA256(engine key, signed_fields), hex: only the engine may ask for draws."""


class Commitment(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    commitment: str
    recipe_version: str


class NumberedDraw(msgspec.Struct, frozen=True, kw_only=True):
    nonce: int
    request: DrawRequest
    values: tuple[int, ...]
