"""The byte stream of one draw: HMAC-SHA256 blocks, and unbiased integers read from it."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Protocol

from shared.fairness.seeds import check_server_seed, encode_client_seeds, encode_text

VERSION_TAG = b"phantom-league/fair/v1"
MAX_NONCE = 2**64 - 1
MAX_BLOCK = 2**32 - 1
BLOCK_BYTES = 32


def _prefixed(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def message_prefix(game_id: str, client_seeds: Sequence[str]) -> bytes:
    """Everything in a block's HMAC message before the nonce and the block number."""
    seeds = encode_client_seeds(client_seeds)
    parts = [_prefixed(VERSION_TAG), _prefixed(encode_text("game id", game_id)), len(seeds).to_bytes(4, "big")]
    parts.extend(_prefixed(seed) for seed in seeds)
    return b"".join(parts)


def check_nonce(nonce: int) -> int:
    if not isinstance(nonce, int) or isinstance(nonce, bool):
        raise ValueError(f"nonce must be an int, not {type(nonce).__name__}")
    if not 0 <= nonce <= MAX_NONCE:
        raise ValueError(f"nonce must be in 0..2**64-1, got {nonce}")
    return nonce


def block_message(game_id: str, client_seeds: Sequence[str], nonce: int, block: int) -> bytes:
    return message_prefix(game_id, client_seeds) + check_nonce(nonce).to_bytes(8, "big") + block.to_bytes(4, "big")


class Keyed:
    """The server seed and message prefix of one game, hashed once and copied for every block."""

    def __init__(self, server_seed: bytes, game_id: str, client_seeds: Sequence[str]) -> None:
        self._mac = hmac.new(check_server_seed(server_seed), message_prefix(game_id, client_seeds), hashlib.sha256)

    def block(self, nonce: int, block: int) -> bytes:
        mac = self._mac.copy()
        mac.update(nonce.to_bytes(8, "big") + block.to_bytes(4, "big"))
        return mac.digest()

    def stream(self, nonce: int) -> ByteStream:
        return ByteStream(self, check_nonce(nonce))

    def first_blocks(self, first_nonce: int, count: int) -> bytes:
        """Block 0 of nonces ``first_nonce .. first_nonce + count - 1``, one after the other."""
        check_nonce(first_nonce + count - 1)
        return b"".join(self.block(nonce, 0) for nonce in range(check_nonce(first_nonce), first_nonce + count))


class Blocks(Protocol):
    def block(self, nonce: int, block: int) -> bytes: ...


class BlockMissing(Exception):
    """A draw needs more of its nonce's stream than the blocks at hand."""


class FirstBlock:
    """Block 0 of one nonce, handed out ahead by the RNG service (``Keyed.first_blocks``): enough for a few dice
    or a small range; a draw that reads past it raises BlockMissing, and is asked of the RNG service whole."""

    def __init__(self, nonce: int, block: bytes) -> None:
        if len(block) != BLOCK_BYTES:
            raise ValueError(f"a block is {BLOCK_BYTES} bytes, not {len(block)}")
        self._nonce, self._block = nonce, block

    def block(self, nonce: int, block: int) -> bytes:
        if nonce != self._nonce or block != 0:
            raise BlockMissing(f"block {block} of nonce {nonce} is not at hand")
        return self._block


class ByteStream:
    """Blocks 0, 1, 2, ... of one nonce, concatenated and read front to back."""

    def __init__(self, keyed: Blocks, nonce: int) -> None:
        self._keyed = keyed
        self._nonce = nonce
        self._next_block = 0
        self._buffer = b""
        self._pos = 0

    def _refill(self) -> None:
        if self._next_block > MAX_BLOCK:
            raise ValueError("draw needs more than 2**32 HMAC blocks")
        self._buffer = self._buffer[self._pos :] + self._keyed.block(self._nonce, self._next_block)
        self._pos = 0
        self._next_block += 1

    def read(self, size: int) -> bytes:
        while len(self._buffer) - self._pos < size:
            self._refill()
        start = self._pos
        self._pos += size
        return self._buffer[start : self._pos]

    def below(self, m: int) -> int:
        """An integer uniform in ``0..m-1`` by masked rejection sampling; ``m == 1`` reads nothing."""
        bits = (m - 1).bit_length()
        mask = (1 << bits) - 1
        if bits <= 8:
            return self._small_below(m, mask)
        size = (bits + 7) // 8
        while True:
            x = int.from_bytes(self.read(size), "big") & mask
            if x < m:
                return x

    def _small_below(self, m: int, mask: int) -> int:
        if m == 1:
            return 0
        while True:
            if self._pos >= len(self._buffer):
                self._refill()
            x = self._buffer[self._pos] & mask
            self._pos += 1
            if x < m:
                return x

    def many_below(self, m: int, count: int) -> list[int]:
        return [self.below(m) for _ in range(count)]
