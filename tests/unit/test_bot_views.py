"""A bot's live views (``shared.client.bot.LiveViews``): read ahead, so the bot can give a lower seat a moment to
act without dropping the connection."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest

from shared.client.bot import LiveViews
from shared.messages.engine import GameView


def view(version: int) -> GameView:
    return GameView(game_id="hockeydice-1", game="hockeydice", version=version, ended=False, seat=1,
                    pending_seats=(0, 1), winners=(), view=msgspec.Raw(b"{}"))


async def fed(versions: list[int], arrived: asyncio.Event, end: BaseException | None = None
              ) -> AsyncIterator[GameView]:
    """The first view at once, the others once ``arrived`` is set; then ``end``, raised, if any."""
    yield view(versions[0])
    await arrived.wait()
    for version in versions[1:]:
        yield view(version)
    if end is not None:
        raise end


async def test_a_newer_view_that_comes_while_waiting_is_the_next_one_read() -> None:
    arrived = asyncio.Event()
    async with LiveViews(fed([1, 2], arrived)) as views:
        assert (await anext(views)).version == 1
        asyncio.get_running_loop().call_later(0.05, arrived.set)
        assert await views.arrives_within(5) is True
        assert views.waiting()
        assert (await anext(views)).version == 2


async def test_nothing_newer_within_the_time_is_false_and_the_feed_stays_open() -> None:
    arrived = asyncio.Event()
    async with LiveViews(fed([1, 2], arrived)) as views:
        assert (await anext(views)).version == 1
        assert await views.arrives_within(0.05) is False
        arrived.set()
        assert [v.version async for v in views] == [2]


async def test_the_feeds_error_reaches_the_reader_after_the_views_before_it() -> None:
    arrived = asyncio.Event()
    arrived.set()
    async with LiveViews(fed([1, 2], arrived, ValueError("bad frame"))) as views:
        assert (await anext(views)).version == 1
        assert (await anext(views)).version == 2
        with pytest.raises(ValueError, match="bad frame"):
            await anext(views)


async def test_a_feed_that_stops_on_anything_else_ends_the_views_instead_of_hanging() -> None:
    arrived = asyncio.Event()
    arrived.set()
    async with LiveViews(fed([1], arrived, asyncio.CancelledError())) as views, asyncio.timeout(5):
        assert [v.version async for v in views] == [1]
