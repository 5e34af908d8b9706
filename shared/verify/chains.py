"""Every stream's hash chain, recomputed from its stored rows (``shared.eventstore.verify``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from shared.eventstore import RecordedEvent, verify_events
from shared.verify.findings import Finding


async def check_chains(events: AsyncIterator[RecordedEvent], findings: list[Finding]) -> dict[str, RecordedEvent]:
    """``events`` stream after stream, in version order; returns each stream's last event."""
    last: dict[str, RecordedEvent] = {}
    stream: list[RecordedEvent] = []

    def close() -> None:
        if not stream:
            return
        report = verify_events(stream[0].stream_id, stream)
        if report.first_bad is not None:
            findings.append(Finding(check="the stream's hash chain", found=report.first_bad.reason,
                                    stream_id=report.stream_id, version=report.first_bad.version,
                                    event_id=report.first_bad.event_id))
        last[stream[0].stream_id] = stream[-1]
        stream.clear()

    async for event in events:
        if stream and event.stream_id != stream[0].stream_id:
            close()
        stream.append(event)
    close()
    return last
