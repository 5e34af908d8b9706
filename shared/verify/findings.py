from __future__ import annotations

import uuid

import msgspec


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """One thing wrong, and the event it is about (when there is one to name)."""

    check: str
    found: str
    stream_id: str | None = None
    version: int | None = None
    event_id: uuid.UUID | None = None

    def __str__(self) -> str:
        where = self.stream_id or "the log"
        if self.version is not None:
            where += f" v{self.version}"
        if self.event_id is not None:
            where += f" (event {self.event_id})"
        return f"FOUND at {where}: {self.check}\n  {self.found}"
