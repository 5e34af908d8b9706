"""Requests about one game, sent to the engine replica that owns its partition.

While a partition changes hands (a replica joins, leaves or dies) nobody may answer it for a moment: nats-server
says "no responders" at once, or the old owner refuses with ``engine.not-owner``. Such a request is sent again
with a short back-off until ``timeout`` runs out, and a read that got no answer is asked again; any other answer is
final."""

from __future__ import annotations

import asyncio
import time
from typing import Any, TypeVar

from nats.aio.client import Client
from nats.errors import NoRespondersError

from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.refusals import Refusal

Resp = TypeVar("Resp")
NOT_OWNER = Refusal.ENGINE_NOT_OWNER
FIRST_BACKOFF = 0.02
MAX_BACKOFF = 0.5
READS = frozenset({"view", "legal"})
READ_ATTEMPT_SECONDS = 2.0
"""A read whose replica died while answering is asked again after this long (a command is not: it waits its whole
time, since the replica may be busy rather than gone)."""


async def ask_engine(nc: Client, ns: Namespace, game_id: str, verb: str, payload: Any, reply_type: type[Resp], *,
                     timeout: float = 5.0) -> Resp:
    deadline = time.monotonic() + timeout
    backoff = FIRST_BACKOFF
    while True:
        left = deadline - time.monotonic()
        attempt = min(left, READ_ATTEMPT_SECONDS) if verb in READS else left
        try:
            return await request(nc, ns.engine(game_id, verb), payload, reply_type, timeout=max(attempt, 0.01))
        except TimeoutError:
            if verb not in READS or time.monotonic() + backoff >= deadline:
                raise
        except NoRespondersError:
            if time.monotonic() + backoff >= deadline:
                raise RejectedError(Refusal.ENGINE_UNAVAILABLE,
                                    f"no engine replica owns the partition of {game_id} now; try again") from None
        except RejectedError as error:
            if error.code != NOT_OWNER or time.monotonic() + backoff >= deadline:
                raise
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, MAX_BACKOFF)
