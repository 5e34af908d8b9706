from __future__ import annotations


class TournamentRejected(Exception):
    """A command the tournament refuses; it changes nothing. ``code`` is ``tournament.<reason>``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
