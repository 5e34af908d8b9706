"""``league replay <game> --to N --try '<command json>' [--as SEAT]``: a referee's what-if.

The game is folded to event N (rounded down to the end of an action) exactly as ``league replay`` folds it; the
command given runs through the same ``decide``, with the game's own recorded draws while the fork still asks for
the same kind of draw in the same order, and fresh draws from a local random source after that, each labelled.
What really happened next is printed beside it. Nothing is written anywhere."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from shared.cli.replay import steps
from shared.cli.shown import line
from shared.eventstore import RecordedEvent
from shared.games.draws import Draw
from shared.games.rules import RuleViolation
from shared.messages.engine import CommandAccepted, DrawsUsed, GameEnded
from shared.messages.stored import loaded
from shared.play.layout import StreamReader
from shared.play.table import NotAGame, Table
from shared.scenario.draws import SourcedDraw, SourcedDraws
from shared.scenario.format import ScenarioError
from shared.scenario.run import command_of


class WhatIfError(ValueError):
    pass


@dataclass
class Branch:
    """One way on from the fork: the command, its events (or the refusal), the draws it used, the position."""

    command: Any
    events: list[Any] = field(default_factory=list)
    refused: RuleViolation | None = None
    draws: list[SourcedDraw] = field(default_factory=list)
    state: Any = None
    ended: bool = False


@dataclass
class WhatIf:
    stream_id: str
    asked: int
    at: int
    """The version forked at: the end of the last action at or before ``asked``."""
    table: Table
    tried: Branch
    real: Branch | None
    """What the stream shows next (None when the fork is at its end)."""
    seed: int | None = None
    """The seed of the fresh draws, so that ``--seed`` repeats them."""


def recorded_draws(events: list[RecordedEvent], after: int) -> list[tuple[Draw, str]]:
    """Every draw the game used after version ``after``, in the order it used them, labelled with its nonce."""
    out = []
    for recorded in events:
        if recorded.version > after and recorded.type == DrawsUsed.__struct_config__.tag:
            used = loaded(recorded)
            assert isinstance(used, DrawsUsed)
            out += [(Draw(d.request, tuple(d.values)), f"recorded #{d.nonce}") for d in used.draws]
    return out


def fork(events: list[RecordedEvent], stream_id: str, to: int, command_json: str, as_seat: int | None,
         rng: random.Random) -> WhatIf:
    if not events:
        raise WhatIfError(f"no stream {stream_id}")
    ends = [v for v in steps(events) if v <= to]
    if not ends:
        raise WhatIfError(f"v{to} is before the game's opening ends (v{steps(events)[0]}); fork later")
    at = ends[-1]
    table = Table(stream_id).apply_all([e for e in events if e.version <= at])
    if table.rules is None or table.state is None:
        raise WhatIfError(f"{stream_id} has no rules' position at v{at} yet")
    try:
        given = json.loads(command_json)
    except json.JSONDecodeError as error:
        raise WhatIfError(f"--try is not JSON: {error}") from None
    if not isinstance(given, dict):
        raise WhatIfError('--try is one command as a JSON object, e.g. \'{"type": "ChooseCard", "card": "x"}\'')
    if as_seat is None and "seat" not in given:
        pending = sorted(table.rules.pending_seats(table.state))
        if len(pending) != 1:
            raise WhatIfError(f"say which seat sends it (--as SEAT): the game waits for seats {pending}")
        as_seat = pending[0]
    try:
        command = command_of(table.rules, given, as_seat)
    except ScenarioError as error:
        raise WhatIfError(str(error)) from None
    draws = SourcedDraws(recorded_draws(events, at), rng)
    tried = Branch(command=command, state=table.state)
    try:
        tried.events = list(table.rules.decide(table.state, command, draws))
    except RuleViolation as violation:
        tried.refused = violation
    tried.draws = draws.sourced
    for event in tried.events:
        tried.state = table.rules.evolve(tried.state, event)
    tried.ended = table.rules.is_over(tried.state)
    return WhatIf(stream_id=stream_id, asked=to, at=at, table=table, tried=tried, real=_real(events, at, table))


def _real(events: list[RecordedEvent], at: int, table: Table) -> Branch | None:
    reader = StreamReader(events)
    reader.i = next(i for i, e in enumerate(events) if e.version == at) + 1
    if reader.done:
        return None
    head, draws_event, body = reader.take_action()
    if head is None:
        return None
    accepted = loaded(head)
    assert isinstance(accepted, CommandAccepted) and table.rules is not None
    real = Branch(command=command_of(table.rules, json.loads(bytes(accepted.command))), state=table.state)
    real.events = [loaded(e) for e in body]
    if draws_event is not None:
        used = loaded(draws_event)
        assert isinstance(used, DrawsUsed)
        real.draws = [SourcedDraw(draw=Draw(d.request, tuple(d.values)), source=f"recorded #{d.nonce}")
                      for d in used.draws]
    for event in real.events:
        real.state = table.rules.evolve(real.state, event)
    end = reader.take_end()
    real.ended = end is not None and isinstance(loaded(end), GameEnded)
    return real


def report(w: WhatIf) -> list[str]:
    rules = w.table.rules
    assert rules is not None
    lines = [f"=== {w.stream_id}: what if at v{w.at} ===",
             "(a fork in memory: nothing is written to the log)"]
    if w.at != w.asked:
        lines.append(f"(v{w.asked} falls inside an action: forked after the last whole action, v{w.at})")
    lines += ["--- position at the fork ---", rules.render(w.table.state)]
    lines += _branch("tried", w.tried, rules)
    fresh = sum(d.source == "FRESH" for d in w.tried.draws)
    if fresh:
        again = f"; --seed {w.seed} repeats them" if w.seed is not None else ""
        lines.append(f"({fresh} FRESH draw(s): the game never drew them; made here from a local random source, they "
                     f"show one way it could have gone, not what the RNG would have given{again})")
    if w.real is None:
        lines.append("--- what really happened: nothing more, the stream ends here ---")
    else:
        lines += _branch("what really happened", w.real, rules)
    return lines


def _branch(title: str, branch: Branch, rules: Any) -> list[str]:
    lines = [f"--- {title}: {line(branch.command)} ---"]
    if branch.refused is not None:
        return lines + [f"REFUSED {branch.refused.code}: {branch.refused.message}"]
    lines += [f"  {line(e)}" for e in branch.events]
    lines += [f"  draw {d}" for d in branch.draws]
    lines += [rules.render(branch.state)]
    if branch.ended:
        lines.append(f"(the game ends here; winners {list(rules.winners(branch.state))})")
    return lines


def what_if(events: list[RecordedEvent], stream_id: str, to: int | None, command_json: str, as_seat: int | None,
            seed: int | None) -> int:
    if to is None:
        print("league replay: --try needs --to N, the event to fork at", file=sys.stderr)
        return 2
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    try:
        result = fork(events, stream_id, to, command_json, as_seat, random.Random(seed))
    except (WhatIfError, NotAGame) as error:
        print(f"league replay: {error}", file=sys.stderr)
        return 2
    result.seed = seed
    print("\n".join(report(result)))
    return 0
