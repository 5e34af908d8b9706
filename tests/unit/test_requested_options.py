"""A request's game options are decoded, or refused, the same way wherever a game is asked for."""

from __future__ import annotations

import msgspec
import pytest

from shared.bus.replies import RejectedError
from shared.games.vortex.options import Options
from shared.messages.games import requested_options


def test_options_the_game_takes_are_decoded_as_its_options() -> None:
    assert requested_options("vortex", msgspec.Raw(b'{"max_rounds": 3}'), "queue.invalid") == Options(max_rounds=3)


def test_an_unknown_game_is_refused_with_the_callers_code() -> None:
    with pytest.raises(RejectedError) as refused:
        requested_options("chess", msgspec.Raw(b"{}"), "engine.create.invalid", "engine.create.options")
    assert refused.value.code == "engine.create.invalid" and "unknown game 'chess'" in refused.value.message


@pytest.mark.parametrize(("options_code", "code"), [
    (None, "queue.invalid"),
    ("engine.create.options", "engine.create.options"),
])
def test_options_the_game_does_not_take_are_refused_naming_the_game(options_code: str | None, code: str) -> None:
    with pytest.raises(RejectedError) as refused:
        requested_options("vortex", msgspec.Raw(b'{"max_rounds": "many"}'), "queue.invalid", options_code)
    assert refused.value.code == code and refused.value.message.startswith("options for vortex: ")
