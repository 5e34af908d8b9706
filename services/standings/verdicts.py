"""The audit's verdict on a finished game, for the replay viewer: ``shared.audit`` over the game's stored streams,
run off the event loop. A verdict is kept per game and the last hashes of both streams, so that the same game is
not re-run for every viewer, and any change to either stream is audited afresh."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import msgspec

from shared.audit import audit_game
from shared.eventstore import RecordedEvent

KEPT = 256


class Verdicts:
    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, bytes, bytes], dict[str, Any]] = OrderedDict()

    async def verdict(self, game_id: str, game: list[RecordedEvent], rng: list[RecordedEvent]) -> dict[str, Any]:
        key = (game_id, game[-1].hash if game else b"", rng[-1].hash if rng else b"")
        if (found := self._kept.get(key)) is not None:
            self._kept.move_to_end(key)
            return found
        report = await asyncio.to_thread(audit_game, game_id, game, rng)
        revealed = any(e.type == "rng.SeedRevealed" for e in rng)
        verdict = {"game_id": game_id, "verified": report.verified, "seed_revealed": revealed,
                   "summary": str(report),
                   "counts": {"game_events": report.game_events, "rng_events": report.rng_events,
                              "actions": report.actions, "draws": report.draws},
                   "discrepancy": msgspec.to_builtins(report.discrepancy)}
        if revealed:  # before the reveal the verdict is only "not yet": ask again
            self._kept[key] = verdict
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return verdict
