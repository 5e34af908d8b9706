"""What the demo has set going, kept in ``<data dir>/demo.json`` while it runs: the bot players it registered and
the tournaments it created. A demo that ends removes the file; one that was interrupted leaves it, and the next
``league up`` ends the games those players were left in (``shared.cli.interrupted``)."""

from __future__ import annotations

from pathlib import Path

import msgspec

FILE = "demo.json"


class DemoRecord(msgspec.Struct, kw_only=True):
    players: list[str] = []
    tournaments: list[str] = []


class DemoLog:
    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / FILE
        self.record = DemoRecord()

    def players(self, player_ids: list[str]) -> None:
        self.record.players += player_ids
        self._save()

    def tournament(self, tournament_id: str) -> None:
        self.record.tournaments.append(tournament_id)
        self._save()

    def finished(self) -> None:
        self.path.unlink(missing_ok=True)

    def _save(self) -> None:
        """Written whole and renamed into place: an interruption never leaves half a file."""
        partial = self.path.with_suffix(".partial")
        partial.write_bytes(msgspec.json.encode(self.record))
        partial.replace(self.path)


def interrupted_demo(data_dir: Path) -> DemoRecord | None:
    path = data_dir / FILE
    if not path.exists():
        return None
    try:
        return msgspec.json.decode(path.read_bytes(), type=DemoRecord)
    except msgspec.DecodeError:
        return DemoRecord()
