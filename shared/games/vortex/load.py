"""Reading a board file (the reference one shipped here, or an organiser's own) into a validated Board."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from shared.games.vortex.board import REFERENCE_PATH, REGION_TITLES, REGIONS, Board, BoardError
from shared.games.vortex.validate import validate_board


def load_board(source: str | Path | Mapping[str, Any]) -> Board:
    """A validated board from a JSON file path or an already parsed mapping; raises BoardError."""
    try:
        if isinstance(source, Mapping):
            _reject_unknown_keys(source)
            board = msgspec.convert(source, Board)
        else:
            raw = Path(source).read_bytes()
            _reject_unknown_keys(msgspec.json.decode(raw))
            board = msgspec.json.decode(raw, type=Board)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise BoardError(f"not a Vortex board: {e}") from e
    except OSError as e:
        raise BoardError(f"cannot read the board file {source}: {e}") from e
    validate_board(board)
    return board


@functools.cache
def reference_board() -> Board:
    return load_board(REFERENCE_PATH)


def _reject_unknown_keys(data: Any) -> None:
    if not isinstance(data, Mapping):
        return
    _only(data, {"name", *REGIONS}, "board")
    for name in REGIONS:
        region = data.get(name)
        if isinstance(region, Mapping):
            _only(region, {"stones", "sentinels", "headstones"}, REGION_TITLES[name])
            for headstone in region.get("headstones") or ():
                if isinstance(headstone, Mapping):
                    _only(headstone, {"id", "between"}, f"a headstone of the {REGION_TITLES[name]}")


def _only(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise BoardError(f"unknown field(s) {', '.join(unknown)} in {where}; allowed: {', '.join(sorted(allowed))}")
