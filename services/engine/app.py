from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web
from nats.aio.msg import Msg
from prometheus_client import Counter, Gauge

from services.engine.autoplay import Autoplay
from services.engine.handler import Engine
from services.engine.rng_client import RngClient
from services.engine.settings import EngineSettings
from shared.bus.rpc import serve
from shared.keyfiles import key_from
from shared.messages.engine import (
    CommandResult,
    CreateGame,
    EngineRequest,
    GameView,
    GetLegal,
    GetView,
    GiveClientSeed,
    LegalCommands,
    PlayCommand,
)
from shared.service.app import background, base_app, use_nats, use_store
from shared.service.keys import METRICS, NAMESPACE, NATS, POOL, STORE

ENGINE = web.AppKey("engine", Engine)
AUTOPLAY = web.AppKey("autoplay", Autoplay)
MIGRATIONS = Path(__file__).parent / "migrations"


def build(settings: EngineSettings) -> web.Application:
    engine_key = key_from(settings.rng_engine_key, "RNG_ENGINE_KEY", settings.environment, settings.data_dir)
    app = base_app("engine", settings)
    use_store(app, settings, {"engine": MIGRATIONS})
    use_nats(app, settings)
    handled = Counter("engine_requests", "engine requests by kind", ["kind"], registry=app[METRICS])

    async def engine_ctx(app: web.Application) -> AsyncIterator[None]:
        nc, ns = app[NATS], app[NAMESPACE]
        engine = app[ENGINE] = Engine(app[STORE], app[POOL], RngClient(nc, ns, engine_key))
        autoplay = app[AUTOPLAY] = Autoplay(engine)
        Gauge("engine_conflicts", "appends that lost a race to another writer and were decided again",
              registry=app[METRICS]).set_function(lambda: engine.conflicts)
        Gauge("engine_lock_waits", "commands that waited for another replica's command on the same game",
              registry=app[METRICS]).set_function(lambda: engine.locks.waits)

        async def command(request: EngineRequest, msg: Msg) -> CommandResult:
            match request:
                case CreateGame():
                    handled.labels("create").inc()
                    result = await engine.create(request)
                    if request.turn_seconds or result.seeding:
                        autoplay.timed_games.add(request.game_id)
                    bots = any(request.bots)
                case PlayCommand():
                    handled.labels("command").inc()
                    result = await engine.play(request)
                    bots = engine.has_bot_seats(result.game_id)
                case GiveClientSeed():
                    handled.labels("client_seed").inc()
                    result = await engine.give_client_seed(request)
                    bots = engine.has_bot_seats(result.game_id)
            if bots and not result.ended:
                autoplay.poke(result.game_id)
            return result

        async def view(request: GetView, msg: Msg) -> GameView:
            handled.labels("view").inc()
            return await engine.view(request)

        async def legal(request: GetLegal, msg: Msg) -> LegalCommands:
            handled.labels("legal").inc()
            return await engine.legal(request)

        subscriptions = [
            await serve(nc, ns.command("engine", "command"), EngineRequest, command, queue="engine"),  # type: ignore[arg-type]
            await serve(nc, ns.command("engine", "view"), GetView, view, queue="engine"),
            await serve(nc, ns.command("engine", "legal"), GetLegal, legal, queue="engine"),
        ]
        yield
        for subscription in subscriptions:
            await subscription.unsubscribe()
        await autoplay.close()

    async def timers(app: web.Application) -> None:
        await app[AUTOPLAY].watch(rescan_seconds=settings.rescan_seconds)

    app.cleanup_ctx.append(engine_ctx)
    background(app, "turn-timers", timers)
    return app
