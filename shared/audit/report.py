from __future__ import annotations

import uuid

import msgspec


class Discrepancy(msgspec.Struct, frozen=True, kw_only=True):
    stream_id: str
    version: int | None
    event_id: uuid.UUID | None
    check: str
    expected: str
    found: str

    def __str__(self) -> str:
        where = self.stream_id if self.version is None else f"{self.stream_id} v{self.version} ({self.event_id})"
        return f"DISCREPANCY at {where}: {self.check}\n  expected: {self.expected}\n  found:    {self.found}"


class AuditReport(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    game_events: int
    rng_events: int
    actions: int
    draws: int
    discrepancy: Discrepancy | None = None
    abandoned: str | None = None
    """Set when the game was abandoned (``engine.GameAbandoned``): by whom and why. Everything up to it is audited."""

    @property
    def verified(self) -> bool:
        return self.discrepancy is None

    def __str__(self) -> str:
        if self.discrepancy is not None:
            return str(self.discrepancy)
        verified = (f"{self.game_id}: verified — {self.game_events} game events and {self.rng_events} RNG events, "
                    f"hash chains intact; seed matches its commitment; {self.draws} draws recomputed from it, "
                    f"numbered from 0 with no gap; {self.actions} actions re-run through the rules with identical "
                    "events")
        return verified if self.abandoned is None else f"{verified}; the game was abandoned ({self.abandoned})"


class Found(Exception):
    """Raised inside the audit at the first discrepancy; the report carries it."""

    def __init__(self, discrepancy: Discrepancy) -> None:
        super().__init__(str(discrepancy))
        self.discrepancy = discrepancy
