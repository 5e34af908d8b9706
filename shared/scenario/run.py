"""Running a scenario: build its position, play its commands through the game's public rules (``decide`` and
``evolve``, with the scenario's dice to come), and check what came out against its ``[expect]``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Union

import msgspec

from shared.games.draws import DrawMismatch, DrawsExhausted
from shared.games.rules import AnyRules, RuleViolation
from shared.messages.games import UnknownGame, rules_of
from shared.scenario.draws import DiceToCome, SourcedDraw
from shared.scenario.expect import event_matches, in_order, position_failures, show
from shared.scenario.format import Scenario, ScenarioError
from shared.scenario.positions import PositionError, Positions, positions_of

CONTROL = ("refused",)


@dataclass
class Step:
    number: int
    command: Any
    events: list[Any] = field(default_factory=list)
    refused: RuleViolation | None = None
    expected_refusal: str | None = None
    draws: list[SourcedDraw] = field(default_factory=list)


@dataclass
class Outcome:
    scenario: Scenario
    rules: AnyRules
    positions: Positions
    start: Any
    state: Any
    steps: list[Step] = field(default_factory=list)
    stopped: str | None = None
    """Why the play stopped before its last command (a refusal nobody expected, a draw the scenario lacks)."""
    draws_left: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def events(self) -> list[Any]:
        return [e for s in self.steps for e in s.events]

    @property
    def passed(self) -> bool:
        return not self.failures


def command_of(rules: AnyRules, step: dict[str, Any], seat: int | None = None) -> Any:
    """A command from its table: ``type`` is its tag, with or without the game's prefix."""
    fields = {k: v for k, v in step.items() if k not in CONTROL}
    kind = str(fields.get("type", ""))
    if not kind:
        raise ScenarioError(f"a command needs its type (one of {', '.join(_names(rules))}): {show(step)}")
    fields["type"] = kind if "." in kind else f"{rules.name}.{kind}"
    if seat is not None:
        fields["seat"] = seat
    types = tuple(rules.command_types)
    try:
        return msgspec.convert(fields, Union[types])  # noqa: UP007
    except msgspec.ValidationError as error:
        raise ScenarioError(f"not a {rules.name} command ({error}): {show(step)}; commands: "
                            f"{', '.join(_names(rules))}") from None


def _names(rules: AnyRules) -> list[str]:
    return [t.__name__ for t in rules.command_types]


def prepare(scenario: Scenario) -> tuple[AnyRules, Positions, Any]:
    try:
        rules = rules_of(scenario.game)
        positions = positions_of(scenario.game)
        options = msgspec.convert(scenario.options, rules.options_type)
        return rules, positions, positions.build(options, scenario.position)
    except (UnknownGame, PositionError) as error:
        raise ScenarioError(str(error)) from None
    except msgspec.ValidationError as error:
        raise ScenarioError(f"options: {error}") from None
    except RuleViolation as error:
        raise ScenarioError(f"the rules refuse this position: {error.code}: {error.message}") from None


def run(scenario: Scenario) -> Outcome:
    rules, positions, state = prepare(scenario)
    given = scenario.draws
    draws = DiceToCome(given.dice, given.integers, given.shuffles,
                       None if given.seed is None else random.Random(given.seed))
    out = Outcome(scenario=scenario, rules=rules, positions=positions, start=state, state=state)
    pending = list(scenario.play)
    number = 0
    while pending and out.stopped is None:
        raw = pending.pop(0)
        try:
            expanded = positions.expand(out.state, raw)
        except PositionError as error:
            raise ScenarioError(str(error)) from None
        if expanded != [raw]:
            pending[:0] = expanded
            continue
        number += 1
        step = Step(number, command_of(rules, raw), expected_refusal=raw.get("refused"))
        out.steps.append(step)
        before = len(draws.sourced)
        try:
            step.events = list(rules.decide(out.state, step.command, draws))
        except RuleViolation as violation:
            step.refused = violation
            if step.expected_refusal is None and violation.code not in scenario.expect.refused:
                out.stopped = f"step {number} was refused: {violation.code}: {violation.message}"
        except DrawsExhausted as need:
            out.stopped = (f"step {number} needs a draw the scenario does not give: {need.request}; add it under "
                           f"[draws] (or set [draws] seed to let fresh draws in)")
        except (DrawMismatch, ValueError) as error:
            out.stopped = f"step {number}: {error}"
        step.draws = draws.sourced[before:]
        for event in step.events:
            out.state = rules.evolve(out.state, event)
    out.draws_left = draws.left
    out.failures = failures(out)
    return out


def failures(out: Outcome) -> list[str]:
    expect, game = out.scenario.expect, out.scenario.game
    found: list[str] = []
    if out.stopped is not None:
        found.append(out.stopped)
    for step in out.steps:
        if step.expected_refusal is not None and (step.refused is None or step.refused.code != step.expected_refusal):
            got = "accepted" if step.refused is None else f"refused {step.refused.code}"
            found.append(f"step {step.number}: expected refused {step.expected_refusal}, {got}")
    refused = [s.refused.code for s in out.steps if s.refused is not None and s.expected_refusal is None]
    if expect.refused and tuple(refused) != expect.refused:
        found.append(f"refused: expected {list(expect.refused)}, found {refused}")
    if (missing := in_order(expect.events, out.events, game)) is not None:
        found.append(f"events: {missing} did not come out (in this order)")
    for unwanted in expect.absent:
        if any(event_matches(unwanted, e, game) for e in out.events):
            found.append(f"absent: {show(unwanted)} came out")
    found += position_failures(expect.position, out.positions.describe(out.state))
    if expect.winners is not None and tuple(out.rules.winners(out.state)) != expect.winners:
        found.append(f"winners: expected {list(expect.winners)}, found {list(out.rules.winners(out.state))}")
    return found
