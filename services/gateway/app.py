from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web

from services.contract.asyncapi import add_asyncapi_route
from services.gateway.audit_routes import add_audit_routes
from services.gateway.auth import KNOWN_TOKENS, KnownTokens
from services.gateway.body import storable_text
from services.gateway.changes import GameChanges
from services.gateway.engine_client import EngineClient
from services.gateway.errors import json_errors
from services.gateway.keys import ENGINE_CLIENT, GAME_CHANGES, MATCHMAKING_CLIENT
from services.gateway.matchmaking_client import MatchmakingClient
from services.gateway.openapi import add_openapi_route
from services.gateway.revocations import REVOCATIONS, Revocations
from services.gateway.routes_bundle import add_bundle_routes
from services.gateway.routes_games import add_game_routes
from services.gateway.routes_live import add_live_routes
from services.gateway.routes_play import add_play_routes
from services.gateway.routes_players import add_player_routes
from services.gateway.routes_tokens import add_token_routes
from services.gateway.routes_tournaments import add_tournament_routes
from services.gateway.settings import GatewaySettings
from shared.http.errors import last_resort
from shared.http.outages import outages
from shared.service.app import background, base_app, use_nats, use_store
from shared.service.keys import NAMESPACE, NATS, POOL
from shared.service.serving import body_deadline

MIGRATIONS = Path(__file__).parent / "migrations"


def build(settings: GatewaySettings) -> web.Application:
    app = base_app("gateway", settings, max_body_bytes=settings.max_body_bytes)
    app[KNOWN_TOKENS] = KnownTokens(settings.token_recheck_seconds)
    app.middlewares.append(last_resort)
    app.middlewares.append(outages)
    app.middlewares.append(json_errors)
    app.middlewares.append(body_deadline(settings.http_body_seconds))
    app.middlewares.append(storable_text)
    use_store(app, settings, {"gateway": MIGRATIONS})
    use_nats(app, settings)

    async def engine_ctx(app: web.Application) -> AsyncIterator[None]:
        app[ENGINE_CLIENT] = EngineClient(app[NATS], app[NAMESPACE], settings.engine_timeout)
        app[MATCHMAKING_CLIENT] = MatchmakingClient(app[NATS], app[NAMESPACE], settings.engine_timeout)
        app[GAME_CHANGES] = GameChanges(app[NATS], app[NAMESPACE])
        revocations = app[REVOCATIONS] = Revocations(app[NATS], app[NAMESPACE], app[KNOWN_TOKENS])
        await revocations.start()
        yield
        await revocations.close()

    async def reconnects(app: web.Application) -> None:
        await app[GAME_CHANGES].follow_reconnects()

    app.cleanup_ctx.append(engine_ctx)
    async def forget_tokens_after_reconnects(app: web.Application) -> None:
        await app[REVOCATIONS].follow_reconnects()

    async def recheck_tokens(app: web.Application) -> None:
        await app[KNOWN_TOKENS].keep_checked(app[POOL])

    background(app, "live-reconnects", reconnects)
    background(app, "token-reconnects", forget_tokens_after_reconnects)
    background(app, "token-rechecks", recheck_tokens)
    add_player_routes(app)
    add_token_routes(app)
    add_game_routes(app)
    add_live_routes(app)
    add_tournament_routes(app)
    add_audit_routes(app)
    add_bundle_routes(app)
    add_play_routes(app)
    add_openapi_route(app)
    add_asyncapi_route(app)
    return app
