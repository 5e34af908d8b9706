from __future__ import annotations

import asyncio
import uuid

import msgspec
import pytest

from shared.eventstore import AppendResult, ConcurrencyError, EventStore, ExpectedVersion, IdempotencyConflict
from shared.eventstore.group_commit import GroupCommit, GroupCommitClosed
from tests.integration.helpers import event, new_stream


async def test_many_games_appending_at_once_each_event_exactly_once_versions_gap_free(store: EventStore) -> None:
    games = [new_stream("gc") for _ in range(60)]
    commits: list[int] = []
    async with GroupCommit(store, max_streams=32, on_commit=lambda: commits.append(1)) as committer:

        async def play(game: str) -> list[uuid.UUID]:
            ids: list[uuid.UUID] = []
            version = 0
            for turn in range(8):
                batch = [event(turn * 10 + i) for i in range(1 + turn % 4)]
                result = await committer.append(game, batch, version or ExpectedVersion.NO_STREAM)
                assert result.versions == tuple(range(version + 1, version + len(batch) + 1))
                version = result.last_version
                ids.extend(e.event_id for e in batch)
            return ids

        written = await asyncio.gather(*(play(game) for game in games))
    assert committer.flushes < 60 * 8 / 4, "appends were not grouped"
    assert len(commits) == committer.flushes
    for game, ids in zip(games, written, strict=True):
        stored = await store.read_stream(game)
        assert [e.event_id for e in stored] == ids
        assert [e.version for e in stored] == list(range(1, len(ids) + 1))
        assert (await store.verify(game)).ok


async def test_appends_to_one_stream_queued_together_are_made_in_order(store: EventStore) -> None:
    stream = new_stream("gc")
    async with GroupCommit(store, max_delay=0.01) as committer:
        results = await asyncio.gather(*(committer.append(stream, [event(i)], ExpectedVersion.ANY)
                                         for i in range(40)))
        chained = await asyncio.gather(committer.append(stream, [event(100)], 40),
                                       committer.append(stream, [event(101), event(102)], 41))
    assert [r.versions for r in results] == [(v,) for v in range(1, 41)]
    assert [r.versions for r in chained] == [(41,), (42, 43)]
    stored = await store.read_stream(stream)
    assert [msgspec.json.decode(e.data)["n"] for e in stored] == [*range(40), 100, 101, 102]
    assert (await store.verify(stream)).ok


async def test_errors_are_raised_to_their_own_caller_only(store: EventStore) -> None:
    behind, fine, known_stream = new_stream("gc"), new_stream("gc"), new_stream("gc")
    await store.append(behind, [event(1)])
    known = event(2)
    await store.append(known_stream, [known])
    async with GroupCommit(store, max_delay=0.01) as committer:
        wrong, ok, conflict, again = await asyncio.gather(
            committer.append(behind, [event(3)], 5),
            committer.append(fine, [event(4)], ExpectedVersion.NO_STREAM),
            committer.append(new_stream("gc"), [known], ExpectedVersion.ANY),
            committer.append(known_stream, [known], ExpectedVersion.NO_STREAM),
            return_exceptions=True,
        )
    assert isinstance(wrong, ConcurrencyError) and wrong.actual == 1
    assert isinstance(ok, AppendResult) and ok.versions == (1,)
    assert isinstance(conflict, IdempotencyConflict)
    assert isinstance(again, AppendResult) and again.duplicate
    assert committer.flushes == 1


async def test_two_owners_racing_for_the_same_games_never_both_win(store: EventStore) -> None:
    games = [new_stream("gc") for _ in range(30)]
    for game in games:
        await store.append(game, [event(0)])
    async with GroupCommit(store) as one, GroupCommit(store) as other:
        outcomes = await asyncio.gather(
            *(c.append(g, [event(n)], 1) for g in games for n, c in enumerate((one, other))),
            return_exceptions=True)
    wins = [o for o in outcomes if isinstance(o, AppendResult)]
    assert len(wins) == len(games)
    assert all(isinstance(o, ConcurrencyError) for o in outcomes if not isinstance(o, AppendResult))
    for game in games:
        assert [e.version for e in await store.read_stream(game)] == [1, 2]
        assert (await store.verify(game)).ok


async def test_close_flushes_what_is_queued_then_refuses(store: EventStore) -> None:
    stream = new_stream("gc")
    committer = GroupCommit(store, max_delay=1.0)
    committer.start()
    pending = asyncio.create_task(committer.append(stream, [event(1)]))
    await asyncio.sleep(0.01)
    await committer.close()
    assert (await pending).versions == (1,)
    with pytest.raises(GroupCommitClosed):
        await committer.append(stream, [event(2)])
