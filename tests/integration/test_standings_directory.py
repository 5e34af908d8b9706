"""The standings routes the web pages read: names for ids, every game newest first (all, a player's, a kind, a
tournament's), a tournament round by round, a finished game event by event with its views and the audit's
verdict, a season's live board; bad input is a 400 naming the parameter; /v1 is readable from any origin."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
import uuid
from typing import Any

import msgspec
from nats.aio.client import Client

from shared.eventstore import EventStore, ExpectedVersion
from shared.infra.processes import ServiceProcess
from shared.messages.players import PlayerRegistered
from shared.messages.stored import stored
from shared.play.table import Table
from tests.infra import RunInfra
from tests.integration.bots_running import BotLoad, Spec, caught_up, fetch, standings_service, tournament


async def register(store: EventStore, player_id: str, name: str) -> None:
    await store.append(f"player-{player_id}", [stored(PlayerRegistered(player_id=player_id, name=name),
                                                      actor=player_id)], ExpectedVersion.NO_STREAM)


def request(url: str, headers: dict[str, str] | None = None, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}, method=method),
                                    timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


async def test_names_games_rounds_and_a_finished_game_event_by_event(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    tag = uuid.uuid4().hex[:6]
    players = [f"dir{tag}-{n}" for n in range(4)]
    for n, player in enumerate(players[:3]):
        await register(store, player, f"Dir_{tag} Player%{n}")
    cup = f"cup{tag}"
    async with standings_service(migrated, "standings-directory") as standings:
        url = standings.url
        load = BotLoad(nc, migrated.namespace, store)
        games = await load.start(tournament(cup, "vortex", 2, players, rounds=2, options={"max_rounds": 3})
                                 + [Spec("phantoms", 3, {"edition": "poti"}, players=tuple(players[:3]))])
        await load.wait(180)
        await caught_up(url, store)

        _, found = await fetch(f"{url}/v1/players?ids={','.join(players)}")
        assert {p["player_id"]: p["name"] for p in found["items"]} == {
            p: f"Dir_{tag} Player%{n}" for n, p in enumerate(players[:3])}
        _, found = await fetch(f"{url}/v1/players?name=dir_{tag}%20player%25")  # any case; _ and % as they are
        assert len(found["items"]) == 3
        _, found = await fetch(f"{url}/v1/players?name=dir%25{tag}")
        assert found["items"] == []

        _, mine = await fetch(f"{url}/v1/games?player={players[0]}")
        assert [g["game_id"] for g in mine["items"]] == [g for g in reversed(games) if g in
                                                          {g["game_id"] for g in mine["items"]}]
        seated = {g for g in games if players[0] in (await store.read_stream(g, 1, 1))[0].payload()["players"]}
        assert {g["game_id"] for g in mine["items"]} == seated and len(seated) == 3
        first = next(g for g in mine["items"] if g["game_id"] == games[0])
        assert first["names"][:1] == [f"Dir_{tag} Player%0"] and first["running"] is False
        assert first["tournament_id"] == cup and first["round"] == 1 and first["winners"] is not None
        _, page1 = await fetch(f"{url}/v1/games?tournament={cup}&limit=3")
        _, page2 = await fetch(f"{url}/v1/games?tournament={cup}&limit=3&after={page1['next']}")
        assert [g["game_id"] for g in page1["items"] + page2["items"]] == list(reversed(games[:4]))
        assert page2["next"] is None
        _, kinds = await fetch(f"{url}/v1/games?game=phantoms&running=false&player={players[1]}")
        assert [g["game_id"] for g in kinds["items"]] == [games[4]]

        _, board = await fetch(f"{url}/v1/tournaments/{cup}/leaderboard")
        named = {p["player_id"]: p["name"] for p in board["placings"]}
        assert named == {p: (f"Dir_{tag} Player%{n}" if n < 3 else None) for n, p in enumerate(players)}
        _, ratings = await fetch(f"{url}/v1/ratings?order=ordinal&limit=500")
        ordinals = [r["ordinal"] for r in ratings["items"]]
        assert ordinals == sorted(ordinals, reverse=True) and ratings["next"] is None
        assert all("current_rating" in p for p in board["placings"])

        _, rounds = await fetch(f"{url}/v1/tournaments/{cup}/rounds")
        assert [r["round"] for r in rounds["rounds"]] == [1, 2]
        assert all(r["completed"] and len(r["tables"]) == 2 for r in rounds["rounds"])
        assert sum(len(t["winners"]) > 0 for r in rounds["rounds"] for t in r["tables"]) == 4
        assert [p["player_id"] for p in rounds["rounds"][-1]["standings"]] == [p["player_id"] for p in
                                                                              board["placings"]]
        assert rounds["names"][players[0]] == f"Dir_{tag} Player%0"

        season = games[4]
        _, found = await fetch(f"{url}/v1/seasons/{season}")
        assert found["season"]["names"] == [f"Dir_{tag} Player%{n}" for n in range(3)]
        shown = found["board"]["board"]
        assert found["board"]["running"] is False and shown["champion"] == found["season"]["champion"]
        assert not {"hand", "lineup", "choice", "trade_taken"} & set(shown)
        revealed = {c for r in shown["game"]["history"] for c in r["cards"]}
        assert revealed <= set(shown["cards"]) and all(c["name"] for c in shown["cards"].values())

        game_id = games[0]
        events = await store.read_stream(game_id)
        _, timeline = await fetch(f"{url}/v1/games/{game_id}/timeline")
        assert [s["step"] for s in timeline["steps"]] == [e.version for e in events]
        assert timeline["names"][:1] == [f"Dir_{tag} Player%0"] and timeline["winners"] is not None
        accepted = [e for e in events if e.type == "engine.CommandAccepted"]
        assert [a["version"] for a in timeline["actions"]] == [e.version for e in accepted]
        assert [a["command"] for a in timeline["actions"]] == [e.payload()["command"] for e in accepted]
        recorded = [d for e in events if e.type == "engine.DrawsUsed" for d in e.payload()["draws"]]
        shown_draws = [d for a in timeline["actions"] for d in a["draws"]]
        opening_draws = len(recorded) - len(shown_draws)
        assert shown_draws == recorded[opening_draws:]
        assert all(s["data"] is None for s in timeline["steps"] if s["private"] is not None)

        table = Table(game_id)
        middle = len(events) // 2
        table.apply_all(events[:middle])
        assert table.rules is not None
        _, views = await fetch(f"{url}/v1/games/{game_id}/views?after={middle - 1}&limit=2")
        assert [v["step"] for v in views["items"]] == [middle, middle + 1] and views["next"] == str(middle + 1)
        public = msgspec.json.decode(msgspec.json.encode(table.rules.view(table.state, None)))
        assert views["items"][0]["view"] == public
        _, verdict = await fetch(f"{url}/v1/games/{game_id}/audit")
        assert verdict["verified"] is True and verdict["seed_revealed"] is True, verdict

        status, headers, body = await asyncio.to_thread(request, f"{url}/v1/games/{game_id}/timeline",
                                                        {"Accept-Encoding": "gzip"})
        assert status == 200 and headers.get("Content-Encoding") == "gzip"
        again = await asyncio.to_thread(request, f"{url}/v1/games/{game_id}/timeline",
                                        {"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]})
        assert again[0] == 304 and again[2] == b"" and "Content-Encoding" not in again[1]
        assert headers["Access-Control-Allow-Origin"] == "*"
        preflight = {"Origin": "http://play.example", "Access-Control-Request-Method": "GET"}
        status, headers, _ = await asyncio.to_thread(request, f"{url}/v1/games", preflight, "OPTIONS")
        assert status == 204 and headers["Access-Control-Allow-Origin"] == "*"


async def test_the_new_routes_answer_bad_input_with_a_400_naming_it_and_a_running_game_with_409(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    async with standings_service(migrated, "standings-directory-bad") as standings:
        url = standings.url
        load = BotLoad(nc, migrated.namespace, store)
        load.pace.seconds = 0.2
        [running] = await load.start([Spec("hockeydice", 2)])
        await asyncio.sleep(1)
        cases: list[tuple[str, int, str]] = [
            ("/v1/games?game=chess", 400, "standings.bad-game"),
            ("/v1/games?after=x", 400, "standings.bad-after"),
            ("/v1/games?running=yes", 400, "standings.bad-running"),
            ("/v1/games?limit=0", 400, "standings.bad-limit"),
            ("/v1/players?ids=", 400, "standings.bad-ids"),
            ("/v1/players?ids=" + ",".join(f"p{n}" for n in range(501)), 400, "standings.bad-ids"),
            ("/v1/players?name=" + "x" * 65, 400, "standings.bad-name"),
            ("/v1/ratings?order=mu", 400, "standings.bad-order"),
            ("/v1/tournaments/nope/rounds", 404, "standings.unknown-tournament"),
            ("/v1/games/chess-1/timeline", 400, "standings.bad-game-id"),
            ("/v1/games/vortex-nope/timeline", 404, "standings.unknown-game"),
            (f"/v1/games/{running}/timeline", 409, "standings.game-running"),
            (f"/v1/games/{running}/views", 409, "standings.game-running"),
            (f"/v1/games/{running}/audit", 409, "standings.game-running"),
            ("/v1/games/vortex-nope/views?after=-1", 404, "standings.unknown-game"),
            ("/v1/players?name=a%00b", 400, "standings.bad-name"),
        ]
        for path, status, code in cases:
            got, _, body = await asyncio.to_thread(request, f"{url}{path}")
            answer: dict[str, Any] = json.loads(body)
            assert (got, answer["code"]) == (status, code), (path, got, answer)
        load.pace.seconds = 0.0
        [table] = await load.wait()
        finished = table.game_id
        got, _, body = await asyncio.to_thread(request, f"{url}/v1/games/{finished}/views?after=x")
        assert (got, json.loads(body)["code"]) == (400, "standings.bad-after")
