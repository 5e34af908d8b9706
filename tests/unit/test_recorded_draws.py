"""``RecordedDraws``: the recorded draws first, then what ``more`` answers at once, else ``DrawsExhausted``."""

from __future__ import annotations

import pytest

from shared.games.draws import DiceRequest, Draw, DrawMismatch, DrawRequest, DrawsExhausted, RecordedDraws, roll


def test_recorded_draws_come_first_then_those_more_answers_in_the_same_run() -> None:
    asked: list[DrawRequest] = []

    def more(request: DrawRequest) -> tuple[int, ...] | None:
        asked.append(request)
        return (6,) * request.count if isinstance(request, DiceRequest) else None

    draws = RecordedDraws([Draw(DiceRequest(6, 2), (1, 2))], more=more)
    assert roll(draws, 6, 2) == (1, 2) and asked == []
    assert roll(draws, 6, 3) == (6, 6, 6) and asked == [DiceRequest(6, 3)]
    assert draws.used == [Draw(DiceRequest(6, 2), (1, 2)), Draw(DiceRequest(6, 3), (6, 6, 6))]


def test_a_draw_neither_recorded_nor_at_hand_names_its_request() -> None:
    draws = RecordedDraws([], more=lambda request: None)
    with pytest.raises(DrawsExhausted) as raised:
        roll(draws, 6, 1)
    assert raised.value.request == DiceRequest(6, 1) and draws.used == []


def test_a_recorded_draw_for_another_request_is_a_mismatch_even_with_more_at_hand() -> None:
    draws = RecordedDraws([Draw(DiceRequest(6, 1), (4,))], more=lambda request: (1,))
    with pytest.raises(DrawMismatch):
        roll(draws, 6, 2)
