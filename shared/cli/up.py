"""``league up``: the infrastructure, every service as a child process, until Ctrl-C stops them all; whatever
exits meanwhile (a service, the embedded PostgreSQL or nats-server) is started again (``shared.infra.supervisor``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from shared.cli.connection import write_env_file
from shared.cli.demo import play_demo
from shared.cli.demo_record import interrupted_demo
from shared.cli.interrupted import end_interrupted_demo
from shared.cli.league_dir import announce, withdraw
from shared.cli.migrate import prepare_database, services_database_url
from shared.cli.on_path import say_where_league_is
from shared.cli.service_ports import reserve_wanted_ports, service_ports
from shared.cli.stopping import Stop, hold_signals, run_until_stopped, stop_on_signals
from shared.infra.local import LocalInfra, start_infra
from shared.infra.processes import SERVICES, ServiceProcess
from shared.infra.supervisor import supervising


def say(line: str) -> None:
    print(line, flush=True)


def up(data_dir: Path, demo: bool = True) -> int:
    data_dir.mkdir(parents=True, exist_ok=True)
    logs = data_dir / "logs"
    logs.mkdir(exist_ok=True)
    print(f"league: starting infrastructure under {data_dir}/ ...", flush=True)
    stop_on_signals()
    reserve_wanted_ports()
    try:
        infra = start_infra(data_dir, durable=True)
    except Stop:
        print("league: stopped.", flush=True)
        return 0
    services: list[ServiceProcess] = []
    try:
        logins = asyncio.run(prepare_database(infra.database_url, infra.secrets_dir))
        env = {"DATABASE_URL": services_database_url(infra.database_url, logins), "NATS_URL": infra.nats_url,
               "SECRETS_DIR": str(infra.secrets_dir.resolve()), "ENVIRONMENT": "dev",
               "DATA_DIR": str(data_dir.resolve())}
        ports = service_ports(SERVICES, say=say)
        for name in SERVICES:
            # The gateway's play page lists games and names from the standings service, as a browser reaches it.
            extra = {"STANDINGS_URL": f"http://127.0.0.1:{ports['standings']}"} if name == "gateway" else {}
            service = ServiceProcess(name, {**env, **extra}, logs / f"{name}.log", port=ports[name])
            service.start()
            services.append(service)
        for service in services:
            service.wait_healthy()
        urls = {s.name: s.url for s in services}
        write_env_file(data_dir, {"DATABASE_URL": env["DATABASE_URL"], "NATS_URL": infra.nats_url,
                                  "SECRETS_DIR": env["SECRETS_DIR"], "GATEWAY_URL": urls["gateway"],
                                  "STANDINGS_URL": urls["standings"]})
        announce(data_dir)
        print_where_to_look(env["DATABASE_URL"], infra, services, logs)
        say_where_league_is()
        with supervising([*infra.embedded, *services], say=say):
            run_until_stopped(end_interrupted_demo(data_dir, infra.database_url, infra.nats_url, say))
            if demo:
                run_until_stopped(play_demo(urls["gateway"], data_dir))
            print("\nThe league keeps running; Ctrl-C stops everything.", flush=True)
            while True:
                time.sleep(3600)  # until Ctrl-C (KeyboardInterrupt) or SIGTERM (Stop)
    except (KeyboardInterrupt, Stop):
        print("\nleague: stopping ...", flush=True)
        if interrupted_demo(data_dir) is not None:
            print("league: the demo was cut short: the next `league up` ends the games it left", flush=True)
    finally:
        hold_signals()
        (data_dir / "league.env").unlink(missing_ok=True)
        withdraw(data_dir)
        for service in reversed(services):
            service.stop()
        infra.stop()
        print("league: stopped.", flush=True)
    return 0


def print_where_to_look(database_url: str, infra: LocalInfra, services: list[ServiceProcess], logs: Path) -> None:
    print("\nPhantom League is up.", flush=True)
    print(f"  PostgreSQL : {database_url}")
    print(f"  NATS       : {infra.nats_url}" + (" (closed: nkeys only)" if infra.nats_closed else ""))
    print(f"  secrets    : {infra.secrets_dir}/ (each service's NATS nkey and database login; public.nkey for"
          " dashboards)")
    for service in services:
        print(f"  {service.name:<11}: {service.url}/healthz   {service.url}/metrics")
    print(f"  logs       : {logs}/<service>.log (structlog JSON)")
    gateway = next(s.url for s in services if s.name == "gateway")
    standings = next(s.url for s in services if s.name == "standings")
    print(f"  dashboard  : {standings}/   (standings feeds under {standings}/v1/)")
    print(f"  play page  : {gateway}/play   (register, start a game against bots or people, play it)")
    print(f"  players API: {gateway}/openapi.json")
    print("  more bots  : league bots --game vortex --players 4", flush=True)
