"""Game streams made in memory in the engine's layout (``shared.play.layout``), for CLI tests without a league."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime
from typing import Any

import msgspec

from shared.eventstore import RecordedEvent
from shared.games.draws import SeededDraws
from shared.games.rules import fold
from shared.messages.engine import CommandAccepted, GameEnded, GameOpened
from shared.messages.games import rules_of
from shared.messages.rng import NumberedDraw
from shared.play.layout import Entry, accepted, entry, outcome


def numbered(draws: SeededDraws, first: int) -> list[NumberedDraw]:
    return [NumberedDraw(nonce=first + i, request=d.request, values=d.values) for i, d in enumerate(draws.used)]


def play(game: str, seats: int, moves: int, options: dict[str, Any] | None = None, seed: int = 1,
         stream_id: str | None = None) -> list[RecordedEvent]:
    """``moves`` greedy-bot commands (fewer when the game ends first), stored as the engine stores them."""
    rules = rules_of(game)
    stream_id = stream_id or f"{game}-test"
    rng = random.Random(seed)
    raw = msgspec.json.encode(options or {})
    entries: list[Entry] = [entry(GameOpened(game=game, seats=seats, options=msgspec.Raw(raw)), actor="engine")]
    draws = SeededDraws(rng)
    events = rules.new_game(msgspec.json.decode(raw, type=rules.options_type), seats, draws)
    entries += outcome(rules, numbered(draws, 0), events, actor="engine", command_id="open")
    nonce = len(draws.used)
    state = fold(rules, events)
    for number in range(moves):
        if rules.is_over(state):
            break
        seat = min(rules.pending_seats(state))
        command = rules.bots["greedy"](state, seat, rng)
        draws = SeededDraws(rng)
        events = rules.decide(state, command, draws)
        for event in events:
            state = rules.evolve(state, event)
        head = CommandAccepted(seat=seat, command=msgspec.Raw(msgspec.json.encode(command)))
        ended = GameEnded(game=game, winners=tuple(rules.winners(state))) if rules.is_over(state) else None
        entries.append(accepted(head, actor="bot", command_id=f"c{number}", event_id=uuid.uuid4()))
        entries += outcome(rules, numbered(draws, nonce), events, actor="engine", command_id=f"c{number}",
                           ended=ended)
        nonce += len(draws.used)
    now = datetime.now(UTC)
    return [RecordedEvent(position=v, tx=v, event_id=e.new.event_id, stream_id=stream_id, version=v,
                          type=e.new.type, schema_version=e.new.schema_version, data=e.new.data,
                          metadata=e.new.metadata, recorded_at=now, prev_hash=b"", hash=b"")
            for v, e in enumerate(entries, start=1)]
