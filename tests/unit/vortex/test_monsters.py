"""Seed Movement, Battle and Magic phases: battles with monsters beside headstones."""

from __future__ import annotations

import pytest

from shared.games.vortex.commands import Roll
from shared.games.vortex.events import MonsterBattled, SentinelBattled, SentinelIgnored

from .support import act, board_with, monster, of_type, put, started

LOSS = {"skeletal-hand": 1, "skeletal-warrior": 2, "thing-from-beyond": 3}


@pytest.mark.parametrize("side", [3, 4])
def test_monster_battle_on_either_side_of_headstone(side: int) -> None:
    """vortex.monster.battle: "If you land beside a headstone (on either side) that's been turned into a monster,
    you must battle that monster" (O1 stands between stones 3 and 4)."""
    state = monster(put(started(), 0, stone=0, coins=2), 1, "skeletal-hand", "O1")
    rolls = (side, 6, 2) if side == 4 else (side, 2)  # stone 4 has a shovel: dig first
    events, _ = act(state, Roll(seat=0), *rolls)
    assert [(e.owner, e.monster, e.headstone, e.won) for e in of_type(events, MonsterBattled)] == [
        (1, "skeletal-hand", "O1", True)
    ]


def test_monster_not_beside_means_no_battle() -> None:
    state = monster(put(started(), 0, stone=0, coins=2), 1, "skeletal-hand", "O1")
    events, _ = act(state, Roll(seat=0), 2)
    assert not of_type(events, MonsterBattled)


def test_monster_battle_even_against_your_own() -> None:
    """vortex.monster.own: "you must battle that monster (even if it's YOUR monster)"."""
    state = monster(put(started(), 0, stone=0, coins=5), 0, "skeletal-warrior", "O1")
    events, after = act(state, Roll(seat=0), 3, 5)
    assert of_type(events, MonsterBattled) == [MonsterBattled(seat=0, owner=0, monster="skeletal-warrior",
                                                              headstone="O1", roll=5, won=False, coins=6)]
    assert after.phantoms[0].coins == 6  # 5 + 3 from the stone, - 2 to the Warrior


@pytest.mark.parametrize("win", [1, 2, 3])
def test_monster_win_sends_it_to_limbo_and_pays_two(win: int) -> None:
    """vortex.monster.win: "If you defeat the monster it is removed from the board and placed into limbo, and you
    collect two coins." """
    state = monster(put(started(), 0, stone=0, coins=2), 2, "thing-from-beyond", "O1")
    _, after = act(state, Roll(seat=0), 3, win)
    assert after.phantoms[0].coins == 2 + 3 + 2
    owner = after.phantoms[2]
    assert owner.monster is None and owner.headstone is None and owner.limbo == ("thing-from-beyond",)
    assert after.monster_on("O1") is None


@pytest.mark.parametrize("kind", list(LOSS))
@pytest.mark.parametrize("loss", [4, 5, 6])
def test_monster_lose_costs_the_monsters_coins(kind: str, loss: int) -> None:
    """vortex.monster.lose: "you lose the number of coins indicated on each monster" (RULES.md: Hand 1, Warrior 2,
    Thing From Beyond 3); the monster stays on its headstone."""
    state = monster(put(started(), 0, stone=0, coins=4), 1, kind, "O1")
    _, after = act(state, Roll(seat=0), 3, loss)
    assert after.phantoms[0].coins == 4 + 3 - LOSS[kind]
    assert (placed := after.monster_on("O1")) is not None and placed.seat == 1


def test_monster_coins_go_to_the_monster_not_its_owner() -> None:
    """vortex.monster.coins-to-monster: "If they lose, the monster gets their coins (you don't, sorry)." """
    state = monster(put(started(), 0, stone=0, coins=4), 1, "thing-from-beyond", "O1")
    state = put(state, 1, coins=5)
    _, after = act(state, Roll(seat=0), 3, 6)
    assert after.phantoms[1].coins == 5


def test_battle_order_monsters_first_then_sentinel() -> None:
    """vortex.battle.order: RULES.md "monsters first (each one beside you), then the Sentinel" (C2 is beside the
    Courtyard Sentinel's stone 6)."""
    state = monster(put(started(), 0, region="courtyard", stone=4, coins=6), 1, "skeletal-hand", "C2")
    events, _ = act(state, Roll(seat=0), 2, 2, 6)
    kinds = [type(e) for e in events if isinstance(e, MonsterBattled | SentinelBattled)]
    assert kinds == [MonsterBattled, SentinelBattled]
    assert of_type(events, SentinelBattled)[0].coins == 6  # 6 + 2 for the Hand, - 2 to the Sentinel


def test_battle_order_sentinel_threshold_counts_coins_after_monster() -> None:
    """vortex.battle.order (decision): the six-coin test is made when the Sentinel's battle comes, after monsters."""
    state = monster(put(started(), 0, region="courtyard", stone=4, coins=7), 1, "skeletal-warrior", "C2")
    events, after = act(state, Roll(seat=0), 2, 5)
    assert of_type(events, SentinelIgnored) == [SentinelIgnored(seat=0, region="courtyard", stone=6, coins=5)]
    assert after.phantoms[0].coins == 5


def test_monster_every_one_beside_you_is_fought() -> None:
    """vortex.battle.order: with a headstone on each side of the landing stone, both monsters are fought in turn."""
    board = board_with(lambda d: d["outer"]["headstones"][1].__setitem__("between", [4, 5]))
    state = put(started(board=board), 0, stone=0, coins=2)
    state = monster(monster(state, 1, "skeletal-hand", "O1"), 2, "thing-from-beyond", "O2")
    # shovel: no coins; beats the Hand (+2); loses to the Thing (-3)
    events, after = act(state, Roll(seat=0), 4, 6, 1, 6)
    assert [(e.headstone, e.won) for e in of_type(events, MonsterBattled)] == [("O1", True), ("O2", False)]
    assert after.phantoms[0].coins == 1
