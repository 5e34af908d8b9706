"""The scenario file (TOML or JSON; ``docs/scenarios.md``): a game, its options, a position in the game's own
terms, the dice to come, the commands to play and what should come out."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import msgspec


class ScenarioError(ValueError):
    """A scenario file that cannot be read as one."""


class DrawsToCome(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    dice: tuple[int, ...] = ()
    """Die faces in the order the rules roll them (a roll of three dice takes the next three)."""
    integers: tuple[int, ...] = ()
    shuffles: tuple[tuple[int, ...], ...] = ()
    seed: int | None = None
    """When set, a draw the scenario does not give is made from this seed and labelled FRESH; otherwise the
    scenario stops there and names the draw the rules asked for."""


class Expect(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    events: tuple[str | dict[str, Any], ...] = ()
    """Events that must come out, in this order (others may come between): a type, or a table of its fields."""
    absent: tuple[str | dict[str, Any], ...] = ()
    """Events that must not come out."""
    position: dict[str, Any] = {}
    """Facts of the final position in the game's own terms (``describe``); ``"..."`` in a list stands for any run."""
    winners: tuple[int, ...] | None = None
    refused: tuple[str, ...] = ()
    """Rule ids of the commands expected to be refused, in order (a step may say ``refused = "id"`` instead)."""


class Scenario(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    game: str
    title: str = ""
    rule: str = ""
    """The rule id (RULES.md naming) or reading the scenario is about."""
    notes: str = ""
    options: dict[str, Any] = {}
    position: dict[str, Any] = {}
    draws: DrawsToCome = DrawsToCome()
    play: tuple[dict[str, Any], ...] = ()
    expect: Expect = Expect()


def load(path: Path) -> Scenario:
    try:
        text = path.read_text()
    except OSError as error:
        raise ScenarioError(f"cannot read {path}: {error.strerror}") from None
    return parse(text, json_format=path.suffix == ".json", name=str(path))


def parse(text: str, *, json_format: bool = False, name: str = "scenario") -> Scenario:
    try:
        raw = json.loads(text) if json_format else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise ScenarioError(f"{name}: {error}") from None
    try:
        return msgspec.convert(raw, Scenario)
    except msgspec.ValidationError as error:
        raise ScenarioError(f"{name}: {error}") from None
