"""``league up``: the infrastructure, every service as a child process, until Ctrl-C stops them all; whatever
exits meanwhile (a service, the embedded PostgreSQL or nats-server) is started again (``shared.infra.supervisor``)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from types import FrameType

from shared.cli.connection import write_env_file
from shared.cli.demo import play_demo
from shared.eventstore.migrate import apply_migrations
from shared.infra.local import start_infra
from shared.infra.ports import free_port, preferred_port
from shared.infra.processes import SERVICES, ServiceProcess
from shared.infra.supervisor import supervising

PORTS = {"gateway": 8080, "standings": 8081}


class Stop(Exception):
    pass


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise Stop


def up(data_dir: Path, demo: bool = True) -> int:
    data_dir.mkdir(parents=True, exist_ok=True)
    logs = data_dir / "logs"
    logs.mkdir(exist_ok=True)
    print(f"league: starting infrastructure under {data_dir}/ ...", flush=True)
    infra = start_infra(data_dir, durable=True)
    services: list[ServiceProcess] = []
    signal.signal(signal.SIGTERM, _raise_stop)
    try:
        asyncio.run(apply_migrations(infra.database_url))
        env = {"DATABASE_URL": infra.database_url, "NATS_URL": infra.nats_url, "ENVIRONMENT": "dev",
               "DATA_DIR": str(data_dir.resolve())}
        for name in SERVICES:
            port = preferred_port(PORTS[name]) if name in PORTS else free_port()
            service = ServiceProcess(name, env, logs / f"{name}.log", port=port)
            service.start()
            services.append(service)
        for service in services:
            service.wait_healthy()
        urls = {s.name: s.url for s in services}
        write_env_file(data_dir, {"DATABASE_URL": infra.database_url, "NATS_URL": infra.nats_url,
                                  "GATEWAY_URL": urls["gateway"], "STANDINGS_URL": urls["standings"]})
        print_where_to_look(infra.database_url, infra.nats_url, services, logs)
        with supervising([*infra.embedded, *services], say=lambda line: print(line, flush=True)):
            if demo:
                asyncio.run(play_demo(urls["gateway"]))
            print("\nThe league keeps running; Ctrl-C stops everything.", flush=True)
            while True:
                time.sleep(3600)  # until Ctrl-C (KeyboardInterrupt) or SIGTERM (Stop)
    except (KeyboardInterrupt, Stop):
        print("\nleague: stopping ...", flush=True)
    finally:
        (data_dir / "league.env").unlink(missing_ok=True)
        for service in reversed(services):
            service.stop()
        infra.stop()
        print("league: stopped.", flush=True)
    return 0


def print_where_to_look(database_url: str, nats_url: str, services: list[ServiceProcess], logs: Path) -> None:
    print("\nPhantom League is up.", flush=True)
    print(f"  PostgreSQL : {database_url}")
    print(f"  NATS       : {nats_url}")
    for service in services:
        print(f"  {service.name:<11}: {service.url}/healthz   {service.url}/metrics")
    print(f"  logs       : {logs}/<service>.log (structlog JSON)")
    gateway = next(s.url for s in services if s.name == "gateway")
    standings = next(s.url for s in services if s.name == "standings")
    print(f"  dashboard  : {standings}/   (standings feeds under {standings}/v1/)")
    print(f"  players API: {gateway}/openapi.json")
    print("  more bots  : .venv/bin/league bots --game vortex --players 4", flush=True)
