"""A Swiss tournament entered and played through the gateway by bot clients, as people would."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import sys
from pathlib import Path

import aiohttp
import pytest

from shared.client.http import ApiError
from shared.client.table import register_bots
from shared.client.tournament import play_tournament
from shared.eventstore import EventStore
from shared.messages.engine import GameStarted
from shared.messages.registry import message_name
from shared.messages.stored import loaded

ROOT = Path(__file__).resolve().parents[2]


async def test_bots_enter_and_play_a_swiss_tournament_through_the_gateway(
    gateway: str, session: aiohttp.ClientSession, matchmaking: None, store: EventStore
) -> None:
    # 16 at tables of 4: the smallest field where a second round can avoid every repeat pairing.
    clients = await register_bots(session, gateway, [f"Swiss bot {n}" for n in range(16)])
    organiser = clients[0]
    tournament_id = await organiser.create_tournament(
        "Gateway Swiss", "vortex", {"type": "swiss", "table_size": 4, "rounds": 2}, 16, {"max_rounds": 6},
        client_seed_seconds=300)
    await asyncio.gather(*(c.enter(tournament_id) for c in clients))
    with pytest.raises(ApiError) as full:
        late = (await register_bots(session, gateway, ["late"]))[0]
        await late.enter(tournament_id)
    assert (full.value.status, full.value.code) == (409, "tournament.full")
    await organiser.start(tournament_id)
    with pytest.raises(ApiError) as started:
        await organiser.start(tournament_id)
    assert started.value.status == 409

    played = await asyncio.wait_for(asyncio.gather(*(
        play_tournament(c, tournament_id, random.Random(n)) for n, c in enumerate(clients))), 300)
    assert played == [2] * 16

    final = await organiser.tournament(tournament_id)
    assert final["status"] == "finished" and len(final["rounds"]) == 2
    met: set[frozenset[str]] = set()
    for round_ in final["rounds"]:
        for table in round_["tables"]:
            for game in table["games"]:
                pairs = {frozenset(p) for p in itertools.combinations(game["players"], 2)}
                assert not pairs & met, "two players met twice"
                met |= pairs
    points = {p: 0.0 for p in final["ranking"]}
    for round_ in final["rounds"]:
        for table in round_["tables"]:
            for game in table["games"]:
                for winner in game["winners"]:
                    points[winner] += 1 / len(game["winners"])
    ranked = [points[p] for p in final["ranking"]]
    assert ranked == sorted(ranked, reverse=True) and sum(ranked) == pytest.approx(8.0)
    assert sorted(final["ranking"]) == sorted(c.player_id for c in clients)
    first_game = final["rounds"][0]["tables"][0]["games"][0]["game_id"]
    audit = await organiser.call("GET", f"/audit/{first_game}")
    assert audit["verified"] is True, audit["summary"]
    # Every table waited for its four players' client seeds (the bots send theirs), not for the window's time.
    starts = [loaded(e) for e in await store.read_stream(first_game) if e.type == message_name(GameStarted)]
    assert starts == [GameStarted(seeded_seats=(0, 1, 2, 3), deadline_passed=False)]


async def test_tournament_requests_are_checked(gateway: str, session: aiohttp.ClientSession,
                                               matchmaking: None) -> None:
    (client,) = await register_bots(session, gateway, ["checker"])
    with pytest.raises(ApiError) as unknown:
        await client.tournament("nope")
    assert (unknown.value.status, unknown.value.code) == (404, "tournament.unknown")
    with pytest.raises(ApiError) as bad:
        await client.create_tournament("x", "vortex", {"type": "knockout"}, 8)
    assert bad.value.status == 400 and "format" in bad.value.message


async def test_league_bots_fills_a_tournament_and_plays_it(
    gateway: str, session: aiohttp.ClientSession, matchmaking: None
) -> None:
    (organiser,) = await register_bots(session, gateway, ["Organiser"])
    tournament_id = await organiser.create_tournament(
        "Filled by bots", "hockeydice", {"type": "swiss", "table_size": 2, "rounds": 2}, 8,
        {"periods": 1, "shots_per_period": 2})
    bots = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "shared.cli.main", "bots", "--tournament", tournament_id, "--players", "8",
        "--gateway", gateway, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=ROOT)
    for _ in range(300):
        if len((await organiser.tournament(tournament_id))["players"]) == 8:
            break
        await asyncio.sleep(0.1)
    await organiser.start(tournament_id)
    output, _ = await asyncio.wait_for(bots.communicate(), 300)
    assert bots.returncode == 0, output.decode()
    assert f"{tournament_id} finished" in output.decode()
    # Each bot reports each game it played. A bot whose team never won a roll has nothing to choose, and its
    # opponent may end their game before it even looks (GET .../me lists games still running): every game is
    # reported by at least one of its bots, at most by both.
    final = await organiser.tournament(tournament_id)
    games = [g["game_id"] for r in final["rounds"] for t in r["tables"] for g in t["games"]]
    reported = re.findall(r"games played \((\S+)\)", output.decode())
    assert len(games) == 2 * 8 // 2 and set(reported) == set(games), (games, reported)
    assert all(1 <= reported.count(game) <= 2 for game in games), reported
