"""The OpenAPI path parameters that several route modules declare: a game's id and a tournament's."""

from __future__ import annotations

from shared.messages.games import GAMES
from shared.tournaments.decide import TOURNAMENT_ID as TOURNAMENT_ID_PATTERN

GAME_ID = {"name": "game_id", "in": "path", "required": True,
           "schema": {"type": "string", "pattern": rf"^({'|'.join(sorted(GAMES))})-[A-Za-z0-9_-]{{1,200}}$"},
           "description": "<game>-<id>, e.g. vortex-3f2a..."}
TOURNAMENT_ID = {"name": "tournament_id", "in": "path", "required": True,
                 "schema": {"type": "string", "pattern": TOURNAMENT_ID_PATTERN.pattern}}
