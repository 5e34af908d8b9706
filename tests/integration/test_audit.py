from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from datetime import UTC, datetime

import pytest
from nats.aio.client import Client

from shared.audit import audit_game
from shared.audit.bundle import export_bundle, load_bundle
from shared.audit.fetch import fetch_game
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import DrawsUsed
from shared.messages.stored import loaded
from tests.infra import RunInfra
from tests.integration.play import create, play_to_end


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("vortex", 3, {}),
    ("hockeydice", 2, {}),
    ("phantoms", 4, {"edition": "poti"}),
    ("phantoms", 4, {"edition": "powerplay", "team_variant": True}),
])
async def test_a_game_played_through_the_services_audits_verified(
    game: str, seats: int, options: dict[str, object], nc: Client, store: EventStore, migrated: RunInfra,
    game_services: dict[str, ServiceProcess],
) -> None:
    game_id = await create(nc, migrated.namespace, game, seats, options)
    table = await play_to_end(nc, migrated.namespace, store, game_id)
    assert table.ended is not None
    game_events, rng_events = await fetch_game(store, game_id)
    report = audit_game(game_id, game_events, rng_events)
    assert report.verified, str(report)
    used = [loaded(e) for e in game_events if e.type == "engine.DrawsUsed"]
    drawn = sum(len(e.draws) for e in used if isinstance(e, DrawsUsed))
    assert report.actions > 5 and report.draws == drawn >= 1 and report.game_events == len(game_events)
    assert not any(e.type == "rng.Drawn" for e in rng_events), "the RNG records no draw of its own"
    assert "verified" in str(report)

    bundle = export_bundle(game_id, game, game_events, rng_events, datetime.now(UTC))
    header, bundled_game, bundled_rng = load_bundle(bundle)
    assert header.game_id == game_id and header.recipe_version == "v1"
    assert audit_game(game_id, bundled_game, bundled_rng).verified


async def test_the_gateway_serves_the_audit_report(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    gateway = ServiceProcess("gateway", {**migrated.env, "LOG_LEVEL": "warning"}, migrated.tmp / "gateway.log")
    gateway.start()
    try:
        await asyncio.to_thread(gateway.wait_healthy, 60)
        game_id = await create(nc, migrated.namespace, "vortex", 2)
        assert get_json(f"{gateway.url}/audit/{game_id}")[0] == 409
        await play_to_end(nc, migrated.namespace, store, game_id, seed=11)
        status, body = get_json(f"{gateway.url}/audit/{game_id}")
        assert status == 200 and body["verified"] is True and body["discrepancy"] is None
        assert body["counts"]["actions"] > 0 and "verified" in body["summary"]
        status, body = get_json(f"{gateway.url}/audit/vortex-nosuchgame")
        assert (status, body["code"]) == (404, "audit.unknown-game")
        status, body = get_json(f"{gateway.url}/audit/not%20an%20id")
        assert (status, body["code"]) == (400, "audit.game-id")
    finally:
        assert gateway.stop() == 0


def get_json(url: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
