"""Subject and stream names. A prefix lets several leagues, or test runs, share one NATS server."""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared.bus.partitions import partition_of

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

    def engine_partition(self, partition: int, verb: str) -> str:
        """What the owner of an engine partition answers: ``league.engine.p<partition>.<verb>``."""
        return self.command("engine", f"p{partition}.{verb}")

    def engine(self, game_id: str, verb: str) -> str:
        """Where a request about ``game_id`` goes: its partition's subject."""
        return self.engine_partition(partition_of(game_id), verb)

    def game_changed(self, game_id: str) -> str:
        """The owner's push of a game's new views, once per change."""
        return self.subject(f"league.changed.{game_id}")

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
