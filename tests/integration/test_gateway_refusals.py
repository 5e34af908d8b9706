"""Bad input gets a clear 4xx and changes nothing; nobody acts for another seat."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from shared.client.http import ApiError, LeagueClient
from shared.eventstore import EventStore
from tests.integration.test_gateway import gateway, players, session  # noqa: F401 - fixtures

pytestmark = pytest.mark.usefixtures("gateway")


@pytest.fixture
async def table(session: aiohttp.ClientSession, gateway: str) -> AsyncIterator[tuple[str, list[LegalClient]]]:  # noqa: F811
    clients = await players(session, gateway, 2)
    game_id = await clients[0].create_game("vortex", 2, players=[c.player_id for c in clients])
    yield game_id, clients


LegalClient = LeagueClient


async def test_a_player_cannot_act_for_another_seat(table: tuple[str, list[LeagueClient]], store: EventStore) -> None:
    game_id, (first, second) = table
    before = await store.stream_version(game_id)
    with pytest.raises(ApiError) as refused:
        await second.command(game_id, {"type": "vortex.Roll", "seat": 0})
    assert (refused.value.status, refused.value.code) == (403, "engine.not-your-seat")
    assert await store.stream_version(game_id) == before
    legal, commands = await second.legal(game_id)
    assert legal.seat == 1 and commands == []


async def test_a_replayed_idempotency_key_returns_the_first_result_without_a_new_event(
    table: tuple[str, list[LeagueClient]], store: EventStore
) -> None:
    game_id, (first, _) = table
    _, commands = await first.legal(game_id)
    done = await first.command(game_id, commands[0], key="roll-1")
    version = await store.stream_version(game_id)
    again = await first.command(game_id, commands[0], key="roll-1")
    assert again == {**done, "duplicate": True}
    assert await store.stream_version(game_id) == version == done["version"]


async def test_a_move_that_breaks_a_rule_returns_its_rule_and_changes_nothing(
    table: tuple[str, list[LeagueClient]], store: EventStore
) -> None:
    game_id, (first, _) = table
    before = await store.stream_version(game_id)
    with pytest.raises(ApiError) as refused:
        await first.command(game_id, {"type": "vortex.ChooseSpiral", "seat": 0, "stone": 3})
    assert refused.value.status == 422 and refused.value.code.startswith("vortex.")
    assert refused.value.message
    assert await store.stream_version(game_id) == before


async def raw(session: aiohttp.ClientSession, method: str, url: str, data: bytes | None,  # noqa: F811
              headers: dict[str, str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    async with session.request(method, url, data=data, headers=headers) as response:
        body = await response.read()
        return response.status, json.loads(body)


async def test_malformed_requests_get_a_4xx_that_names_the_problem(
    table: tuple[str, list[LeagueClient]], session: aiohttp.ClientSession, gateway: str, store: EventStore  # noqa: F811
) -> None:
    game_id, (first, _) = table
    auth = {"Authorization": f"Bearer {first.token}", "Content-Type": "application/json"}
    commands = f"{gateway}/v1/games/{game_id}/commands"
    key = {"Idempotency-Key": "k1"}
    before = await store.stream_version(game_id)
    cases = [
        ("POST", commands, b"{not json", auth | key, 400, "request.malformed-json", "JSON"),
        ("POST", commands, b'{"type":"vortex.Roll","seat":0,"extra":1}', auth | key, 400, "request.invalid", "extra"),
        ("POST", commands, b'{"type":"vortex.Roll","seat":"zero"}', auth | key, 400, "request.invalid", "$.seat"),
        ("POST", commands, b'{"type":"vortex.Fly","seat":0}', auth | key, 400, "request.invalid", "vortex.Fly"),
        ("POST", commands, b'{"type":"vortex.Roll","seat":0}', auth, 400, "request.idempotency-key", "Idempotency"),
        ("POST", commands, b"x" * 200_000, auth | key, 413, "request.too-large", ""),
        ("POST", commands, b'{"type":"vortex.Roll","seat":0}', {"Content-Type": "application/json"} | key, 401,
         "auth.unauthorized", "Bearer"),
        ("POST", commands, b'{"type":"vortex.Roll","seat":0}', auth | key | {"Authorization": "Bearer nope"}, 401,
         "auth.unauthorized", "token"),
        ("POST", commands, b'{"type":"vortex.Roll","seat":0}', auth | key | {"Content-Type": "text/plain"}, 415,
         "request.media-type", "application/json"),
        ("POST", f"{gateway}/v1/games/vortex-unknown/commands", b'{"type":"vortex.Roll","seat":0}', auth | key,
         404, "engine.unknown-game", "vortex-unknown"),
        ("POST", f"{gateway}/v1/games/chess-1/commands", b"{}", auth | key, 404, "route.not-found", "chess-1"),
        ("GET", f"{gateway}/v1/games/hockeydice-nope", None, auth, 404, "engine.unknown-game", ""),
        ("POST", f"{gateway}/v1/players", b'{"name": 7}', {"Content-Type": "application/json"}, 400,
         "request.invalid", "$.name"),
        ("POST", f"{gateway}/v1/players", b'{"name": "ok", "admin": true}', {"Content-Type": "application/json"},
         400, "request.invalid", "admin"),
        ("POST", f"{gateway}/v1/games", b'{"game": "chess", "seats": 2}', auth, 400, "request.invalid", "chess"),
        ("POST", f"{gateway}/v1/games", b'{"game": "vortex", "seats": 99}', auth, 400, "request.invalid", "seats"),
        ("POST", f"{gateway}/v1/games", b'{"game": "vortex", "seats": 2, "options": {"max_rounds": "x"}}', auth,
         400, "engine.create.options", "max_rounds"),
        ("GET", f"{gateway}/v1/nothing-here", None, {}, 404, "route.not-found", ""),
        ("DELETE", f"{gateway}/v1/players", None, {}, 405, "route.method-not-allowed", ""),
    ]
    for method, url, data, headers, status, code, says in cases:
        got_status, body = await raw(session, method, url, data, headers)
        assert (got_status, body["code"]) == (status, code), (method, url, data, body)
        assert says in body["message"], (says, body)
    assert await store.stream_version(game_id) == before


async def test_the_openapi_document_describes_every_route(session: aiohttp.ClientSession, gateway: str) -> None:  # noqa: F811
    status, document = await raw(session, "GET", f"{gateway}/openapi.json", None, {})
    assert status == 200 and document["openapi"].startswith("3.")
    from services.gateway.app import build
    from services.gateway.settings import GatewaySettings

    app = build(GatewaySettings(database_url="postgresql://unused", nats_url="nats://unused"))
    routes = {(r.method.lower(), r.resource.canonical) for r in app.router.routes() if r.method != "HEAD"}
    documented = {(method, path) for path, ops in document["paths"].items() for method in ops}
    assert routes == documented
    assert "Command" in document["components"]["schemas"]
