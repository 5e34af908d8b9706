"""A second, deliberately naive implementation of recipe v1 written from docs/fairness.md, for cross-checking."""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator


def message(game_id: str, client_seeds: list[str], nonce: int, block: int) -> bytes:
    out = bytearray()
    for field in (b"phantom-league/fair/v1", game_id.encode("utf-8")):
        out += struct.pack(">I", len(field)) + field
    out += struct.pack(">I", len(client_seeds))
    for seed in client_seeds:
        raw = seed.encode("utf-8")
        out += struct.pack(">I", len(raw)) + raw
    out += struct.pack(">QI", nonce, block)
    return bytes(out)


def stream(server_seed: bytes, game_id: str, client_seeds: list[str], nonce: int) -> Iterator[int]:
    block = 0
    while True:
        yield from hmac.new(server_seed, message(game_id, client_seeds, nonce, block), hashlib.sha256).digest()
        block += 1


class Reader:
    def __init__(self, server_seed: bytes, game_id: str, client_seeds: list[str], nonce: int) -> None:
        self.bytes = stream(server_seed, game_id, client_seeds, nonce)
        self.rejections = 0
        self.consumed = 0

    def int_below(self, m: int) -> int:
        bits = 0
        while (1 << bits) < m:
            bits += 1
        width = -(-bits // 8)
        while True:
            x = 0
            for _ in range(width):
                x = x * 256 + next(self.bytes)
                self.consumed += 1
            x %= 1 << bits
            if x < m:
                return x
            self.rejections += 1


def dice(reader: Reader, faces: int, count: int) -> tuple[int, ...]:
    return tuple(reader.int_below(faces) + 1 for _ in range(count))


def in_range(reader: Reader, low: int, high: int) -> tuple[int, ...]:
    return (low + reader.int_below(high - low + 1),)


def shuffle(reader: Reader, n: int) -> tuple[int, ...]:
    a = list(range(n))
    i = n - 1
    while i >= 1:
        j = reader.int_below(i + 1)
        a[i], a[j] = a[j], a[i]
        i -= 1
    return tuple(a)
