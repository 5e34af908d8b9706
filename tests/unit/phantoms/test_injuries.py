"""Injuries (RULES.md): replaced by the Draft procedure in the order they happened, after the game - except injuries
in a tied regulation game, replaced before sudden death. ``poti`` (reading poti.injury.draft): the injured card goes
to the bottom of its pile and the top card comes back, so he can return later in the season. ``powerplay`` (reading
powerplay.injury.out-for-season): the injured card is set aside for good and the top card comes."""

from __future__ import annotations

from typing import Any

import pytest

from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms.cards import Edition
from shared.games.phantoms.options import Options
from shared.games.phantoms.state import Season
from shared.games.rules import RuleViolation
from shared.scenario.positions.phantoms import build
from tests.unit.phantoms.helpers import act, lay, of, play_game

EDITIONS = ["poti", "powerplay"]
BIG = {"poti": "mask-2", "powerplay": "mask-5"}  # bruisers worth 8 (poti: Bear)
SMALL = {"poti": "mask-4", "powerplay": "mask-2"}  # bruisers worth 3 and 4
TOPS = {"F": ["star-f1", "star-f3"], "D": ["star-d1", "star-d2"], "G": ["star-g1"]}


def home(edition: Edition) -> list[str]:
    return ["crown-f1", "crown-f2", "crown-f3", "crown-d2", BIG[edition], "crown-g1"]  # F10 F8 F6 D5 B8 G11


def away(edition: Edition) -> list[str]:
    return ["anchor-f1", "anchor-f2", "anchor-f3", "anchor-d1", SMALL[edition], "anchor-g1"]  # F11 F8 F5 D9 B3/4 G10


def position(edition: Edition, **more: Any) -> Season:
    return build(Options(edition=edition), {"hands": [home(edition), away(edition)], "piles": TOPS, **more})


def won_by_home(edition: Edition) -> tuple[list[str], list[str]]:
    """4:2 for home; anchor-f3 hurt in round 1 (by the big bruiser), crown-f3 in round 2 (by the small one)."""
    return ([BIG[edition], "crown-f3", "crown-f1", "crown-f2", "crown-d2", "crown-g1"],
            ["anchor-f3", SMALL[edition], "anchor-f2", "anchor-f1", "anchor-d1", "anchor-g1"])


def tied(edition: Edition) -> tuple[list[str], list[str]]:
    """2:2 in regulation; anchor-f1 hurt in round 1, crown-g1 in round 5."""
    return ([BIG[edition], "crown-f1", "crown-f2", "crown-f3", "crown-g1", "crown-d2"],
            ["anchor-f1", "anchor-f2", "anchor-f3", "anchor-d1", SMALL[edition], "anchor-g1"])


def replaced(events: list[Any]) -> list[tuple[str, int, str, str]]:
    kinds = (ev.InjuredPlayerDrafted, ev.ReplacementDrawn)
    return [(type(e).__name__, e.seat, e.injured, e.card) for e in events if isinstance(e, kinds)]


def test_poti_injury_draft_injured_player_goes_under_his_pile_and_the_top_card_comes_back() -> None:
    s, events = play_game(position("poti"), 0, 1, *won_by_home("poti"))
    assert replaced(events) == [("InjuredPlayerDrafted", 1, "anchor-f3", "star-f1"),
                                ("InjuredPlayerDrafted", 0, "crown-f3", "star-f3")]
    assert s.piles[0][-2:] == ("anchor-f3", "crown-f3") and not s.out
    assert "star-f1" in s.managers[1].cards and "star-f3" in s.managers[0].cards
    assert {"anchor-f3", "crown-f3"} <= set(s.injuries)


def test_powerplay_injury_out_for_season_injured_player_is_set_aside_and_the_top_card_comes() -> None:
    s, events = play_game(position("powerplay"), 0, 1, *won_by_home("powerplay"))
    assert replaced(events) == [("ReplacementDrawn", 1, "anchor-f3", "star-f1"),
                                ("ReplacementDrawn", 0, "crown-f3", "star-f3")]
    assert s.out == ("anchor-f3", "crown-f3") and not {"anchor-f3", "crown-f3"} & set(s.piles[0])


@pytest.mark.parametrize("edition", EDITIONS)
def test_injury_replaced_after_the_game_in_the_order_they_happened(edition: Edition) -> None:
    _, events = play_game(position(edition), 0, 1, *won_by_home(edition))
    kinds = [type(e) for e in events]
    first = min(i for i, e in enumerate(events) if isinstance(e, ev.InjuredPlayerDrafted | ev.ReplacementDrawn))
    assert kinds.index(ev.GameEnded) < first
    assert [r[2] for r in replaced(events)] == ["anchor-f3", "crown-f3"]


def test_poti_injury_draft_the_injured_player_comes_back_later_in_the_season() -> None:
    s = position("poti", piles={"F": ["star-f1"]}, exact_piles=True)
    s, _ = play_game(s, 0, 1, *won_by_home("poti"))
    # anchor-f3 went under star-f1, which came to seat 1; crown-f3 went under anchor-f3, who came back to seat 0
    assert s.piles[0] == ("crown-f3",)
    assert "star-f1" in s.managers[1].cards and "anchor-f3" in s.managers[0].cards
    s, events = act(s, cmd.Draft(seat=1, card="anchor-f1"))
    assert ev.Drafted(seat=1, given="anchor-f1", received="crown-f3") in events
    assert s.piles[0] == ("anchor-f1",)


def test_powerplay_injury_out_for_season_an_empty_pile_leaves_him_on_the_team() -> None:
    s = position("powerplay", piles={"F": ["star-f1"]}, exact_piles=True)
    s, events = play_game(s, 0, 1, *won_by_home("powerplay"))
    assert replaced(events) == [("ReplacementDrawn", 1, "anchor-f3", "star-f1")]
    assert ev.InjuredPlayerStays(seat=0, injured="crown-f3") in events
    assert "crown-f3" in s.managers[0].cards and s.out == ("anchor-f3",)


@pytest.mark.parametrize("edition", EDITIONS)
def test_injury_in_tied_game_replaced_before_sudden_death_and_sudden_death_injury_after(edition: Edition) -> None:
    s, events = play_game(position(edition), 0, 1, *tied(edition))
    kinds = [type(e) for e in events]
    assert ev.GameEnded not in kinds
    drawn = replaced(events)
    assert [r[1:] for r in drawn] == [(1, "anchor-f1", "star-f1"), (0, "crown-g1", "star-g1")]
    last = max(i for i, e in enumerate(events) if isinstance(e, ev.InjuredPlayerDrafted | ev.ReplacementDrawn))
    assert last < kinds.index(ev.SuddenDeathStarted)
    assert s.game is not None and "star-g1" in s.game.hands[0] and "star-f1" in s.game.hands[1]
    s, events = lay(s, 0, 1, [BIG[edition]], ["anchor-f3"])  # the big bruiser scores and injures anchor-f3
    kinds = [type(e) for e in events]
    assert of(events, ev.GameEnded)[0].sudden_deaths == 1
    assert [r[1:] for r in replaced(events)] == [(1, "anchor-f3", "star-f3")]
    first = min(i for i, e in enumerate(events) if isinstance(e, ev.InjuredPlayerDrafted | ev.ReplacementDrawn))
    assert kinds.index(ev.GameEnded) < first
    if edition == "poti":
        assert s.piles[0][-2:] == ("anchor-f1", "anchor-f3") and s.piles[2][-1] == "crown-g1" and not s.out
    else:
        assert s.out == ("anchor-f1", "crown-g1", "anchor-f3")


def series(edition: Edition) -> Season:
    stage = {"purpose": "final", "mode": "series", "teams": [0, 1], "pairs": [[0, 1]], "wins_needed": 4}
    return position(edition, stage=stage, leader=0, wins=[9, 7])


@pytest.mark.parametrize("edition", EDITIONS)
def test_championship_series_injuries_replaced_by_the_draft_procedure(edition: Edition) -> None:
    s = series(edition)
    assert s.game is not None and s.game.kind == "final" and (s.game.home, s.game.away) == (0, 1)
    s, events = lay(s, 0, 1, *won_by_home(edition))
    expected = "InjuredPlayerDrafted" if edition == "poti" else "ReplacementDrawn"
    assert replaced(events) == [(expected, 1, "anchor-f3", "star-f1"), (expected, 0, "crown-f3", "star-f3")]
    assert s.game is not None and (s.game.home, s.game.away) == (1, 0)  # the next game of the series
    assert "star-f1" in s.game.hands[0] and "star-f3" in s.game.hands[1]
    if edition == "poti":
        assert s.piles[0][-2:] == ("anchor-f3", "crown-f3") and not s.out
    else:
        assert s.out == ("anchor-f3", "crown-f3")


@pytest.mark.parametrize("edition", EDITIONS)
def test_championship_series_has_no_drafts_even_of_an_injured_player(edition: Edition) -> None:
    s = series(edition)
    with pytest.raises(RuleViolation) as refused:
        act(s, cmd.Draft(seat=0, card="crown-f3"))
    assert refused.value.code == "poti.series.no-turns"


@pytest.mark.parametrize("edition", EDITIONS)
def test_injured_player_refusal_says_the_reading(edition: Edition) -> None:
    s, _ = play_game(position(edition), 0, 1, *won_by_home(edition))
    with pytest.raises(RuleViolation) as refused:
        act(s, cmd.Draft(seat=1, card="anchor-f3"))
    assert refused.value.code == "poti.draft.not-yours"
    reading = "poti.injury.draft" if edition == "poti" else "powerplay.injury.out-for-season"
    assert reading in refused.value.message and "anchor-f3 was injured" in refused.value.message


def test_poti_injured_player_stays_when_his_pile_is_empty() -> None:
    s = position("poti", piles={"F": [], "D": [], "G": []}, exact_piles=True)
    s, events = play_game(s, 0, 1, *won_by_home("poti"))
    assert ev.InjuredPlayerStays(seat=1, injured="anchor-f3") in events and not replaced(events)
    assert "anchor-f3" in s.managers[1].cards and not s.out


def test_poti_injury_in_sudden_death_replaced_after_the_game_even_when_another_sudden_death_follows() -> None:
    hands = [["crown-f1", "crown-f2", "crown-f3", "crown-d1", "mask-2", "crown-g1"],
             ["anchor-f1", "anchor-f2", "anchor-f3", "anchor-d1", "anchor-d2", "anchor-g1"]]
    s = build(Options(edition="poti"), {"hands": hands, "piles": {"F": ["creature-f2", "star-f1"]}})  # F8, F9
    # 8-8, 9-9, G-F, 10-6 home, 6-G, Bear 8-11 away and anchor-f1 injured: 1:1
    s, events = play_game(s, 0, 1, ["crown-f2", "crown-d1", "crown-g1", "crown-f1", "crown-f3", "mask-2"],
                          ["anchor-f2", "anchor-d1", "anchor-f3", "anchor-d2", "anchor-g1", "anchor-f1"])
    assert [r[2:] for r in replaced(events)] == [("anchor-f1", "creature-f2")]
    # Bear 8-8 injures anchor-f2, then five rounds without a goal
    s, events = lay(s, 0, 1, ["mask-2", "crown-g1", "crown-f1", "crown-f2", "crown-d1", "crown-f3"],
                    ["anchor-f2", "anchor-f3", "anchor-g1", "creature-f2", "anchor-d1", "anchor-d2"])
    assert of(events, ev.RoundScored)[0].injured == ("anchor-f2",)
    assert of(events, ev.SuddenDeathStarted) == [ev.SuddenDeathStarted(block=2)]
    assert not replaced(events) and not of(events, ev.InjuredPlayerStays)
    assert s.game is not None and "anchor-f2" in s.game.hands[1]  # not replaced yet: he plays on
    s, events = lay(s, 0, 1, ["mask-2", "crown-f1"], ["anchor-f2", "anchor-f3"])  # hurt again, then 10-5 home
    kinds = [type(e) for e in events]
    assert kinds.index(ev.GameEnded) < kinds.index(ev.InjuredPlayerDrafted)
    assert [r[1:] for r in replaced(events)] == [(1, "anchor-f2", "star-f1")]  # once, however often he was hurt
    assert "star-f1" in s.managers[1].cards and s.piles[0][-2:] == ("anchor-f1", "anchor-f2")
