from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from shared.config import StoreSettings


class RngSettings(StoreSettings, kw_only=True, frozen=True):
    PRODUCTION_REQUIRED: ClassVar[tuple[str, ...]] = ("rng_seed_key", "rng_engine_key", "notary_key")

    rng_seed_key: str = ""
    """base64 of 32 bytes: seals server seeds at rest. Outside production a key file under DATA_DIR is used."""
    rng_engine_key: str = ""
    """base64 of 32 bytes shared with the engine: only signed requests get draws."""
    notary_key: str = ""
    """base64 of 32 bytes: the Ed25519 key that signs the log's checkpoints (``services/rng/notary.py``). Outside
    production a key file under DATA_DIR is used."""
    notary_events: Annotated[int, msgspec.Meta(ge=1)] = 10_000
    """A checkpoint at least every this many events..."""
    notary_seconds: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    """...or this long after the last one, when the log moved."""
    data_dir: str = ".data"
