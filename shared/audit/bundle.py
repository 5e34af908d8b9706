"""A self-contained audit bundle: JSON lines, a header then every event of the game and its RNG stream.

Auditing a bundle needs no database and no network: the rules, the recipe (named by version) and the events
carry everything, including the deck or board data, which the rules record in the game's opening events.
"""

from __future__ import annotations

import uuid
from datetime import datetime

import msgspec

from shared.eventstore import Metadata, RecordedEvent
from shared.fairness import RECIPE_VERSION

FORMAT = "phantom-league/audit-bundle"


class BundleError(Exception):
    pass


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    format_version: int
    recipe_version: str
    game_id: str
    game: str
    exported_at: datetime


class BundledEvent(msgspec.Struct, frozen=True, kw_only=True):
    stream_id: str
    version: int
    position: int
    event_id: uuid.UUID
    type: str
    schema_version: int
    data: msgspec.Raw
    metadata: Metadata
    recorded_at: datetime
    prev_hash: str
    hash: str

    @classmethod
    def of(cls, e: RecordedEvent) -> BundledEvent:
        return cls(stream_id=e.stream_id, version=e.version, position=e.position, event_id=e.event_id, type=e.type,
                   schema_version=e.schema_version, data=msgspec.Raw(e.data), metadata=e.metadata,
                   recorded_at=e.recorded_at, prev_hash=e.prev_hash.hex(), hash=e.hash.hex())

    def recorded(self) -> RecordedEvent:
        return RecordedEvent(position=self.position, tx=0, event_id=self.event_id, stream_id=self.stream_id,
                             version=self.version, type=self.type, schema_version=self.schema_version,
                             data=bytes(self.data), metadata=self.metadata, recorded_at=self.recorded_at,
                             prev_hash=bytes.fromhex(self.prev_hash), hash=bytes.fromhex(self.hash))


def export_bundle(game_id: str, game: str, game_events: list[RecordedEvent], rng_events: list[RecordedEvent],
                  exported_at: datetime) -> bytes:
    header = Header(format=FORMAT, format_version=1, recipe_version=RECIPE_VERSION, game_id=game_id, game=game,
                    exported_at=exported_at)
    lines = [msgspec.json.encode(header)]
    lines += [msgspec.json.encode(BundledEvent.of(e)) for e in [*game_events, *rng_events]]
    return b"\n".join(lines) + b"\n"


def load_bundle(data: bytes) -> tuple[Header, list[RecordedEvent], list[RecordedEvent]]:
    lines = [line for line in data.splitlines() if line.strip()]
    if not lines:
        raise BundleError("the bundle is empty")
    try:
        header = msgspec.json.decode(lines[0], type=Header)
        events = [msgspec.json.decode(line, type=BundledEvent).recorded() for line in lines[1:]]
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as error:
        raise BundleError(f"not a readable audit bundle: {error}") from error
    if header.format != FORMAT:
        raise BundleError(f"not an audit bundle (format {header.format!r})")
    if header.recipe_version != RECIPE_VERSION:
        raise BundleError(f"this verifier knows recipe {RECIPE_VERSION}, the bundle uses {header.recipe_version}")
    game = [e for e in events if e.stream_id == header.game_id]
    rng = [e for e in events if e.stream_id == f"rng-{header.game_id}"]
    strangers = [e for e in events if e.stream_id not in (header.game_id, f"rng-{header.game_id}")]
    if strangers:
        raise BundleError(f"the bundle holds events of another stream: {strangers[0].stream_id}")
    return header, sorted(game, key=lambda e: e.version), sorted(rng, key=lambda e: e.version)
