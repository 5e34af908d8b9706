"""Reveals a game's seed when the game is over, never before.

Several services may append to the log (the engine, matchmaking, the gateway and this one), none of them held to
its own streams, so an ``engine.GameEnded`` seen in the global log proves nothing on its own: any of them could
append one to a running game. It is only a reason to look. The game's own stream is read and folded, and the seed is
revealed only when that stream holds the GameEnded and the rules, folded over the stream, say the game is over
(``Table.over``), or when it was abandoned (``engine.GameAbandoned`` closes it: no later move can use a draw, so
nothing is left for the seed to give away). The ends of a page of the log are taken some games at a time: one read
of their streams, one append of their reveals."""

from __future__ import annotations

from contextlib import aclosing

from services.rng.dealer import Dealer, GameOver
from shared.eventstore import EventStore, RecordedEvent
from shared.eventstore.checkpoints import load_checkpoint, save_checkpoint
from shared.logging import correlation, get_logger
from shared.messages.engine import GameAbandoned, GameEnded
from shared.messages.registry import message_name
from shared.play.table import Table

CHECKPOINT = "rng-revealer"
READ_INTERVAL = 0.25
"""A busy log is read at most this often: a seed is revealed a quarter second after its game ended at most."""
GAMES_AT_ONCE = 50
"""Ends whose games' whole streams are read at once (a round's end brings hundreds, each stream hundreds of events)."""
ENDS = frozenset({message_name(GameEnded), message_name(GameAbandoned)})
log = get_logger(__name__)


def over_at(game_id: str, events: list[RecordedEvent]) -> RecordedEvent | None:
    """The game stream's last event when the stream shows the game over, else None."""
    table = Table(game_id)
    try:
        table.apply_all(events)
    except Exception as error:  # a stream the rules cannot fold is no proof of an end; never reveal on it
        log.warning("rng.reveal.unfoldable", game_id=game_id, error=f"{type(error).__name__}: {error}")
        return None
    return events[-1] if table.closed else None


async def reveal_those_over(store: EventStore, dealer: Dealer, ends: list[RecordedEvent]) -> list[str]:
    """The games of ``ends`` whose own streams show them over, their seeds revealed in one read of their streams
    and one append: each reveal carries its end's correlation id, the end's event id as its cause, and the version
    and hash of the game stream's last event it saw. Returns the games revealed now."""
    streams = await store.read_streams({ended.stream_id for ended in ends})
    over = []
    for ended in ends:
        with correlation(ended.metadata.correlation_id, game_id=ended.stream_id):
            last = over_at(ended.stream_id, streams[ended.stream_id])
            if last is None:
                log.warning("rng.reveal.refused", reason="the game's stream does not show it over",
                            event_id=str(ended.event_id), version=ended.version, actor=ended.metadata.actor)
                continue
        over.append(GameOver(game_id=ended.stream_id, game_version=last.version, game_hash=last.hash.hex(),
                             causation_id=str(ended.event_id), correlation_id=ended.metadata.correlation_id))
    return await dealer.reveal(over) if over else []


async def reveal_ended_games(store: EventStore, dealer: Dealer) -> None:
    """Follows the global log from its checkpoint; restarted by the service's supervisor when it fails."""
    async with store.pool.acquire() as conn:
        after = await load_checkpoint(conn, CHECKPOINT)
    async with aclosing(store.pages(after, min_interval=READ_INTERVAL, types=ENDS)) as pages:
        async for page in pages:
            for first in range(0, len(page.events), GAMES_AT_ONCE):
                await reveal_those_over(store, dealer, page.events[first:first + GAMES_AT_ONCE])
            async with store.pool.acquire() as conn:
                await save_checkpoint(conn, CHECKPOINT, page.end)
