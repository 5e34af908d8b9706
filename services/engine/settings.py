from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from shared.config import StoreSettings


class EngineSettings(StoreSettings, kw_only=True, frozen=True):
    PRODUCTION_REQUIRED: ClassVar[tuple[str, ...]] = ("rng_engine_key",)

    rng_engine_key: str = ""
    """base64 of 32 bytes shared with the RNG service. Outside production a key file under DATA_DIR is used."""
    data_dir: str = ".data"
    lease_seconds: Annotated[float, msgspec.Meta(gt=0, le=60)] = 1.0
    """How often the replica looks at the partition leases: a dead replica's partitions are taken over within
    about this time, and a new replica gets its share."""
    rescan_seconds: float = 30.0
    """How often each replica looks in the log for running games that owe engine moves (bot seats, turn timers):
    a game whose replica died is picked up by another within this time."""
