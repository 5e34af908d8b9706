"""The RNG revealer takes a page of the log's game ends at once: one read of the games' streams, one append of every
seed it reveals, and still only for games whose own streams show them over. On a database of its own, so that no
running RNG service reveals these games first."""

from __future__ import annotations

import base64
import secrets
from collections.abc import AsyncIterator

import msgspec
import pytest

from services.migrations import MIGRATIONS
from services.rng.dealer import Dealer
from services.rng.revealer import reveal_those_over
from services.rng.sealing import Sealer
from shared.eventstore import EventStore, ExpectedVersion, RecordedEvent
from shared.eventstore.migrate import apply_migrations
from shared.eventstore.pool import create_pool
from shared.fairness.engine_auth import sign
from shared.logging import correlation
from shared.messages.engine import GameAbandoned, GameEnded, GameOpened
from shared.messages.rng import CreateSeeds, GameSeats, SeedRevealed, create_many_signed, rng_stream
from shared.messages.stored import loaded, stored
from tests.infra import RunInfra, database_of_its_own
from tests.integration.helpers import new_stream

ENGINE_KEY = secrets.token_bytes(32)


@pytest.fixture(scope="module")
async def own_store(migrated: RunInfra, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[EventStore]:
    async with database_of_its_own(migrated.admin_url, "league_reveals", tmp_path_factory.mktemp("no-logins")) as url:
        await apply_migrations(url, MIGRATIONS)
        pool = await create_pool(url)
        try:
            yield EventStore(pool)
        finally:
            await pool.close()


async def opened_game(store: EventStore, dealer: Dealer, ending: msgspec.Struct) -> RecordedEvent:
    """A Vortex game with a committed seed, its stream opened and then ``ending`` appended: the end as recorded."""
    game = new_stream("vortex")
    games = (GameSeats(game_id=game, seats=2),)
    await dealer.create_many(CreateSeeds(games=games, auth=sign(ENGINE_KEY, *create_many_signed(games))))
    with correlation(f"c0ffee00-0000-4000-8000-{secrets.token_hex(6)}"):
        opening = stored(GameOpened(game="vortex", seats=2, options=msgspec.Raw(b"{}")), actor="engine")
        end = stored(ending, actor="engine")
    await store.append(game, [opening, end], ExpectedVersion.NO_STREAM)
    return (await store.read_stream(game))[-1]


async def reveals(store: EventStore, game: str) -> list[RecordedEvent]:
    return [e for e in await store.read_stream(rng_stream(game)) if e.type == "rng.SeedRevealed"]


async def test_a_page_of_ends_is_revealed_in_one_append_and_only_where_the_stream_shows_the_game_over(
    own_store: EventStore, migrated: RunInfra,
) -> None:
    dealer = Dealer(own_store, own_store.pool, Sealer(base64.b64decode(migrated.rng_seed_key)), ENGINE_KEY)
    abandoned = GameAbandoned(game="vortex", reason="a test", by="organiser test")
    first, second = [await opened_game(own_store, dealer, abandoned) for _ in range(2)]
    forged = await opened_game(own_store, dealer, GameEnded(game="vortex", winners=(0,)))  # the rules say: running

    page = [first, forged, second, first]  # a game's end read twice (two revealers' pages) reveals it once
    assert await reveal_those_over(own_store, dealer, page) == [first.stream_id, second.stream_id]

    revealed = [await reveals(own_store, end.stream_id) for end in (first, second)]
    assert [len(each) for each in revealed] == [1, 1]
    assert revealed[0][0].tx == revealed[1][0].tx, "one append, one transaction, for the whole page"
    for end, [reveal] in zip((first, second), revealed, strict=True):
        seed = loaded(reveal)
        assert isinstance(seed, SeedRevealed) and (seed.game_version, seed.game_hash) == (end.version, end.hash.hex())
        assert reveal.metadata.causation_id == str(end.event_id)
        assert reveal.metadata.correlation_id == end.metadata.correlation_id
    assert await reveals(own_store, forged.stream_id) == []

    assert await reveal_those_over(own_store, dealer, page) == [], "a seed is revealed once"
    assert [len(await reveals(own_store, end.stream_id)) for end in (first, second)] == [1, 1]
