"""Request/reply over NATS with msgspec types, queue groups, and the correlation id in a header."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import msgspec
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import Error as NatsError

from shared.bus.handler_metrics import SubjectMetrics
from shared.bus.replies import Ok, Rejected, RejectedError
from shared.logging import correlation, correlation_id_or_new, current_correlation_id, get_logger
from shared.messages.nul import json_nul_at, nul_error
from shared.refusals import Refusal
from shared.unavailable import unavailable

Req = TypeVar("Req")
Resp = TypeVar("Resp")
CORRELATION_HEADER = "Correlation-Id"
UPSTREAM_TIMEOUT = Refusal.UPSTREAM_TIMEOUT
MAX_IN_FLIGHT = 512
"""Requests one subscription handles at once; more wait in nats-py's pending queue (its slow-consumer limit)."""
STOP_GRACE_SECONDS = 5.0
"""How long a stopping service waits for the requests it took; those still running then are cancelled (and logged).
A handler waiting on another service that is gone (up to its own timeout, 30 s for matchmaking's engine requests)
would otherwise hold the stop past a supervisor's patience, and be killed with nothing said."""
log = get_logger(__name__)
_encoder = msgspec.json.Encoder()


_reply_decoders: dict[type, msgspec.json.Decoder[Any]] = {}


def _reply_decoder(reply_type: type[Resp]) -> msgspec.json.Decoder[Ok[Resp] | Rejected]:
    """Built once per reply type: ``Ok[T] | Rejected`` made anew per reply cost more than the decoding."""
    decoder = _reply_decoders.get(reply_type)
    if decoder is None:
        decoder = _reply_decoders[reply_type] = msgspec.json.Decoder(Ok[reply_type] | Rejected)  # type: ignore[valid-type]
    return decoder


async def request(
    nc: Client, subject: str, payload: Any, reply_type: type[Resp], *, timeout: float = 5.0
) -> Resp:
    """Send ``payload`` and return the ``Ok`` value; a ``Rejected`` reply raises RejectedError."""
    headers = {}
    if correlation_id := current_correlation_id():
        headers[CORRELATION_HEADER] = correlation_id
    msg = await nc.request(subject, _encoder.encode(payload), timeout=timeout, headers=headers or None)
    reply = _reply_decoder(reply_type).decode(msg.data)
    if isinstance(reply, Rejected):
        raise RejectedError(reply.code, reply.message)
    return reply.value


class Served:
    """A served subject: its subscription and the requests it is handling (``stop_serving`` stops it)."""

    def __init__(self, subscription: Subscription, in_flight: set[asyncio.Task[None]]) -> None:
        self.subscription = subscription
        self.in_flight = in_flight


async def stop_serving(served: Iterable[Served], grace: float = STOP_GRACE_SECONDS) -> None:
    """Stop taking requests on every subject first, then wait for those they took, so a stopping service answers
    what it took: for ``grace`` seconds at most, all subjects together. What is left then is cancelled, its callers'
    own timeouts answer them, and the log names the subjects."""
    served = list(served)
    for one in served:
        try:
            await one.subscription.unsubscribe()
        except NatsError as error:  # the connection is gone (or closing): nothing more can arrive on it
            log.warning("served.unsubscribe.failed", subject=one.subscription.subject,
                        error=f"{type(error).__name__}: {error}")
    taken = {task: one.subscription.subject for one in served for task in one.in_flight}
    if not taken:
        return
    try:
        _, left = await asyncio.wait(taken, timeout=grace)
    except asyncio.CancelledError:  # the whole service is stopping meanwhile: nothing else would wait for these
        for task in taken:
            task.cancel()
        raise
    if left:
        log.warning("served.stop.cancelled", requests=len(left), grace_seconds=grace,
                    subjects=sorted({taken[task] for task in left}))
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)


async def serve(
    nc: Client,
    subject: str,
    request_type: type[Req],
    handler: Callable[[Req, Msg], Awaitable[Any]],
    *,
    queue: str,
    max_in_flight: int = MAX_IN_FLIGHT,
    metrics: SubjectMetrics | None = None,
) -> Served:
    """Answer requests on ``subject`` in queue group ``queue``; replicas share the load. Each request is handled in
    a task of its own (nats-py calls a subscription's callback one message at a time), up to ``max_in_flight`` at
    once; a handler that must keep an order (one game's commands) keeps it itself. A request with a NUL in any
    text is refused (``bad-request``) before the handler sees it: nothing stored could ever hold it. ``metrics``
    times each reply and counts it by its outcome."""
    decoder = msgspec.json.Decoder(request_type)
    slots = asyncio.Semaphore(max_in_flight)
    in_flight: set[asyncio.Task[None]] = set()

    async def handle(msg: Msg) -> None:
        started = time.perf_counter()
        # A request that came without one (a client outside the league) still gets one id for all it causes.
        correlation_id = correlation_id_or_new((msg.headers or {}).get(CORRELATION_HEADER))
        try:
            with correlation(correlation_id, subject=msg.subject):
                reply: Ok[Any] | Rejected
                try:
                    if (path := json_nul_at(msg.data)) is not None:
                        raise RejectedError(Refusal.BAD_REQUEST, nul_error(path))
                    reply = Ok(await handler(decoder.decode(msg.data), msg))
                except msgspec.ValidationError as error:
                    reply = Rejected(Refusal.BAD_REQUEST, str(error))
                except msgspec.DecodeError as error:
                    reply = Rejected(Refusal.BAD_REQUEST, f"malformed JSON: {error}")
                except RejectedError as error:
                    reply = Rejected(error.code, error.message)
                except TimeoutError:  # what this handler asked (another service, the database) did not answer
                    log.warning("request.timeout")
                    reply = Rejected(UPSTREAM_TIMEOUT, "a service this request needs did not answer in time; try again")
                except Exception as error:
                    if (named := unavailable(error)) is not None:  # NATS or PostgreSQL out of reach: try again
                        log.warning("request.unavailable", code=named[0], error=f"{type(error).__name__}: {error}")
                        reply = Rejected(*named)
                    else:
                        log.exception("request.failed")
                        reply = Rejected(Refusal.INTERNAL, "the service failed to handle this request; it was logged")
                if metrics is not None:
                    metrics.done(reply.code if isinstance(reply, Rejected) else "ok", time.perf_counter() - started)
                if msg.reply:
                    data = _encoder.encode(reply)
                    if len(data) > nc.max_payload:
                        data = _encoder.encode(Rejected(Refusal.REPLY_TOO_LARGE,
                                                        f"the answer is {len(data):,} bytes, over"
                                                        f" the {nc.max_payload:,} NATS carries; ask for less"))
                    await msg.respond(data)
        finally:
            slots.release()

    async def on_message(msg: Msg) -> None:
        await slots.acquire()
        task = asyncio.create_task(handle(msg))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)

    return Served(await nc.subscribe(subject, queue=queue, cb=on_message), in_flight)
