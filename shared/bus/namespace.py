"""Subject and stream names. A prefix lets several leagues, or test runs, share one NATS server."""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = re.compile(r"^[A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Namespace:
    prefix: str = ""

    def __post_init__(self) -> None:
        if not PREFIX.match(self.prefix):
            raise ValueError(f"NATS subject prefix {self.prefix!r} may hold only letters, digits and _")

    def subject(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def command(self, service: str, verb: str) -> str:
        return self.subject(f"league.{service}.{verb}")

    def event_subject(self, category: str, stream_id: str) -> str:
        return self.subject(f"events.{category}.{stream_id}")

    @property
    def events_appended(self) -> str:
        """Core NATS, no payload: a writer committed events; readers of the log look again (the log is the data)."""
        return self.subject("league.events.appended")

    @property
    def all_events(self) -> str:
        return self.subject("events.>")

    @property
    def events_stream(self) -> str:
        return f"EVENTS_{self.prefix}" if self.prefix else "EVENTS"
