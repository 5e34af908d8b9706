"""The feeds: SSE resumed with Last-Event-ID gets every change once, the WebSocket the same entries, JSON with
ETags and 4xx errors, and no hidden information of a running game anywhere."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
from nats.aio.client import Client

from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.games import rules_of
from tests.infra import RunInfra
from tests.integration.bots_running import BotLoad, Spec, caught_up, fetch, get_json, standings_service


async def sse_entries(url: str, count: int | None, last_id: str | None = None,
                      until: str | None = None) -> list[dict[str, Any]]:
    """Read a feed until ``count`` entries (then hang up) or until the entry with id ``until``."""
    headers = {"Last-Event-ID": last_id} if last_id else {}
    got: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as session, session.get(f"{url}/v1/feed", headers=headers) as response:
        assert response.status == 200 and response.headers["Content-Type"] == "text/event-stream"
        event: dict[str, str] = {}
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line:
                field, _, value = line.partition(": ")
                event[field] = value
                continue
            if "data" in event:
                entry = json.loads(event["data"])
                assert entry["id"] == event["id"]
                got.append(entry)
                if len(got) == count or entry["id"] == until:
                    break
            event = {}
    return got


async def all_changes(url: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    after = ""
    while True:
        _, page = await fetch(f"{url}/v1/changes?limit=500&after={after}")
        items += page["items"]
        if page["next"] is None:
            return items
        after = page["next"]


async def test_an_sse_client_that_reconnects_with_last_event_id_gets_every_change_once(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    async with standings_service(migrated, "standings-feed") as standings:
        load = BotLoad(nc, migrated.namespace, store)
        # A board is reported once per batch the fold reads (at most ten a second): paced, the races give entries
        # enough to hang up in the middle of.
        load.pace.seconds = 0.05
        await caught_up(standings.url, store)
        start = (await all_changes(standings.url))
        start_id = start[-1]["id"] if start else None
        await load.start([Spec("vortex", 2, {"max_rounds": 6}, players=("eve", "fay")),
                          Spec("vortex", 3, {"max_rounds": 6}, players=("eve", "gus", "hal"))])
        first = await sse_entries(standings.url, 10, start_id)
        await asyncio.sleep(0.5)
        await load.wait()
        await caught_up(standings.url, store)
        everything = await all_changes(standings.url)
        expected = [e["id"] for e in everything]
        expected = expected[expected.index(start_id) + 1:] if start_id else expected
        second = await sse_entries(standings.url, None, first[-1]["id"], until=expected[-1])
        ids = [e["id"] for e in first + second]
        assert ids == expected and len(set(ids)) == len(ids)
        assert {c["projection"] for e in first + second for c in e["changes"]} >= {"boards", "ratings", "counters"}
        assert len(expected) >= 20, f"the races gave only {len(expected)} entries"
        versions: dict[str, list[int]] = {}
        for entry in first + second:
            for change in entry["changes"]:
                if change["projection"] == "boards":
                    versions.setdefault(change["key"], []).append(change["data"]["version"])
        assert all(v == sorted(set(v)) for v in versions.values()), versions

        async with aiohttp.ClientSession() as session, \
                session.ws_connect(f"{standings.url}/v1/feed/ws?after={expected[9]}") as ws:
            received = [json.loads((await ws.receive(timeout=10)).data)["id"] for _ in range(10)]
        assert received == expected[10:20]


async def test_the_json_feeds_page_use_etags_and_answer_bad_input_with_4xx(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    async with standings_service(migrated, "standings-json") as standings:
        url = standings.url
        await caught_up(url, store)
        status, page = await fetch(f"{url}/v1/boards?limit=1")
        assert status == 200 and len(page["items"]) == 1 and page["next"] == page["items"][0]["game_id"]
        status, rest = await fetch(f"{url}/v1/boards?limit=500&after={page['next']}")
        assert status == 200 and rest["items"] and all(b["game_id"] > page["next"] for b in rest["items"])
        status, vortex = await fetch(f"{url}/v1/boards?game=vortex&running=false")
        assert status == 200 and vortex["items"] and all(b["game"] == "vortex" for b in vortex["items"])
        request = await asyncio.to_thread(_head, f"{url}/v1/ratings")
        assert (await asyncio.to_thread(get_json, f"{url}/v1/ratings", {"If-None-Match": request}))[0] == 304
        for path, code in [("/v1/boards?limit=0", "standings.bad-limit"),
                           ("/v1/boards?game=chess", "standings.bad-game"),
                           ("/v1/seasons?running=maybe", "standings.bad-running"),
                           ("/v1/changes?after=x", "standings.bad-after"),
                           ("/v1/games/nope/replay", "standings.bad-game-id")]:
            status, body = await fetch(url + path)
            assert (status, body["code"]) == (400, code)
        for path in ("/v1/tournaments/none/leaderboard", "/v1/seasons/phantoms-none", "/v1/boards/vortex-none",
                     "/v1/players/nobody/history", "/v1/games/vortex-none/replay"):
            status, body = await fetch(url + path)
            assert status == 404 and body["code"].startswith("standings.unknown-")
        metrics = await asyncio.to_thread(_text, f"{url}/metrics")
        assert "standings_lag_events " in metrics and "standings_lag_seconds " in metrics


def _head(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.headers["ETag"])


async def test_no_feed_or_page_shows_a_hand_a_face_down_card_or_a_deck_order_of_a_running_game(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    async with standings_service(migrated, "standings-hidden") as standings:
        load = BotLoad(nc, migrated.namespace, store)
        load.pace.seconds = 0.05  # the season must still be running when every feed has been read
        [season] = await load.start([Spec("phantoms", 4, {"edition": "poti"}, players=("hal", "ida", "jon", "kim"))])
        await asyncio.sleep(3)
        assert load.running() == 1
        events = await store.read_stream(season)
        private = set().union(*(strings(e.payload()) for e in events if e.metadata.visibility is not None))
        public = set().union(*(strings(e.payload()) for e in events if e.metadata.visibility is None))
        # A bot's kind ("greedy") is private here only as the by_bot of an action, yet public in any game that seats
        # one (GameOpened.bots), which /v1/games lists: it is no secret.
        secrets = {s for s in private - public if len(s) >= 2} - set(rules_of("phantoms").bots)
        assert secrets, "a running season should hold cards nobody else has seen yet"
        url = standings.url
        _, seasons = await fetch(f"{url}/v1/seasons?running=true")
        assert season in [s["season_id"] for s in seasons["items"]]
        texts = [await asyncio.to_thread(_text, f"{url}{path}") for path in (
            "/", "/web/app.js", "/v1/counters", "/v1/tournaments", "/v1/seasons", f"/v1/seasons/{season}",
            "/v1/ratings", "/v1/boards", "/v1/changes?limit=500", f"/v1/games/{season}/replay", "/v1/games",
            f"/v1/games/{season}/timeline", f"/v1/games/{season}/views", f"/v1/games/{season}/audit", "/v1/players")]
        texts += [json.dumps(e) for e in await all_changes(url)]
        texts += [json.dumps(e) for e in await sse_entries(url, 50)]
        assert load.running() == 1, "the season must still be running while its feeds are read"
        used = [e for e in events if e.type == "engine.DrawsUsed"]
        assert used and all(e.metadata.visibility == () for e in used), "the draws are private until the game ends"
        orders = [v for e in used for d in e.payload()["draws"] if len(v := d["values"]) >= 8]
        assert orders, "a season opens with deck shuffles"
        orders_as_text = {f(v) for v in orders for f in (json.dumps, lambda v: json.dumps(v, separators=(",", ":")))}
        for text in texts:
            assert "DrawsUsed" not in text and "CommandAccepted" not in text and '"draws"' not in text
            assert "rng.Drawn" not in text and not any(order in text for order in orders_as_text)
            leaked = [s for s in secrets if json.dumps(s) in text]
            assert not leaked, f"hidden information in a feed: {leaked[:5]}"
        load.pace.seconds = 0.0
        await load.wait()


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(strings(v) for v in value))
    return set()


def _text(url: str) -> str:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return str(response.read().decode())
    except urllib.error.HTTPError as error:
        return str(error.read().decode())


async def test_bad_paging_parameters_and_ids_get_a_400_naming_the_parameter_never_a_500(migrated: RunInfra) -> None:
    async with standings_service(migrated, "standings-params") as standings:
        url = standings.url
        huge = "99999999999999999999"
        cases = [
            ("/v1/boards?limit=%C2%B2", "standings.bad-limit", "limit"),  # "²" passes str.isdigit(), not int()
            ("/v1/boards?limit=%D9%A3", "standings.bad-limit", "limit"),  # "٣", an Arabic-Indic three
            ("/v1/boards?limit=+5", "standings.bad-limit", "limit"),
            ("/v1/boards?limit=1_0", "standings.bad-limit", "limit"),
            (f"/v1/boards?limit={huge}", "standings.bad-limit", "limit"),
            ("/v1/ratings?min_games=%C2%B2", "standings.bad-min_games", "min_games"),
            (f"/v1/ratings?min_games={huge}", "standings.bad-min_games", "min_games"),
            ("/v1/ratings?min_games=3000000000", "standings.bad-min_games", "min_games"),
            (f"/v1/changes?after={huge}-1", "standings.bad-after", "after"),
            (f"/v1/changes?after=1-{huge}", "standings.bad-after", "after"),
            ("/v1/changes?after=%C2%B2-1", "standings.bad-after", "after"),
            ("/v1/changes?after=1-", "standings.bad-after", "after"),
            (f"/v1/players/eve/history?after={huge}-1", "standings.bad-after", "after"),
            (f"/v1/feed?after={huge}-1", "standings.bad-after", "after"),
            ("/v1/boards?after=a%00b", "standings.bad-after", "after"),
            ("/v1/tournaments?after=%00", "standings.bad-after", "after"),
            ("/v1/tournaments/a%00b/leaderboard", "standings.bad-tournament_id", "tournament_id"),
            ("/v1/tournaments/%00/games", "standings.bad-tournament_id", "tournament_id"),
            ("/v1/seasons/phantoms-%00", "standings.bad-season_id", "season_id"),
            ("/v1/players/%00/history", "standings.bad-player_id", "player_id"),
            ("/v1/boards/vortex-%00", "standings.bad-game_id", "game_id"),
            ("/v1/games/vortex-%00/replay", "standings.bad-game_id", "game_id"),
        ]
        for path, code, parameter in cases:
            status, body = await fetch(url + path)
            assert (status, body["code"]) == (400, code), (path, body)
            assert parameter in body["message"], (path, body)
        status, body = await asyncio.to_thread(get_json, f"{url}/v1/feed", {"Last-Event-ID": f"{huge}-1"})
        assert (status, body["code"]) == (400, "standings.bad-after") and "Last-Event-ID" in body["message"]
        status, body = await fetch(f"{url}/v1/changes?after=9223372036854775807-9223372036854775807&limit=500")
        assert status == 200 and body["items"] == []
        status, body = await fetch(f"{url}/v1/ratings?min_games=2147483647&limit=1")
        assert status == 200 and body["items"] == []
