from __future__ import annotations

from aiohttp import web

from services.gateway.changes import GameChanges
from services.gateway.engine_client import EngineClient
from services.gateway.matchmaking_client import MatchmakingClient

ENGINE_CLIENT = web.AppKey("engine_client", EngineClient)
MATCHMAKING_CLIENT = web.AppKey("matchmaking_client", MatchmakingClient)
GAME_CHANGES = web.AppKey("game_changes", GameChanges)
