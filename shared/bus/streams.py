"""The JetStream streams that carry every stored event: public ones in ``EVENTS``, private ones apart (only auditors
read those; ``shared/bus/namespace.py`` says who reads what)."""

from __future__ import annotations

from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig
from nats.js.errors import NotFoundError

from shared.bus.namespace import Namespace

DUPLICATE_WINDOW_SECONDS = 30 * 60
"""How long JetStream remembers a Nats-Msg-Id: a relay restarted within it re-publishes nothing twice."""


def events_stream_config(ns: Namespace, *, private: bool = False) -> StreamConfig:
    return StreamConfig(
        name=ns.private_events_stream if private else ns.events_stream,
        subjects=[ns.all_private_events if private else ns.all_events],
        retention=RetentionPolicy.LIMITS,
        storage=StorageType.FILE,
        discard=DiscardPolicy.OLD,
        duplicate_window=DUPLICATE_WINDOW_SECONDS,
    )


async def ensure_events_stream(js: JetStreamContext, ns: Namespace, *, private: bool = False) -> None:
    config = events_stream_config(ns, private=private)
    assert config.name is not None
    try:
        await js.stream_info(config.name)
    except NotFoundError:
        await js.add_stream(config)
        return
    await js.update_stream(config)


async def ensure_event_streams(js: JetStreamContext, ns: Namespace) -> None:
    await ensure_events_stream(js, ns)
    await ensure_events_stream(js, ns, private=True)
