"""A refusal's code and its HTTP status are stated once (shared.refusals); the gateway answers with that status."""

from __future__ import annotations

from shared.bus.replies import RejectedError
from shared.refusals import RULE_BROKEN, Refusal, status_of


def test_each_refusal_is_its_own_code_and_no_code_is_stated_twice() -> None:
    assert len({refusal.value for refusal in Refusal}) == len(Refusal.__members__)  # a repeated code is an alias
    code: str = "engine.game-over"  # as a reply decoded from the bus carries it
    assert Refusal.ENGINE_GAME_OVER == code and f"{Refusal.ENGINE_GAME_OVER}" == code


def test_a_refusal_code_answers_its_status_and_a_broken_rule_answers_422() -> None:
    assert status_of("engine.game-over") == 409 and status_of("engine.busy") == 503
    assert status_of("internal") == 502 and status_of("bad-request") == 400
    assert status_of("poti.trade.same-type") == RULE_BROKEN == 422


def test_a_rejection_raised_with_a_refusal_carries_its_code_as_a_plain_string() -> None:
    error = RejectedError(Refusal.ENGINE_BUSY, "try again")
    assert type(error.code) is str and error.code == "engine.busy" and str(error) == "engine.busy: try again"
