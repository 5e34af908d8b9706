from services.standings.folding import latest_of_whole_values
from services.standings.projections.base import Change


def board(game: str, version: int) -> Change:
    return Change(projection="boards", key=game, data={"version": version})


def game(game: str, running: bool) -> Change:
    return Change(projection="games", key=game, data={"running": running})


def test_a_batch_reports_each_board_once_at_its_last_change_and_every_other_change_where_it_happened() -> None:
    events = ["e0", "e1", "e2", "e3", "e4"]
    changes = {0: [game("a", True), board("a", 1)], 1: [board("b", 2)], 2: [board("a", 3)],
               3: [board("b", 4), game("b", False)], 4: [Change(projection="counters", key="league", data={})]}
    assert latest_of_whole_values(events, changes) == [
        ("e0", [game("a", True)]),
        ("e2", [board("a", 3)]),
        ("e3", [board("b", 4), game("b", False)]),
        ("e4", [Change(projection="counters", key="league", data={})]),
    ]


def test_changes_of_projections_that_report_deltas_are_all_kept() -> None:
    changes = {0: [game("a", True)], 1: [game("a", False)]}
    assert latest_of_whole_values(["e0", "e1"], changes) == [("e0", [game("a", True)]), ("e1", [game("a", False)])]
