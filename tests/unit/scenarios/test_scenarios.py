"""Every scenario file (the examples in docs/scenarios and the rules tests here) passes through the public rules;
and the scenario runner itself: its format, its draws and its verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.cli.main import main
from shared.scenario.format import ScenarioError, parse
from shared.scenario.run import run

HERE = Path(__file__).parent
EXAMPLES = Path(__file__).parents[3] / "docs" / "scenarios"
FILES = sorted(EXAMPLES.glob("*.toml")) + sorted(HERE.glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    from shared.scenario.format import load

    outcome = run(load(path))
    assert outcome.passed, "\n".join(outcome.failures)
    assert outcome.scenario.expect != type(outcome.scenario.expect)(), "a scenario test says what it expects"


def test_examples_cover_each_game_and_edition() -> None:
    from shared.scenario.format import load

    games = {(s.game, s.options.get("edition")) for s in map(load, EXAMPLES.glob("*.toml"))}
    assert {("phantoms", "poti"), ("phantoms", "powerplay"), ("vortex", None), ("hockeydice", None)} <= games


HOCKEY = """
game = "hockeydice"
[position]
puck = "centre"
[[play]]
type = "Roll"
seat = 0
"""


def test_a_draw_the_scenario_does_not_give_stops_it_and_names_the_draw() -> None:
    outcome = run(parse(HOCKEY))
    assert not outcome.passed and "needs a draw the scenario does not give" in outcome.failures[0]
    assert "DiceRequest(faces=6, count=6)" in outcome.failures[0]


def test_a_seed_lets_fresh_draws_in_and_labels_them() -> None:
    outcome = run(parse(HOCKEY + "[draws]\nseed = 3\n"))
    assert outcome.passed and outcome.steps[0].draws
    assert {d.source for d in outcome.steps[0].draws} == {"FRESH"}


def test_an_unexpected_refusal_fails_the_scenario() -> None:
    outcome = run(parse(HOCKEY.replace('type = "Roll"', 'type = "UsePowerChip"')))
    assert not outcome.passed and "hockey.turn.wrong-command" in outcome.failures[0]


@pytest.mark.parametrize(("text", "message"), [
    ('game = "chess"', "unknown game"),
    ('game = "phantoms"\n[position]\nhands = [["crown-f1"], ["nope"]]', "not in the poti deck: nope"),
    ('game = "vortex"\n[position]\nphantoms = [{region = "outer", stone = 99}, {region = "outer", stone = 0}]',
     "no stone 99"),
    ('game = "hockeydice"\n[position]\npuck = "blue-line"', "puck 'blue-line'"),
    ('game = "hockeydice"\ncolour = "red"', "colour"),
])
def test_a_scenario_that_cannot_be_read_says_why(text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        run(parse(text))


def test_league_scenario_run_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "run", str(EXAMPLES / "poti-injury-by-the-draft.toml")]) == 0
    assert "PASSED" in capsys.readouterr().out
    failing = tmp_path / "failing.toml"
    failing.write_text(HOCKEY + '[draws]\nseed = 3\n[expect]\nwinners = [1]\n')
    assert main(["scenario", "run", str(failing)]) == 1
    assert "FAILED winners" in capsys.readouterr().out
    broken = tmp_path / "broken.toml"
    broken.write_text("game = ")
    assert main(["scenario", "run", str(broken)]) == 2
    assert "league scenario:" in capsys.readouterr().err
