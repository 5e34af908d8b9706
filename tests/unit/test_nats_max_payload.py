"""Every nats-server the league ships a config for takes messages of ``MAX_PAYLOAD``, the largest event the relay can
publish, and the largest events the league makes (a big tournament's start and first round) fit in it."""

from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

from shared.bus.envelope import MAX_PAYLOAD, EventEnvelope, batch_payload
from shared.eventstore import Metadata, RecordedEvent
from shared.tournaments.decide import MAX_PLAYERS
from shared.tournaments.events import RoundStarted, Seating, Seed, TournamentStarted

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


@pytest.mark.parametrize("config", ["nats.conf", "compose/nats-cluster.conf", "k8s/base/nats.yaml"])
def test_each_deployed_server_takes_the_league_s_largest_message(config: str) -> None:
    found = re.findall(r"^\s*max_payload:\s*(\d+)\s*$", (DEPLOY / config).read_text(), flags=re.MULTILINE)
    assert found == [str(MAX_PAYLOAD)]


def test_the_largest_events_of_the_largest_tournament_fit_one_message() -> None:
    """The first round of an elimination of ``MAX_PLAYERS`` (its tables and its bracket) and its start (every seed),
    with the league's own ids, as the relay sends them: the stored JSON (PostgreSQL's spaced form) in an envelope."""
    tournament_id = uuid.uuid4().hex[:16]  # as matchmaking makes them
    players = [f"p{uuid.uuid4().hex[:20]}" for _ in range(MAX_PLAYERS)]  # as the gateway makes them
    pairs = tuple(zip(players[::2], players[1::2], strict=True))
    first_round = RoundStarted(round=1, bracket=pairs, tables=tuple(
        Seating(table=n, game_id=f"hockeydice-{tournament_id}-r1-t{n}-g1", players=pair)
        for n, pair in enumerate(pairs, start=1)))
    started = TournamentStarted(seeds=tuple(Seed(player_id=p, rating=25.0 - n / 7) for n, p in enumerate(players)),
                                rounds=16)
    for event in (first_round, started):
        stored = json.dumps(json.loads(msgspec.json.encode(event))).encode()
        recorded = RecordedEvent(position=1, tx=1, event_id=uuid.uuid4(), stream_id=f"tournament-{tournament_id}",
                                 version=2, type="tournament.RoundStarted", schema_version=1, data=stored,
                                 metadata=Metadata(correlation_id="c" * 32, actor="matchmaking"),
                                 recorded_at=datetime.now(UTC), prev_hash=bytes(32), hash=bytes(32))
        message = batch_payload([msgspec.json.encode(EventEnvelope.of(recorded))])
        assert len(message) < 0.75 * MAX_PAYLOAD, f"{type(event).__name__} of {MAX_PLAYERS} players"
