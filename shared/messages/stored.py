"""Between typed messages and the rows of the event store."""

from __future__ import annotations

import uuid

import msgspec

from shared.eventstore import Metadata, NewEvent, RecordedEvent
from shared.eventstore.types import new_event_id
from shared.logging import current_correlation_id
from shared.messages.registry import registry


def stored(
    obj: msgspec.Struct,
    *,
    actor: str,
    event_id: uuid.UUID | None = None,
    causation_id: str | None = None,
    command_id: str | None = None,
    visibility: tuple[int, ...] | None = None,
) -> NewEvent:
    """A registered message as a new event, carrying the correlation id of the command being handled. Every entry
    point binds one (the HTTP middleware, ``rpc.serve``, each background unit of work), so all events a command
    causes share it; only a writer outside any of them (a script, a test) gets a fresh id per event."""
    name, version, data = registry.encode(obj)
    metadata = Metadata(correlation_id=current_correlation_id() or str(uuid.uuid4()), causation_id=causation_id,
                        actor=actor, command_id=command_id, visibility=visibility)
    return NewEvent(type=name, schema_version=version, data=data, metadata=metadata,
                    event_id=event_id or new_event_id())


def loaded(recorded: RecordedEvent) -> msgspec.Struct:
    return registry.decode(recorded.type, recorded.schema_version, recorded.data)
