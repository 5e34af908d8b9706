"""Tournaments run by the real matchmaking service, with bots playing on the real engine: the standings
leaderboard agrees with the tournament's own standings and final ranking, byes and knockouts included."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from nats.aio.client import Client

from services.standings.rebuild import rebuild
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.tournaments import (
    Elimination,
    Swiss,
    TournamentView,
)
from tests.infra import RunInfra
from tests.integration.bots_running import caught_up, fetch, standings_service
from tests.integration.helpers import service_running
from tests.integration.tournaments import finished, new_tournament, start

QUICK_HOCKEY: dict[str, object] = {"periods": 1, "shots_per_period": 2}


@pytest.fixture(scope="module")
async def matchmaking(migrated: RunInfra, game_services: dict[str, ServiceProcess]) -> AsyncIterator[ServiceProcess]:
    with service_running("matchmaking", {**migrated.env, "LOG_LEVEL": "warning"},
                         migrated.tmp / "matchmaking-standings.log") as service:
        yield service


async def started(nc: Client, infra: RunInfra, fmt: Swiss | Elimination, players: list[str]) -> str:
    """A hockey tournament of greedy bots, created, filled and started by matchmaking, which plays it out."""
    tournament_id = await new_tournament(nc, infra, "hockeydice", fmt, players, QUICK_HOCKEY)
    await start(nc, infra, tournament_id)
    return tournament_id


def as_placed(view: TournamentView) -> list[tuple[int, str, float, float, float, int]]:
    """The tournament's own final table: its ranking, with each player's standing (rating: at the start)."""
    standing = {s.player_id: s for s in view.standings}
    return [(rank, p, standing[p].points, standing[p].median_buchholz, standing[p].rating, standing[p].games)
            for rank, p in enumerate(view.ranking or (), start=1)]


def placed(board: dict[str, Any]) -> list[tuple[int, str, float, float, float, int]]:
    return [(p["rank"], p["player_id"], p["points"], p["median_buchholz"], p["rating"], p["games"])
            for p in board["placings"]]


async def test_the_leaderboard_of_a_swiss_tournament_with_byes_equals_its_final_standings(
    nc: Client, store: EventStore, standings_store: EventStore, migrated: RunInfra, matchmaking: ServiceProcess
) -> None:
    run = uuid.uuid4().hex[:6]
    players = [f"odd{i}-{run}" for i in range(5)]
    async with standings_service(migrated, "standings-tournament-first") as standings:
        tournament_id = await started(nc, migrated, Swiss(table_size=2), players)
        await caught_up(standings.url, store)
        _, board = await fetch(f"{standings.url}/v1/tournaments/{tournament_id}/leaderboard")
        assert len(board["placings"]) == 5 and sum(p["byes"] for p in board["placings"]) >= 1
        # Running, its placings are stored unranked and ranked when read (placings.READ_ORDER); finished, as stored.
        assert [p["rank"] for p in board["placings"]] == [1, 2, 3, 4, 5]
    # The next service holds the tournament in no memory: it reads the stream again, up to the event before.
    view = await finished(nc, migrated, tournament_id)
    byes = Counter(p for r in view.rounds for p in r.byes)
    assert len(view.rounds) == 3 and sum(byes.values()) == 3, "five players at tables of two: a bye each round"
    assert [s.player_id for s in view.standings] == list(view.ranking or ())

    async with standings_service(migrated, "standings-tournament-then") as standings:
        await caught_up(standings.url, store)
        status, board = await fetch(f"{standings.url}/v1/tournaments/{view.tournament_id}/leaderboard")
        assert status == 200, board
        assert (board["format"], board["status"], board["rounds_planned"]) == ("swiss", "finished", 3)
        assert board["games"] == 6 and board["running"] == 0 and board["rounds"] == 3
        assert placed(board) == as_placed(view)
        assert {p["player_id"]: p["byes"] for p in board["placings"]} == {p: byes[p] for p in players}
        assert sum(p["points"] for p in board["placings"]) == 6 + 3

        _, listed = await fetch(f"{standings.url}/v1/tournaments?after={view.tournament_id[:-1]}&limit=500")
        (item,) = [i for i in listed["items"] if i["tournament_id"] == view.tournament_id]
        assert (item["format"], item["status"], item["games"]) == ("swiss", "finished", 6)

        report = await rebuild(standings_store, "leaderboards")
        assert report.swapped and report.equal, report.diffs
        _, again = await fetch(f"{standings.url}/v1/tournaments/{view.tournament_id}/leaderboard")
        assert again == board


async def test_the_leaderboard_of_a_knockout_is_its_final_ranking_not_a_points_table(
    nc: Client, store: EventStore, standings_store: EventStore, migrated: RunInfra, matchmaking: ServiceProcess
) -> None:
    run = uuid.uuid4().hex[:6]
    players = [f"ko{i}-{run}" for i in range(5)]
    view = await finished(nc, migrated, await started(nc, migrated, Elimination(), players))
    assert len(view.rounds[0].byes) == 3, "five players in a bracket of eight: three byes"
    async with standings_service(migrated, "standings-knockout") as standings:
        await caught_up(standings.url, store)
        _, board = await fetch(f"{standings.url}/v1/tournaments/{view.tournament_id}/leaderboard")
        assert (board["format"], board["status"]) == ("elimination", "finished")
        assert placed(board) == as_placed(view)
        report = await rebuild(standings_store, "leaderboards", swap=False)
        assert report.equal, report.diffs
