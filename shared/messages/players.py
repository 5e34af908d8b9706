from __future__ import annotations

import msgspec

from shared.messages.registry import registry


class PlayerRegistered(msgspec.Struct, frozen=True, kw_only=True, tag="player.Registered"):
    player_id: str
    name: str


registry.register(PlayerRegistered)
