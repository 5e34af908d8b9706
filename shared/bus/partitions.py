"""Which engine partition a game belongs to, and the engine subjects a game's requests go to.

Games are spread over engine replicas by a fixed number of partitions (DESIGN.md "The hot path"): a game's
partition is a stable hash of its id, the same in every process and every release, so every client routes a game's
requests to the one replica that owns its partition now."""

from __future__ import annotations

import zlib

PARTITIONS = 64
"""Fixed for a league: changing it moves games between partitions, so every replica and client must agree."""


def partition_of(game_id: str) -> int:
    return zlib.crc32(game_id.encode()) % PARTITIONS
