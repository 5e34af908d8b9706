"""The bots, the GameRules contract and the import boundary."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from shared.games.draws import SeededDraws
from shared.games.phantoms import rules
from shared.games.phantoms.legal import legal_commands
from shared.games.phantoms.options import Options
from shared.games.rules import AnyRules, fold
from tests.unit.phantoms.simulate import bot_season

PACKAGE = Path(__file__).resolve().parents[3] / "shared" / "games" / "phantoms"


def test_phantoms_rules_satisfies_the_game_rules_protocol() -> None:
    r: AnyRules = rules
    assert r.name == "phantoms" and r.options_type is Options and set(r.bots) == {"random", "greedy"}
    assert all(str(t.__struct_config__.tag).startswith("phantoms.") for t in (*r.event_types, *r.command_types))
    assert r.initial_state() is None and not r.is_over(None)


@pytest.mark.parametrize(("bot", "edition"), [("random", "poti"), ("greedy", "powerplay"), ("greedy", "poti")])
def test_phantoms_bots_choose_only_legal_commands(bot: str, edition: str) -> None:
    rng = random.Random(4)
    draws = SeededDraws(rng)
    s = fold(rules, rules.new_game(Options(edition=edition), 3, draws))  # type: ignore[arg-type]
    assert s is not None
    for _ in range(400):
        if rules.is_over(s):
            break
        seat = min(rules.pending_seats(s))
        command = rules.bots[bot](s, seat, rng)
        assert command in legal_commands(s, seat)
        for e in rules.decide(s, command, draws):
            s = rules.evolve(s, e)
    assert s.results


def test_phantoms_greedy_beats_random_more_often_than_not() -> None:
    titles = sum(bot_season(Options(season_end="nine_wins_no_series"), 2, seed, ("greedy", "random"))[0].champion == 0
                 for seed in range(12))
    assert titles >= 7


def test_phantoms_render_shows_scorepad_and_public_teams() -> None:
    state, _ = bot_season(Options(), 3, 1, ("greedy",))
    text = rules.render(state)
    assert "Champion" in text and "M0" in text and ":" in text
    assert not any(c in text for m in state.managers for c in m.cards)


def test_phantoms_package_imports_only_stdlib_msgspec_and_shared_games() -> None:
    allowed = {"msgspec", "shared", "__future__", "collections", "functools", "hashlib", "importlib", "itertools",
               "typing", "random", "dataclasses"}
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
                if name.startswith("shared"):
                    assert name.startswith("shared.games"), f"{path.name} imports {name}"
