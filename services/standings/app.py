from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web

from services.contract.asyncapi import add_asyncapi_route
from services.standings import generations
from services.standings.cors import public_reads
from services.standings.http import errors
from services.standings.hub import Hub
from services.standings.keys import HUB, LAG, VERDICTS, VIEWS
from services.standings.lag import Lag
from services.standings.live import follow
from services.standings.pages import add_pages
from services.standings.routes import add_routes
from services.standings.routes_directory import add_directory_routes
from services.standings.routes_replay import add_replay_routes
from services.standings.settings import StandingsSettings
from services.standings.timeline import Views
from services.standings.verdicts import Verdicts
from shared.http.errors import last_resort
from shared.http.outages import outages
from shared.service.app import background, base_app, use_nats, use_store
from shared.service.keys import METRICS, POOL

MIGRATIONS = Path(__file__).parent / "migrations"


async def tables_ctx(app: web.Application) -> AsyncIterator[None]:
    async with app[POOL].acquire() as conn:
        await generations.bootstrap(conn)
    yield


def build(settings: StandingsSettings) -> web.Application:
    app = base_app("standings", settings)
    app.middlewares.append(last_resort)
    app.middlewares.append(outages)
    app.middlewares.append(errors)
    app.middlewares.append(public_reads)
    use_store(app, settings, {"standings": MIGRATIONS})
    use_nats(app, settings)
    app.cleanup_ctx.append(tables_ctx)
    app[HUB] = Hub()
    app[LAG] = Lag(app[METRICS])
    app[VIEWS] = Views()
    app[VERDICTS] = Verdicts()
    add_routes(app)
    add_directory_routes(app)
    add_replay_routes(app)
    add_pages(app)
    add_asyncapi_route(app)

    async def measure_lag(app: web.Application) -> None:
        await app[LAG].measure(app)

    background(app, "projections", follow)
    background(app, "lag", measure_lag)
    return app
