"""The JetStream streams that carry every stored event: public ones in ``EVENTS``, private ones apart (only auditors
read those; ``shared/bus/namespace.py`` says who reads what)."""

from __future__ import annotations

import asyncio
import time

from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig
from nats.js.errors import NotFoundError, ServiceUnavailableError

from shared.bus.namespace import Namespace
from shared.logging import get_logger

DUPLICATE_WINDOW_SECONDS = 30 * 60
"""How long JetStream remembers a Nats-Msg-Id: a relay restarted within it re-publishes nothing twice."""
READY_SECONDS = 60.0
"""How long a clustered JetStream may take to elect its leaders (it answers "unavailable" until then)."""
log = get_logger(__name__)


def events_stream_config(ns: Namespace, *, private: bool = False, replicas: int = 1) -> StreamConfig:
    """``replicas``: copies JetStream keeps on as many servers of a cluster (3 survives the loss of one)."""
    return StreamConfig(
        name=ns.private_events_stream if private else ns.events_stream,
        subjects=[ns.all_private_events if private else ns.all_events],
        retention=RetentionPolicy.LIMITS,
        storage=StorageType.FILE,
        discard=DiscardPolicy.OLD,
        duplicate_window=DUPLICATE_WINDOW_SECONDS,
        num_replicas=replicas,
    )


async def ensure_events_stream(js: JetStreamContext, ns: Namespace, *, private: bool = False,
                               replicas: int = 1) -> None:
    config = events_stream_config(ns, private=private, replicas=replicas)
    assert config.name is not None
    deadline = time.monotonic() + READY_SECONDS
    while True:
        try:
            try:
                await js.stream_info(config.name)
            except NotFoundError:
                await js.add_stream(config)
                return
            await js.update_stream(config)
            return
        except (ServiceUnavailableError, TimeoutError) as error:
            if time.monotonic() > deadline:
                raise
            log.warning("jetstream.not-ready", stream=config.name, error=f"{type(error).__name__}: {error}")
            await asyncio.sleep(0.5)


async def ensure_event_streams(js: JetStreamContext, ns: Namespace, *, replicas: int = 1) -> None:
    await ensure_events_stream(js, ns, replicas=replicas)
    await ensure_events_stream(js, ns, private=True, replicas=replicas)
