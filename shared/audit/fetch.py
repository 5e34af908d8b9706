from __future__ import annotations

from shared.eventstore import EventStore, RecordedEvent
from shared.messages.rng import rng_stream


async def fetch_game(store: EventStore, game_id: str) -> tuple[list[RecordedEvent], list[RecordedEvent]]:
    return await store.read_stream(game_id), await store.read_stream(rng_stream(game_id))
