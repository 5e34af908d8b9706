from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web

from services.standings import generations
from services.standings.http import errors
from services.standings.hub import Hub
from services.standings.keys import HUB, LAG
from services.standings.lag import Lag
from services.standings.live import follow
from services.standings.routes import add_routes
from services.standings.settings import StandingsSettings
from shared.http.errors import last_resort
from shared.http.outages import outages
from shared.service.app import background, base_app, use_nats, use_store
from shared.service.keys import METRICS, POOL

MIGRATIONS = Path(__file__).parent / "migrations"
WEB = Path(__file__).parent / "web"


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(WEB / "index.html")


async def tables_ctx(app: web.Application) -> AsyncIterator[None]:
    async with app[POOL].acquire() as conn:
        await generations.bootstrap(conn)
    yield


def build(settings: StandingsSettings) -> web.Application:
    app = base_app("standings", settings)
    app.middlewares.append(last_resort)
    app.middlewares.append(outages)
    app.middlewares.append(errors)
    use_store(app, settings, {"standings": MIGRATIONS})
    use_nats(app, settings)
    app.cleanup_ctx.append(tables_ctx)
    app[HUB] = Hub()
    app[LAG] = Lag(app[METRICS])
    add_routes(app)
    app.router.add_get("/", index)
    app.router.add_static("/web/", WEB)

    async def measure_lag(app: web.Application) -> None:
        await app[LAG].measure(app)

    background(app, "projections", follow)
    background(app, "lag", measure_lag)
    return app
