"""RULES.md "Phantom's Vortex": the board is data, with a reference layout; organisers may load another."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from shared.games.draws import RecordedDraws
from shared.games.rules import RuleViolation
from shared.games.vortex import BoardError, Options, load_board, reference_board, rules
from shared.games.vortex.board import REFERENCE_PATH
from shared.games.vortex.events import GameStarted

from .support import reference_data


def test_board_reference_layout_rings_and_spirals() -> None:
    """vortex.board.reference: Outer 24 stones, greens at 0/6/12/18; Courtyard 16 with 4 purple; Temple 12."""
    board = reference_board()
    assert len(board.outer.stones) == 24
    assert board.spirals("green") == (0, 6, 12, 18)
    assert len(board.courtyard.stones) == 16
    assert len(board.spirals("purple")) == 4
    assert len(board.temple.stones) == 12
    assert board.spirals("black") == (0,)
    assert board.spirals("orange") == (4, 8)


def test_board_reference_layout_guards() -> None:
    """vortex.board.reference: 2 Sentinels and 4 headstones in each of the Outer Grounds and the Courtyard."""
    board = reference_board()
    for region in (board.outer, board.courtyard):
        assert len(region.sentinels) == 2
        assert len(region.headstones) == 4
        assert {"coins2", "coins3", "shovel"} <= set(region.stones)


def test_board_temple_has_no_monsters_and_no_coins() -> None:
    """vortex.board.temple: "Temple ... No monsters, no coins." """
    temple = reference_board().temple
    assert set(temple.stones) == {"black", "orange", "plain"}
    assert temple.headstones == () and temple.sentinels == ()


def test_board_load_from_path_and_from_dict_agree() -> None:
    assert load_board(REFERENCE_PATH) == load_board(reference_data()) == reference_board()


def _bad(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(reference_data())
    change(data)
    return data


BAD_BOARDS = {
    "ring of 24": lambda d: d["outer"]["stones"].pop(),
    "ring of 16": lambda d: d["courtyard"]["stones"].append("plain"),
    "green spirals at stones": lambda d: d["outer"]["stones"].__setitem__(1, "green"),
    "4 purple spirals": lambda d: d["courtyard"]["stones"].__setitem__(0, "plain"),
    "Temple has no coins": lambda d: d["temple"]["stones"].__setitem__(3, "coins2"),
    "must be orange": lambda d: d["temple"]["stones"].__setitem__(4, "plain"),
    "no Sentinels": lambda d: d["temple"].__setitem__("sentinels", [3]),
    "cannot enter the Temple": lambda d: d["temple"].__setitem__("headstones", [{"id": "T1", "between": [1, 2]}]),
    "2 Sentinels": lambda d: d["outer"].__setitem__("sentinels", [8]),
    "not on the ring": lambda d: d["outer"].__setitem__("sentinels", [8, 30]),
    "4 headstones": lambda d: d["courtyard"]["headstones"].pop(),
    "neighbour stones": lambda d: d["outer"]["headstones"][0].__setitem__("between", [3, 5]),
    "unique": lambda d: d["courtyard"]["headstones"][0].__setitem__("id", "O1"),
    "allowed there": lambda d: d["outer"]["stones"].__setitem__(2, "purple"),
    "unknown field": lambda d: d["outer"].__setitem__("portals", []),
    "not a Vortex board": lambda d: d["outer"]["stones"].__setitem__(2, "lava"),
}


@pytest.mark.parametrize("message", BAD_BOARDS)
def test_board_validator_rejects_bad_board_with_clear_message(message: str) -> None:
    """vortex.board.invalid: a board that breaks the fixed layout is rejected, naming what is wrong."""
    with pytest.raises(BoardError, match=message):
        load_board(_bad(BAD_BOARDS[message]))


def test_board_missing_file_is_a_board_error(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="cannot read the board file"):
        load_board(tmp_path / "none.json")


def test_board_bad_json_file_is_a_board_error(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text("{not json")
    with pytest.raises(BoardError, match="not a Vortex board"):
        load_board(path)


def test_board_organiser_board_is_played_and_recorded_in_first_event() -> None:
    """vortex.board.organiser: an organiser's own board is used and recorded, so replay needs nothing else."""
    data = reference_data()
    data["name"] = "club night"
    data["outer"]["sentinels"] = [2, 14]
    board = load_board(data)
    events = rules.new_game(Options(board=board), 3, RecordedDraws())
    assert isinstance(events[0], GameStarted)
    assert events[0].board == board
    assert events[0].board.outer.sentinels == (2, 14)


def test_board_invalid_board_in_options_is_a_rule_violation() -> None:
    """vortex.board.invalid: a board built by hand bypassing load_board is still validated at new_game."""
    board = load_board(reference_data())
    broken = type(board)(name="x", outer=board.courtyard, courtyard=board.courtyard, temple=board.temple)
    with pytest.raises(RuleViolation) as caught:
        rules.new_game(Options(board=broken), 2, RecordedDraws())
    assert caught.value.code == "vortex.board.invalid"
    assert "24 stones" in caught.value.message
