"""The test vectors shipped in ``vectors.json``: fixed inputs and the values recipe v1 gives them."""

from __future__ import annotations

from importlib import resources

import msgspec

from shared.games.draws import DrawRequest


class FirstBlock(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    nonce: int
    block: int
    message_hex: str
    hmac_hex: str


class VectorDraw(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    nonce: int
    request: DrawRequest
    values: tuple[int, ...]


class Vectors(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    recipe_version: str
    version_tag: str
    server_seed_hex: str
    commitment: str
    game_id: str
    client_seeds: tuple[str, ...]
    first_block: FirstBlock
    draws: tuple[VectorDraw, ...]


def load_vectors() -> Vectors:
    data = resources.files("shared.fairness").joinpath("vectors.json").read_bytes()
    return msgspec.json.decode(data, type=Vectors)
