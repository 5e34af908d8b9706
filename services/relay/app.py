from __future__ import annotations

from collections.abc import AsyncIterator

from aiohttp import web
from prometheus_client import Gauge

from services.relay.lag import RelayLag
from services.relay.relay import Relay
from services.relay.settings import RelaySettings
from shared.bus.acked_publish import AckedPublisher
from shared.bus.streams import ensure_event_streams
from shared.service.app import add_health_check, background, base_app, use_nats, use_store
from shared.service.keys import JETSTREAM, METRICS, NAMESPACE, NATS, STORE

RELAY = web.AppKey("relay", Relay)
LAG = web.AppKey("relay_lag", RelayLag)


def build(settings: RelaySettings) -> web.Application:
    app = base_app("relay", settings)
    use_store(app, settings)
    use_nats(app, settings)

    async def relay_ctx(app: web.Application) -> AsyncIterator[None]:
        await ensure_event_streams(app[JETSTREAM], app[NAMESPACE], replicas=settings.jetstream_replicas)
        publisher = AckedPublisher(app[NATS])
        await publisher.start()
        relay = app[RELAY] = Relay(app[STORE], publisher, app[NAMESPACE], batch=settings.relay_batch,
                                   ack_timeout=settings.relay_ack_timeout, checkpoint=settings.relay_checkpoint)
        registry = app[METRICS]
        Gauge("relay_events_published", "events published since start", registry=registry).set_function(
            lambda: relay.published)
        Gauge("relay_messages_published", "JetStream messages published since start (one a stream and transaction)",
              registry=registry).set_function(lambda: relay.messages)
        Gauge("relay_last_position", "position of the last event published", registry=registry).set_function(
            lambda: relay.last_position)
        Gauge("relay_ack_timeouts", "batches JetStream did not acknowledge in time (each restarted the relay)",
              registry=registry).set_function(lambda: relay.stalls)
        lag = app[LAG] = RelayLag(app[STORE], registry, checkpoint=settings.relay_checkpoint,
                                  stall_seconds=settings.relay_stall_seconds)
        add_health_check(app, "relay-lag", lag.health)
        yield
        await publisher.close()

    async def run_relay(app: web.Application) -> None:
        await app[RELAY].run()

    async def measure_lag(app: web.Application) -> None:
        await app[LAG].measure()

    app.cleanup_ctx.append(relay_ctx)
    background(app, "relay", run_relay)
    background(app, "relay-lag-measure", measure_lag)
    return app
