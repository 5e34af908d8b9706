"""The control plane is closed: a server of its own with the league's authorization (whatever NATS_URL says), and
clients with no, wrong, or another user's credentials, each refused what it may not do, while what each service
needs still works (the positive controls: a refusal proven next to an allowed neighbour)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import nats
import nkeys
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.api import StreamConfig

from shared.bus.auth import ADMIN
from shared.bus.namespace import Namespace
from shared.infra.embedded_nats import EmbeddedNats
from shared.infra.nats_auth import auth_config, nkey_file
from tests.integration.helpers import until

NS = Namespace("perm")
QUIET = 0.5
"""How long a refused message is given to arrive anyway."""


@dataclass
class Closed:
    url: str
    secrets: Path
    clients: list[Client] = field(default_factory=list)

    async def connect(self, user: str) -> User:
        user_errors: list[str] = []

        async def on_error(error: Exception) -> None:
            user_errors.append(str(error).lower())

        nc = await nats.connect(self.url, nkeys_seed=str(nkey_file(self.secrets, user)), error_cb=on_error,
                                inbox_prefix=NS.inbox(user), allow_reconnect=False)
        self.clients.append(nc)
        return User(nc, user_errors)


@dataclass
class User:
    nc: Client
    errors: list[str]

    async def refused(self, what: str) -> None:
        """nats-server said so: a permissions violation naming ``what``."""
        await self.nc.flush()
        for _ in range(50):
            if any("permissions violation" in e and what.lower() in e for e in self.errors):
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"no permissions violation for {what!r}; errors: {self.errors}")


@pytest.fixture(scope="module")
async def closed(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Closed]:
    folder = tmp_path_factory.mktemp("closed-nats")
    server = EmbeddedNats(folder / "nats", auth_config(folder / "secrets", [NS.prefix]))
    url = server.start()
    found = Closed(url, folder / "secrets")
    try:
        yield found
    finally:
        for nc in found.clients:
            await nc.close()
        server.stop()


async def received(admin: Client, subject: str, act: Callable[[], Awaitable[object]],
                   expected: int = 0) -> list[Msg]:
    """What the admin (who may read everything) sees on ``subject`` while ``act`` runs: once ``expected`` messages
    have come (a busy machine may take a while), and ``QUIET`` seconds more for any that should not."""
    got: list[Msg] = []

    async def keep(msg: Msg) -> None:
        got.append(msg)

    async def arrived() -> bool:
        return len(got) >= expected

    sub = await admin.subscribe(subject, cb=keep)
    await admin.flush()
    await act()
    await until(f"{expected} messages on {subject}", arrived, 10)
    await asyncio.sleep(QUIET)
    await sub.unsubscribe()
    return got


async def test_no_credentials_and_unknown_credentials_are_refused_at_connect(closed: Closed) -> None:
    stranger = closed.secrets.parent / "stranger.nkey"
    stranger.write_bytes(nkeys.encode_seed(secrets.token_bytes(32), nkeys.PREFIX_BYTE_USER))
    attempts: tuple[dict[str, Any], ...] = ({}, {"nkeys_seed": str(stranger)})
    for credentials in attempts:
        nc = Client()
        with pytest.raises(nats.errors.Error, match="Authorization Violation"):
            await nc.connect(closed.url, allow_reconnect=False, connect_timeout=2, **credentials)
        await nc.close()  # nats-py leaves a refused connection's socket open


async def test_only_the_gateway_and_matchmaking_send_moves_and_only_the_gateway_asks_views(closed: Closed) -> None:
    admin = (await closed.connect(ADMIN)).nc
    command, view = NS.engine("vortex-x", "command"), NS.engine("vortex-x", "view")
    for intruder in ("rng", "relay", "standings", "public", "auditor"):
        user = await closed.connect(intruder)
        assert not await received(admin, command, partial(user.nc.publish, command, b'{"play": "as someone"}'))
        await user.refused(command)
    matchmaking = await closed.connect("matchmaking")
    assert not await received(admin, view, lambda: matchmaking.nc.publish(view, b"{}"))
    await matchmaking.refused(view)
    gateway = await closed.connect("gateway")

    async def ask_view() -> None:
        await gateway.nc.publish(view, b"{}")
        await gateway.nc.flush()  # at the server before the wait begins (a loaded machine once missed 10 s)
        assert not gateway.errors

    assert len(await received(admin, view, ask_view, expected=1)) == 1


async def test_nobody_but_the_admin_subscribes_to_everything(closed: Closed) -> None:
    admin = (await closed.connect(ADMIN)).nc
    for name in ("relay", "rng", "engine", "matchmaking", "standings", "gateway", "public", "auditor"):
        user = await closed.connect(name)
        got: list[Msg] = []

        async def keep(msg: Msg, into: list[Msg] = got) -> None:
            into.append(msg)

        await user.nc.subscribe(">", cb=keep)
        await user.refused("subscription to \">\"")
        await admin.publish(NS.private_event_subject("phantoms", "phantoms-1"), b"the deck order")
        await admin.publish(NS.game_changed("phantoms-1"), b"every seat's view")
        await asyncio.sleep(QUIET)
        assert got == [], name


async def test_private_events_and_views_reach_only_their_readers(closed: Closed) -> None:
    admin = await closed.connect(ADMIN)
    js = admin.nc.jetstream()
    for stream, subject in ((NS.events_stream, NS.all_events), (NS.private_events_stream, NS.all_private_events)):
        await js.add_stream(StreamConfig(name=stream, subjects=[subject]))
    await js.publish(NS.event_subject("vortex", "vortex-1"), b"public fact")
    await js.publish(NS.private_event_subject("phantoms", "phantoms-1"), b"PilesShuffled")

    public = await closed.connect("public")
    reading = await public.nc.jetstream().subscribe(NS.all_events, ordered_consumer=True)
    assert (await reading.next_msg(5)).data == b"public fact"
    with pytest.raises(nats.errors.TimeoutError):
        await public.nc.jetstream().subscribe(NS.all_private_events, stream=NS.private_events_stream,
                                              ordered_consumer=True)
    await public.refused(f"$JS.API.CONSUMER.CREATE.{NS.private_events_stream}")
    await public.nc.subscribe(NS.all_private_events)
    await public.refused(f"subscription to \"{NS.all_private_events}\"")
    await public.nc.subscribe(NS.game_changed("*"))
    await public.refused("league.changed")

    auditor = await closed.connect("auditor")
    hidden = await auditor.nc.jetstream().subscribe(NS.all_private_events, stream=NS.private_events_stream,
                                                    ordered_consumer=True)
    assert (await hidden.next_msg(5)).data == b"PilesShuffled"
    with pytest.raises(nats.errors.TimeoutError):
        await auditor.nc.request(NS.engine("phantoms-1", "view"), b"{}", timeout=1)
    await auditor.refused("league.engine")


async def test_replies_come_on_the_askers_own_inbox_which_no_other_service_reads(closed: Closed) -> None:
    """The engine asks the RNG for a draw; the gateway, listening on the engine's inbox, hears nothing, and may not
    forge an answer there either; the RNG answers the request it got, and only that."""
    rng, engine, gateway = [await closed.connect(n) for n in ("rng", "engine", "gateway")]
    draw = NS.command("rng", "draw")
    answers = 0

    async def answer(msg: Msg) -> None:
        nonlocal answers
        answers += 1
        await msg.respond(b"the draw")

    await rng.nc.subscribe(draw, queue="rng", cb=answer)
    overheard: list[Msg] = []

    async def overhear(msg: Msg) -> None:
        overheard.append(msg)

    await gateway.nc.subscribe(f"{NS.inbox('engine')}.>", cb=overhear)
    await gateway.refused(f"subscription to \"{NS.inbox('engine')}.>\"")
    await rng.nc.flush()
    reply = await engine.nc.request(draw, b"{}", timeout=5)
    assert reply.data == b"the draw" and answers == 1 and overheard == []
    await gateway.nc.publish(f"{NS.inbox('engine')}.forged", b"a forged draw")
    await gateway.refused(f"{NS.inbox('engine')}.forged")
    await rng.nc.publish(f"{NS.inbox('engine')}.unasked", b"an answer nobody asked")
    await rng.refused(f"{NS.inbox('engine')}.unasked")


async def test_another_namespace_is_closed_to_the_league_users(closed: Closed) -> None:
    """A test run's users (NATS_SUBJECT_PREFIX) cannot reach another league's subjects on a shared server."""
    engine = await closed.connect("engine")
    other = Namespace("otherleague")
    await engine.nc.subscribe(other.engine_partition(1, "command"))
    await engine.refused(other.engine_partition(1, "command"))
