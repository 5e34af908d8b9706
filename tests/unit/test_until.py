"""The integration tests' one polling helper: what it returns, and what it says when the wait runs out."""

from __future__ import annotations

import pytest

from tests.integration.helpers import NotYet, until


async def test_it_returns_the_first_true_answer_of_a_coroutine_check() -> None:
    answers = iter([None, NotYet("one"), {"events": 3}])

    async def check() -> object:
        return next(answers)

    assert await until("three events", check, timeout=5) == {"events": 3}


async def test_a_blocking_check_runs_in_a_thread() -> None:
    answers = iter([0, 0, 7])
    assert await until("seven", lambda: next(answers), timeout=5) == 7


async def test_a_wait_that_runs_out_quotes_what_the_check_last_saw() -> None:
    seen = iter(range(1000))

    async def check() -> NotYet:
        return NotYet(f"at {next(seen)} of 10")

    with pytest.raises(AssertionError, match=r"not within 0.3s: ten; last seen: at [1-9]\d* of 10"):
        await until("ten", check, timeout=0.3)
