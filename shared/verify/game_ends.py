"""Each game whose seed is revealed, against where the RNG saw it end (``SeedRevealed.game_version`` and
``game_hash``, recorded since reveals carry them): a game stream cut short, rewritten or grown after its end."""

from __future__ import annotations

import uuid

import asyncpg
import msgspec

from shared.eventstore import RecordedEvent
from shared.messages.registry import message_name
from shared.messages.rng import SeedRevealed
from shared.verify.findings import Finding

REVEALS = """
    SELECT stream_id, version, event_id, data, metadata->>'causation_id' FROM events
    WHERE type = $1 AND ($2::text[] IS NULL OR stream_id = ANY($2::text[]))
"""


async def check_game_ends(pool: asyncpg.Pool, last: dict[str, RecordedEvent], findings: list[Finding],
                          games: list[str] | None = None) -> int:
    """Returns how many revealed games (of ``games``, when given) were checked."""
    rng_streams = None if games is None else [f"rng-{game}" for game in games]
    async with pool.acquire() as conn:
        rows = await conn.fetch(REVEALS, message_name(SeedRevealed), rng_streams)
    checked = 0
    for rng_stream, rng_version, rng_event_id, data, cause in rows:
        try:
            reveal = msgspec.json.decode(data, type=SeedRevealed)
        except msgspec.ValidationError as error:
            findings.append(Finding(check="the reveal is readable", found=str(error), stream_id=rng_stream,
                                    version=rng_version, event_id=rng_event_id))
            continue
        if reveal.game_version is None or reveal.game_hash is None:
            continue
        checked += 1
        game_id = rng_stream.removeprefix("rng-")
        end = last.get(game_id)
        check = f"the game stream ends where the RNG saw it end ({rng_stream} v{rng_version})"
        expected = f"v{reveal.game_version} with hash {reveal.game_hash}"
        if end is None or end.version < reveal.game_version:
            findings.append(Finding(
                check=check, stream_id=game_id, version=reveal.game_version, event_id=_uuid(cause),
                found=f"expected {expected}; the stream stops at v{end.version if end else 0}: its end is missing"))
        elif end.version > reveal.game_version:
            findings.append(Finding(check=check, stream_id=game_id, version=end.version, event_id=end.event_id,
                                    found=f"expected {expected}; the stream goes on to v{end.version}"))
        elif end.hash.hex() != reveal.game_hash:
            findings.append(Finding(check=check, stream_id=game_id, version=end.version, event_id=end.event_id,
                                    found=f"expected {expected}; found hash {end.hash.hex()} (rewritten)"))
    return checked


def _uuid(text: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(text) if text else None
    except ValueError:
        return None
