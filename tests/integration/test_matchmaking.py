from __future__ import annotations

import asyncio
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator
from fractions import Fraction
from itertools import combinations

import asyncpg
import pytest
from nats.aio.client import Client

from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import GameEnded, GameOpened
from shared.messages.stored import loaded
from shared.messages.tournaments import (
    CreateTournamentRequest,
    Elimination,
    GetTournament,
    JoinQueue,
    LeaveQueue,
    QueueStatus,
    QueueTicket,
    RegisterPlayer,
    StartTournament,
    Swiss,
    TournamentRef,
    TournamentView,
    tournament_stream,
)
from shared.tournaments.decide import MAX_PLAYERS
from shared.tournaments.events import TournamentFinished, TournamentStarted
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, service_running, until
from tests.integration.tournaments import finished, new_tournament, start, subject


@pytest.fixture(scope="module")
async def matchmaking(migrated: RunInfra, game_services: dict[str, ServiceProcess]) -> AsyncIterator[ServiceProcess]:
    with service_running("matchmaking", {**migrated.env, "LOG_LEVEL": "warning", "QUEUE_INTERVAL": "0.2",
                                         "BAND_BASE": "1", "BAND_WIDEN_PER_SECOND": "2"},
                         migrated.tmp / "matchmaking.log") as service:
        yield service


async def played(store: EventStore, game_id: str) -> tuple[GameOpened, GameEnded]:
    events = await store.read_stream(game_id)
    opened, ended = loaded(events[0]), loaded(events[-1])
    assert isinstance(opened, GameOpened) and isinstance(ended, GameEnded)
    return opened, ended


def swiss_ranking(games: list[tuple[tuple[str, ...], tuple[str, ...]]], seeds: list[str]) -> list[str]:
    """Points (winners share one), then Median-Buchholz, then seed: recomputed here from the games alone."""
    score: dict[str, Fraction] = defaultdict(Fraction)
    opponents: dict[str, list[str]] = defaultdict(list)
    for players, winners in games:
        for player in players:
            score[player] += Fraction(1, len(winners)) if player in winners else 0
            opponents[player] += [p for p in players if p != player]
    tie_break = {p: sum(sorted(score[o] for o in opponents[p])[1:-1]) for p in seeds}
    return sorted(seeds, key=lambda p: (-score[p], -tie_break[p], seeds.index(p)))


async def test_a_swiss_tournament_of_64_bots_over_16_tables_runs_every_round_without_repeat_pairings(
    nc: Client, store: EventStore, migrated: RunInfra, matchmaking: ServiceProcess, superuser: asyncpg.Connection
) -> None:
    run = uuid.uuid4().hex[:6]
    players = [f"bot{i:02d}-{run}" for i in range(64)]
    began = time.monotonic()
    tournament_id = await new_tournament(nc, migrated, "vortex", Swiss(table_size=4), players, {"max_rounds": 6})
    started = await start(nc, migrated, tournament_id)
    assert started.status == "running" and started.rounds_planned == 5 and len(started.rounds[0].tables) == 16
    with pytest.raises(RejectedError) as late:
        await request(nc, subject(migrated, "register"),
                      RegisterPlayer(tournament_id=tournament_id, player_id=f"late-{run}"), TournamentRef)
    assert late.value.code in ("tournament.full", "tournament.already-started")

    tournament = await finished(nc, migrated, tournament_id, timeout=240)
    print(f"\n64-bot Swiss: {time.monotonic() - began:.1f}s for {len(tournament.rounds)} rounds")
    assert [r.round for r in tournament.rounds] == [1, 2, 3, 4, 5]
    met: set[frozenset[str | None]] = set()
    games = []
    for round_ in tournament.rounds:
        assert len(round_.tables) == 16 and not round_.byes
        seated = [p for t in round_.tables for p in t.games[0].players]
        assert sorted(seated) == sorted(players)
        for table in round_.tables:
            (game,) = table.games
            opened, ended = await played(store, game.game_id)
            assert opened.tournament_id == tournament_id and opened.round == round_.round
            assert opened.players == game.players and opened.bots == ("greedy",) * 4
            winners = tuple(opened.players[s] for s in ended.winners)
            assert game.winners == winners
            games.append((opened.players, winners))
            for pair in combinations(opened.players, 2):
                assert frozenset(pair) not in met, f"{pair} met twice"
                met.add(frozenset(pair))

    stored_events = [loaded(e) for e in await store.read_stream(tournament_stream(tournament_id))]
    assert isinstance(stored_events[-1], TournamentFinished)
    (seeding,) = [e for e in stored_events if isinstance(e, TournamentStarted)]
    expected = swiss_ranking(games, [s.player_id for s in seeding.seeds])  # type: ignore[arg-type]
    assert list(stored_events[-1].ranking) == expected == list(tournament.ranking or ())
    assert [s.player_id for s in tournament.standings] == expected

    async def all_rated() -> bool | NotYet:
        rated = await superuser.fetchval(
            "SELECT count(*) FROM player_ratings WHERE player_id = ANY($1) AND games = 5", players)
        return rated == 64 or NotYet(f"{rated} of 64 ratings count the 5 games")

    await until("every rating counts the 5 games", all_rated, 10)
    rows = await superuser.fetch("SELECT player_id, mu, sigma FROM player_ratings WHERE player_id = ANY($1)", players)
    ordinal = {row[0]: row[1] - 3 * row[2] for row in rows}
    assert ordinal[expected[0]] > ordinal[expected[-1]]

    field = expected[-8:]
    rematch = await new_tournament(nc, migrated, "vortex", Swiss(table_size=4, rounds=1), field, {"max_rounds": 1})
    seeded = await start(nc, migrated, rematch)
    assert [s.player_id for s in seeded.standings] == sorted(field, key=lambda p: -ordinal[p])
    assert [s.rating for s in seeded.standings] == pytest.approx(sorted((ordinal[p] for p in field), reverse=True))


async def test_single_elimination_best_of_3_of_8_bots_plays_series_until_one_champion(
    nc: Client, store: EventStore, migrated: RunInfra, matchmaking: ServiceProcess
) -> None:
    run = uuid.uuid4().hex[:6]
    players = [f"ko{i}-{run}" for i in range(8)]
    tournament_id = await new_tournament(nc, migrated, "hockeydice", Elimination(best_of=3), players,
                                         {"periods": 1, "shots_per_period": 2})
    started = await start(nc, migrated, tournament_id)
    assert started.rounds_planned == 3 and len(started.rounds[0].tables) == 4
    seeds = [s.player_id for s in started.standings]
    for verb, payload, code in (
            ("start", StartTournament(tournament_id=tournament_id), "tournament.already-started"),
            ("get", GetTournament(tournament_id="nosuchcup"), "tournament.unknown"),
            ("create", CreateTournamentRequest(name="cup", game="hockeydice", format=Swiss(table_size=4),
                                               max_players=8), "tournament.format"),
            ("create", CreateTournamentRequest(name="cup", game="chess", format=Swiss(), max_players=8),
             "tournament.invalid"),
            ("create", CreateTournamentRequest(name="cup", game="hockeydice", format=Elimination(),
                                               max_players=MAX_PLAYERS + 1), "tournament.invalid")):
        with pytest.raises(RejectedError) as refused:
            await request(nc, subject(migrated, verb), payload, TournamentView)
        assert refused.value.code == code
    assert {frozenset(t.games[0].players) for t in started.rounds[0].tables} == {
        frozenset((seeds[a], seeds[b])) for a, b in ((0, 7), (3, 4), (1, 6), (2, 5))}

    tournament = await finished(nc, migrated, tournament_id, timeout=120)
    assert [len(r.tables) for r in tournament.rounds] == [4, 2, 1]
    advancing = set(players)
    for round_ in tournament.rounds:
        for table in round_.tables:
            pair = set(table.games[0].players)
            assert pair <= advancing and 2 <= len(table.games) <= 6
            wins: dict[str | None, int] = defaultdict(int)
            for game in table.games:
                opened, ended = await played(store, game.game_id)
                assert set(opened.players) == pair and opened.round == round_.round
                if len(ended.winners) == 1:
                    wins[opened.players[ended.winners[0]]] += 1
            (loser,) = [p for p in pair if wins[p] < 2]
            assert max(wins.values()) == 2
            advancing.discard(loser)
    assert tournament.ranking is not None and [tournament.ranking[0]] == list(advancing)
    final = tournament.rounds[-1].tables[0].games[0].players
    assert set(tournament.ranking[:2]) == set(final)


async def test_the_quick_play_queue_seats_waiting_players_at_a_table_and_opens_their_game(
    nc: Client, store: EventStore, migrated: RunInfra, matchmaking: ServiceProcess
) -> None:
    run = uuid.uuid4().hex[:6]
    join = subject(migrated, "queue.join")

    async def ticket(verb: str, payload: object) -> QueueTicket:
        return await request(nc, subject(migrated, f"queue.{verb}"), payload, QueueTicket)

    solo = f"solo-{run}"
    assert (await ticket("join", JoinQueue(player_id=solo, game="hockeydice", seats=2))).status == "waiting"
    assert (await ticket("leave", LeaveQueue(player_id=solo))).status == "absent"
    with pytest.raises(RejectedError) as bad:
        await request(nc, join, JoinQueue(player_id=solo, game="hockeydice", seats=3), QueueTicket)
    assert bad.value.code == "queue.invalid"

    pair = [f"qa-{run}", f"qb-{run}"]
    for player in pair:
        await ticket("join", JoinQueue(player_id=player, game="hockeydice", seats=2, bot="greedy"))
    async def both_seated() -> list[QueueTicket] | NotYet:
        tickets = [await ticket("status", QueueStatus(player_id=p)) for p in pair]
        return tickets if all(t.status == "seated" for t in tickets) else NotYet(str(tickets))

    tickets: list[QueueTicket] = await until("both players seated", both_seated, 20)
    assert tickets[0].game_id == tickets[1].game_id
    assert tickets[0].game_id is not None
    opened = loaded((await store.read_stream(tickets[0].game_id, 1, 1))[0])
    assert isinstance(opened, GameOpened) and set(opened.players) == set(pair) and opened.tournament_id is None


async def test_a_tournament_finishes_when_the_service_is_killed_and_restarted_mid_round(
    nc: Client, store: EventStore, migrated: RunInfra, matchmaking: ServiceProcess
) -> None:
    run = uuid.uuid4().hex[:6]
    players = [f"crash{i}-{run}" for i in range(8)]
    tournament_id = await new_tournament(nc, migrated, "hockeydice", Swiss(table_size=2, rounds=3), players,
                                         {"periods": 1, "shots_per_period": 2})
    await start(nc, migrated, tournament_id)
    await asyncio.sleep(0.5)
    matchmaking.kill()
    await asyncio.sleep(1)
    matchmaking.start()
    await asyncio.to_thread(matchmaking.wait_healthy, 60)

    tournament = await finished(nc, migrated, tournament_id, timeout=60)
    assert [len(r.tables) for r in tournament.rounds] == [4, 4, 4]
    pairs = [frozenset(t.games[0].players) for r in tournament.rounds for t in r.tables]
    assert len(set(pairs)) == 12
    recorded = [e for e in await store.read_stream(tournament_stream(tournament_id))
                if e.type == "tournament.ResultRecorded"]
    assert len(recorded) == 12


async def test_quick_play_seats_players_of_different_ratings_only_once_their_bands_have_widened(
    nc: Client, migrated: RunInfra, matchmaking: ServiceProcess, superuser: asyncpg.Connection
) -> None:
    run = uuid.uuid4().hex[:6]
    low, high = f"low-{run}", f"high-{run}"
    # Ordinals 7 and 13: the service's band starts at 1 and widens by 2 a second, so 2.5 s must pass first.
    await superuser.executemany("INSERT INTO player_ratings (player_id, mu, sigma, games) VALUES ($1, $2, 1, 9)",
                                [(low, 10.0), (high, 16.0)])
    joined = time.monotonic()
    for player in (low, high):
        await request(nc, subject(migrated, "queue.join"),
                      JoinQueue(player_id=player, game="hockeydice", seats=2, bot="random"), QueueTicket)
    async def seated() -> QueueTicket | NotYet:
        got = await request(nc, subject(migrated, "queue.status"), QueueStatus(player_id=low), QueueTicket)
        return got if got.status == "seated" else NotYet(str(got))

    ticket: QueueTicket = await until(f"{low} seated", seated, 20)
    assert time.monotonic() - joined >= 2.5
    other = await request(nc, subject(migrated, "queue.status"), QueueStatus(player_id=high), QueueTicket)
    assert other.status == "seated" and other.game_id == ticket.game_id
