"""The provably-fair draw recipe, version ``v1``: ``docs/fairness.md`` specifies it to the byte."""

from __future__ import annotations

from shared.fairness.recipe import RECIPE_VERSION, check_request, draw
from shared.fairness.replay import FairDraws, Mismatch, recompute
from shared.fairness.seeds import (
    CLIENT_SEED_MAX_BYTES,
    SERVER_SEED_BYTES,
    commitment,
    new_server_seed,
    verify_commitment,
)
from shared.fairness.stream import VERSION_TAG, block_message

__all__ = [
    "CLIENT_SEED_MAX_BYTES",
    "RECIPE_VERSION",
    "SERVER_SEED_BYTES",
    "VERSION_TAG",
    "FairDraws",
    "Mismatch",
    "block_message",
    "check_request",
    "commitment",
    "draw",
    "new_server_seed",
    "recompute",
    "verify_commitment",
]
