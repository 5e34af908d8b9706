"""``league abandon <game> --reason TEXT``: an organiser stops a running game; the engine that owns it records
``engine.GameAbandoned`` (nobody wins; a tournament goes on without it), over NATS like any other request."""

from __future__ import annotations

import getpass
from pathlib import Path

from nats.aio.client import Client

from shared.bus.auth import ADMIN
from shared.bus.engine_requests import ask_engine
from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.cli.connection import connect_as, nats_subject_prefix
from shared.messages.engine import AbandonGame, CommandResult

ASK_SECONDS = 15.0


async def abandon_with(nc: Client, ns: Namespace, game_id: str, reason: str, by: str) -> CommandResult:
    return await ask_engine(nc, ns, game_id, "abandon", AbandonGame(game_id=game_id, reason=reason, by=by),
                            CommandResult, timeout=ASK_SECONDS)


async def abandon_command(data_dir: Path, game_id: str, reason: str) -> int:
    nc = await connect_as(data_dir, ADMIN, "league-abandon")
    try:
        result = await abandon_with(nc, Namespace(nats_subject_prefix(data_dir)), game_id, reason,
                                    f"organiser {getpass.getuser()}")
    except RejectedError as error:
        print(f"league: {game_id} not abandoned: {error.code}: {error.message}")
        return 1
    finally:
        await nc.close()
    if result.duplicate:
        print(f"{game_id} was abandoned already (version {result.version})")
    else:
        print(f"{game_id} abandoned at version {result.version}: nobody wins; `league audit {game_id}` checks it "
              "up to the abandonment")
    return 0
