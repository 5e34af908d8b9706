"""``league replay --try``: a fork of the folded game through the same rules, real draws while they fit."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec

from shared.cli.replay import steps
from shared.cli.whatif import fork, report
from shared.eventstore import RecordedEvent
from shared.messages.engine import CommandAccepted
from shared.messages.stored import loaded
from tests.unit.cli.streams import play


def next_command(events: list[RecordedEvent], after: int) -> dict[str, Any]:
    head = next(e for e in events if e.version > after and e.type == CommandAccepted.__struct_config__.tag)
    accepted = loaded(head)
    assert isinstance(accepted, CommandAccepted)
    command: dict[str, Any] = json.loads(bytes(accepted.command))
    return command


def test_trying_what_really_happened_gives_what_really_happened_with_the_recorded_draws() -> None:
    events = play("hockeydice", 2, 12)
    at = next(v for v in steps(events)[1:-1] if next_command(events, v)["type"] == "hockeydice.Roll")
    w = fork(events, "hockeydice-test", at, json.dumps(next_command(events, at)), None, random.Random(0))
    assert w.real is not None and w.tried.refused is None
    assert w.tried.events == w.real.events and w.tried.draws == w.real.draws
    assert w.tried.draws and all(d.source.startswith("recorded #") for d in w.tried.draws)


def test_a_fork_needing_draws_the_game_never_made_gets_fresh_ones_labelled_so() -> None:
    events = play("hockeydice", 2, 6)
    last = steps(events)[-1]
    w = fork(events, "hockeydice-test", last, '{"type": "Roll"}', 0, random.Random(0))
    assert w.real is None and w.tried.refused is None
    assert w.tried.draws and all(d.source == "FRESH" for d in w.tried.draws)
    text = "\n".join(report(w))
    assert "FRESH" in text and "nothing is written" in text and "nothing more, the stream ends here" in text


def test_another_card_is_tried_from_the_same_position_beside_the_one_really_played() -> None:
    events = play("phantoms", 2, 40, {"edition": "poti"})
    trade_at = None
    for at in steps(events)[1:]:
        try:
            command = next_command(events, at)
        except StopIteration:
            break
        if command["type"] == "phantoms.ChooseCard":
            trade_at = at
            break
    assert trade_at is not None
    seat = command["seat"]
    hand = next_hand(events, trade_at, seat)
    other = next(c for c in hand if c != command["card"])
    w = fork(events, "phantoms-test", trade_at, json.dumps({"type": "ChooseCard", "card": other}), seat,
             random.Random(0))
    assert w.tried.refused is None and w.tried.command.card == other
    assert w.real is not None and w.real.command.card == command["card"]


def next_hand(events: list[RecordedEvent], at: int, seat: int) -> list[str]:
    from shared.play.table import Table

    table = Table("phantoms-test").apply_all([e for e in events if e.version <= at])
    game = table.state.game
    return list(game.hands[game.side(seat)])


def test_a_refused_try_says_the_rule_and_writes_nothing() -> None:
    events = play("vortex", 2, 5)
    before = [msgspec.json.encode(e) for e in events]
    at = steps(events)[1]
    w = fork(events, "vortex-test", at, '{"type": "vortex.TryVortex"}', None, random.Random(0))
    assert w.tried.refused is not None and w.tried.refused.code.startswith("vortex.")
    assert "REFUSED" in "\n".join(report(w))
    assert [msgspec.json.encode(e) for e in events] == before


def test_a_fork_inside_an_action_starts_after_the_last_whole_action() -> None:
    events = play("vortex", 2, 5)
    at = steps(events)[2]
    w = fork(events, "vortex-test", at + 1, json.dumps(next_command(events, at)), None, random.Random(0))
    assert w.at == at and "falls inside an action" in "\n".join(report(w))


def test_recorded_draws_are_used_while_they_answer_the_same_request_then_every_draw_is_fresh() -> None:
    from shared.games.draws import DiceRequest, Draw, RangeRequest
    from shared.scenario.draws import SourcedDraws

    one, two = DiceRequest(6, 1), DiceRequest(6, 2)
    draws = SourcedDraws([(Draw(one, (3,)), "recorded #5"), (Draw(one, (4,)), "recorded #6"),
                          (Draw(two, (1, 1)), "recorded #7")], random.Random(0))
    assert draws.take(one) == (3,)
    draws.take(RangeRequest(0, 9))
    draws.take(two)
    assert [d.source for d in draws.sourced] == ["recorded #5", "FRESH", "FRESH"]
