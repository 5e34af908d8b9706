from __future__ import annotations

from collections.abc import AsyncIterator

from aiohttp import web
from prometheus_client import Gauge

from services.relay.relay import Relay
from services.relay.settings import RelaySettings
from shared.service.app import background, base_app, use_nats, use_store
from shared.service.keys import JETSTREAM, METRICS, NAMESPACE, STORE

RELAY = web.AppKey("relay", Relay)


def build(settings: RelaySettings) -> web.Application:
    app = base_app("relay", settings)
    use_store(app, settings)
    use_nats(app, settings)

    async def relay_ctx(app: web.Application) -> AsyncIterator[None]:
        relay = app[RELAY] = Relay(app[STORE], app[JETSTREAM], app[NAMESPACE], batch=settings.relay_batch)
        registry = app[METRICS]
        Gauge("relay_events_published", "events published since start", registry=registry).set_function(
            lambda: relay.published)
        Gauge("relay_last_position", "position of the last event published", registry=registry).set_function(
            lambda: relay.last_position)
        yield

    async def run_relay(app: web.Application) -> None:
        await app[RELAY].run()

    app.cleanup_ctx.append(relay_ctx)
    background(app, "relay", run_relay)
    return app
