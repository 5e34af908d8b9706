from __future__ import annotations

from typing import ClassVar

from shared.config import StoreSettings


class RngSettings(StoreSettings, kw_only=True, frozen=True):
    PRODUCTION_REQUIRED: ClassVar[tuple[str, ...]] = ("rng_seed_key", "rng_engine_key")

    rng_seed_key: str = ""
    """base64 of 32 bytes: seals server seeds at rest. Outside production a key file under DATA_DIR is used."""
    rng_engine_key: str = ""
    """base64 of 32 bytes shared with the engine: only signed requests get draws."""
    data_dir: str = ".data"
