"""What a service cannot reach is named as such, wherever it surfaces: the answer is "try again", never "we failed".
Over HTTP it is a 503 with Retry-After (``shared.http.outages``); over NATS a ``Rejected`` with one of these codes
(``shared.bus.rpc``), which the gateway turns into the same 503."""

from __future__ import annotations

import asyncpg
from nats import errors as nats_errors

from shared.refusals import Refusal

NO_RESPONDERS = Refusal.SERVICE_UNAVAILABLE
BUS_DOWN_CODE = Refusal.BUS_UNAVAILABLE
STORE_DOWN_CODE = Refusal.STORE_UNAVAILABLE
CODES = frozenset({NO_RESPONDERS, BUS_DOWN_CODE, STORE_DOWN_CODE})
BUS_DOWN: tuple[type[BaseException], ...] = (
    nats_errors.ConnectionClosedError, nats_errors.ConnectionReconnectingError, nats_errors.StaleConnectionError,
    nats_errors.OutboundBufferLimitError, nats_errors.ConnectionDrainingError, nats_errors.NoServersError)
STORE_DOWN: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.TooManyConnectionsError, ConnectionError)
"""``ConnectionError`` is the OS's word for a refused or reset connection: PostgreSQL's, as only the store opens
connections while a request is handled (nats-py reconnects in the background)."""
CLOSED_CONNECTION = "connection is closed"
LEFT_MID_ANSWER = "cannot switch to state"


def unavailable(error: BaseException) -> tuple[str, str] | None:
    """(code, message) when ``error`` says a service, NATS or PostgreSQL cannot be reached now; else None."""
    if isinstance(error, TimeoutError):
        return None  # nats-py's TimeoutError is an OSError too: a timeout is the caller's to answer
    if isinstance(error, nats_errors.NoRespondersError):
        return NO_RESPONDERS, "the service for this request is not answering now (it may be restarting); try again"
    if isinstance(error, BUS_DOWN):
        return BUS_DOWN_CODE, f"the league's message bus is not reachable now ({type(error).__name__}); try again"
    if isinstance(error, STORE_DOWN) or _closed_under_us(error) or _left_mid_answer(error):
        return STORE_DOWN_CODE, f"the league's database is not reachable now ({type(error).__name__}); try again"
    return None


def _closed_under_us(error: BaseException) -> bool:
    """A pooled connection that PostgreSQL dropped after the pool handed it out, before the query was sent: asyncpg
    says so with a plain InterfaceError (its other InterfaceErrors are the caller's mistakes)."""
    return isinstance(error, asyncpg.InterfaceError) and str(error) == CLOSED_CONNECTION


def _left_mid_answer(error: BaseException) -> bool:
    """A pooled connection that an earlier query left waiting for the rest of PostgreSQL's answer when PostgreSQL
    went away (seen once while PostgreSQL was killed with -9 and started again): asyncpg refuses the next query with
    an InternalClientError before it sends the query to run, and aborts the connection: the pool opens a new one and the
    same request can be sent again."""
    return isinstance(error, asyncpg.InternalClientError) and str(error).startswith(LEFT_MID_ANSWER)
