from __future__ import annotations

from typing import get_args

from services.gateway.schemas import GameName
from shared.messages.games import GAMES


def test_the_documented_game_names_are_the_games_the_league_hosts() -> None:
    assert set(get_args(GameName)) == set(GAMES)
