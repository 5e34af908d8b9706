"""Movement and Battle phases: where a phantom lands, and what that stone and its neighbours do to it."""

from __future__ import annotations

from shared.games.vortex.board import RING_SIZES, SHOVEL_COINS, STONE_COINS
from shared.games.vortex.commands import Direction
from shared.games.vortex.events import (
    CoinsCollected,
    Dug,
    MonsterBattled,
    PhantomMoved,
    SentinelBattled,
    SentinelIgnored,
)
from shared.games.vortex.state import MONSTER_COST, SENTINEL_THRESHOLD, clamp_coins
from shared.games.vortex.tape import Tape

WIN_FACES = (1, 2, 3)
MONSTER_WIN_COINS = 2
SENTINEL_LOSS = 2


def target(start: int, steps: int, direction: Direction, ring: int) -> int:
    return (start + steps if direction == "clockwise" else start - steps) % ring


def move(tape: Tape, steps: int, direction: Direction) -> None:
    phantom = tape.state.current
    stone = target(phantom.stone, steps, direction, RING_SIZES[phantom.region])
    tape.add(PhantomMoved(seat=phantom.seat, region=phantom.region, start=phantom.stone, stone=stone, steps=steps,
                          direction=direction))
    if phantom.region != "temple":
        _collect(tape)
        _battle_monsters(tape)
        _meet_sentinel(tape)


def _collect(tape: Tape) -> None:
    phantom = tape.state.current
    kind = tape.state.board.region(phantom.region).stones[phantom.stone]
    if kind in STONE_COINS:
        amount = STONE_COINS[kind]
        tape.add(CoinsCollected(seat=phantom.seat, amount=amount, coins=clamp_coins(phantom.coins + amount)))
    elif kind == "shovel":
        dug = tape.die()
        found = dug in WIN_FACES
        tape.add(Dug(seat=phantom.seat, roll=dug, found=found,
                     coins=clamp_coins(phantom.coins + (SHOVEL_COINS if found else 0))))


def _battle_monsters(tape: Tape) -> None:
    """Every monster beside the landing stone, in board order, the phantom's own monster included."""
    region = tape.state.board.region(tape.state.current.region)
    for headstone in region.headstones:
        owner = tape.state.monster_on(headstone.id)
        phantom = tape.state.current
        if phantom.stone not in headstone.between or owner is None or owner.monster is None:
            continue
        dice = tape.die()
        won = dice in WIN_FACES
        change = MONSTER_WIN_COINS if won else -MONSTER_COST[owner.monster]
        coins = clamp_coins(phantom.coins + change)
        tape.add(MonsterBattled(seat=phantom.seat, owner=owner.seat, monster=owner.monster, headstone=headstone.id,
                                roll=dice, won=won, coins=coins))


def _meet_sentinel(tape: Tape) -> None:
    """Fought after the monsters, with the coins left then; below six coins the Sentinel ignores the phantom."""
    phantom = tape.state.current
    if phantom.stone not in tape.state.board.region(phantom.region).sentinels:
        return
    if phantom.coins < SENTINEL_THRESHOLD:
        tape.add(SentinelIgnored(seat=phantom.seat, region=phantom.region, stone=phantom.stone, coins=phantom.coins))
        return
    dice = tape.die()
    won = dice in WIN_FACES
    coins = phantom.coins if won else clamp_coins(phantom.coins - SENTINEL_LOSS)
    tape.add(SentinelBattled(seat=phantom.seat, region=phantom.region, stone=phantom.stone, roll=dice, won=won,
                             coins=coins))
