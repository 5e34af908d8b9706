"""``league scenario run FILE...``: play a scenario through the rules and print what came out."""

from __future__ import annotations

import sys
from pathlib import Path

from shared.cli.shown import facts, line
from shared.scenario.format import ScenarioError, load
from shared.scenario.run import Outcome, run


def report(outcome: Outcome, path: Path, *, quiet: bool = False) -> list[str]:
    s = outcome.scenario
    lines = [f"=== {s.title or path.name} ({path}) ===", f"game {s.game}" + (f", rule {s.rule}" if s.rule else "")]
    if quiet:
        return lines + _verdict(outcome)
    if s.notes:
        lines += [f"  {n}" for n in s.notes.strip().splitlines()]
    lines += ["--- position ---", outcome.rules.render(outcome.start), "--- play ---"]
    for step in outcome.steps:
        lines.append(f"{step.number}. {line(step.command)}")
        if step.refused is not None:
            lines.append(f"   REFUSED {step.refused.code}: {step.refused.message}")
        lines += [f"   {line(e)}" for e in step.events]
        lines += [f"   draw {d}" for d in step.draws]
    if outcome.draws_left:
        lines.append(f"({outcome.draws_left} of the scenario's draws were not used)")
    lines += ["--- outcome ---", outcome.rules.render(outcome.state), *facts(outcome.positions.describe(outcome.state))]
    return lines + _verdict(outcome)


def _verdict(outcome: Outcome) -> list[str]:
    if outcome.passed:
        return ["PASSED" if _has_expectations(outcome) else "(no expectations)"]
    return [*(f"FAILED {f}" for f in outcome.failures)]


def _has_expectations(outcome: Outcome) -> bool:
    e = outcome.scenario.expect
    return bool(e.events or e.absent or e.position or e.winners is not None or e.refused
                or any(s.expected_refusal for s in outcome.steps))


def scenario_run(paths: list[Path], quiet: bool = False) -> int:
    """0 when every scenario ran and met its expectations, 1 when one did not, 2 when one cannot be read."""
    status = 0
    for path in paths:
        try:
            outcome = run(load(path))
        except ScenarioError as error:
            print(f"league scenario: {error}", file=sys.stderr)
            status = 2
            continue
        print("\n".join(report(outcome, path, quiet=quiet)))
        if not outcome.passed:
            status = max(status, 1)
    return status
