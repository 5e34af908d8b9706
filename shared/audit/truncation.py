"""The game stream against what the RNG saw of it when it revealed the seed: ``SeedRevealed`` records the stream's
last version and hash then (reveals written since it does). A stream cut short after its end (its ``GameEnded``
deleted), or one whose last event was rewritten or that goes on past its end, no longer matches."""

from __future__ import annotations

import uuid

from shared.audit.report import Discrepancy
from shared.audit.rng import CheckedRng
from shared.eventstore import RecordedEvent


def _uuid(text: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(text) if text else None
    except ValueError:
        return None


def end_mismatch(game_id: str, events: list[RecordedEvent], rng: CheckedRng) -> Discrepancy | None:
    if rng.revealed is None:
        return None
    reveal_event, reveal = rng.revealed
    if reveal.game_version is None or reveal.game_hash is None:
        return None  # revealed before the RNG recorded where the game ended
    check = (f"the game stream ends where the RNG saw it end when it revealed the seed "
             f"({reveal_event.stream_id} v{reveal_event.version})")
    expected = f"v{reveal.game_version} with hash {reveal.game_hash}"
    last = events[-1].version if events else 0
    at = next((e for e in events if e.version == reveal.game_version), None)
    if at is None:
        # The missing end is the GameEnded that the reveal answered (its cause), the stream's last event then.
        return Discrepancy(stream_id=game_id, version=reveal.game_version,
                           event_id=_uuid(reveal_event.metadata.causation_id), check=check, expected=expected,
                           found=f"the stream stops at v{last}: v{last + 1} to v{reveal.game_version} are missing")
    if at.hash.hex() != reveal.game_hash:
        return Discrepancy(stream_id=game_id, version=at.version, event_id=at.event_id, check=check,
                           expected=expected, found=f"v{at.version} with hash {at.hash.hex()} (the stream was "
                                                    "rewritten up to here)")
    if last > reveal.game_version:
        after = events[reveal.game_version]
        return Discrepancy(stream_id=game_id, version=after.version, event_id=after.event_id, check=check,
                           expected=expected, found=f"the stream goes on to v{last} after its end")
    return None
