"""The GameRules contract: tags, public views, restartable decide, pure imports, rendering."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import msgspec
import pytest

from shared.games.draws import DiceRequest, Draw, DrawsExhausted, RecordedDraws
from shared.games.vortex import Options, rules
from shared.games.vortex.commands import Roll
from shared.games.vortex.view import View

from .support import act, monster, put, started

ROOT = Path(__file__).resolve().parents[3]


def test_contract_rules_object() -> None:
    assert rules.name == "vortex"
    assert rules.options_type is Options
    assert set(rules.bots) == {"random", "greedy"}
    assert rules.initial_state() is None


@pytest.mark.parametrize("kind", [*rules.event_types, *rules.command_types, Options, View])
def test_contract_messages_are_frozen_and_tagged(kind: type[msgspec.Struct]) -> None:
    config = kind.__struct_config__
    assert config.frozen
    assert config.tag == f"vortex.{kind.__name__}"


def test_contract_every_command_names_its_seat() -> None:
    assert all("seat" in kind.__struct_fields__ for kind in rules.command_types)


def test_contract_all_public() -> None:
    """vortex.public: all Vortex information is public: no event is private and every viewer sees the same."""
    state = monster(started(), 1, "skeletal-hand", "O1")
    assert all(rules.visible_to(e) is None for e in rules.new_game(Options(), 2, RecordedDraws()))
    views = [rules.view(state, viewer) for viewer in (None, 0, 1, 2, 3)]
    assert all(v == views[0] for v in views) and isinstance(views[0], View)
    assert views[0].phantoms[1].headstone == "O1"


def test_contract_decide_restartable_with_recorded_draws() -> None:
    """decide asks for draws in a fixed order and may be re-run with one more draw each time it runs out."""
    state = monster(put(started(), 0, stone=0, coins=2), 1, "thing-from-beyond", "O1")
    before = msgspec.json.encode(state)
    recorded: list[Draw] = []
    for value in (4, 6, 2):  # move to the shovel stone 4, dig, then battle the Thing beside it
        with pytest.raises(DrawsExhausted) as caught:
            rules.decide(state, Roll(seat=0), RecordedDraws(recorded))
        assert caught.value.request == DiceRequest(6, 1)
        recorded.append(Draw(caught.value.request, (value,)))
    events = rules.decide(state, Roll(seat=0), RecordedDraws(recorded))
    assert events == act(state, Roll(seat=0), 4, 6, 2)[0]
    assert msgspec.json.encode(state) == before


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_contract_pure_imports() -> None:
    """shared/games/** imports only the standard library, msgspec and shared.games.*."""
    files = sorted((ROOT / "shared" / "games" / "vortex").glob("*.py"))
    assert len(files) > 5
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            allowed = top in sys.stdlib_module_names or top == "msgspec" or name.startswith("shared.games")
            assert allowed, f"{path.name} imports {name}"


def test_render_shows_phantoms_monsters_and_coins() -> None:
    state = monster(put(started(), 2, coins=7), 3, "thing-from-beyond", "C2")
    text = rules.render(state)
    assert "C seat 2: Outer Grounds 12, 7 coins" in text
    assert "Thing From Beyond on C2" in text
    courtyard_kinds = text.splitlines()[text.splitlines().index("Courtyard (clockwise)") + 2]
    assert ".Sd" in courtyard_kinds  # stone 6 has a Sentinel, and D's monster stands on C2 between 6 and 7
    assert "A must roll the die" not in text and "A (seat 0) must roll the die" in text
