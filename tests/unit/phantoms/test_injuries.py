"""Injuries: replaced by the Draft procedure, in the order they happened, after the game - except injuries in a
tied regulation game, replaced before sudden death."""

from __future__ import annotations

from shared.games.phantoms import events as ev
from tests.unit.phantoms.helpers import ANCHOR, lay, of, play_game, season

HOME = ["crown-f1", "crown-f2", "crown-f3", "crown-d1", "mask-2", "crown-g1"]  # mask-2: Bear, bruiser 8
AWAY = ["anchor-f1", "anchor-f2", "anchor-f3", "anchor-d1", "mask-4", "anchor-g1"]  # mask-4: bruiser 3
TOPS = {"F": ["star-f1", "star-f2"], "D": ["star-d1", "star-d2"], "G": ["star-g1"]}


def test_poti_injury_replaced_after_game_in_order_they_happened() -> None:
    s = season([HOME, AWAY], TOPS)
    s, events = play_game(s, 0, 1, ["mask-2", "crown-f3", "crown-f1", "crown-f2", "crown-d1", "crown-g1"],
                          ["anchor-f3", "mask-4", "anchor-f2", "anchor-f1", "anchor-d1", "anchor-g1"])
    kinds = [type(e) for e in events]
    end = kinds.index(ev.GameEnded)
    drawn = of(events, ev.ReplacementDrawn)
    assert [(d.seat, d.injured, d.card) for d in drawn] == [(1, "anchor-f3", "star-f1"), (0, "crown-f3", "star-f2")]
    assert all(kinds.index(ev.ReplacementDrawn) > end for _ in drawn)
    assert "star-f2" in s.managers[0].cards and "crown-f3" not in s.managers[0].cards
    assert "star-f1" in s.managers[1].cards and {"anchor-f3", "crown-f3"} <= set(s.out)
    assert of(events, ev.GameEnded)[0].winner == 0


def test_poti_injury_two_bruisers_higher_value_replaced_first() -> None:
    s = season([HOME, AWAY], TOPS)
    s, events = play_game(s, 0, 1, ["mask-2", "crown-f1", "crown-f2", "crown-f3", "crown-d1", "crown-g1"],
                          ["mask-4", "anchor-f3", "anchor-f2", "anchor-f1", "anchor-d1", "anchor-g1"])
    assert of(events, ev.RoundScored)[0].injured == ("mask-2", "mask-4")
    drawn = of(events, ev.ReplacementDrawn)
    assert [(d.seat, d.injured, d.card) for d in drawn] == [(0, "mask-2", "star-d1"), (1, "mask-4", "star-d2")]


def test_poti_injury_in_tied_game_replaced_before_sudden_death_and_sudden_death_injury_after() -> None:
    s = season([HOME, AWAY], TOPS)
    s, events = play_game(s, 0, 1, ["mask-2", "crown-f1", "crown-f2", "crown-d1", "crown-g1", "crown-f3"],
                          ["anchor-f1", "anchor-f3", "anchor-f2", "anchor-d1", "mask-4", "anchor-g1"])
    kinds = [type(e) for e in events]
    assert ev.GameEnded not in kinds
    drawn = of(events, ev.ReplacementDrawn)
    assert [(d.seat, d.injured, d.card) for d in drawn] == [(1, "anchor-f1", "star-f1"), (0, "crown-g1", "star-g1")]
    assert max(i for i, k in enumerate(kinds) if k is ev.ReplacementDrawn) < kinds.index(ev.SuddenDeathStarted)
    assert s.game is not None and "star-g1" in s.game.hands[0] and "star-f1" in s.game.hands[1]
    s, events = lay(s, 0, 1, ["mask-2"], ["anchor-f3"])  # Bear 8 scores and injures anchor-f3
    kinds = [type(e) for e in events]
    assert kinds.index(ev.GameEnded) < kinds.index(ev.ReplacementDrawn)
    assert [(d.seat, d.injured, d.card) for d in of(events, ev.ReplacementDrawn)] == [(1, "anchor-f3", "star-f2")]


def test_poti_injured_player_leaves_the_game_not_the_pile() -> None:
    s = season([HOME, AWAY], TOPS)
    s, _ = play_game(s, 0, 1, ["mask-2", "crown-f3", "crown-f1", "crown-f2", "crown-d1", "crown-g1"],
                     ["anchor-f3", "mask-4", "anchor-f2", "anchor-f1", "anchor-d1", "anchor-g1"])
    assert "anchor-f3" not in s.piles[0] and "anchor-f3" in s.injuries and "anchor-f3" in s.out


def test_poti_injured_player_stays_when_his_pile_is_empty() -> None:
    from msgspec.structs import replace

    s = season([HOME, AWAY], TOPS)
    s = replace(s, piles=(s.piles[0], s.piles[1], ()))
    s, events = play_game(s, 0, 1, ["mask-2", "crown-f3", "crown-f1", "crown-f2", "crown-d1", "crown-g1"],
                          ["anchor-g1", "anchor-f3", "anchor-f2", "anchor-f1", "anchor-d1", "mask-4"])
    assert of(events, ev.RoundScored)[0].injured == ("anchor-g1",)
    assert ev.InjuredPlayerStays(seat=1, injured="anchor-g1") in events
    assert "anchor-g1" in s.managers[1].cards and "anchor-g1" not in s.out


def test_poti_injury_in_sudden_death_replaced_after_the_game_even_when_another_sudden_death_follows() -> None:
    s = season([HOME, ANCHOR], {"F": ["creature-f2", "star-f1"]})  # creature-f2: F8
    # 8-8, 9-9, G-F, 10-6 home, 6-G, Bear 8-11 away and anchor-f1 injured: 1:1
    s, events = play_game(s, 0, 1, ["crown-f2", "crown-d1", "crown-g1", "crown-f1", "crown-f3", "mask-2"],
                          ["anchor-f2", "anchor-d1", "anchor-f3", "anchor-d2", "anchor-g1", "anchor-f1"])
    assert [(d.injured, d.card) for d in of(events, ev.ReplacementDrawn)] == [("anchor-f1", "creature-f2")]
    # Bear 8-8 injures anchor-f2, then five rounds without a goal
    s, events = lay(s, 0, 1, ["mask-2", "crown-g1", "crown-f1", "crown-f2", "crown-d1", "crown-f3"],
                    ["anchor-f2", "anchor-f3", "anchor-g1", "creature-f2", "anchor-d1", "anchor-d2"])
    assert of(events, ev.RoundScored)[0].injured == ("anchor-f2",)
    assert of(events, ev.SuddenDeathStarted) == [ev.SuddenDeathStarted(block=2)]
    assert not of(events, ev.ReplacementDrawn) and not of(events, ev.InjuredPlayerStays)
    assert s.game is not None and "anchor-f2" in s.game.hands[1]  # not replaced yet: he plays on
    s, events = lay(s, 0, 1, ["mask-2", "crown-f1"], ["anchor-f2", "anchor-f3"])  # hurt again, then 10-5 home
    kinds = [type(e) for e in events]
    assert kinds.index(ev.GameEnded) < kinds.index(ev.ReplacementDrawn)
    assert [(d.seat, d.injured, d.card) for d in of(events, ev.ReplacementDrawn)] == [(1, "anchor-f2", "star-f1")]
    assert "star-f1" in s.managers[1].cards and "anchor-f2" in s.out
