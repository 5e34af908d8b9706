from __future__ import annotations

from shared.config import StoreSettings


class RelaySettings(StoreSettings, kw_only=True, frozen=True):
    relay_batch: int = 500
