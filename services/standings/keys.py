from __future__ import annotations

from aiohttp import web

from services.standings.hub import Hub
from services.standings.lag import Lag
from services.standings.timeline import Views
from services.standings.verdicts import Verdicts

HUB = web.AppKey("standings_hub", Hub)
LAG = web.AppKey("standings_lag", Lag)
VIEWS = web.AppKey("standings_replay_views", Views)
VERDICTS = web.AppKey("standings_verdicts", Verdicts)
