from __future__ import annotations

import msgspec

from shared.audit.report import Discrepancy, Found
from shared.eventstore import RecordedEvent
from shared.messages.registry import UnknownMessage
from shared.messages.stored import loaded


def load(event: RecordedEvent) -> msgspec.Struct:
    """The stored event as its type, or the first discrepancy when it cannot be read as one."""
    try:
        return loaded(event)
    except (UnknownMessage, msgspec.ValidationError, msgspec.DecodeError) as error:
        raise Found(Discrepancy(stream_id=event.stream_id, version=event.version, event_id=event.event_id,
                                check="the event is a known message", expected=event.type, found=str(error))) from error
