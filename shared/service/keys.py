"""Typed keys for what a service's aiohttp app holds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import asyncpg
from aiohttp import web
from nats.aio.client import Client
from nats.js import JetStreamContext
from prometheus_client import CollectorRegistry

from shared.bus.handler_metrics import HandlerMetrics
from shared.bus.namespace import Namespace
from shared.bus.wakeups import Wakeups
from shared.config import Settings
from shared.eventstore import EventStore
from shared.eventstore.group_commit import GroupCommit
from shared.eventstore.read_replica import Reads

HealthCheck = Callable[[], Awaitable[str | None]]
"""Returns None when healthy, else what is wrong."""

SERVICE_NAME = web.AppKey("service_name", str)
SETTINGS = web.AppKey("settings", Settings)
METRICS = web.AppKey("metrics", CollectorRegistry)
HANDLER_METRICS = web.AppKey("handler_metrics", HandlerMetrics)
"""Pass ``app[HANDLER_METRICS].subject(label)`` to ``shared.bus.rpc.serve``: its requests are timed and counted."""
HEALTH_CHECKS = web.AppKey("health_checks", dict[str, HealthCheck])
POOL = web.AppKey("pool", asyncpg.Pool)
STORE = web.AppKey("store", EventStore)
READS = web.AppKey("reads", Reads)
"""Reads the replica (``DATABASE_READ_URL``) may answer, never going backwards; the primary's pool without one."""
NATS = web.AppKey("nats", Client)
JETSTREAM = web.AppKey("jetstream", JetStreamContext)
NAMESPACE = web.AppKey("namespace", Namespace)
WAKEUPS = web.AppKey("wakeups", Wakeups)
"""Set when the app uses both the store and NATS; the store's ``batches`` already waits on it by default."""
GROUP_COMMIT = web.AppKey("group_commit", GroupCommit)
