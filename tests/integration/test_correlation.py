"""One correlation id follows a command: from the gateway's X-Correlation-Id (or one it makes) over NATS to the
engine and the RNG service, onto every event the command appends, into the logs, and back in the response."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import asyncpg
import pytest

from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.rng import rng_stream
from tests.infra import RunInfra
from tests.integration.helpers import rejections_written, service_running

HEADER = "X-Correlation-Id"


@pytest.fixture(scope="module")
async def gateway(migrated: RunInfra, game_services: dict[str, ServiceProcess]) -> AsyncIterator[ServiceProcess]:
    env = {**migrated.env, "LOG_LEVEL": "debug"}
    with service_running("gateway", env, migrated.tmp / "gateway-corr.log") as service:
        yield service


async def call(session: aiohttp.ClientSession, method: str, url: str, body: Any = None, *,
               token: str | None = None, correlation_id: str | None = None,
               headers: dict[str, str] | None = None) -> tuple[int, str, Any]:
    """(status, the response's X-Correlation-Id, JSON body)."""
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    if correlation_id:
        sent[HEADER] = correlation_id
    async with session.request(method, url, json=body, headers=sent) as response:
        return response.status, response.headers.get(HEADER, ""), await response.json()


def ids(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex}"


async def test_a_command_through_the_gateway_puts_its_correlation_id_on_every_event_it_appends(
    gateway: ServiceProcess, session: aiohttp.ClientSession, store: EventStore, superuser: asyncpg.Connection,
    game_services: dict[str, ServiceProcess]
) -> None:
    url = gateway.url
    # Registering: the id given is echoed and stored; with none, the gateway makes one and does the same.
    given = ids("register")
    status, echoed, ann = await call(session, "POST", f"{url}/v1/players", {"name": "Ann"}, correlation_id=given)
    assert (status, echoed) == (201, given)
    status, made, bob = await call(session, "POST", f"{url}/v1/players", {"name": "Bob"})
    assert status == 201 and uuid.UUID(made) and made != given
    for player, expected in ((ann, given), (bob, made)):
        events = await store.read_stream(f"player-{player['player_id']}")
        assert [e.metadata.correlation_id for e in events] == [expected]
    tokens = {ann["player_id"]: ann["token"], bob["player_id"]: bob["token"]}

    # Creating a game: the engine's events and the RNG service's (reached over NATS by the engine) share the id.
    create = ids("create")
    status, echoed, created = await call(
        session, "POST", f"{url}/v1/games", {"game": "vortex", "seats": 2, "players": list(tokens)},
        token=ann["token"], correlation_id=create)
    assert (status, echoed) == (201, create), created
    game_id = created["game_id"]
    game_events = await store.read_stream(game_id)
    rng_events = await store.read_stream(rng_stream(game_id))
    assert len(game_events) >= 2 and rng_events
    assert {e.metadata.correlation_id for e in game_events + rng_events} == {create}

    # A move: every event it appends, in the game and the RNG stream, carries the move's id and no other.
    seat_player, command = await a_legal_move(session, url, game_id, tokens)
    move = ids("move")
    status, echoed, done = await call(session, "POST", f"{url}/v1/games/{game_id}/commands", command,
                                      token=tokens[seat_player], correlation_id=move,
                                      headers={"Idempotency-Key": uuid.uuid4().hex})
    assert (status, echoed) == (200, move), done
    added = await store.read_stream(game_id, len(game_events) + 1)
    added_rng = await store.read_stream(rng_stream(game_id), len(rng_events) + 1)
    assert added and added[-1].version == done["version"]
    assert {e.metadata.correlation_id for e in added + added_rng} == {move}

    # A move out of turn: nothing appended, but the engine's record of the refusal carries the id, as does the
    # error response.
    other = next(p for p in tokens if p != seat_player)
    refused = ids("refused")
    out_of_turn = {**command, "seat": list(tokens).index(other)}
    status, echoed, error = await call(session, "POST", f"{url}/v1/games/{game_id}/commands", out_of_turn,
                                       token=tokens[other], correlation_id=refused,
                                       headers={"Idempotency-Key": uuid.uuid4().hex})
    assert 400 <= status < 500 and echoed == refused, error
    assert await store.read_stream(game_id, done["version"] + 1) == []
    await rejections_written(game_services["engine"])
    recorded = await superuser.fetch("SELECT correlation_id FROM rejected_commands WHERE game_id = $1", game_id)
    assert [row[0] for row in recorded] == [refused]

    # The gateway's log lines for these requests carry the ids (structlog, JSON).
    lines = [json.loads(line) for line in gateway.log_path.read_text().splitlines()  # type: ignore[union-attr]
             if line.startswith("{")]
    logged = {line.get("correlation_id") for line in lines if line.get("event") == "http.handled"}
    assert {given, made, create, move, refused} <= logged

    # A malformed id is not taken as given: the gateway makes a fresh one.
    status, echoed, _ = await call(session, "GET", f"{url}/v1/games/{game_id}", correlation_id="bad id\u00e9")
    assert status == 200 and uuid.UUID(echoed)


async def a_legal_move(session: aiohttp.ClientSession, url: str, game_id: str,
                       tokens: dict[str, str]) -> tuple[str, Any]:
    for player, token in tokens.items():
        status, _, legal = await call(session, "GET", f"{url}/v1/games/{game_id}/legal", token=token)
        assert status == 200
        if legal["commands"]:
            return player, legal["commands"][0]
    raise AssertionError("no seat may move in a fresh game")
