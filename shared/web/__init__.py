"""The browser side every page of the league shares (plain ES modules and CSS, no build step): the drawings of each
game's board, the player-name helpers and the in-browser fairness check. The standings service and the gateway both
serve ``static/`` at ``/lib/``."""

from __future__ import annotations

from pathlib import Path

WEB_LIB = Path(__file__).parent / "static"
