from __future__ import annotations

import asyncio

import msgspec
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg

from shared.bus.replies import RejectedError
from shared.bus.rpc import request, serve, stop_serving
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
        await stop_serving([sub])


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
            await stop_serving([sub])
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
        await stop_serving([sub])


async def test_a_stopping_service_answers_what_it_took_and_cancels_what_outlives_one_grace_for_all_subjects(
    nc: Client, infra: RunInfra
) -> None:
    subjects = [infra.namespace.command("calc", verb) for verb in ("slowish", "stuck")]
    taken: list[int] = []
    cancelled: list[int] = []
    both_taken = asyncio.Event()

    async def sleeps_a_tenth_of(req: Add, msg: Msg) -> int:
        taken.append(req.a)
        if len(taken) == 3:
            both_taken.set()
        try:
            await asyncio.sleep(req.a / 10)
        except asyncio.CancelledError:
            cancelled.append(req.a)
            raise
        return req.a

    served = [await serve(nc, subject, Add, sleeps_a_tenth_of, queue="calc") for subject in subjects]
    answered = asyncio.gather(request(nc, subjects[0], Add(3, 0), int),  # 0.3 s: within the grace
                              request(nc, subjects[0], Add(36_000, 0), int, timeout=5),
                              request(nc, subjects[1], Add(36_000, 1), int, timeout=5), return_exceptions=True)
    await asyncio.wait_for(both_taken.wait(), 5)
    started = asyncio.get_running_loop().time()
    await asyncio.wait_for(stop_serving(served, grace=2.0), 10)
    assert 2.0 <= asyncio.get_running_loop().time() - started < 3.5  # one grace for both subjects, not one each
    assert cancelled == [36_000, 36_000]
    quick, *stuck = await answered
    assert quick == 3
    assert all(isinstance(outcome, TimeoutError) for outcome in stuck)  # their callers' own timeouts answer them


async def test_a_stop_cancelled_while_it_waits_cancels_the_requests_it_was_waiting_for(
    nc: Client, infra: RunInfra
) -> None:
    subject = infra.namespace.command("calc", "abandoned")
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def sleeps(req: Add, msg: Msg) -> int:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return 0

    served = await serve(nc, subject, Add, sleeps, queue="calc")
    asked = asyncio.create_task(request(nc, subject, Add(1, 0), int, timeout=5))
    await asyncio.wait_for(started.wait(), 5)
    stopping = asyncio.create_task(stop_serving([served], grace=60))
    await asyncio.sleep(0.1)
    stopping.cancel()  # the whole service stops meanwhile (a rebalance's stop cut short by SIGTERM)
    with pytest.raises(asyncio.CancelledError):
        await stopping
    await asyncio.wait_for(cancelled.wait(), 5)
    asked.cancel()
