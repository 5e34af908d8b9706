"""The capacity model of docs/scaling.md, computed from measured figures: what a tournament of N tables needs when
each table plays a move every ``pace`` seconds — cores by service, replicas, PostgreSQL and JetStream load against
what each was measured to sustain, and disk per day of play.

    python -m bench.capacity --hot-path hot.json --volume volume.json --jetstream jetstream.json \\
        --appends-per-s N [--tables 10000,100000] [--pace 5]

``hot.json`` from ``bench.hot_path --json``, ``volume.json`` from ``bench.event_volume --json``, ``jetstream.json``
from ``bench.jetstream --json``; ``--appends-per-s``: the group-commit line (a) of ``bench.eventstore``.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path

SECONDS_PER_DAY = 86_400
TARGET_UTILISATION = 0.7
"""A replica is sized to run at most this busy (the autoscalers' target): headroom for bursts and a lost replica."""
JETSTREAM_REPLICAS = 3
ONE_PROCESS = ("relay", "rng", "standings", "matchmaking")
"""Services that run as one process (the relay publishes in order, the RNG runs the notary, the standings fold on
one connection at a time, matchmaking opens the rounds): each caps the league at one core's worth of commands."""
SERVICES_BY_ROLE = {"engine": "engine", "gateway": "gateway", "relay": "relay", "rng": "rng",
                    "matchmaking": "matchmaking", "standings": "standings", "postgres": "PostgreSQL primary",
                    "nats-server": "nats-server (one server, as measured)"}


@dataclass(frozen=True)
class Measured:
    cpu_ms_by_process: dict[str, float]
    """CPU ms per command of each process (bench.hot_path), PostgreSQL and nats-server included."""
    events_per_command: float
    bytes_per_event_postgresql: float
    bytes_per_event_jetstream: float
    events_per_message_jetstream: float
    """The relay's messages each hold a stream's events of one transaction (a Hockey command's public events, or its
    draws)."""
    appends_per_s: float
    jetstream_r3_messages_per_s: float
    events_per_game: float = 0.0
    """A Hockey Championship game with its default options, RNG stream included."""


@dataclass(frozen=True)
class Need:
    tables: int
    commands_per_s: float
    events_per_s: float
    cores: dict[str, float]
    replicas: dict[str, int]
    postgresql_load: float
    """Events/s asked of the primary over the appends/s it was measured to sustain."""
    jetstream_load: float
    postgresql_gb_per_day: float
    jetstream_gb_per_day: float
    postgresql_gb_per_round: float
    """One round: a Hockey Championship game at every table."""


def need(m: Measured, tables: int, pace_seconds: float) -> Need:
    commands = tables / pace_seconds
    events = commands * m.events_per_command
    cores = {name: round(commands * ms / 1000, 2) for name, ms in m.cpu_ms_by_process.items()}
    replicas = {name: max(1, math.ceil(cores.get(name, 0.0) / TARGET_UTILISATION)) for name in ("engine", "gateway")}
    return Need(tables, commands, events, cores, replicas, events / m.appends_per_s,
                events / m.events_per_message_jetstream / m.jetstream_r3_messages_per_s,
                events * m.bytes_per_event_postgresql * SECONDS_PER_DAY / 1e9,
                events * m.bytes_per_event_jetstream * JETSTREAM_REPLICAS * SECONDS_PER_DAY / 1e9,
                tables * m.events_per_game * m.bytes_per_event_postgresql / 1e9)


def ceilings(m: Measured) -> dict[str, float]:
    """Commands/s at which each one-process service has a whole core busy."""
    return {name: 1000 / m.cpu_ms_by_process[name] for name in ONE_PROCESS if m.cpu_ms_by_process.get(name)}


def measured_from(hot_path: dict, volume: dict, jetstream: list[dict], appends_per_s: float  # type: ignore[type-arg]
                  ) -> Measured:
    hockey = volume["games"]["hockeydice"]
    r3 = next(row for row in jetstream if row["replicas"] == JETSTREAM_REPLICAS)
    return Measured(hot_path["cpu_ms_by_process"], hockey["game_stream_events"] / hockey["commands_per_game"],
                    volume["postgresql"]["bytes_per_event"], volume["jetstream"]["bytes_per_event"],
                    volume["jetstream"]["events_per_message"], appends_per_s, r3["messages_per_s"],
                    hockey["events_per_game"])


def table(m: Measured, needs: list[Need], pace: float) -> str:
    head = [f"| a move every {pace:g} s per table | " + " | ".join(f"{n.tables:,} tables" for n in needs) + " |",
            "| --- |" + " --- |" * len(needs)]
    rows = [("commands/s", [f"{n.commands_per_s:,.0f}" for n in needs]),
            ("events/s appended", [f"{n.events_per_s:,.0f}" for n in needs])]
    for name, label in SERVICES_BY_ROLE.items():
        if name in m.cpu_ms_by_process:
            rows.append((f"cores: {label}", [f"{n.cores[name]:,.1f}" for n in needs]))
    rows += [("cores: all", [f"{sum(n.cores.values()):,.1f}" for n in needs]),
             (f"engine replicas (1 core each, {TARGET_UTILISATION:.0%} busy)",
              [str(n.replicas["engine"]) for n in needs]),
             (f"gateway replicas (1 core each, {TARGET_UTILISATION:.0%} busy)",
              [str(n.replicas["gateway"]) for n in needs]),
             ("PostgreSQL primary: events/s over measured group-commit appends/s",
              [f"{n.postgresql_load:.2f}" for n in needs]),
             ("JetStream: messages/s over measured R3 messages/s (one stream)",
              [f"{n.jetstream_load:.2f}" for n in needs]),
             ("PostgreSQL disk per day of play, GB (each replica as much)",
              [f"{n.postgresql_gb_per_day:,.0f}" for n in needs]),
             (f"JetStream disk per day of play, GB ({JETSTREAM_REPLICAS} replicas together)",
              [f"{n.jetstream_gb_per_day:,.0f}" for n in needs]),
             ("PostgreSQL disk per round of Hockey games (one at each table), GB",
              [f"{n.postgresql_gb_per_round:,.1f}" for n in needs])]
    rows += [(f"{name}: one process, a whole core at commands/s", [f"{most:,.0f}"] * len(needs))
             for name, most in ceilings(m).items()]
    return "\n".join(head + [f"| {label} | " + " | ".join(values) + " |" for label, values in rows])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hot-path", type=Path, required=True)
    parser.add_argument("--volume", type=Path, required=True)
    parser.add_argument("--jetstream", type=Path, required=True)
    parser.add_argument("--appends-per-s", type=float, required=True)
    parser.add_argument("--tables", default="10000,100000")
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between two moves at one table")
    args = parser.parse_args()
    m = measured_from(json.loads(args.hot_path.read_text()), json.loads(args.volume.read_text()),
                      json.loads(args.jetstream.read_text()), args.appends_per_s)
    print(table(m, [need(m, int(n), args.pace) for n in args.tables.split(",")], args.pace))


if __name__ == "__main__":
    main()
