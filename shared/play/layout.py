"""The layout of a game stream, written down once: the engine writes with these functions, ``Table`` folds what
they write and the audit reads it back in the same shape.

    GameOpened                                    the opening, by the engine
    ClientSeedGiven* GameStarted                  only for a game opened with a seed window
    [DrawsUsed] rule events*                      the rules' opening (``new_game``)
    then per action:
    CommandAccepted [DrawsUsed] rule events* [GameEnded]

``DrawsUsed`` is private to nobody while the game runs (a deck order still to be dealt); rule events carry the
visibility the rules give them; ``GameEnded`` comes right after the action that ended the game. Instead of it, a
``GameAbandoned`` may close the stream after any whole action or during the seed window: nothing follows it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from shared.eventstore import NewEvent, RecordedEvent
from shared.games.rules import C, E, GameRules, S
from shared.messages.engine import ClientSeedGiven, CommandAccepted, DrawsUsed, GameAbandoned, GameEnded, GameStarted
from shared.messages.rng import NumberedDraw
from shared.messages.stored import stored
from shared.play.visibility import NOBODY, visibility_of

ENGINE = "engine"
ABANDONED = GameAbandoned.__struct_config__.tag


class Entry(NamedTuple):
    """One event to append: the typed event (what the owner folds) and its stored form (what is written)."""

    event: msgspec.Struct
    new: NewEvent


def entry(event: msgspec.Struct, *, actor: str, command_id: str | None = None, event_id: uuid.UUID | None = None,
          visibility: tuple[int, ...] | None = None) -> Entry:
    return Entry(event, stored(event, actor=actor, command_id=command_id, event_id=event_id, visibility=visibility))


def accepted(command: CommandAccepted, *, actor: str, command_id: str, event_id: uuid.UUID) -> Entry:
    """The head of an action: who did what. Only the acting seat may read it while the game runs."""
    return entry(command, actor=actor, command_id=command_id, event_id=event_id, visibility=(command.seat,))


def outcome(rules: GameRules[S, C, E], draws: Sequence[NumberedDraw], events: Sequence[E], *, actor: str,
            command_id: str, ended: GameEnded | None = None) -> list[Entry]:
    """What an action (or the opening) caused: the draws it used, the rules' events, the end when it came."""
    batch = []
    if draws:
        batch.append(entry(DrawsUsed(draws=tuple(draws)), actor=actor, command_id=command_id, visibility=NOBODY))
    batch += [entry(e, actor=actor, command_id=command_id, visibility=visibility_of(rules, e)) for e in events]
    if ended is not None:
        batch.append(entry(ended, actor=ENGINE, command_id=command_id))
    return batch


class StreamReader:
    """A stored game stream cut back into the layout above: after GameOpened, a seed window's ClientSeedGiven*
    GameStarted when the game has one; then actions, each [CommandAccepted?] [DrawsUsed?] rule events*
    [GameEnded?] (the opening is the action without a CommandAccepted)."""

    def __init__(self, events: list[RecordedEvent]) -> None:
        self.events = events
        self.i = 1

    def take_action(self) -> tuple[RecordedEvent | None, RecordedEvent | None, list[RecordedEvent]]:
        head = None
        if self.i < len(self.events) and self.events[self.i].type == CommandAccepted.__struct_config__.tag:
            head = self.events[self.i]
            self.i += 1
        draws_event = None
        if self.i < len(self.events) and self.events[self.i].type == DrawsUsed.__struct_config__.tag:
            draws_event = self.events[self.i]
            self.i += 1
        body = []
        engine_tags = {CommandAccepted.__struct_config__.tag, GameEnded.__struct_config__.tag, ABANDONED}
        while self.i < len(self.events) and self.events[self.i].type not in engine_tags:
            body.append(self.events[self.i])
            self.i += 1
        return head, draws_event, body

    def take_seed_window(self) -> tuple[list[RecordedEvent], RecordedEvent | None]:
        given = []
        while self.i < len(self.events) and self.events[self.i].type == ClientSeedGiven.__struct_config__.tag:
            given.append(self.events[self.i])
            self.i += 1
        if self.i < len(self.events) and self.events[self.i].type == GameStarted.__struct_config__.tag:
            self.i += 1
            return given, self.events[self.i - 1]
        return given, None

    def take_end(self) -> RecordedEvent | None:
        if self.i < len(self.events) and self.events[self.i].type == GameEnded.__struct_config__.tag:
            self.i += 1
            return self.events[self.i - 1]
        return None

    def take_abandonment(self) -> RecordedEvent | None:
        if self.i < len(self.events) and self.events[self.i].type == ABANDONED:
            self.i += 1
            return self.events[self.i - 1]
        return None

    @property
    def done(self) -> bool:
        return self.i >= len(self.events)
