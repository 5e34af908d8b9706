"""Table options (RULES.md): chosen when a season is created, recorded in its first event."""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.games.phantoms.cards import Deck, Edition

SeasonEnd = Literal["nine_wins_series7", "nine_wins_no_series", "five_wins_series3", "all_teams_playoff"]


class Options(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.Options"):
    edition: Edition = "poti"
    season_end: SeasonEnd = "nine_wins_series7"
    team_variant: bool = False
    turn_seconds: int | None = None
    deck: Deck | None = None
    """An organiser's own deck; None plays the edition's reference deck."""


def wins_to_end(options: Options) -> int:
    return 5 if options.season_end == "five_wins_series3" else 9


def series_wins(options: Options) -> int:
    """Wins needed to take a championship (or playoff) series: best of 3 or best of 7."""
    return 2 if options.season_end == "five_wins_series3" else 4


MAX_SEATS = 10
MAX_TEAM_SEATS = {"poti": 6, "powerplay": 7}
