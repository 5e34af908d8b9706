"""``league audit`` and ``league export``."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from shared.audit import audit_game
from shared.audit.bundle import BundleError, export_bundle, load_bundle
from shared.audit.fetch import fetch_game
from shared.audit.readiness import NotAuditable, auditable
from shared.cli.connection import open_store
from shared.eventstore import RecordedEvent


class Refused(Exception):
    pass


async def ended_game(data_dir: Path, game_id: str) -> tuple[str, list[RecordedEvent], list[RecordedEvent]]:
    """An ended game's name and streams; a game still running has secrets (its seed, hands) that are not public
    yet."""
    store = await open_store(data_dir)
    try:
        game_events, rng_events = await fetch_game(store, game_id)
    finally:
        await store.pool.close()
    try:
        game = auditable(game_id, game_events, rng_events)
    except NotAuditable as refused:
        raise Refused(refused.message) from refused
    return game, game_events, rng_events


async def audit_stream(data_dir: Path, game_id: str, commitment: str | None = None) -> int:
    try:
        _, game_events, rng_events = await ended_game(data_dir, game_id)
    except Refused as refused:
        print(refused, file=sys.stderr)
        return 2
    report = audit_game(game_id, game_events, rng_events, commitment)
    print(report)
    return 0 if report.verified else 1


def audit_bundle(path: Path, commitment: str | None = None) -> int:
    try:
        header, game_events, rng_events = load_bundle(path.read_bytes())
    except (OSError, BundleError) as error:
        print(f"cannot read {path}: {error}", file=sys.stderr)
        return 2
    report = audit_game(header.game_id, game_events, rng_events, commitment)
    print(report)
    return 0 if report.verified else 1


async def export(data_dir: Path, game_id: str, output: Path | None) -> int:
    try:
        game, game_events, rng_events = await ended_game(data_dir, game_id)
    except Refused as refused:
        print(refused, file=sys.stderr)
        return 2
    bundle = export_bundle(game_id, game, game_events, rng_events, datetime.now(UTC))
    target = output or Path(f"{game_id}.bundle.jsonl")
    target.write_bytes(bundle)
    print(f"wrote {target} ({len(game_events)} game events, {len(rng_events)} RNG events); "
          f"check it anywhere with: league audit --bundle {target}")
    return 0
