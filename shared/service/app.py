"""App factory and lifecycle: resources opened in ``cleanup_ctx``, background work as supervised tasks."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Gauge, Info, generate_latest

from shared.bus.connect import connect
from shared.bus.handler_metrics import HandlerMetrics
from shared.bus.namespace import Namespace
from shared.bus.ping import NatsPing
from shared.bus.wakeups import WakeupPublisher, Wakeups
from shared.config import BusSettings, Settings, StoreSettings, load_settings
from shared.eventstore import EventStore
from shared.eventstore.group_commit import GroupCommit
from shared.eventstore.migrate import EVENTSTORE_MIGRATIONS, apply_migrations
from shared.eventstore.pool import create_pool
from shared.eventstore.read_replica import Reads
from shared.http.correlation import use_correlation
from shared.http.parse_errors import answer_parse_errors_as_json
from shared.http.route_metrics import RouteMetrics, measured
from shared.logging import configure_logging, get_logger
from shared.service.credentials import service_environ
from shared.service.keys import (
    GROUP_COMMIT,
    HANDLER_METRICS,
    HEALTH_CHECKS,
    JETSTREAM,
    METRICS,
    NAMESPACE,
    NATS,
    POOL,
    READS,
    SERVICE_NAME,
    SETTINGS,
    STORE,
    WAKEUPS,
    HealthCheck,
)
from shared.service.serving import ConnectionLimit, serve

S = TypeVar("S", bound=Settings)
log = get_logger(__name__)
POOL_CLOSE_SECONDS = 5


async def healthz(request: web.Request) -> web.Response:
    app = request.app
    problems = {}
    for name, check in app[HEALTH_CHECKS].items():
        try:
            problem = await asyncio.wait_for(check(), 2)
        except Exception as error:  # a failing check is a health answer, not a server error
            problem = f"{type(error).__name__}: {error}"
        if problem:
            problems[name] = problem
    body = {"service": app[SERVICE_NAME], "status": "unhealthy" if problems else "ok", "problems": problems}
    return web.json_response(body, status=503 if problems else 200)


async def metrics(request: web.Request) -> web.Response:
    data = generate_latest(request.app[METRICS])
    return web.Response(body=data, headers={"Content-Type": CONTENT_TYPE_LATEST})


def base_app(name: str, settings: Settings, *, max_body_bytes: int = 256 * 1024) -> web.Application:
    app = web.Application(client_max_size=max_body_bytes)
    app[SERVICE_NAME] = name
    app[SETTINGS] = settings
    app[METRICS] = CollectorRegistry()
    Info("service", "which service this is", registry=app[METRICS]).info({"name": name})
    app.middlewares.append(measured(RouteMetrics(app[METRICS])))
    app[HANDLER_METRICS] = HandlerMetrics(app[METRICS])
    app[HEALTH_CHECKS] = {}
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)
    use_correlation(app)
    return app


def add_health_check(app: web.Application, name: str, check: HealthCheck) -> None:
    app[HEALTH_CHECKS][name] = check


def use_store(app: web.Application, settings: StoreSettings, migrations: dict[str, Path] | None = None) -> None:
    """The event store, after applying its migrations and the service's own (``{"name": folder}``)."""

    async def store_ctx(app: web.Application) -> AsyncIterator[None]:
        await apply_migrations(settings.database_url, {"eventstore": EVENTSTORE_MIGRATIONS, **(migrations or {})})
        pool = await create_pool(settings.database_url, role=settings.database_role or None,
                                 max_size=settings.database_pool_size)
        app[POOL] = pool
        app[STORE] = EventStore(pool)
        measure_pool(app[METRICS], pool)
        replica = None
        if settings.database_read_url:
            replica = await create_pool(settings.database_read_url, role=settings.database_role or None,
                                        min_size=0, max_size=settings.database_pool_size)
        app[READS] = measure_reads(app[METRICS], Reads(pool, replica))

        async def database() -> str | None:
            async with pool.acquire() as conn:
                await conn.fetchval("SELECT 1")
            return None

        add_health_check(app, "database", database)
        await _wire_wakeups(app)
        yield
        for each in (pool, replica) if replica is not None else (pool,):
            try:
                await asyncio.wait_for(each.close(), POOL_CLOSE_SECONDS)
            except TimeoutError:
                log.warning("pool.close.timeout", seconds=POOL_CLOSE_SECONDS)
                each.terminate()

    app.cleanup_ctx.append(store_ctx)


def measure_pool(registry: CollectorRegistry, pool: asyncpg.Pool) -> None:
    Gauge("db_pool_connections", "PostgreSQL connections this process holds open", registry=registry
          ).set_function(pool.get_size)
    Gauge("db_pool_connections_idle", "of those, idle", registry=registry).set_function(pool.get_idle_size)
    Gauge("db_pool_connections_max", "the most it may open (DATABASE_POOL_SIZE)", registry=registry
          ).set_function(pool.get_max_size)


def measure_reads(registry: CollectorRegistry, reads: Reads) -> Reads:
    Gauge("db_reads_from_replica", "reads the streaming replica answered (DATABASE_READ_URL)", registry=registry
          ).set_function(lambda: reads.from_replica)
    Gauge("db_reads_from_primary", "reads that could have gone to a replica and the primary answered (none set, "
          "or it was behind what was already shown, or out of reach)", registry=registry
          ).set_function(lambda: reads.from_primary)
    return reads


def use_nats(app: web.Application, settings: BusSettings) -> None:
    async def nats_ctx(app: web.Application) -> AsyncIterator[None]:
        ns = Namespace(settings.nats_subject_prefix)
        nc = await connect(settings.nats_url, name=app[SERVICE_NAME], nkey_file=settings.nats_nkey_file,
                           inbox_prefix=ns.inbox(app[SERVICE_NAME]))
        app[NATS], app[JETSTREAM], app[NAMESPACE] = nc, nc.jetstream(), ns

        add_health_check(app, "nats", NatsPing(nc).problem)
        await _wire_wakeups(app)
        yield
        await _unwire_wakeups(app)
        await nc.drain()

    app.cleanup_ctx.append(nats_ctx)


PUBLISHER = web.AppKey("wakeup_publisher", WakeupPublisher)


async def _wire_wakeups(app: web.Application) -> None:
    """With both the store and NATS (whichever opens second): every commit through ``app[STORE]`` publishes a
    wake-up, and every ``app[STORE].batches`` reader wakes on anyone's (``app[WAKEUPS]``)."""
    if STORE not in app or NATS not in app or WAKEUPS in app:
        return
    store, nc, ns = app[STORE], app[NATS], app[NAMESPACE]
    publisher = app[PUBLISHER] = WakeupPublisher(nc, ns)
    wakeups = app[WAKEUPS] = await Wakeups.over_nats(nc, ns)
    store.on_commit, store.wakeups = publisher.notify, wakeups
    Gauge("log_wakeups_sent", "wake-ups this process sent to the log's readers after its commits (since start)",
          registry=app[METRICS]).set_function(lambda: publisher.sent)
    Gauge("log_wakeups_received", "wake-ups this process's readers of the log received (since start; none in a"
          " process that reads no log)", registry=app[METRICS]).set_function(lambda: wakeups.received)


async def _unwire_wakeups(app: web.Application) -> None:
    if WAKEUPS not in app:
        return
    store = app[STORE]
    store.on_commit = store.wakeups = None
    await app[PUBLISHER].close()
    await app[WAKEUPS].close()


def use_group_commit(app: web.Application, *, max_streams: int = 256, max_delay: float = 0.0,
                     max_in_flight: int = 2) -> None:
    """``app[GROUP_COMMIT]``: appends of many requests flushed together through ``app[STORE]`` (so each flush also
    publishes the wake-up when NATS is used). Call after ``use_store``; what is queued is flushed at shutdown."""

    async def group_commit_ctx(app: web.Application) -> AsyncIterator[None]:
        async with GroupCommit(app[STORE], max_streams=max_streams, max_delay=max_delay,
                               max_in_flight=max_in_flight) as committer:
            app[GROUP_COMMIT] = committer
            yield

    app.cleanup_ctx.append(group_commit_ctx)


GC_YOUNG_THRESHOLD = 20_000
STEADY_SECONDS = 60.0
"""A background task that failed after running this long restarts at the shortest back-off again."""


def background(
    app: web.Application, name: str, work: Callable[[web.Application], Coroutine[Any, Any, None]]
) -> None:
    """Run ``work`` for the app's lifetime; restart it with back-off when it fails, cancel it at shutdown."""

    async def supervise() -> None:
        delay = 0.2
        while True:
            began = asyncio.get_running_loop().time()
            try:
                await work(app)
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                if asyncio.get_running_loop().time() - began > STEADY_SECONDS:
                    delay = 0.2  # it ran well for a while: a new failure, not the same one again
                log.exception("background.failed", task=name, retry_in=delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def task_ctx(app: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(supervise(), name=name)

        async def running() -> str | None:
            return f"task {name} stopped" if task.done() else None

        add_health_check(app, name, running)
        yield
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

    app.cleanup_ctx.append(task_ctx)


def run_service(name: str, settings_type: type[S], build: Callable[[S], web.Application]) -> None:
    """``python -m services.<name>``: settings from the environment, JSON logs, HTTP, SIGTERM -> clean stop."""
    settings = load_settings(settings_type, service_environ(name, os.environ))
    configure_logging(name, settings.log_level)
    app = build(settings)
    answer_parse_errors_as_json()
    # What was built at start-up (modules, the app) stays: the collector never walks it again. A request makes a few
    # hundred short-lived objects, so a young generation of this size is collected a few times a second, not dozens.
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    limit = ConnectionLimit(settings.http_connections_per_client)
    Gauge("http_clients_connected", "client addresses with a connection open now", registry=app[METRICS]
          ).set_function(lambda: len(limit.open))
    Gauge("http_connections_refused", "connections turned away: their address held too many already",
          registry=app[METRICS]).set_function(lambda: limit.refused)
    log.info("service.start", host=settings.http_host, port=settings.http_port)
    serve(app, host=settings.http_host, port=settings.http_port, header_seconds=settings.http_header_seconds,
          limit=limit)
    log.info("service.stopped")
