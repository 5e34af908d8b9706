"""Bad input gets a clear 4xx and changes nothing; nobody acts for another seat."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator

import aiohttp
import msgspec
import pytest
import yarl
from nats.aio.client import Client

from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.client.http import ApiError, LeagueClient
from shared.eventstore import EventStore, ExpectedVersion, Metadata, NewEvent
from shared.infra.processes import ServiceProcess
from shared.messages.engine import CommandResult, CreateGame, GameView, GetView, PlayCommand
from shared.messages.tournaments import (
    CreateTournamentRequest,
    GetTournament,
    StartTournament,
    Swiss,
    TournamentRef,
    TournamentView,
)
from shared.notary.checkpoint import STREAM as NOTARY_STREAM
from tests.infra import RunInfra
from tests.integration.helpers import players, rejections_written

pytestmark = pytest.mark.usefixtures("gateway")


@pytest.fixture
async def table(session: aiohttp.ClientSession, gateway: str) -> AsyncIterator[tuple[str, list[LegalClient]]]:
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


async def raw(session: aiohttp.ClientSession, method: str, url: str, data: bytes | None,
              headers: dict[str, str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    async with session.request(method, url, data=data, headers=headers) as response:
        body = await response.read()
        return response.status, json.loads(body)


async def test_malformed_requests_get_a_4xx_that_names_the_problem(
    table: tuple[str, list[LeagueClient]], session: aiohttp.ClientSession, gateway: str, store: EventStore
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
        ("POST", commands, b"{not json", auth, 400, "request.malformed-json", "JSON"),
        ("POST", commands, b'{"type":"vortex.Fly","seat":0}', auth, 400, "request.invalid", "vortex.Fly"),
        ("POST", commands, b'{"type":"vortex.Roll","seat":0}', auth | {"Idempotency-Key": "no spaces"}, 400,
         "request.idempotency-key", "Idempotency"),
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
         422, "engine.create.options", "max_rounds"),
        ("GET", f"{gateway}/v1/nothing-here", None, {}, 404, "route.not-found", ""),
        ("DELETE", f"{gateway}/v1/players", None, {}, 405, "route.method-not-allowed", ""),
    ]
    for method, url, data, headers, status, code, says in cases:
        got_status, body = await raw(session, method, url, data, headers)
        assert (got_status, body["code"]) == (status, code), (method, url, data, body)
        assert says in body["message"], (says, body)
    assert await store.stream_version(game_id) == before


async def test_a_move_needs_no_idempotency_key_and_is_then_not_deduplicated(
    table: tuple[str, list[LeagueClient]], session: aiohttp.ClientSession, gateway: str, store: EventStore
) -> None:
    game_id, (first, _) = table
    auth = {"Authorization": f"Bearer {first.token}", "Content-Type": "application/json"}
    commands = f"{gateway}/v1/games/{game_id}/commands"
    status, body = await raw(session, "POST", commands, b'{"type":"vortex.ChooseSpiral","seat":0,"stone":3}', auth)
    assert status == 422 and body["code"].startswith("vortex."), body
    _, legal = await first.legal(game_id)
    before = await store.stream_version(game_id)
    status, done = await raw(session, "POST", commands, json.dumps(legal[0]).encode(), auth)
    assert status == 200 and not done["duplicate"] and done["version"] > before
    status, again = await raw(session, "POST", commands, json.dumps(legal[0]).encode(), auth)
    assert again.get("duplicate") is not True  # a second send without a key is a second move (or refused by a rule)
    assert (status == 200 and again["version"] > done["version"]) or status in (403, 409, 422), again


async def test_a_request_aiohttp_cannot_parse_gets_the_json_error_body(gateway: str) -> None:
    url = yarl.URL(gateway)
    reader, writer = await asyncio.open_connection(url.host, url.port)
    writer.write(b"POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}")
    await writer.drain()
    answer = await reader.read()
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == b"400" and b"application/json" in head, head
    error = json.loads(body)
    assert error["code"] == "request.bad-http" and "Content-Type" in error["message"], error


async def test_the_openapi_document_describes_every_route(session: aiohttp.ClientSession, gateway: str) -> None:
    status, document = await raw(session, "GET", f"{gateway}/openapi.json", None, {})
    assert status == 200 and document["openapi"].startswith("3.")
    from services.gateway.app import build
    from services.gateway.settings import GatewaySettings

    app = build(GatewaySettings(database_url="postgresql://unused", nats_url="nats://unused"))
    routes = {(r.method.lower(), r.resource.canonical) for r in app.router.routes()
              if r.method != "HEAD" and r.resource is not None}
    documented = {(method, path) for path, ops in document["paths"].items() for method in ops}
    assert routes == documented
    assert "Command" in document["components"]["schemas"]


async def events_in_log(store: EventStore, streams: str = "%") -> int:
    """The log's events in ``streams``, less the notary's: it signs the log on its own clock (every second in the
    tests) whenever the log moved, so a signature may land while a test sends requests that must append nothing."""
    async with store.pool.acquire() as conn:
        return int(await conn.fetchval("SELECT count(*) FROM events WHERE stream_id LIKE $1 AND stream_id <> $2",
                                       streams, NOTARY_STREAM))


async def rejections_logged(store: EventStore, engine: ServiceProcess) -> int:
    await rejections_written(engine)
    async with store.pool.acquire() as conn:
        return int(await conn.fetchval("SELECT count(*) FROM rejected_commands"))


async def test_text_with_a_nul_is_refused_at_the_gateway_naming_the_field(
    table: tuple[str, list[LeagueClient]], session: aiohttp.ClientSession, gateway: str, store: EventStore,
    game_services: dict[str, ServiceProcess]
) -> None:
    game_id, (first, second) = table
    auth = {"Authorization": f"Bearer {first.token}", "Content-Type": "application/json"}
    json_only = {"Content-Type": "application/json"}
    commands = f"{gateway}/v1/games/{game_id}/commands"
    nul = "\\u0000"
    events, rejections = await events_in_log(store), await rejections_logged(store, game_services["engine"])
    cases = [
        (f"{gateway}/v1/players", f'{{"name": "Eve{nul}"}}', json_only, "$.name"),
        (f"{gateway}/v1/games", f'{{"game": "vortex", "seats": 2, "players": ["{first.player_id}", "x{nul}"]}}',
         auth, "$.players[1]"),
        (f"{gateway}/v1/games", f'{{"game": "phantoms", "seats": 4, "options": {{"edition": "po{nul}ti"}}}}', auth,
         "$.options.edition"),
        (f"{gateway}/v1/games", f'{{"game": "vortex", "seats": 2, "options": {{"max_rounds{nul}": 6}}}}', auth,
         "$.options (a key)"),
        (f"{gateway}/v1/games", f'{{"game": "vortex", "seats": 2, "bots": [null, "greedy{nul}"]}}', auth,
         "$.bots[1]"),
        # A well-formed move that breaks a rule: the engine would log the rejection with the NUL in it.
        (commands, f'{{"type": "vortex.PlaceMonster", "seat": 0, "monster": "skeletal-hand", "headstone": "{nul}"}}',
         auth | {"Idempotency-Key": "nul-1"}, "$.headstone"),
        (commands, f'{{"type": "vortex.ChooseDirection", "seat": 0, "direction": "clockwise{nul}"}}',
         auth | {"Idempotency-Key": "nul-2"}, "$.direction"),
        (f"{gateway}/v1/tournaments", f'{{"name": "Cup{nul}", "game": "vortex", "format": {{"type": "swiss", '
         f'"table_size": 2}}, "max_players": 4}}', auth, "$.name"),
        (f"{gateway}/v1/tournaments", f'{{"name": "Cup", "game": "vortex", "format": {{"type": "swiss", '
         f'"table_size": 2}}, "max_players": 4, "options": {{"x": ["{nul}"]}}}}', auth, "$.options.x[0]"),
        (f"{gateway}/v1/queue", f'{{"game": "vortex", "seats": 2, "options": {{"board": "{nul}"}}}}', auth,
         "$.options.board"),
    ]
    for url, body, headers, field in cases:
        status, answer = await raw(session, "POST", url, body.encode(), headers)
        assert (status, answer["code"]) == (400, "request.invalid"), (url, body, answer)
        assert f"`{field}`" in answer["message"] and "NUL" in answer["message"], (field, answer)
    assert await events_in_log(store) == events
    assert await rejections_logged(store, game_services["engine"]) == rejections
    # An escaped backslash before "u0000" is text, not a NUL: it goes on to the engine (a rule refuses it).
    with pytest.raises(ApiError) as refused:
        await first.command(game_id, {"type": "vortex.PlaceMonster", "seat": 0, "monster": "skeletal-hand",
                                      "headstone": "\\u0000"})
    assert refused.value.status == 422 and refused.value.code.startswith("vortex.")


async def test_text_with_a_nul_sent_to_the_engine_directly_is_a_clear_rejection_not_an_internal_error(
    table: tuple[str, list[LeagueClient]], nc: Client, migrated: RunInfra, store: EventStore,
    game_services: dict[str, ServiceProcess]
) -> None:
    game_id, (first, _) = table
    events, rejections = await events_in_log(store), await rejections_logged(store, game_services["engine"])
    subject = migrated.namespace.engine(game_id, "command")
    bad_move = b'{"type": "vortex.PlaceMonster", "seat": 0, "monster": "skeletal-hand", "headstone": "\\u0000"}'
    requests: list[tuple[msgspec.Struct, str]] = [
        (PlayCommand(game_id=game_id, command=msgspec.Raw(bad_move), command_id="nul-direct",
                     player_id=first.player_id, actor=first.player_id), "$.command.headstone"),
        (CreateGame(game="vortex", game_id=f"vortex-{uuid.uuid4().hex[:16]}", seats=2,
                    players=(first.player_id, "x\x00"), command_id="nul-create"), "$.players[1]"),
        (CreateGame(game="vortex", game_id=f"vortex-{uuid.uuid4().hex[:16]}", seats=2,
                    options=msgspec.Raw(b'{"max_rounds": 6, "x": "\\u0000"}'), command_id="nul-options"),
         "$.options.x"),
    ]
    for payload, field in requests:
        with pytest.raises(RejectedError) as refused:
            await request(nc, subject, payload, CommandResult)
        assert refused.value.code == "bad-request" and f"`{field}`" in refused.value.message, refused.value
    with pytest.raises(RejectedError) as refused:
        await request(nc, migrated.namespace.engine("vortex-\x00", "view"),
                      GetView(game_id="vortex-\x00", player_id=None), GameView)
    assert refused.value.code == "bad-request"
    assert await events_in_log(store) == events
    assert await rejections_logged(store, game_services["engine"]) == rejections


async def test_a_path_id_no_game_or_tournament_can_have_is_a_404_not_a_502(
    table: tuple[str, list[LeagueClient]], session: aiohttp.ClientSession, gateway: str
) -> None:
    _, (first, _) = table
    auth = {"Authorization": f"Bearer {first.token}"}
    body = {"Content-Type": "application/json", "Idempotency-Key": "k"}
    cases = [
        ("GET", "/v1/games/vortex-%00", None, "engine.unknown-game"),
        ("GET", "/v1/games/vortex-a%00b/legal", None, "engine.unknown-game"),
        ("GET", "/v1/games/vortex-a%20b", None, "engine.unknown-game"),
        ("GET", "/v1/games/hockeydice-%C3%A9", None, "engine.unknown-game"),
        ("POST", "/v1/games/vortex-%00/commands", b'{"type": "vortex.Roll", "seat": 0}', "engine.unknown-game"),
        ("GET", "/v1/games/vortex-%00/ws", None, "engine.unknown-game"),
        ("GET", "/v1/tournaments/%00", None, "tournament.unknown"),
        ("GET", "/v1/tournaments/a%00b/me", None, "tournament.unknown"),
        ("POST", "/v1/tournaments/a%00b/players", None, "tournament.unknown"),
        ("POST", "/v1/tournaments/a%00b/start", None, "tournament.unknown"),
        ("GET", "/v1/tournaments/a.b", None, "tournament.unknown"),
    ]
    for method, path, data, code in cases:
        url = yarl.URL(f"{gateway}{path}", encoded=True)
        async with session.request(method, url, data=data, headers=auth | (body if data else {})) as response:
            answer = json.loads(await response.read())
            assert (response.status, answer["code"]) == (404, code), (method, path, answer)
    status, answer = await raw(session, "GET", str(yarl.URL(f"{gateway}/audit/vortex-%00", encoded=True)), None, {})
    assert (status, answer["code"]) == (400, "audit.game-id")


async def test_an_idempotency_key_reused_for_another_command_is_refused_by_any_gateway_replica(
    table: tuple[str, list[LeagueClient]], session: aiohttp.ClientSession, gateway: str, store: EventStore,
    migrated: RunInfra,
) -> None:
    game_id, (first, _) = table
    _, commands = await first.legal(game_id)
    done = await first.command(game_id, commands[0], key="reuse-1")
    version = await store.stream_version(game_id)
    other = {"type": "vortex.TryVortex", "seat": 0}
    assert other != commands[0]
    replica = ServiceProcess("gateway", {**migrated.env, "LOG_LEVEL": "warning"}, migrated.tmp / "gateway-2.log")
    await asyncio.to_thread(replica.start)
    try:
        await asyncio.to_thread(replica.wait_healthy, 60)
        for url in (gateway, replica.url):
            with pytest.raises(ApiError) as refused:
                await LeagueClient(session, url, first.token).command(game_id, other, key="reuse-1")
            assert (refused.value.status, refused.value.code) == (422, "idempotency.key-reused")
            assert "reuse-1" in refused.value.message
            # The same command again, spelt differently (key order, spaces), is a retry: the first result.
            status, again = await raw(session, "POST", f"{url}/v1/games/{game_id}/commands",
                                      b" " + json.dumps(dict(reversed(commands[0].items()))).encode(),
                                      {"Authorization": f"Bearer {first.token}", "Content-Type": "application/json",
                                       "Idempotency-Key": "reuse-1"})
            assert (status, again) == (200, {**done, "duplicate": True})
    finally:
        await asyncio.to_thread(replica.stop)
    assert await store.stream_version(game_id) == version == done["version"]


async def test_a_command_only_the_league_sends_is_refused_from_a_player(
    session: aiohttp.ClientSession, gateway: str, store: EventStore
) -> None:
    clients = await players(session, gateway, 4)
    game_id = await clients[0].create_game("phantoms", 4, options={"edition": "poti", "turn_seconds": 600},
                                           players=[c.player_id for c in clients])
    view = await clients[0].view(game_id)
    seat = view.pending_seats[0]
    before = await store.stream_version(game_id)
    with pytest.raises(ApiError) as refused:
        await clients[seat].command(game_id, {"type": "phantoms.TimeOut", "seat": seat})
    assert (refused.value.status, refused.value.code) == (403, "request.engine-only")
    assert "phantoms.TimeOut" in refused.value.message
    assert await store.stream_version(game_id) == before
    _, document = await raw(session, "GET", f"{gateway}/openapi.json", None, {})
    assert "phantoms.TimeOut" not in json.dumps(document["components"]["schemas"])


async def test_only_the_player_who_created_a_tournament_may_start_it(
    session: aiohttp.ClientSession, gateway: str, matchmaking: None, nc: Client, migrated: RunInfra,
    store: EventStore,
) -> None:
    organiser, other = await players(session, gateway, 2)
    tournament_id = await organiser.create_tournament("Organised", "vortex", {"type": "swiss", "table_size": 2}, 4,
                                                      {"max_rounds": 6})
    await organiser.enter(tournament_id)
    await other.enter(tournament_id)
    version = await store.stream_version(f"tournament-{tournament_id}")
    with pytest.raises(ApiError) as refused:
        await other.start(tournament_id)
    assert (refused.value.status, refused.value.code) == (403, "tournament.not-organiser")
    assert await store.stream_version(f"tournament-{tournament_id}") == version
    view = await organiser.tournament(tournament_id)
    assert view["status"] == "registering" and view["organiser"] == organiser.player_id
    assert (await organiser.start(tournament_id))["status"] == "running"

    # A tournament created before organisers were recorded has none: no player may start it, the league may.
    old_id = uuid.uuid4().hex[:16]
    created = {"type": "tournament.TournamentCreated", "tournament_id": old_id, "name": "Old", "game": "vortex",
               "options": {"max_rounds": 6}, "format": {"type": "swiss", "table_size": 2}, "max_players": 4}
    await store.append(f"tournament-{old_id}", [NewEvent(
        type="tournament.TournamentCreated", data=json.dumps(created).encode(),
        metadata=Metadata(correlation_id="old", actor="matchmaking"))], ExpectedVersion.NO_STREAM)
    await organiser.enter(old_id)
    await other.enter(old_id)
    for client in (organiser, other):
        with pytest.raises(ApiError) as refused:
            await client.start(old_id)
        assert (refused.value.status, refused.value.code) == (403, "tournament.not-organiser")
    started = await request(nc, migrated.namespace.command("matchmaking", "start"),
                            StartTournament(tournament_id=old_id), TournamentView)
    assert started.status == "running" and started.organiser is None


async def test_text_with_a_nul_sent_to_matchmaking_directly_is_a_clear_rejection(
    matchmaking: None, nc: Client, migrated: RunInfra, store: EventStore
) -> None:
    events = await events_in_log(store, "tournament-%")
    subject = migrated.namespace.command("matchmaking", "create")
    for payload, field in [
        (CreateTournamentRequest(name="Cup\x00", game="vortex", format=Swiss(table_size=2), max_players=4),
         "$.name"),
        (CreateTournamentRequest(name="Cup", game="vortex", format=Swiss(table_size=2), max_players=4,
                                 options=msgspec.Raw(b'{"max_rounds": 6, "x\\u0000": 1}')), "$.options (a key)"),
        (CreateTournamentRequest(name="Cup", game="vortex", format=Swiss(table_size=2), max_players=4,
                                 tournament_id="a\x00"), "$.tournament_id"),
    ]:
        with pytest.raises(RejectedError) as refused:
            await request(nc, subject, payload, TournamentRef)
        assert refused.value.code == "bad-request" and f"`{field}`" in refused.value.message, refused.value
    with pytest.raises(RejectedError) as refused:
        await request(nc, migrated.namespace.command("matchmaking", "get"), GetTournament(tournament_id="\x00"),
                      TournamentView)
    assert refused.value.code == "bad-request"
    assert await events_in_log(store, "tournament-%") == events


async def test_a_game_created_again_under_the_same_idempotency_key_is_the_same_game(
    session: aiohttp.ClientSession, gateway: str, store: EventStore
) -> None:
    (host,) = await players(session, gateway, 1)
    settings = {"game": "vortex", "seats": 2, "options": {"max_rounds": 3}}
    first = await host.call("POST", "/v1/games", settings, {"Idempotency-Key": "my-table-1"})
    again = await host.call("POST", "/v1/games", settings, {"Idempotency-Key": "my-table-1"})
    assert again == {**first, "duplicate": True} and first["duplicate"] is False
    assert await store.stream_version(first["game_id"]) == first["version"]
    other = await host.call("POST", "/v1/games", settings, {"Idempotency-Key": "my-table-2"})
    assert other["game_id"] != first["game_id"]
    with pytest.raises(ApiError) as refused:
        await host.call("POST", "/v1/games", {**settings, "seats": 3}, {"Idempotency-Key": "my-table-1"})
    assert (refused.value.status, refused.value.code) == (422, "idempotency.key-reused")
    assert await store.stream_version(first["game_id"]) == first["version"]
    with pytest.raises(ApiError) as other_game:
        await host.call("POST", "/v1/games", {"game": "hockeydice", "seats": 2}, {"Idempotency-Key": "my-table-1"})
    assert (other_game.value.status, other_game.value.code) == (422, "idempotency.key-reused")
    assert first["game_id"] in other_game.value.message
    assert await store.stream_version(first["game_id"].replace("vortex-", "hockeydice-")) == 0
