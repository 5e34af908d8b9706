from __future__ import annotations

from aiohttp import web

from services.standings.hub import Hub
from services.standings.lag import Lag

HUB = web.AppKey("standings_hub", Hub)
LAG = web.AppKey("standings_lag", Lag)
