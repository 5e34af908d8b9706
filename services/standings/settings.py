from __future__ import annotations

from shared.config import StoreSettings


class StandingsSettings(StoreSettings, kw_only=True, frozen=True):
    pass
