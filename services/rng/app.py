from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nats.aio.msg import Msg
from prometheus_client import Gauge

from services.rng.dealer import Dealer
from services.rng.notary import Notary
from services.rng.revealer import reveal_ended_games
from services.rng.sealing import Sealer
from services.rng.settings import RngSettings
from shared.bus.rpc import serve, stop_serving
from shared.keyfiles import key_from
from shared.messages.rng import (
    AddClientSeed,
    BlocksAhead,
    BlocksAnswers,
    Commitment,
    Commitments,
    CreateSeed,
    CreateSeeds,
    DrawAnswers,
    DrawNumbers,
)
from shared.service.app import background, base_app, use_nats, use_store
from shared.service.keys import HANDLER_METRICS, METRICS, NAMESPACE, NATS, POOL, STORE

DEALER = web.AppKey("dealer", Dealer)
NOTARY = web.AppKey("notary", Notary)
MIGRATIONS = Path(__file__).parent / "migrations"


def build(settings: RngSettings) -> web.Application:
    seed_key = key_from(settings.rng_seed_key, "RNG_SEED_KEY", settings.environment, settings.data_dir)
    engine_key = key_from(settings.rng_engine_key, "RNG_ENGINE_KEY", settings.environment, settings.data_dir)
    notary_key = Ed25519PrivateKey.from_private_bytes(
        key_from(settings.notary_key, "NOTARY_KEY", settings.environment, settings.data_dir))
    app = base_app("rng", settings)
    use_store(app, settings, {"rng": MIGRATIONS})
    use_nats(app, settings)

    async def dealer_ctx(app: web.Application) -> AsyncIterator[None]:
        dealer = app[DEALER] = Dealer(app[STORE], app[POOL], Sealer(seed_key), engine_key)
        nc, ns = app[NATS], app[NAMESPACE]

        async def create(request: CreateSeed, msg: Msg) -> Commitment:
            return await dealer.create(request)

        async def create_many(request: CreateSeeds, msg: Msg) -> Commitments:
            return await dealer.create_many(request)

        async def client_seed(request: AddClientSeed, msg: Msg) -> Commitment:
            return await dealer.add_client_seed(request)

        async def draw(request: DrawNumbers, msg: Msg) -> DrawAnswers:
            return await dealer.draw(request)

        async def blocks(request: BlocksAhead, msg: Msg) -> BlocksAnswers:
            return await dealer.blocks(request)

        subscriptions = [
            await serve(nc, ns.command("rng", "create"), CreateSeed, create, queue="rng",
                        metrics=app[HANDLER_METRICS].subject("rng.create")),
            await serve(nc, ns.command("rng", "create_many"), CreateSeeds, create_many, queue="rng",
                        metrics=app[HANDLER_METRICS].subject("rng.create_many")),
            await serve(nc, ns.command("rng", "client_seed"), AddClientSeed, client_seed, queue="rng",
                        metrics=app[HANDLER_METRICS].subject("rng.client_seed")),
            await serve(nc, ns.command("rng", "draws"), DrawNumbers, draw, queue="rng",
                        metrics=app[HANDLER_METRICS].subject("rng.draws")),
            await serve(nc, ns.command("rng", "blocks"), BlocksAhead, blocks, queue="rng",
                        metrics=app[HANDLER_METRICS].subject("rng.blocks")),
        ]
        yield
        await stop_serving(subscriptions)

    async def revealer(app: web.Application) -> None:
        await reveal_ended_games(app[STORE], app[DEALER])

    async def notary_ctx(app: web.Application) -> AsyncIterator[None]:
        notary = app[NOTARY] = Notary(app[STORE], notary_key, every_events=settings.notary_events,
                                      every_seconds=settings.notary_seconds)
        Gauge("notary_checkpoints_signed", "the number of the last signed checkpoint of the log",
              registry=app[METRICS]).set_function(lambda: notary.signed)
        Gauge("notary_events_unsigned", "events read since the last signed checkpoint",
              registry=app[METRICS]).set_function(lambda: notary.unsigned)
        yield

    async def sign_checkpoints(app: web.Application) -> None:
        await app[NOTARY].run()

    app.cleanup_ctx.append(dealer_ctx)
    app.cleanup_ctx.append(notary_ctx)
    background(app, "revealer", revealer)
    background(app, "notary", sign_checkpoints)
    return app
