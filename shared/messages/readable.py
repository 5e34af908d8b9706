"""A stored event read as its type, or an error that names it when its stored data no longer fit that type (edited
or swapped behind the store's back): the caller answers clearly instead of failing on a decoder's traceback."""

from __future__ import annotations

import msgspec

from shared.bus.replies import RejectedError
from shared.eventstore import RecordedEvent
from shared.messages.registry import UnknownMessage
from shared.messages.stored import loaded
from shared.refusals import Refusal

UNREADABLE = Refusal.EVENT_UNREADABLE


class UnreadableEvent(RejectedError):
    """A ``RejectedError``, so that a service answering a request about the stream says which event it is."""

    def __init__(self, recorded: RecordedEvent, error: Exception) -> None:
        super().__init__(UNREADABLE, f"{recorded.stream_id} v{recorded.version} (event {recorded.event_id}) cannot "
                                     f"be read as {recorded.type}: {error}")
        self.stream_id = recorded.stream_id
        self.version = recorded.version
        self.event_id = recorded.event_id
        self.reason = str(error)


def read(recorded: RecordedEvent) -> msgspec.Struct:
    try:
        return loaded(recorded)
    except (UnknownMessage, msgspec.ValidationError, msgspec.DecodeError) as error:
        raise UnreadableEvent(recorded, error) from error
