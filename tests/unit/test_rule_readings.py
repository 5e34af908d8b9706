"""Every reading the rules name in a refusal is written down in docs/rules-readings.md, with a scenario."""

from __future__ import annotations

from pathlib import Path

from shared.games.hockeydice.rule_ids import SIX_STICKS_MASK
from shared.games.phantoms.readings import READINGS

DOCS = Path(__file__).parents[2] / "docs"
READING_IDS = [*READINGS, "vortex.knock-back.coins", SIX_STICKS_MASK]


def test_every_reading_is_in_the_docs_with_a_scenario_that_shows_it() -> None:
    text = (DOCS / "rules-readings.md").read_text()
    scenarios = "\n".join(p.read_text() for p in (DOCS / "scenarios").glob("*.toml"))
    for reading in READING_IDS:
        assert f"`{reading}`" in text, reading
        assert f'rule = "{reading}"' in scenarios, reading


def test_the_scenarios_the_docs_name_exist() -> None:
    text = (DOCS / "rules-readings.md").read_text() + (DOCS / "scenarios.md").read_text()
    for path in (DOCS / "scenarios").glob("*.toml"):
        assert path.name in text, path.name
