"""Tokens over HTTP with several gateway replicas: each expires, a player rotates or revokes their own, and the
one replaced stops working at once on every replica (a broadcast over NATS), or within a replica's re-check bound
when that broadcast never reached it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator

import aiohttp
import asyncpg
import pytest

from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.helpers import service_running

LONG_RECHECK = "300"
"""Replicas that would trust a cached token for 5 minutes: only the broadcast can make them refuse it sooner."""


@contextlib.contextmanager
def replica(infra: RunInfra, name: str, **settings: str) -> Iterator[ServiceProcess]:
    env = {**infra.env, "LOG_LEVEL": "warning", **settings}
    with service_running("gateway", env, infra.tmp / f"gateway-{name}.log") as service:
        yield service


@pytest.fixture(scope="module")
def replicas(migrated: RunInfra) -> Iterator[tuple[str, str]]:
    with replica(migrated, "a", TOKEN_RECHECK_SECONDS=LONG_RECHECK) as a, \
            replica(migrated, "b", TOKEN_RECHECK_SECONDS=LONG_RECHECK) as b:
        yield a.url, b.url


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


async def call(session: aiohttp.ClientSession, method: str, url: str, token: str | None = None,
               body: object = None) -> tuple[int, dict[str, object]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with session.request(method, url, json=body, headers=headers) as response:
        text = await response.text()
        return response.status, (await response.json() if text else {})


async def register(session: aiohttp.ClientSession, gateway: str, name: str) -> dict[str, object]:
    status, made = await call(session, "POST", f"{gateway}/v1/players", body={"name": name})
    assert status == 201, made
    return made


async def refused_within(session: aiohttp.ClientSession, gateway: str, token: str, seconds: float) -> float:
    """How long until ``gateway`` answers 401 for ``token`` (failing after ``seconds``)."""
    began = time.monotonic()
    while True:
        status, body = await call(session, "GET", f"{gateway}/v1/players/me", token)
        if status == 401:
            assert body["code"] == "auth.unauthorized"
            return time.monotonic() - began
        assert status == 200 and time.monotonic() - began < seconds, f"still {status} after {seconds}s: {body}"
        await asyncio.sleep(0.02)


async def test_a_rotated_token_is_refused_at_once_by_every_replica_and_the_new_one_works(
    session: aiohttp.ClientSession, replicas: tuple[str, str]
) -> None:
    a, b = replicas
    made = await register(session, a, "Rota")
    old = str(made["token"])
    for gateway in (a, b):  # each replica has looked it up and keeps it for 5 minutes
        status, me = await call(session, "GET", f"{gateway}/v1/players/me", old)
        assert status == 200 and me["player_id"] == made["player_id"] and me["token_expires_at"] == made["expires_at"]
    status, issued = await call(session, "POST", f"{a}/v1/players/me/token", old)
    assert status == 200 and issued["player_id"] == made["player_id"] and issued["token"] != old
    assert str(issued["expires_at"]) >= str(made["expires_at"])
    assert await refused_within(session, a, old, 0.5) < 0.5
    assert await refused_within(session, b, old, 2) < 2  # the broadcast, not the 300 s bound
    for gateway in (a, b):
        status, me = await call(session, "GET", f"{gateway}/v1/players/me", str(issued["token"]))
        assert status == 200 and me["player_id"] == made["player_id"]
    status, again = await call(session, "POST", f"{b}/v1/players/me/token", old)
    assert status == 401, again


async def test_a_revoked_token_is_refused_at_once_by_every_replica(
    session: aiohttp.ClientSession, replicas: tuple[str, str]
) -> None:
    a, b = replicas
    token = str((await register(session, b, "Revo"))["token"])
    for gateway in (a, b):
        assert (await call(session, "GET", f"{gateway}/v1/players/me", token))[0] == 200
    status, body = await call(session, "DELETE", f"{b}/v1/players/me/token", token)
    assert status == 204 and body == {}
    assert await refused_within(session, a, token, 2) < 2
    status, body = await call(session, "GET", f"{b}/v1/players/me", token)
    assert status == 401 and "revoked" in str(body["message"])
    assert (await call(session, "DELETE", f"{a}/v1/players/me/token", token))[0] == 401
    assert (await call(session, "POST", f"{a}/v1/players/me/token", token))[0] == 401


async def test_a_replica_that_missed_the_broadcast_refuses_within_its_recheck_bound(
    session: aiohttp.ClientSession, migrated: RunInfra, superuser: asyncpg.Connection
) -> None:
    """Revoked behind every gateway's back (no broadcast at all): a replica re-checks within its bound."""
    with replica(migrated, "short", TOKEN_RECHECK_SECONDS="1") as gateway:
        made = await register(session, gateway.url, "Lost")
        token = str(made["token"])
        assert (await call(session, "GET", f"{gateway.url}/v1/players/me", token))[0] == 200
        await superuser.execute("UPDATE player_tokens SET revoked_at = clock_timestamp() WHERE player_id = $1",
                                made["player_id"])
        assert await refused_within(session, gateway.url, token, 3) < 3


async def test_a_token_expires_even_while_a_replica_keeps_it(
    session: aiohttp.ClientSession, migrated: RunInfra
) -> None:
    with replica(migrated, "brief", TOKEN_RECHECK_SECONDS=LONG_RECHECK, TOKEN_DAYS="0.00002") as gateway:
        made = await register(session, gateway.url, "Brief")  # good for about 1.7 s
        token = str(made["token"])
        assert (await call(session, "GET", f"{gateway.url}/v1/players/me", token))[0] == 200
        assert await refused_within(session, gateway.url, token, 5) < 5
        status, body = await call(session, "GET", f"{gateway.url}/v1/players/me", token)
        assert status == 401 and "expired" in str(body["message"])
        assert (await call(session, "POST", f"{gateway.url}/v1/players/me/token", token))[0] == 401


async def test_the_token_routes_are_documented(session: aiohttp.ClientSession, replicas: tuple[str, str]) -> None:
    status, document = await call(session, "GET", f"{replicas[0]}/openapi.json")
    assert status == 200
    paths = document["paths"]
    assert isinstance(paths, dict)
    assert set(paths["/v1/players/me/token"]) == {"post", "delete"} and "get" in paths["/v1/players/me"]
    assert "expires_at" in document["components"]["schemas"]["Registered"]["properties"]  # type: ignore[index]
