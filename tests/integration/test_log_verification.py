"""Each way of tampering with a finished game in the database (an edit, its last event deleted, two events' data
swapped, a whole chain re-hashed) is named, with its event, by ``league audit`` and ``league verify``: by the
stream's chain, by where the RNG saw the game end, by JetStream's copy and by the notary's signed checkpoints."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable

import asyncpg
import msgspec
import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext

from shared.eventstore import EventStore, RecordedEvent
from shared.eventstore.checkpoints import load_checkpoint
from shared.messages.rng import rng_stream
from shared.notary.checkpoint import STREAM, LogCheckpointSigned
from shared.verify.run import Verified, parse_checkpoints, verify_log
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, until
from tests.integration.play import create, play_to_end
from tests.integration.tamper import edit_data, rechain, rewrite

pytestmark = pytest.mark.usefixtures("gateway")
Tamper = Callable[[list[RecordedEvent]], tuple[list[RecordedEvent], RecordedEvent]]
"""The game stream tampered with, and the event the audit and verify must name."""


def first(events: list[RecordedEvent], type_: str) -> int:
    return next(i for i, e in enumerate(events) if e.type == type_)


def edit(game: list[RecordedEvent]) -> tuple[list[RecordedEvent], RecordedEvent]:
    """A rolled value changed, the hash left as it was."""
    i = first(game, "vortex.Rolled")
    game[i] = edit_data(game[i], lambda d: d.update(value=d["value"] % 6 + 1))
    return game, game[i]


def delete_last(game: list[RecordedEvent]) -> tuple[list[RecordedEvent], RecordedEvent]:
    return game[:-1], game[-1]


def swap(game: list[RecordedEvent]) -> tuple[list[RecordedEvent], RecordedEvent]:
    """A command's data and the next event's (a rules event) swapped: neither fits its type any more."""
    i = first(game, "engine.CommandAccepted")
    j = next(k for k in range(i + 1, len(game)) if game[k].type.startswith("vortex."))
    game[i], game[j] = (msgspec.structs.replace(game[i], data=game[j].data),
                        msgspec.structs.replace(game[j], data=game[i].data))
    return game, game[i]


def rehash(game: list[RecordedEvent]) -> tuple[list[RecordedEvent], RecordedEvent]:
    """A rolled value changed and the whole chain re-hashed, so that the stream verifies on its own."""
    game, named = edit(game)
    return rechain(game), named


CASES: dict[str, Tamper] = {"edit": edit, "delete last": delete_last, "swap": swap, "re-hash whole chain": rehash}


async def relayed_and_signed(store: EventStore, js: JetStreamContext, infra: RunInfra, game_id: str,
                             timeout: float = 60) -> None:
    """JetStream holds the game's and the RNG's events, and a signed checkpoint of the log covers them."""
    last = max([(await store.read_stream(s))[-1].checkpoint for s in (game_id, rng_stream(game_id))])

    async def relayed_and_covered() -> bool | NotYet:
        async with store.pool.acquire() as conn:
            relayed = await load_checkpoint(conn, "relay")
        signed = await store.read_stream(STREAM)
        upto = msgspec.json.decode(signed[-1].data, type=LogCheckpointSigned).upto if signed else None
        if relayed >= last and upto is not None and upto >= last:
            return True
        return NotYet(f"the game's last event at {last}, relayed up to {relayed}, signed up to {upto}")

    await until("the relay published the game and the notary signed a checkpoint covering it", relayed_and_covered,
                timeout)


def league(infra: RunInfra, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **infra.env}  # verify connects as the auditor, with the nkey and login in SECRETS_DIR
    return subprocess.run([sys.executable, "-m", "shared.cli.main", *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def named(verified: Verified, before: Verified, event_id: uuid.UUID) -> list[str]:
    earlier = {str(f) for f in before.findings}
    return [str(f) for f in verified.findings if str(f) not in earlier and f.event_id == event_id]


@pytest.mark.parametrize("case", CASES)
async def test_each_tampering_is_named_with_its_event_by_audit_and_verify(
    case: str, js: JetStreamContext, store: EventStore, migrated: RunInfra, superuser: asyncpg.Connection,
    nc: Client
) -> None:
    ns = migrated.namespace
    game_id = await create(nc, ns, "vortex", 2)
    await play_to_end(nc, ns, store, game_id, seed=11)
    await relayed_and_signed(store, js, migrated, game_id)
    streams = [game_id, rng_stream(game_id)]
    before = await verify_log(store, js=js, ns=ns, streams=streams)
    assert not [f for f in before.findings if f.stream_id in streams], before.findings

    tampered, target = CASES[case](list(await store.read_stream(game_id)))
    await rewrite(superuser, game_id, tampered)

    audit = league(migrated, "audit", game_id)
    assert audit.returncode == 1 and "Traceback" not in audit.stderr, audit.stderr
    assert "DISCREPANCY" in audit.stdout and str(target.event_id) in audit.stdout, audit.stdout
    assert f"{game_id} v{target.version}" in audit.stdout, audit.stdout

    after = await verify_log(store, js=js, ns=ns, streams=streams)
    found = named(after, before, target.event_id)
    assert found, f"verify did not name {target.event_id}: {after.findings}"
    if case != "swap" and case != "edit":
        # A chain that still verifies on its own: JetStream's copy and the signed checkpoints catch it.
        assert any("JetStream" in f for f in found), found
    checkpoints = [f for f in after.findings if "log checkpoint" in f.check and str(f) not in map(str, before.findings)]
    assert checkpoints, "no signed checkpoint of the log noticed the change"

    if case in ("delete last", "swap"):
        cli = league(migrated, "verify", *streams)
        assert cli.returncode == 1 and "Traceback" not in cli.stderr, cli.stderr
        assert str(target.event_id) in cli.stdout, cli.stdout


async def test_a_referee_s_checkpoints_catch_a_rewritten_notary_stream(
    js: JetStreamContext, store: EventStore, migrated: RunInfra, superuser: asyncpg.Connection, nc: Client
) -> None:
    """The notary's last checkpoint forged in the table (and the stream re-hashed): its signature no longer
    verifies, and the referee's copy of the checkpoints names it."""
    ns = migrated.namespace
    game_id = await create(nc, ns, "vortex", 2)
    await play_to_end(nc, ns, store, game_id, seed=12)
    await relayed_and_signed(store, js, migrated, game_id)
    kept = league(migrated, "checkpoints")
    assert kept.returncode == 0, kept.stderr
    referee = parse_checkpoints(kept.stdout.encode())
    assert referee and all(c.signed_by(referee[0].public_key) for c in referee)
    before = await verify_log(store, js=None, ns=ns, referee=referee, public_key=referee[0].public_key)
    assert not [f for f in before.findings if "referee" in f.check], before.findings

    signed = await store.read_stream(STREAM)
    forged = edit_data(signed[-1], lambda d: d.update(head="00" * 32))
    await rewrite(superuser, STREAM, rechain([*signed[:-1], forged]))
    seq = forged_seq(forged)
    alone = await verify_log(store, js=None, ns=ns, public_key=referee[0].public_key)
    assert any(f"log checkpoint #{seq} is signed" in f.check and "does not verify" in f.found
               for f in alone.findings), alone.findings
    after = await verify_log(store, js=None, ns=ns, referee=referee, public_key=referee[0].public_key)
    found = [str(f) for f in after.findings if str(f) not in map(str, before.findings)]
    assert any(f"checkpoint #{seq} differs" in f for f in found), found


def forged_seq(event: RecordedEvent) -> int:
    return int(msgspec.json.decode(event.data)["seq"])
