"""An organiser abandons a running game: the engine that owns it records engine.GameAbandoned (nobody wins, no move
after it), the RNG reveals the seed, the audit verifies everything up to it, and a tournament goes on without the
abandoned table. ``league abandon`` asks the engine over NATS."""

from __future__ import annotations

import asyncio
import functools
import os
import subprocess
import sys
import uuid

import msgspec
import pytest
from nats.aio.client import Client

from shared.audit import audit_game
from shared.bus.engine_requests import ask_engine
from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.cli.abandon import abandon_with
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import CommandResult, CreateGame, GameAbandoned, GameView, GetView, PlayCommand
from shared.messages.registry import message_name
from shared.messages.rng import rng_stream
from shared.messages.tournaments import (
    GetTournament,
    Swiss,
    TournamentView,
)
from shared.play.table import Table
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, service_running, until
from tests.integration.play import create, play_moves, revealed
from tests.integration.tournaments import new_tournament, start

ABANDONED = message_name(GameAbandoned)


async def test_an_abandoned_game_takes_no_move_reveals_its_seed_and_audits_verified(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    ns = migrated.namespace
    game_id = await create(nc, ns, "hockeydice", 2)
    before = await play_moves(nc, ns, store, game_id, 5)
    assert before.rules is not None
    result = await abandon_with(nc, ns, game_id, "a player's connection died for good", "organiser ref")
    assert result.ended and not result.duplicate and result.version == before.version + 1
    events = await store.read_stream(game_id)
    abandonment = events[-1]
    assert abandonment.type == ABANDONED and abandonment.metadata.actor == "organiser ref"
    assert abandonment.payload()["pending_seats"] == sorted(before.rules.pending_seats(before.state))

    again = await abandon_with(nc, ns, game_id, "once more", "organiser ref")
    assert again.duplicate and again.version == result.version
    seat = min(before.rules.pending_seats(before.state))
    with pytest.raises(RejectedError) as refused:
        await ask_engine(nc, ns, game_id, "command", PlayCommand(
            game_id=game_id, command=msgspec.Raw(msgspec.json.encode({"type": "hockeydice.Roll", "seat": seat})),
            command_id=str(uuid.uuid4())), CommandResult)
    assert refused.value.code == "engine.game-over"
    view = await ask_engine(nc, ns, game_id, "view", GetView(game_id=game_id), GameView)
    assert view.ended and view.winners == ()

    await revealed(store, game_id)
    report = audit_game(game_id, await store.read_stream(game_id), await store.read_stream(rng_stream(game_id)))
    assert report.verified, report
    assert report.abandoned == "by organiser ref: a player's connection died for good"
    assert "abandoned" in str(report)


async def test_a_game_abandoned_while_it_waits_for_client_seeds_audits_verified(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    ns = migrated.namespace
    game_id = f"vortex-{uuid.uuid4().hex[:16]}"
    await ask_engine(nc, ns, game_id, "command", CreateGame(
        game="vortex", game_id=game_id, seats=2, players=("ann", "bob"), client_seed_seconds=600,
        command_id=str(uuid.uuid4())), CommandResult)
    await abandon_with(nc, ns, game_id, "nobody came", "organiser ref")
    table = Table(game_id).apply_all(await store.read_stream(game_id))
    assert table.abandoned is not None and table.abandoned.pending_seats == (0, 1) and not table.seeding
    await revealed(store, game_id)
    report = audit_game(game_id, await store.read_stream(game_id), await store.read_stream(rng_stream(game_id)))
    assert report.verified and report.actions == 0, report


async def test_refusals_name_what_is_wrong(
    nc: Client, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    ns = migrated.namespace
    for game_id, reason, code in [("vortex-nosuchgame", "why", "engine.unknown-game"),
                                  (await create(nc, ns, "vortex", 2), "  ", "engine.abandon.invalid")]:
        with pytest.raises(RejectedError) as refused:
            await abandon_with(nc, ns, game_id, reason, "organiser ref")
        assert refused.value.code == code


async def test_league_abandon_from_the_command_line(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    game_id = await create(nc, migrated.namespace, "vortex", 3)
    env = {**os.environ, "NATS_URL": migrated.nats_url, "NATS_SUBJECT_PREFIX": migrated.namespace.prefix,
           "SECRETS_DIR": str(migrated.secrets_dir)}  # an organiser's command connects as the admin user
    done = await asyncio.to_thread(subprocess.run, [
        sys.executable, "-m", "shared.cli.main", "abandon", game_id, "--reason", "the table was double-booked"],
        env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{game_id} abandoned at version")
    last = (await store.read_stream(game_id))[-1]
    assert last.type == ABANDONED and last.payload()["reason"] == "the table was double-booked"
    assert (last.metadata.actor or "").startswith("organiser ")


async def test_a_tournament_goes_on_past_an_abandoned_table(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    ns = migrated.namespace
    with service_running("matchmaking", {**migrated.env, "LOG_LEVEL": "warning"}, migrated.tmp / "mm-abandon.log"):
        tid = await new_tournament(nc, migrated, "vortex", Swiss(table_size=2, rounds=2), ["ann", "bob", "cid", "dan"],
                                   {"max_rounds": 3}, bot=None, timeout=30)
        view = await start(nc, migrated, tid, timeout=30)
        first_round = [t.games[0].game_id for t in view.rounds[0].tables]
        for game_id in first_round:
            await until(f"{game_id} is opened", functools.partial(store.stream_version, game_id), 10)
            await abandon_with(nc, ns, game_id, "the players left", "organiser ref")

        async def second_round() -> TournamentView | NotYet:
            view = await request(nc, ns.command("matchmaking", "get"), GetTournament(tournament_id=tid),
                                 TournamentView)
            return view if len(view.rounds) == 2 else NotYet(f"{len(view.rounds)} round(s), status {view.status}")

        view = await until("the second round is drawn", second_round, 20)
        assert all(t.games[0].winners == () for t in view.rounds[0].tables)
