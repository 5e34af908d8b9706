"""The play page in headless Chromium against a running league: a person registers, starts a game against bots and
plays it to the end by clicking the move buttons; the page then recomputes every draw in the browser. The
in-browser recipe gives the test vectors of the Python one, and a draw changed in the database is flagged."""

from __future__ import annotations

import json
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import asyncpg
import pytest

from shared.client.bot import play_game
from shared.client.http import LeagueClient
from shared.eventstore import EventStore
from shared.fairness.vectors import load_vectors
from shared.infra.processes import ServiceProcess
from shared.messages.engine import CommandAccepted
from shared.messages.stored import loaded
from shared.play.table import Table
from tests.infra import RunInfra
from tests.integration.browser import Page, chromium
from tests.integration.tamper import edit_data, rechain, rewrite
from tests.integration.web_league import WebLeague, web_league

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "fairness" / "vectors.json"
CLICK_A_MOVE = """(() => {
  const seed = document.getElementById('seed-send');
  if (seed) { seed.click(); return 'seed'; }
  const moves = [...document.querySelectorAll('#moves button.move:not([disabled])')];
  if (!moves.length) return '';
  const move = moves[Math.floor(Math.random() * moves.length)];
  move.click();
  return move.dataset.command;
})()"""
VERDICT = "document.getElementById('fair-check') && document.getElementById('fair-check').dataset.verdict"


@pytest.fixture(scope="module")
async def league(migrated: RunInfra, game_services: dict[str, ServiceProcess]) -> AsyncIterator[WebLeague]:
    with web_league(migrated, "web-play") as running:
        yield running


async def register(page: Page, league: WebLeague, name: str) -> dict[str, str]:
    await page.open(f"{league.gateway}/play")
    await page.js(f"document.getElementById('register-name').value = {json.dumps(name)};"
                  " document.querySelector('#register-form button').click()")
    await page.until("!document.getElementById('lobby-view').hidden")
    player: dict[str, str] = json.loads(await page.js("localStorage.getItem('phantom-league.player')"))
    assert player["name"] == name and re.fullmatch(r"p[0-9a-f]{20}", player["player_id"])
    assert await page.js("document.getElementById('me-name').textContent") == name
    return player


async def play_by_clicking(page: Page, most: int = 2000) -> list[str]:
    """Click a legal move (or send the client seed) whenever the page offers one, until the game is over and the
    page has checked its draws."""
    clicked: list[str] = []
    for _ in range(most):
        if await page.js(VERDICT):
            return clicked
        done = await page.js(CLICK_A_MOVE)
        if done:
            clicked.append(done)
            await page.until("![...document.querySelectorAll('#moves button.move')].some(b => b.disabled)"
                             f" || !!({VERDICT})", 30)
        else:
            await page.until("document.querySelector('#moves button.move:not([disabled])') || "
                             f"document.getElementById('seed-send') || !!({VERDICT})", 60)
    raise AssertionError(f"the game did not end after {most} clicks")


async def finished_table(store: EventStore, game_id: str) -> Table:
    return Table(game_id).apply_all(await store.read_stream(game_id))


async def who_played(store: EventStore, game_id: str) -> list[tuple[int, str, str | None]]:
    """Each accepted command of the game: (seat, command, the bot that chose it or None for a person)."""
    accepted = [loaded(e) for e in await store.read_stream(game_id) if e.type == "engine.CommandAccepted"]
    return [(a.seat, json.loads(bytes(a.command))["type"], a.by_bot)
            for a in accepted if isinstance(a, CommandAccepted)]


async def test_a_person_plays_a_hockey_game_to_the_end_against_a_bot_by_clicking(
    league: WebLeague, store: EventStore, tmp_path: Path
) -> None:
    async with chromium(tmp_path) as page:
        player = await register(page, league, "Hazel Hockey")
        await page.js("document.querySelector('#kind-tabs [data-kind=hockeydice]').click()")
        await page.until("!!document.getElementById('opt-periods')")
        await page.js("document.getElementById('opt-periods').value = 1;"
                      " document.getElementById('opt-shots').value = 5;"
                      " document.getElementById('opt-seed').checked = true;"
                      " document.querySelector('select.opponent[data-seat=\"1\"]').value = 'greedy';"
                      " document.getElementById('create-game').click()")
        game_id = await page.until("new URLSearchParams(location.hash.slice(1)).get('game')")
        assert game_id.startswith("hockeydice-")
        await page.until("document.getElementById('seed-send')")
        assert "Waiting for the players' seeds" in await page.js("document.getElementById('moves').innerText")
        commitment = await page.js("document.getElementById('commitment').textContent")
        await page.js("document.getElementById('seed-send').click()")
        await page.until("document.querySelector('.scoreboard .team-name')?.textContent.includes('Hazel Hockey')")
        assert "greedy bot 2" in await page.js("document.querySelector('#board').innerText")
        await page.screenshot("play-hockey-start")
        clicked = await play_by_clicking(page)
        assert len(clicked) > 1, (clicked, await who_played(store, game_id))
        await page.screenshot("play", whole=False)

        table = await finished_table(store, game_id)
        assert table.ended is not None and table.opened is not None
        assert table.opened.players[0] == player["player_id"] and table.opened.commitment == commitment
        assert table.client_seeds, "the page sent a client seed and the game used it"
        result = await page.js("document.getElementById('result-line').textContent")
        assert result == ("You won!" if table.ended.winners == (0,) else "greedy bot 2 won.")
        assert await page.js(VERDICT) == "ok"
        check = await page.js("document.getElementById('fair-check').innerText")
        assert "every roll and shuffle checked here" in check.lower() and "the commitment noted at the start" in check
        draws = int(re.search(r"(\d+) draws recomputed", check).group(1))  # type: ignore[union-attr]
        assert draws == table.next_nonce > 0
        audit = await page.js("document.getElementById('audit-link').href")
        assert audit.endswith(f"/audit/{game_id}?commitment={commitment}")
        assert await page.js("document.querySelectorAll('.rink .puck').length") == 1
        assert await page.clipped_cards() == []
        assert await page.errors() == []


async def test_a_person_plays_a_vortex_race_to_the_end_against_bots_by_clicking(
    league: WebLeague, store: EventStore, tmp_path: Path
) -> None:
    async with chromium(tmp_path) as page:
        await register(page, league, "Vera Vortex")
        await page.js("document.getElementById('opt-max-rounds').value = 3;"
                      " document.querySelector('select.opponent[data-seat=\"2\"]').value = 'random';"
                      " document.getElementById('create-game').click()")
        game_id = await page.until("new URLSearchParams(location.hash.slice(1)).get('game')")
        await page.until("document.querySelectorAll('svg.vortex g.phantom').length === 4")
        seats = await page.js("[...document.querySelectorAll('svg.vortex g.phantom')].map(g => g.dataset.seat).sort()")
        assert seats == ["0", "1", "2", "3"]
        await page.until("document.getElementById('board').innerText.includes('Vera Vortex')")
        await page.screenshot("play-vortex-start")
        clicked = await play_by_clicking(page)
        assert "vortex.Roll" in clicked
        table = await finished_table(store, game_id)
        assert table.ended is not None and table.state.phase == "over"
        assert await page.js("document.querySelectorAll('svg.vortex g.phantom').length") == 4
        assert await page.js(VERDICT) == "ok"
        winners = table.ended.winners
        result = await page.js("document.getElementById('result-line').textContent")
        assert result.startswith("You") == (0 in winners), (result, winners)
        await page.screenshot("play-vortex-end")
        await page.open(f"{league.gateway}/play")
        await page.until(f"!!document.querySelector('#my-games [data-game-id=\"{game_id}\"]')")
        assert await page.raw_ids() == []
        assert await page.errors() == []


async def test_the_draws_recomputed_in_the_browser_are_the_test_vectors(league: WebLeague, tmp_path: Path) -> None:
    vectors = json.loads(VECTORS.read_text())
    assert load_vectors().draws  # the same file the Python recipe's tests use
    async with chromium(tmp_path) as page:
        await page.open(f"{league.gateway}/play")
        found = json.loads(await page.js(f"""(async () => {{
          const f = await import('/lib/fairness.js');
          const v = {json.dumps(vectors)};
          const seed = f.hexToBytes(v.server_seed_hex);
          const recipe = await f.Recipe.of(seed, v.game_id, v.client_seeds);
          const draws = [];
          for (const d of v.draws) draws.push(await recipe.draw(d.nonce, d.request));
          return JSON.stringify({{commitment: await f.sha256Hex(seed),
            message: f.bytesToHex(f.blockMessage(v.game_id, v.client_seeds, v.first_block.nonce, v.first_block.block)),
            block: f.bytesToHex(await recipe.block(v.first_block.nonce, v.first_block.block)), draws}});
        }})()"""))
    assert found["commitment"] == vectors["commitment"]
    assert found["message"] == vectors["first_block"]["message_hex"]
    assert found["block"] == vectors["first_block"]["hmac_hex"]
    assert found["draws"] == [d["values"] for d in vectors["draws"]]


async def test_the_page_flags_a_draw_changed_in_the_database(
    league: WebLeague, store: EventStore, superuser: asyncpg.Connection, tmp_path: Path
) -> None:
    async with aiohttp.ClientSession() as session, chromium(tmp_path) as page:
        client = LeagueClient(session, league.gateway)
        player = await client.register("Tess Tamper")
        game_id = await client.create_game("hockeydice", 2, options={"periods": 1, "shots_per_period": 2},
                                           players=[player.player_id, None], bots=[None, "greedy"])
        await play_game(client, game_id, random.Random(5))
        events = await store.read_stream(game_id)
        first = next(i for i, e in enumerate(events) if e.type == "engine.DrawsUsed")
        original = json.loads(events[first].data)["draws"][0]

        def bump(data: dict) -> None:  # type: ignore[type-arg]
            data["draws"][0]["values"][0] = data["draws"][0]["values"][0] % 6 + 1

        events[first] = edit_data(events[first], bump)
        await rewrite(superuser, game_id, rechain(events))

        await page.open(f"{league.gateway}/play")
        kept = {"player_id": player.player_id, "name": player.name, "token": player.token}
        await page.js(f"localStorage.setItem('phantom-league.player', {json.dumps(json.dumps(kept))})")
        await page.open(f"{league.gateway}/play#game={game_id}")
        assert await page.until(VERDICT, 60) == "mismatch"
        text = await page.js("document.getElementById('fairness').innerText")
        assert "A draw does not check out" in text
        difference = await page.js("document.getElementById('first-difference').textContent")
        tampered = original["values"][0] % 6 + 1
        assert f"draw #{original['nonce']}" in difference and f"event {events[first].version}" in difference
        assert f"expected [{','.join(map(str, original['values']))}]" in difference
        assert f"recorded [{','.join(map(str, [tampered, *original['values'][1:]]))}]" in difference
        await page.screenshot("play-tampered")
