from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, assert_never

import msgspec
from aiohttp import web
from nats.aio.msg import Msg
from prometheus_client import Counter, Gauge

from services.engine.abandon import abandon
from services.engine.autoplay import Autoplay
from services.engine.games import Games
from services.engine.handler import Engine
from services.engine.partitions import Leases
from services.engine.rng_client import RngClient
from services.engine.settings import EngineSettings
from shared.bus.engine_requests import NOT_OWNER
from shared.bus.partitions import partition_of
from shared.bus.replies import RejectedError
from shared.bus.rpc import Served, serve, stop_serving
from shared.keyfiles import key_from
from shared.messages.engine import (
    AbandonGame,
    CommandResult,
    CreateGame,
    EngineRequest,
    GameChanged,
    GameView,
    GetLegal,
    GetView,
    GiveClientSeed,
    LegalCommands,
    PlayCommand,
)
from shared.service.app import background, base_app, use_group_commit, use_nats, use_store
from shared.service.keys import GROUP_COMMIT, HANDLER_METRICS, METRICS, NAMESPACE, NATS, POOL, STORE

ENGINE = web.AppKey("engine", Engine)
AUTOPLAY = web.AppKey("autoplay", Autoplay)
LEASES = web.AppKey("leases", Leases)
MIGRATIONS = Path(__file__).parent / "migrations"
_encoder = msgspec.json.Encoder()


async def command(engine: Engine, autoplay: Autoplay, request: EngineRequest) -> CommandResult:
    match request:
        case CreateGame():
            result = await engine.create(request)
            if request.turn_seconds or result.seeding:
                autoplay.timed_games.add(request.game_id)
            bots = any(request.bots)
        case PlayCommand():
            result = await engine.play(request)
            bots = engine.has_bot_seats(result.game_id)
        case GiveClientSeed():
            result = await engine.give_client_seed(request)
            bots = engine.has_bot_seats(result.game_id)
        case _:
            assert_never(request)
    if bots and not result.ended:
        autoplay.poke(result.game_id)
    return result


async def view(engine: Engine, _autoplay: Autoplay, request: GetView) -> GameView:
    return await engine.view(request)


async def legal(engine: Engine, _autoplay: Autoplay, request: GetLegal) -> LegalCommands:
    return await engine.legal(request)


async def abandoned(engine: Engine, _autoplay: Autoplay, request: AbandonGame) -> CommandResult:
    return await abandon(engine, request)


Handler = Callable[[Engine, Autoplay, Any], Awaitable[Any]]
HANDLERS: dict[str, tuple[Any, Handler]] = {
    "command": (EngineRequest, command),
    "view": (GetView, view),
    "legal": (GetLegal, legal),
    "abandon": (AbandonGame, abandoned),
}
"""verb -> (request type, handler): what the owner of a partition answers on ``league.engine.p<n>.<verb>``."""
KINDS: dict[type, str] = {CreateGame: "create", GiveClientSeed: "client_seed"}
"""The ``engine_requests`` label of a command that is not a move; anything else is counted by its verb."""


def build(settings: EngineSettings) -> web.Application:
    engine_key = key_from(settings.rng_engine_key, "RNG_ENGINE_KEY", settings.environment, settings.data_dir)
    app = base_app("engine", settings)
    use_store(app, settings, {"engine": MIGRATIONS})
    use_nats(app, settings)
    use_group_commit(app)
    handled = Counter("engine_requests", "engine requests by kind", ["kind"], registry=app[METRICS])

    async def engine_ctx(app: web.Application) -> AsyncIterator[None]:
        nc, ns = app[NATS], app[NAMESPACE]

        async def publish(change: GameChanged) -> None:
            await nc.publish(ns.game_changed(change.game_id), _encoder.encode(change))

        games = Games(app[STORE], app[GROUP_COMMIT])
        engine = app[ENGINE] = Engine(games, app[POOL], RngClient(nc, ns, engine_key), publish,
                                      reconnects=lambda: int(nc.stats["reconnects"]))
        served: dict[int, list[Served]] = {}

        def owns(game_id: str) -> bool:
            return partition_of(game_id) in served

        autoplay = app[AUTOPLAY] = Autoplay(engine, owns)

        # ``labels`` takes a lock and looks the child up: each is looked up once, not per request.
        counted = {request_type: handled.labels(label).inc for request_type, label in KINDS.items()}

        def handler_for(kind: str, handle: Handler) -> Callable[[Any, Msg], Awaitable[Any]]:
            count_verb = handled.labels(kind).inc

            async def on_request(request: Any, _msg: Msg) -> Any:
                if not owns(request.game_id):  # given back a moment ago: the client asks the new owner
                    raise RejectedError(NOT_OWNER, f"this engine replica no longer owns {request.game_id}")
                counted.get(type(request), count_verb)()
                return await handle(engine, autoplay, request)
            return on_request

        async def gained(partition: int) -> None:
            games.drop_partition(partition)  # what this replica knew of it may be old: read it again when asked
            served[partition] = [
                await serve(nc, ns.engine_partition(partition, verb), request_type, handler_for(verb, handle),
                            queue="engine", metrics=app[HANDLER_METRICS].subject(f"engine.{verb}"))
                for verb, (request_type, handle) in HANDLERS.items()]
            autoplay.rescan_due = True

        async def lost(partition: int) -> None:
            await stop_serving(served.pop(partition, []))  # answers what it took first
            await autoplay.forget(partition)
            games.drop_partition(partition)

        leases = app[LEASES] = Leases(settings.database_url, role=settings.database_role or None, gained=gained,
                                      lost=lost, interval=settings.lease_seconds)
        registry = app[METRICS]
        Gauge("engine_conflicts", "appends fenced off because another writer had moved the game (it was read again)",
              registry=registry).set_function(lambda: games.conflicts)
        Gauge("engine_game_loads", "games read from the log because they were not in memory",
              registry=registry).set_function(lambda: games.loads)
        Gauge("engine_draws_answered_ahead", "draws answered from blocks the RNG service handed out ahead",
              registry=registry).set_function(lambda: engine.ahead.answered)
        Gauge("engine_games_in_memory", "games folded in this replica's memory",
              registry=registry).set_function(lambda: len(games))
        Gauge("engine_partitions_owned", "engine partitions this replica owns now",
              registry=registry).set_function(lambda: len(leases.owned))
        Gauge("engine_partitions_taken", "partitions taken since start (at start, when a replica joins or dies)",
              registry=registry).set_function(lambda: leases.handovers)
        Gauge("engine_replicas_seen", "engine replicas this one counted on its last look",
              registry=registry).set_function(lambda: leases.members)
        Gauge("engine_rejections_unwritten", "refused commands waiting to be written to rejected_commands",
              registry=registry).set_function(lambda: engine.rejections.waiting)
        Gauge("engine_rejections_dropped", "refused commands not recorded: too many waited (PostgreSQL away)",
              registry=registry).set_function(lambda: engine.rejections.dropped)

        async def watched(msg: Msg) -> None:
            # Every replica hears it: one that lost the game's partition without knowing yet still publishes.
            games.watch(msg.subject.rpartition(".")[2])

        await nc.subscribe(ns.games_watched, cb=watched)  # dropped with the connection's drain at shutdown
        async with engine.rejections:  # written until the last refusal, after the partitions are given back
            await leases.start()
            yield
            # Every partition's intake stops at once, so the stop waits one grace in all, not one per partition.
            await stop_serving([one for partition in list(served) for one in served.pop(partition)])
            await leases.close()
            await autoplay.close()
            await engine.ahead.close()

    async def timers(app: web.Application) -> None:
        await app[AUTOPLAY].watch(rescan_seconds=settings.rescan_seconds)

    async def keep_leases(app: web.Application) -> None:
        await app[LEASES].run()

    app.cleanup_ctx.append(engine_ctx)
    background(app, "turn-timers", timers)
    background(app, "partition-leases", keep_leases)
    return app
