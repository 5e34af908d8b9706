"""The season's turn loop: opening draft, Trade, Draft, Play A Game and the season play rule."""

from __future__ import annotations

import random

import msgspec
import pytest

from shared.games.draws import Draw, DrawsExhausted, RecordedDraws, SeededDraws, ShuffleRequest
from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from shared.games.phantoms.options import Options
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import allowed_opponents, step
from shared.games.rules import RuleViolation, fold
from tests.unit.phantoms.helpers import ANCHOR, CROWN, DWARF, STAR, act, finish_game, of, season


def test_poti_opening_draft_in_seat_order_top_of_chosen_pile() -> None:
    events = rules.new_game(Options(), 2, SeededDraws(random.Random(5)))
    s = fold(rules, events)
    assert s is not None
    piles = of(events, ev.PilesShuffled)[0]
    assert step(s) == ("opening", frozenset({0}))
    with pytest.raises(RuleViolation) as e:
        rules.decide(s, cmd.TakeFromPile(seat=1, pile="F"), SeededDraws(random.Random(0)))
    assert e.value.code == "poti.turn.not-yours"
    s, out = act(s, cmd.TakeFromPile(seat=0, pile="F"), cmd.TakeFromPile(seat=1, pile="F"))
    drawn = of(out, ev.OpeningCardDrawn)
    assert [(d.seat, d.card) for d in drawn] == [(0, piles.forwards[0]), (1, piles.forwards[1])]
    assert ev.visible_to(drawn[0]) == frozenset({0}) and ev.visible_to(of(out, ev.OpeningPickMade)[0]) is None


def test_poti_opening_draft_position_full_rejected() -> None:
    s = fold(rules, rules.new_game(Options(), 2, SeededDraws(random.Random(5))))
    assert s is not None
    s, _ = act(s, cmd.TakeFromPile(seat=0, pile="G"), cmd.TakeFromPile(seat=1, pile="G"))
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.TakeFromPile(seat=0, pile="G"))
    assert e.value.code == "poti.opening.position-full"


def test_poti_opening_draft_ends_with_3f_2d_1g_each_and_first_turn() -> None:
    s = fold(rules, rules.new_game(Options(), 3, SeededDraws(random.Random(5))))
    assert s is not None
    picks = ["F", "F", "F", "D", "D", "G"]
    for pile in picks:
        for seat in range(3):
            s, out = act(s, cmd.TakeFromPile(seat=seat, pile=pile))  # type: ignore[arg-type]
    assert of(out, ev.TurnStarted) == [ev.TurnStarted(seat=0)] and s.phase == "regular"
    for m in s.managers:
        assert sorted(s.cards[c].position for c in m.cards) == ["D", "D", "F", "F", "F", "G"]


def trade_draws(order: tuple[int, ...] = (5, 4, 3, 2, 1, 0)) -> RecordedDraws:
    return RecordedDraws([Draw(ShuffleRequest(6), order)])


def test_poti_trade_offer_order_is_a_recorded_draw_private_to_the_holder() -> None:
    s = season([CROWN, ANCHOR])
    s, out = act(s, cmd.Trade(seat=0, opponent=1), draws=trade_draws())
    offered = of(out, ev.TradeOffered)[0]
    assert offered.order == tuple(reversed(ANCHOR))
    assert ev.visible_to(offered) == frozenset({1}) and ev.visible_to(of(out, ev.TradeStarted)[0]) is None
    s, out = act(s, cmd.PickTradeCard(seat=0, index=6))  # the sixth face-down card is ANCHOR[0]
    taken = of(out, ev.TradeCardTaken)[0]
    assert taken.card == "anchor-f1" and ev.visible_to(taken) == frozenset({0, 1})
    assert rules.view(s, 0).trade_taken is not None and rules.view(s, 2 - 1).trade_taken is None


def test_poti_trade_needs_a_draw_and_restarts_cleanly() -> None:
    s = season([CROWN, ANCHOR])
    before = msgspec.json.encode(s)
    with pytest.raises(DrawsExhausted) as e:
        rules.decide(s, cmd.Trade(seat=0, opponent=1), RecordedDraws())
    assert e.value.request == ShuffleRequest(6)
    assert msgspec.json.encode(s) == before
    assert rules.decide(s, cmd.Trade(seat=0, opponent=1), trade_draws()) == \
        rules.decide(s, cmd.Trade(seat=0, opponent=1), trade_draws())


def picked_forward() -> Season:
    s = season([CROWN, ANCHOR])
    s, _ = act(s, cmd.Trade(seat=0, opponent=1), draws=trade_draws())
    s, _ = act(s, cmd.PickTradeCard(seat=0, index=6))
    return s


def test_poti_trade_same_type_must_be_returned() -> None:
    s = picked_forward()
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.ReturnCard(seat=0, card="crown-d1"))
    assert e.value.code == "poti.trade.same-type"


def test_poti_trade_may_not_return_the_card_taken() -> None:
    s = picked_forward()
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.ReturnCard(seat=0, card="anchor-f1"))
    assert e.value.code == "poti.trade.not-the-taken-card"


def test_poti_trade_completes_and_passes_the_turn() -> None:
    s = picked_forward()
    s, out = act(s, cmd.ReturnCard(seat=0, card="crown-f3"))
    assert "anchor-f1" in s.managers[0].cards and "crown-f3" in s.managers[1].cards
    assert len(s.managers[0].cards) == len(s.managers[1].cards) == 6
    assert of(out, ev.TurnStarted) == [ev.TurnStarted(seat=1)]


def test_poti_trade_pick_out_of_range_rejected() -> None:
    s = season([CROWN, ANCHOR])
    s, _ = act(s, cmd.Trade(seat=0, opponent=1), draws=trade_draws())
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.PickTradeCard(seat=0, index=7))
    assert e.value.code == "poti.trade.pick"


def test_poti_trade_with_yourself_rejected() -> None:
    with pytest.raises(RuleViolation) as e:
        act(season([CROWN, ANCHOR]), cmd.Trade(seat=0, opponent=0), draws=trade_draws())
    assert e.value.code == "poti.trade.opponent"


def test_poti_draft_card_to_bottom_top_card_comes_back() -> None:
    s = season([CROWN, ANCHOR], {"F": ["star-f1"]})
    s, out = act(s, cmd.Draft(seat=0, card="crown-f3"))
    assert of(out, ev.Drafted) == [ev.Drafted(seat=0, given="crown-f3", received="star-f1")]
    assert s.piles[0][-1] == "crown-f3" and "star-f1" not in s.piles[0]
    assert "star-f1" in s.managers[0].cards and s.turn == 1


def test_poti_draft_a_card_you_do_not_hold_rejected() -> None:
    with pytest.raises(RuleViolation) as e:
        act(season([CROWN, ANCHOR]), cmd.Draft(seat=0, card="anchor-f1"))
    assert e.value.code == "poti.draft.not-yours"


def test_poti_turns_pass_clockwise() -> None:
    s = season([CROWN, ANCHOR, STAR])
    s, out = act(s, cmd.Draft(seat=0, card="crown-f3"), cmd.Draft(seat=1, card="anchor-f3"),
                 cmd.Draft(seat=2, card="star-f3"))
    assert [t.seat for t in of(out, ev.TurnStarted)] == [1, 2, 0]


def test_poti_season_play_rule_rejects_and_lists_allowed_opponents() -> None:
    s = season([CROWN, ANCHOR, STAR, DWARF])
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    s, _ = finish_game(s)
    for seat in (1, 2, 3):
        s, _ = act(s, cmd.Draft(seat=seat, card=s.managers[seat].cards[0]))
    before = msgspec.json.encode(s)
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.Challenge(seat=0, opponent=1))
    assert e.value.code == "poti.play.season-rule"
    assert "seat 2" in e.value.message and "seat 3" in e.value.message and "seat 1," not in e.value.message
    assert msgspec.json.encode(s) == before
    s, _ = act(s, cmd.Challenge(seat=0, opponent=2))
    assert s.game is not None and (s.game.home, s.game.away) == (0, 2)


def test_poti_season_play_rule_games_on_other_turns_do_not_count() -> None:
    s = season([CROWN, ANCHOR, STAR])
    s, _ = act(s, cmd.Draft(seat=0, card="crown-f3"))
    s, _ = act(s, cmd.Challenge(seat=1, opponent=0))
    s, _ = finish_game(s)
    s, _ = act(s, cmd.Draft(seat=2, card="star-f3"))
    assert allowed_opponents(s, 0) == [1, 2]
    assert allowed_opponents(s, 1) == [2]


def test_poti_season_play_rule_second_round_opens_after_everyone_played_once() -> None:
    s = season([CROWN, ANCHOR, STAR])
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    s, _ = finish_game(s)
    s, _ = act(s, cmd.Draft(seat=1, card=s.managers[1].cards[0]), cmd.Draft(seat=2, card=s.managers[2].cards[0]))
    s, _ = act(s, cmd.Challenge(seat=0, opponent=2))
    s, _ = finish_game(s)
    s, _ = act(s, cmd.Draft(seat=1, card=s.managers[1].cards[0]), cmd.Draft(seat=2, card=s.managers[2].cards[0]))
    assert allowed_opponents(s, 0) == [1, 2]


def test_poti_not_your_turn_rejected_and_nothing_changes() -> None:
    s = season([CROWN, ANCHOR])
    before = msgspec.json.encode(s)
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.Draft(seat=1, card="anchor-f1"))
    assert e.value.code == "poti.turn.not-yours"
    assert msgspec.json.encode(s) == before


def test_poti_wrong_action_for_the_moment_rejected() -> None:
    s = season([CROWN, ANCHOR])
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.ChooseCard(seat=0, card="crown-f1"))
    assert e.value.code == "poti.turn.wrong-action"


def test_phantoms_new_game_rejects_too_many_managers() -> None:
    with pytest.raises(RuleViolation) as e:
        rules.new_game(Options(), 11, SeededDraws(random.Random(0)))
    assert e.value.code == "phantoms.options.seats"
    with pytest.raises(RuleViolation) as e:
        rules.new_game(Options(edition="poti", team_variant=True), 7, SeededDraws(random.Random(0)))
    assert e.value.code == "phantoms.options.seats"


def test_phantoms_new_game_rejects_a_turn_timer_of_zero() -> None:
    with pytest.raises(RuleViolation) as e:
        rules.new_game(Options(turn_seconds=0), 3, SeededDraws(random.Random(0)))
    assert e.value.code == "phantoms.options.turn-seconds"


def test_phantoms_new_game_records_options_deck_and_seats_first() -> None:
    events = rules.new_game(Options(edition="powerplay"), 4, SeededDraws(random.Random(0)))
    first = events[0]
    assert isinstance(first, ev.SeasonOpened)
    assert (first.edition, first.seats, len(first.deck.cards)) == ("powerplay", 4, 77)
    assert len(first.deck_fingerprint) == 64


def test_phantoms_same_draws_same_state() -> None:
    a = rules.new_game(Options(), 4, SeededDraws(random.Random(9)))
    b = rules.new_game(Options(), 4, SeededDraws(random.Random(9)))
    assert a == b and fold(rules, a) == fold(rules, b)


def test_poti_turn_timer_default_bot_moves_recorded_as_such() -> None:
    s = season([CROWN, ANCHOR], turn_seconds=30)
    with pytest.raises(DrawsExhausted):
        rules.decide(s, cmd.TimeOut(seat=0), RecordedDraws())
    draws = SeededDraws(random.Random(1))
    events = rules.decide(s, cmd.TimeOut(seat=0), draws)
    assert events[0] == ev.MoveTimedOut(seat=0) and len(events) > 1
    assert rules.decide(s, cmd.TimeOut(seat=0), RecordedDraws(draws.used)) == events
    with pytest.raises(RuleViolation) as e:
        rules.decide(season([CROWN, ANCHOR]), cmd.TimeOut(seat=0), SeededDraws(random.Random(1)))
    assert e.value.code == "poti.timer.off"
    with pytest.raises(RuleViolation) as e:
        rules.decide(s, cmd.TimeOut(seat=1), SeededDraws(random.Random(1)))
    assert e.value.code == "poti.turn.not-yours"
