"""One draw: the values a request gets from the byte stream of its nonce."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from shared.fairness.stream import ByteStream, FirstBlock, Keyed, check_nonce
from shared.games.draws import DiceRequest, DrawRequest, RangeRequest, ShuffleRequest

RECIPE_VERSION = "v1"


def _check_int(what: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be an int, not {type(value).__name__}")
    return value


def check_request(request: DrawRequest) -> None:
    match request:
        case DiceRequest(faces, count):
            if _check_int("dice faces", faces) < 2:
                raise ValueError(f"dice need at least 2 faces, got {faces}")
            if _check_int("dice count", count) < 1:
                raise ValueError(f"dice count must be at least 1, got {count}")
        case RangeRequest(low, high):
            if _check_int("range low", low) > _check_int("range high", high):
                raise ValueError(f"range low {low} is above high {high}")
        case ShuffleRequest(n):
            if _check_int("shuffle size", n) < 0:
                raise ValueError(f"shuffle size must be at least 0, got {n}")
        case _:
            assert_never(request)


def answer(stream: ByteStream, request: DrawRequest) -> tuple[int, ...]:
    check_request(request)
    match request:
        case DiceRequest(faces, count):
            return tuple(1 + x for x in stream.many_below(faces, count))
        case RangeRequest(low, high):
            return (low + stream.below(high - low + 1),)
        case ShuffleRequest(n):
            order = list(range(n))
            for i in range(n - 1, 0, -1):
                j = stream.below(i + 1)
                order[i], order[j] = order[j], order[i]
            return tuple(order)
        case _:
            assert_never(request)


def draw(
    server_seed: bytes, game_id: str, client_seeds: Sequence[str], nonce: int, request: DrawRequest
) -> tuple[int, ...]:
    """The values of draw number ``nonce`` (0-based) of a game, as ``docs/fairness.md`` specifies."""
    return answer(Keyed(server_seed, game_id, client_seeds).stream(nonce), request)


def draw_from_first_block(block: bytes, nonce: int, request: DrawRequest) -> tuple[int, ...]:
    """The same values as ``draw`` for this nonce, from its stream's block 0 alone (handed out ahead by the RNG
    service); raises ``BlockMissing`` when the request needs more of the stream."""
    return answer(ByteStream(FirstBlock(nonce, block), check_nonce(nonce)), request)
