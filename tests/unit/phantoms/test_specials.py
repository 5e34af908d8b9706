"""Special players of both editions."""

from __future__ import annotations

import pytest

from shared.games.draws import Draw, RecordedDraws, ShuffleRequest
from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms.deck import reference_deck
from shared.games.phantoms.scoring import goal, injuries, value_in_game
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import step
from shared.games.rules import RuleViolation
from tests.unit.phantoms.helpers import ANCHOR, CROWN, act, lay, of, play_game, season

POTI = {c.id: c for c in reference_deck("poti").cards}
PP = {c.id: c for c in reference_deck("powerplay").cards}


def test_poti_tiny_tim_scores_against_a_goalie() -> None:
    tim, goalie = POTI["lantern-d3"], POTI["crown-g1"]
    assert tim.special == "tiny_tim" and tim.value == 0.5
    assert goal(tim, goalie, tim.value, goalie.value) == 0
    assert goal(goalie, tim, goalie.value, tim.value) == 1


def test_poti_tiny_tim_is_worth_a_half_compared_exactly() -> None:
    tim, zero = POTI["lantern-d3"], POTI["mask-3"]
    assert goal(tim, zero, tim.value, zero.value) == 0  # 1/2 beats the bruiser worth 0 (who injures him)
    assert [c.id for c in injuries(tim, zero)] == ["lantern-d3"]


def test_poti_rumpelstickskin_against_bruiser_injures_bruiser_no_goal() -> None:
    rumpel, bear = POTI["dwarf-f4"], POTI["mask-2"]
    assert rumpel.special == "rumpelstickskin"
    assert goal(rumpel, bear, rumpel.value, bear.value) is None
    assert [c.id for c in injuries(rumpel, bear)] == ["mask-2"]
    assert [c.id for c in injuries(bear, rumpel)] == ["mask-2"]


def test_poti_troll_and_bear_are_bruisers_in_the_basic_game() -> None:
    troll, bear, forward = POTI["mask-1"], POTI["mask-2"], POTI["crown-f1"]
    assert troll.bruiser and bear.bruiser and troll.position == bear.position == "D"
    assert [c.id for c in injuries(troll, forward)] == ["crown-f1"]
    assert [c.id for c in injuries(bear, troll)] == ["mask-2", "mask-1"]


def test_powerplay_willy_winzig_scores_against_any_goalie() -> None:
    willy, goalie = PP["wheel-f5"], PP["crown-g1"]
    assert willy.special == "willy_winzig" and willy.value < goalie.value
    assert goal(goalie, willy, goalie.value, willy.value) == 1


def test_powerplay_hydra_value_is_its_round_number_and_seven_in_sudden_death() -> None:
    hydra = PP["monster-f1"]
    assert [value_in_game(hydra, 0, r) for r in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert value_in_game(hydra, 1, 1) == 7 and value_in_game(hydra, 1, 2) == 8


def test_powerplay_hydra_in_a_game() -> None:
    hydra_team = ["monster-f1", "crown-f2", "crown-f3", "crown-d1", "crown-d2", "crown-g1"]
    s = season([hydra_team, ANCHOR], edition="powerplay")
    s, events = play_game(s, 0, 1, ["crown-f2", "crown-f3", "crown-d1", "crown-d2", "crown-g1", "monster-f1"],
                          ["anchor-f2", "anchor-d2", "anchor-d1", "anchor-g1", "anchor-f1", "anchor-f3"])
    last = of(events, ev.RoundScored)[5]
    assert (last.home_card, last.home_value, last.goal) == ("monster-f1", 6, 0)  # 6 against 5


def judge_tie() -> tuple[Season, list[ev.Event]]:
    s = season([CROWN, ANCHOR], edition="powerplay")  # crown-d1 is the Jolly Judge
    return play_game(s, 0, 1, ["crown-f1", "crown-f2", "crown-g1", "crown-d1", "crown-f3", "crown-d2"],
                     ["anchor-f3", "anchor-f2", "anchor-f1", "anchor-g1", "anchor-d2", "anchor-d1"])


def test_powerplay_jolly_judge_may_claim_a_tied_game() -> None:
    s, events = judge_tie()
    assert not of(events, ev.GameEnded) and step(s) == ("claim", frozenset({0}))
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.ClaimWin(seat=1, claim=True))
    assert e.value.code == "powerplay.jolly-judge.claim" and "powerplay.jolly-judge.claim-again" in e.value.message
    s, events = act(s, cmd.ClaimWin(seat=0, claim=True))
    end = of(events, ev.GameEnded)[0]
    assert (end.winner, end.claimed, end.home_goals, end.away_goals) == (0, True, 1, 1)
    assert s.managers[0].wins == 1


def test_powerplay_tie_without_the_judge_goes_straight_to_sudden_death() -> None:
    no_judge = ["crown-f1", "crown-f2", "crown-f3", "wheel-d1", "crown-d2", "crown-g1"]  # wheel-d1: a plain 9
    s = season([no_judge, ANCHOR], edition="powerplay")
    s, events = play_game(s, 0, 1, ["crown-f1", "crown-f2", "crown-g1", "wheel-d1", "crown-f3", "crown-d2"],
                          ["anchor-f3", "anchor-f2", "anchor-f1", "anchor-g1", "anchor-d2", "anchor-d1"])
    assert of(events, ev.SuddenDeathStarted) and step(s)[0] == "choose"


def test_powerplay_rosalinde_forces_highest_of_that_type_in_return() -> None:
    rosa_team = ["lantern-f1", "anchor-f2", "anchor-f3", "anchor-d1", "anchor-d2", "anchor-g1"]
    s = season([CROWN, rosa_team], edition="powerplay")
    draws = RecordedDraws([Draw(ShuffleRequest(6), (0, 1, 2, 3, 4, 5))])
    s, events = act(s, cmd.Trade(seat=0, opponent=1), draws=draws)
    s, events = act(s, cmd.PickTradeCard(seat=0, index=1))
    returned = of(events, ev.TradeCardReturned)[0]
    assert (returned.card, returned.forced) == ("crown-f1", True)  # crown-f1 (10) is his best forward
    assert "lantern-f1" in s.managers[0].cards and "crown-f1" in s.managers[1].cards
    assert s.trade is None and s.turn == 1


def test_powerplay_rumpelstockchen_highest_ties_broken_by_card_id() -> None:
    rump_team = ["creature-f3", "crown-f2", "crown-f3", "crown-d1", "crown-d2", "crown-g1"]
    twin_elevens = ["anchor-f1", "monster-f2", "anchor-f3", "anchor-d1", "anchor-d2", "anchor-g1"]
    s = season([rump_team, twin_elevens], edition="powerplay")
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    s, events = act(s, cmd.ChooseCard(seat=0, card="creature-f3"), cmd.ChooseCard(seat=1, card="anchor-d2"))
    assert of(events, ev.CardTakenBack)[0].played == "anchor-f1"  # 11 and 11: anchor-f1 < monster-f2


def bull_game() -> Season:
    bull_team = ["star-f2", "crown-f2", "crown-f3", "crown-d1", "crown-d2", "crown-g1"]
    s = season([bull_team, ANCHOR], {"D": ["lantern-d1"]}, edition="powerplay")
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    s, _ = act(s, cmd.ChooseCard(seat=0, card="star-f2"), cmd.ChooseCard(seat=1, card="anchor-f1"))
    return s


def test_powerplay_sitting_bull_flip_adds_the_flipped_value_and_card_goes_to_bottom() -> None:
    s = bull_game()
    assert step(s) == ("flip", frozenset({0}))
    s, events = act(s, cmd.FlipPile(seat=0, pile="D"))
    assert of(events, ev.PileFlipped) == [ev.PileFlipped(seat=0, pile="D", card="lantern-d1", value=8.0)]
    scored = of(events, ev.RoundScored)[0]
    assert (scored.home_value, scored.away_value, scored.goal) == (17.0, 11.0, 0)
    assert s.piles[1][-1] == "lantern-d1" and "lantern-d1" not in s.piles[1][:-1]


def test_powerplay_sitting_bull_flip_may_be_declined() -> None:
    s, events = act(bull_game(), cmd.FlipPile(seat=0, pile=None))
    scored = of(events, ev.RoundScored)[0]
    assert (scored.home_value, scored.goal) == (9.0, 1)


def test_powerplay_sitting_bull_flip_is_his_managers_choice_only() -> None:
    s = bull_game()
    with pytest.raises(RuleViolation) as e:
        act(s, cmd.FlipPile(seat=1, pile="F"))
    assert e.value.code == "poti.turn.not-yours"


def test_powerplay_willy_winzig_in_a_game() -> None:
    willy_team = ["wheel-f5", "crown-f2", "crown-f3", "crown-d1", "crown-d2", "crown-g1"]
    s = season([willy_team, ANCHOR], edition="powerplay")
    s, _ = act(s, cmd.Challenge(seat=0, opponent=1))
    s, events = lay(s, 0, 1, ["wheel-f5"], ["anchor-g1"])
    assert of(events, ev.RoundScored)[0].goal == 0
