"""The store's own small error hierarchy; driver errors are translated here once."""

from __future__ import annotations


class EventStoreError(Exception):
    pass


class ConcurrencyError(EventStoreError):
    def __init__(self, stream_id: str, expected: object, actual: int) -> None:
        super().__init__(f"stream {stream_id!r}: expected version {expected}, actual version {actual}")
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


class IdempotencyConflict(EventStoreError):
    """Some, not all, of the event ids of an append are already stored (or in another stream)."""


class InvalidStreamId(EventStoreError, ValueError):
    pass


class StreamNotFound(EventStoreError):
    def __init__(self, stream_id: str) -> None:
        super().__init__(f"stream {stream_id!r} does not exist")
        self.stream_id = stream_id
