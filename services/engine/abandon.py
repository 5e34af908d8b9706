"""An organiser stops a running game (``league abandon``): the owner appends ``GameAbandoned`` after the game's
last whole action, naming the seats it was waiting for; nobody wins, nothing may follow. The RNG then reveals the
seed, the audit checks everything up to it, standings and matchmaking count it as ended with no winner."""

from __future__ import annotations

from services.engine.handler import Engine
from shared.bus.replies import RejectedError
from shared.eventstore import ConcurrencyError
from shared.logging import get_logger
from shared.messages.engine import AbandonGame, CommandResult, GameAbandoned
from shared.play import layout
from shared.play.table import Table
from shared.refusals import Refusal

REASON_CHARS = 500
log = get_logger(__name__)


def abandonment(table: Table, request: AbandonGame, reason: str) -> GameAbandoned:
    if table.opened is None or table.rules is None:
        raise RejectedError(Refusal.ENGINE_UNKNOWN_GAME, f"no game {request.game_id}")
    if table.ended is not None:
        raise RejectedError(Refusal.ENGINE_GAME_OVER, f"game {request.game_id} has ended: there is nothing to abandon")
    pending = table.seeds_missing() if not table.started else tuple(sorted(table.rules.pending_seats(table.state)))
    return GameAbandoned(game=table.opened.game, reason=reason, by=request.by, pending_seats=pending)


async def abandon(engine: Engine, request: AbandonGame) -> CommandResult:
    reason = request.reason.strip()
    if not reason or len(reason) > REASON_CHARS or not request.by.strip():
        raise RejectedError("engine.abandon.invalid", f"an abandonment needs who orders it and a reason of 1 to "
                                                      f"{REASON_CHARS} characters")
    for _attempt in range(3):
        async with engine.games.hold(request.game_id) as table:
            if table.abandoned is not None:
                return CommandResult(game_id=request.game_id, version=table.version, duplicate=True, ended=True)
            event = abandonment(table, request, reason)
            entry = layout.entry(event, actor=request.by, command_id=f"abandon:{request.game_id}")
            try:
                result = await engine.games.append(table, [entry], table.version)
            except ConcurrencyError:
                continue  # a move came in meanwhile (from another writer): look at the game again
        log.info("engine.abandoned", game_id=request.game_id, by=request.by, reason=reason)
        await engine.announce(await engine.games.table(request.game_id))
        return CommandResult(game_id=request.game_id, version=result.last_version, duplicate=result.duplicate,
                             ended=True)
    raise RejectedError(Refusal.ENGINE_BUSY, f"game {request.game_id} changed too often meanwhile; try again")
