from __future__ import annotations

import asyncio

from services.engine.draws_ahead import RETRY_SECONDS, DrawsAhead
from shared.fairness import draw
from shared.fairness.stream import Keyed
from shared.games.draws import DiceRequest, ShuffleRequest
from shared.messages.rng import WantedBlocks

SEED = bytes(32)
GAME = "hockeydice-ahead"


class Blocks:
    """The RNG service's side, from a known seed; counts what it was asked."""

    def __init__(self) -> None:
        self.asked: list[WantedBlocks] = []

    async def blocks(self, wanted: WantedBlocks) -> bytes:
        self.asked.append(wanted)
        return Keyed(SEED, wanted.game_id, wanted.client_seeds).first_blocks(wanted.first_nonce, wanted.count)


def ahead_of(rng: Blocks) -> DrawsAhead:
    return DrawsAhead(rng, ahead=8, refill_below=3)  # type: ignore[arg-type]


def test_draws_come_from_the_blocks_and_are_those_of_the_recipe() -> None:
    async def run() -> None:
        rng = Blocks()
        ahead = ahead_of(rng)
        assert ahead.take(GAME, 0, DiceRequest(6, 2), ()) is None  # nothing asked yet: the RNG answers it
        ahead.look_ahead(GAME, 0, ())
        await asyncio.sleep(0)
        for nonce in range(8):
            taken = ahead.take(GAME, nonce, DiceRequest(6, 2), ())
            assert taken is not None and taken.values == draw(SEED, GAME, (), nonce, DiceRequest(6, 2))
        assert ahead.take(GAME, 8, DiceRequest(6, 2), ()) is None
        assert ahead.take(GAME, 1, ShuffleRequest(52), ()) is None  # more than one block: asked whole
        assert ahead.take(GAME, 1, DiceRequest(6, 2), ("other seeds",)) is None
        assert ahead.answered == 8
    asyncio.run(run())


def test_the_window_is_refilled_once_behind_the_game_and_forgotten_at_its_end() -> None:
    async def run() -> None:
        rng = Blocks()
        ahead = ahead_of(rng)
        ahead.look_ahead(GAME, 0, ())
        ahead.look_ahead(GAME, 0, ())  # already asking: not twice
        await asyncio.sleep(0)
        assert [(w.first_nonce, w.count) for w in rng.asked] == [(0, 8)]
        ahead.look_ahead(GAME, 4, ())  # 4 left of 8: enough
        await asyncio.sleep(0)
        assert len(rng.asked) == 1
        ahead.look_ahead(GAME, 6, ())  # 2 left: the next 8 after the window
        await asyncio.sleep(0)
        assert [(w.first_nonce, w.count) for w in rng.asked] == [(0, 8), (8, 8)]
        for nonce in range(6, 16):
            taken = ahead.take(GAME, nonce, DiceRequest(6, 1), ())
            assert taken is not None and taken.values == draw(SEED, GAME, (), nonce, DiceRequest(6, 1))
        assert ahead.take(GAME, 5, DiceRequest(6, 1), ()) is None  # behind the game: dropped
        ahead.look_ahead(GAME, 40, ())  # the game went on elsewhere: a window from where it is now
        await asyncio.sleep(0)
        assert rng.asked[-1].first_nonce == 40 and ahead.take(GAME, 40, DiceRequest(6, 1), ()) is not None
        ahead.forget(GAME)
        assert ahead.take(GAME, 41, DiceRequest(6, 1), ()) is None
        await ahead.close()
    asyncio.run(run())


def test_a_refused_request_leaves_the_draws_to_the_rng() -> None:
    class Refusing(Blocks):
        async def blocks(self, wanted: WantedBlocks) -> bytes:
            self.asked.append(wanted)
            raise TimeoutError

    async def run() -> None:
        rng = Refusing()
        ahead = ahead_of(rng)
        ahead.look_ahead(GAME, 0, ())
        await asyncio.sleep(0)
        assert ahead.take(GAME, 0, DiceRequest(6, 1), ()) is None
        ahead.look_ahead(GAME, 1, ())  # not at once: the next commands' draws go to the RNG meanwhile
        await asyncio.sleep(0)
        assert len(rng.asked) == 1
        await asyncio.sleep(RETRY_SECONDS)
        ahead.look_ahead(GAME, 2, ())
        await asyncio.sleep(0)
        assert len(rng.asked) == 2
    asyncio.run(run())
