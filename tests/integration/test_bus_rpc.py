from __future__ import annotations

import asyncio

import msgspec
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg

from shared.bus.replies import RejectedError
from shared.bus.rpc import request, serve
from shared.logging import correlation
from tests.infra import RunInfra


class Add(msgspec.Struct, frozen=True):
    a: int
    b: int


class Sum(msgspec.Struct, frozen=True):
    total: int
    correlation_id: str | None


async def handler(req: Add, msg: Msg) -> Sum:
    if req.a < 0:
        raise RejectedError("math.negative", "a must not be negative")
    if req.a == 13:
        raise RuntimeError("unlucky")
    return Sum(req.a + req.b, (msg.headers or {}).get("Correlation-Id"))


async def test_typed_request_reply_ok_rejected_and_bad_input(nc: Client, infra: RunInfra) -> None:
    subject = infra.namespace.command("calc", "add")
    sub = await serve(nc, subject, Add, handler, queue="calc")
    try:
        with correlation("corr-42"):
            assert await request(nc, subject, Add(2, 3), Sum) == Sum(5, "corr-42")
        with pytest.raises(RejectedError) as rejected:
            await request(nc, subject, Add(-1, 3), Sum)
        assert (rejected.value.code, rejected.value.message) == ("math.negative", "a must not be negative")
        with pytest.raises(RejectedError) as bad:
            await request(nc, subject, {"a": "two", "b": 3}, Sum)
        assert bad.value.code == "bad-request" and "$.a" in bad.value.message
        raw = await nc.request(subject, b"{not json", timeout=2)
        assert b'"code":"bad-request"' in raw.data
        with pytest.raises(RejectedError) as internal:
            await request(nc, subject, Add(13, 0), Sum)
        assert internal.value.code == "internal"
    finally:
        await sub.unsubscribe()


async def test_replicas_in_a_queue_group_share_requests(nc: Client, infra: RunInfra) -> None:
    subject = infra.namespace.command("calc", "who")
    served: list[str] = []

    def replica(name: str):
        async def handle(req: Add, msg: Msg) -> Sum:
            served.append(name)
            return Sum(req.a, None)

        return handle

    subs = [await serve(nc, subject, Add, replica(n), queue="calc") for n in ("one", "two")]
    try:
        for i in range(60):
            await request(nc, subject, Add(i, 0), Sum)
    finally:
        for sub in subs:
            await sub.unsubscribe()
    assert len(served) == 60
    assert set(served) == {"one", "two"}


async def test_requests_are_answered_concurrently_and_an_answer_too_large_for_nats_is_refused_by_name(
    nc: Client, infra: RunInfra
) -> None:
    subject = infra.namespace.command("calc", "slow")
    both_in = asyncio.Event()
    arrived = 0

    async def slow(req: Add, msg: Msg) -> str:
        nonlocal arrived
        arrived += 1
        if arrived == 2:
            both_in.set()
        await asyncio.wait_for(both_in.wait(), 5)  # handled one at a time, the first would wait in vain
        return "x" * (req.a * nc.max_payload)

    sub = await serve(nc, subject, Add, slow, queue="calc")
    try:
        small, large = await asyncio.gather(request(nc, subject, Add(0, 0), str),
                                            request(nc, subject, Add(2, 0), str), return_exceptions=True)
        assert small == ""
        assert isinstance(large, RejectedError) and large.code == "reply.too-large", large
    finally:
        await sub.unsubscribe()


async def test_a_stopping_server_waits_for_what_it_took_then_cancels_what_outlives_the_grace(
    nc: Client, infra: RunInfra
) -> None:
    subject = infra.namespace.command("calc", "stuck")
    taken = asyncio.Event()
    cancelled: list[int] = []

    async def answers_after(req: Add, msg: Msg) -> int:
        if req.a:
            taken.set()
        try:
            await asyncio.sleep(req.a)
        except asyncio.CancelledError:
            cancelled.append(req.a)
            raise
        return req.a

    sub = await serve(nc, subject, Add, answers_after, queue="calc")
    quick = asyncio.create_task(request(nc, subject, Add(0, 0), int))
    stuck = asyncio.create_task(request(nc, subject, Add(3600, 0), int, timeout=2))
    await asyncio.wait_for(taken.wait(), 5)
    assert await quick == 0
    started = asyncio.get_running_loop().time()
    await sub.unsubscribe(grace=0.3)
    assert asyncio.get_running_loop().time() - started < 2
    assert cancelled == [3600]
    with pytest.raises(TimeoutError):  # the caller's own timeout answers it
        await stuck
