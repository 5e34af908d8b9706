from __future__ import annotations

import msgspec

from shared.messages.registry import registry


class PlayerRegistered(msgspec.Struct, frozen=True, kw_only=True, tag="player.Registered"):
    player_id: str
    name: str


registry.register(PlayerRegistered)


class TokenRevoked(msgspec.Struct, frozen=True, kw_only=True):
    """Gateway to gateway over NATS (not an event): forget this token at once, it was rotated or revoked."""

    token_hash: bytes
