"""Client seeds: a game opened with a seed window waits for its seated players' seeds (or the window's time), the
RNG mixes exactly those seeds into every draw, and the audit checks that it did."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import aiohttp
import msgspec
import pytest

from shared.audit import audit_game
from shared.audit.bundle import export_bundle, load_bundle
from shared.audit.fetch import fetch_game
from shared.cli.replay import replay
from shared.client.bot import play_game
from shared.client.http import ApiError, LeagueClient
from shared.client.table import register_bots
from shared.eventstore import EventStore, RecordedEvent
from shared.fairness import draw
from shared.messages.engine import ClientSeedGiven, DrawsUsed, GameStarted
from shared.messages.rng import ClientSeedAdded, Drawn, NumberedDraw, SeedRevealed
from shared.messages.stored import loaded
from tests.integration.play import revealed
from tests.integration.tamper import edit_data, rechain

SHORT_HOCKEY = {"periods": 1, "shots_per_period": 2}


async def refused(call: object, status: int, code: str) -> None:
    with pytest.raises(ApiError) as error:
        await call  # type: ignore[misc]
    assert (error.value.status, error.value.code) == (status, code), error.value


async def seeded_game(session: aiohttp.ClientSession, gateway: str, seconds: float,
                      names: list[str]) -> tuple[str, list[LeagueClient]]:
    clients = await register_bots(session, gateway, names)
    game_id = await clients[0].create_game("hockeydice", len(clients), options=SHORT_HOCKEY,
                                           players=[c.player_id for c in clients], client_seed_seconds=seconds)
    return game_id, clients


async def test_the_game_waits_for_its_players_seeds_and_every_draw_mixes_them_in(
    gateway: str, session: aiohttp.ClientSession, store: EventStore
) -> None:
    game_id, (home, away) = await seeded_game(session, gateway, 600, ["Seed home", "Seed away"])
    stranger = (await register_bots(session, gateway, ["Seed stranger"]))[0]
    waiting = await home.view(game_id)
    assert waiting.seeding_until is not None and waiting.pending_seats == (0, 1)
    assert msgspec.json.decode(waiting.view) is None and waiting.commitment is not None
    await refused(home.command(game_id, {"type": "hockeydice.Roll", "seat": 0}), 409, "engine.seeding")
    await refused(stranger.client_seed(game_id, "mine"), 403, "engine.client-seed.not-seated")
    await refused(home.call("POST", f"/v1/games/{game_id}/client-seed", {"client_seed": ""}), 400, "request.invalid")
    await refused(home.client_seed(game_id, "é" * 40), 400, "engine.client-seed.length")

    first = await home.client_seed(game_id, "home-luck-1")
    assert first["started"] is False and first["duplicate"] is False
    again = await home.client_seed(game_id, "home-luck-1")
    assert again["duplicate"] is True and again["version"] == first["version"]
    await refused(home.client_seed(game_id, "changed my mind"), 409, "engine.client-seed.already-given")
    assert (await away.view(game_id)).pending_seats == (1,)
    last = await away.client_seed(game_id, "away 🍀")
    assert last["started"] is True
    await refused(home.client_seed(game_id, "late"), 409, "engine.client-seed.already-given")
    started = await home.view(game_id)
    assert started.seeding_until is None and started.seeded_seats == (0, 1)
    assert msgspec.json.decode(started.view) is not None

    finals = await asyncio.gather(*(play_game(c, game_id, random.Random(n)) for n, c in enumerate((home, away))))
    assert all(f.ended for f in finals)
    await revealed(store, game_id)
    game, rng = await fetch_game(store, game_id)
    given = [loaded(e) for e in game if e.type == "engine.ClientSeedGiven"]
    assert given == [ClientSeedGiven(seat=0, client_seed="home-luck-1"), ClientSeedGiven(seat=1, client_seed="away 🍀")]
    assert [e.metadata.actor for e in game if e.type == "engine.ClientSeedGiven"] == [home.player_id, away.player_id]
    start = next(loaded(e) for e in game if e.type == "engine.GameStarted")
    assert start == GameStarted(seeded_seats=(0, 1), deadline_passed=False)
    rng_events = [loaded(e) for e in rng]
    added = [e for e in rng_events if isinstance(e, ClientSeedAdded)]
    assert added == [ClientSeedAdded(seat=0, client_seed="home-luck-1"), ClientSeedAdded(seat=1, client_seed="away 🍀")]
    assert not any(isinstance(e, Drawn) for e in rng_events), "draws are recorded by the game alone"
    seed = bytes.fromhex(next(e for e in rng_events if isinstance(e, SeedRevealed)).server_seed)
    drawn = draws_in(game)
    assert [d.nonce for d in drawn] == list(range(len(drawn))) and drawn
    with_seeds = [draw(seed, game_id, ["home-luck-1", "away 🍀"], d.nonce, d.request) for d in drawn]
    without = [draw(seed, game_id, [], d.nonce, d.request) for d in drawn]
    assert with_seeds == [tuple(d.values) for d in drawn] != without
    report = await home.call("GET", f"/audit/{game_id}?commitment={waiting.commitment}")
    assert report["verified"] is True, report["summary"]
    assert audit_game(game_id, game, rng).verified


async def test_a_missing_seed_does_not_hold_the_game_past_its_window(
    gateway: str, session: aiohttp.ClientSession, store: EventStore
) -> None:
    game_id, (home, away) = await seeded_game(session, gateway, 1, ["Window home", "Window away"])
    await home.client_seed(game_id, "only me")
    for _ in range(300):
        if (await away.view(game_id)).seeding_until is None:
            break
        await asyncio.sleep(0.1)
    game = await store.read_stream(game_id)
    start = next(e for e in game if e.type == "engine.GameStarted")
    assert loaded(start) == GameStarted(seeded_seats=(0,), deadline_passed=True)
    assert (start.recorded_at - game[0].recorded_at).total_seconds() >= 1.0
    await refused(away.client_seed(game_id, "too late"), 409, "engine.client-seed.closed")
    await asyncio.gather(*(play_game(c, game_id, random.Random(n)) for n, c in enumerate((home, away))))
    await revealed(store, game_id)
    streams = await fetch_game(store, game_id)
    assert audit_game(game_id, *streams).verified


async def test_a_game_with_only_bots_to_seed_starts_at_once(
    gateway: str, session: aiohttp.ClientSession, store: EventStore
) -> None:
    (host,) = await register_bots(session, gateway, ["Seedless host"])
    game_id = await host.create_game("vortex", 2, players=[None, None], bots=["greedy", "random"],
                                     options={"max_rounds": 2}, client_seed_seconds=600)
    for _ in range(300):
        if (await host.view(game_id)).ended:
            break
        await asyncio.sleep(0.1)
    game = [loaded(e) for e in await store.read_stream(game_id)]
    assert GameStarted(seeded_seats=(), deadline_passed=False) in game


def draws_in(events: list[RecordedEvent]) -> list[NumberedDraw]:
    """The draws a game stream records (``engine.DrawsUsed``), in order."""
    return [d for e in events if e.type == "engine.DrawsUsed" for d in msgspec.convert(e.payload(), DrawsUsed).draws]


def index_of(events: list[RecordedEvent], type_: str) -> int:
    return next(i for i, e in enumerate(events) if e.type == type_)


@pytest.fixture
async def seeded_streams(gateway: str, session: aiohttp.ClientSession,
                         store: EventStore) -> tuple[str, list[RecordedEvent], list[RecordedEvent]]:
    game_id, clients = await seeded_game(session, gateway, 600, ["Audit home", "Audit away"])
    for n, client in enumerate(clients):
        await client.client_seed(game_id, f"seed of {n}")
    await asyncio.gather(*(play_game(c, game_id, random.Random(n)) for n, c in enumerate(clients)))
    await revealed(store, game_id)
    game, rng = await fetch_game(store, game_id)
    assert audit_game(game_id, game, rng).verified
    return game_id, game, rng


async def test_the_audit_names_a_client_seed_the_rng_did_not_mix_in(
    seeded_streams: tuple[str, list[RecordedEvent], list[RecordedEvent]]
) -> None:
    game_id, game, rng = seeded_streams
    # The RNG mixed in another seed for seat 1 and every draw was made from it: the draws recompute, but the
    # player's own seed is not the one used.
    i = index_of(game, "engine.ClientSeedGiven") + 1
    game = rechain(game[:i] + [edit_data(game[i], lambda d: d.update(client_seed="what away really sent"))]
                   + game[i + 1:])
    report = audit_game(game_id, game, rng)
    assert report.discrepancy is not None
    assert report.discrepancy.check == "the RNG mixed in the client seeds the players gave (seat 1)"
    assert report.discrepancy.expected == "'what away really sent'" and report.discrepancy.found == "'seed of 1'"


async def test_the_audit_names_a_seed_given_for_a_player_by_someone_else(
    seeded_streams: tuple[str, list[RecordedEvent], list[RecordedEvent]]
) -> None:
    game_id, game, rng = seeded_streams
    i = index_of(game, "engine.ClientSeedGiven")
    game = rechain(game[:i] + [msgspec.structs.replace(
        game[i], metadata=msgspec.structs.replace(game[i].metadata, actor="someone-else"))] + game[i + 1:])
    report = audit_game(game_id, game, rng)
    assert report.discrepancy is not None
    assert report.discrepancy.check == "seat 0's client seed is sent by its player"
    assert report.discrepancy.found == "someone-else"


async def test_the_audit_names_an_early_start_without_every_seed(
    seeded_streams: tuple[str, list[RecordedEvent], list[RecordedEvent]]
) -> None:
    game_id, game, rng = seeded_streams
    i = index_of(game, "engine.ClientSeedGiven") + 1
    game = game[:i] + game[i + 1:]
    s = index_of(game, "engine.GameStarted")
    game = rechain(game[:s] + [edit_data(game[s], lambda d: d.update(seeded_seats=[0], deadline_passed=True))]
                   + game[s + 1:])
    report = audit_game(game_id, game, rng)
    assert report.discrepancy is not None
    assert report.discrepancy.check == "a game starts without every seed only after its window's time"


async def test_an_exported_seeded_game_verifies_offline_and_an_edited_seed_in_it_is_named(
    seeded_streams: tuple[str, list[RecordedEvent], list[RecordedEvent]]
) -> None:
    game_id, game, rng = seeded_streams
    _, bundled_game, bundled_rng = load_bundle(export_bundle(game_id, "hockeydice", game, rng, datetime.now(UTC)))
    assert audit_game(game_id, bundled_game, bundled_rng).verified
    i = index_of(bundled_rng, "rng.ClientSeedAdded")
    edited_rng = rechain(bundled_rng[:i] + [edit_data(bundled_rng[i], lambda d: d.update(client_seed="forged"))]
                         + bundled_rng[i + 1:])
    _, game_again, rng_again = load_bundle(export_bundle(game_id, "hockeydice", bundled_game, edited_rng,
                                                         datetime.now(UTC)))
    report = audit_game(game_id, game_again, rng_again)
    assert report.discrepancy is not None and report.discrepancy.stream_id == f"rng-{game_id}"
    assert report.discrepancy.version == rng_again[i].version, str(report)
    assert report.discrepancy.check == "the RNG mixed in the client seeds the players gave (seat 0)"
    assert (report.discrepancy.expected, report.discrepancy.found) == ("'seed of 0'", "'forged'")
    # The player's seed edited to match too: then the draws do not recompute from the seeds the streams show.
    g = index_of(bundled_game, "engine.ClientSeedGiven")
    edited_game = rechain(bundled_game[:g] + [edit_data(bundled_game[g], lambda d: d.update(client_seed="forged"))]
                          + bundled_game[g + 1:])
    report = audit_game(game_id, edited_game, edited_rng)
    reveal = loaded(edited_rng[index_of(edited_rng, "rng.SeedRevealed")])
    assert isinstance(reveal, SeedRevealed)
    seed = bytes.fromhex(reveal.server_seed)
    differs = next(e for e in edited_game if e.type == "engine.DrawsUsed" and any(  # a die may come out the same
        draw(seed, game_id, ["forged", "seed of 1"], d.nonce, d.request) != d.values for d in draws_in([e])))
    assert report.discrepancy is not None and report.discrepancy.stream_id == game_id, str(report)
    assert report.discrepancy.version == differs.version
    assert report.discrepancy.check.endswith("recomputed from the revealed seed")  # not from the seeds it shows


async def test_replay_shows_a_game_waiting_for_its_seeds(
    seeded_streams: tuple[str, list[RecordedEvent], list[RecordedEvent]], capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, game, _ = seeded_streams
    assert replay(game, game_id, to=2, step=False) == 0
    shown = capsys.readouterr().out
    assert f"=== {game_id} at v2 ===" in shown and "waiting for client seeds" in shown
    assert "given by seats [0], missing [1]" in shown
    started = index_of(game, "engine.GameStarted") + 1
    for version in range(1, len(game) + 1):  # every cut of the stream shows something, mid-opening included
        assert replay(game, game_id, to=version, step=False) == 0, version
    assert replay(game, game_id, to=started, step=False) == 0
    assert "the rules' opening comes in the next events" in capsys.readouterr().out
