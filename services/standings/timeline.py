"""A finished game event by event, for the replay viewer: every event of its stream is a step (its version), with
who did what (``CommandAccepted``: the seat, the player, the command, the bot that chose it), the draws each action
used (``DrawsUsed``) and the data of each public rules event. A private event (a hand, a face-down card) is named
with the seats it was for, never shown. The public view after each step is ``views``: folded once per game and
kept for a few games, since a viewer asks for the same game page after page."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import msgspec

from shared.eventstore import RecordedEvent
from shared.messages.engine import CommandAccepted, DrawsUsed, GameOpened
from shared.messages.stored import loaded
from shared.play.table import Table

COMMAND = CommandAccepted.__struct_config__.tag
DRAWS = DrawsUsed.__struct_config__.tag
GAMES_KEPT = 6


def timeline(game_id: str, events: list[RecordedEvent], names: dict[str, str]) -> dict[str, Any]:
    opened = loaded(events[0])
    assert isinstance(opened, GameOpened)
    players = list(opened.players) + [None] * (opened.seats - len(opened.players))
    bots = list(opened.bots) + [None] * (opened.seats - len(opened.bots))
    table = Table(game_id)
    steps: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    action: dict[str, Any] | None = None
    for recorded in events:
        event = table.apply(recorded)
        if recorded.type == COMMAND:
            assert isinstance(event, CommandAccepted)
            player = players[event.seat] if event.seat < len(players) else None
            action = {"action": len(actions) + 1, "version": recorded.version, "seat": event.seat,
                      "player": player, "name": names.get(player or ""), "by_bot": event.by_bot,
                      "command": msgspec.json.decode(event.command), "draws": [],
                      "recorded_at": recorded.recorded_at.isoformat()}
            actions.append(action)
        elif recorded.type == DRAWS and action is not None:
            assert isinstance(event, DrawsUsed)
            action["draws"] = msgspec.to_builtins(event.draws)
        private = recorded.metadata.visibility
        shown = recorded.type not in (COMMAND, DRAWS) and private is None
        steps.append({"step": recorded.version, "type": recorded.type, "action": action["action"] if action else None,
                      "private": None if private is None else list(private),
                      "data": msgspec.json.decode(recorded.data) if shown else None})
    ended = table.ended
    return {"game_id": game_id, "game": opened.game, "players": players, "bots": bots,
            "names": [names.get(p) if p else None for p in players], "tournament_id": opened.tournament_id,
            "commitment": opened.commitment, "winners": list(ended.winners) if ended else None,
            "opened_at": events[0].recorded_at.isoformat(), "ended_at": events[-1].recorded_at.isoformat(),
            "steps": steps, "actions": actions}


class Views:
    """The states of a few finished games after each of their events (frozen, so kept as they are), and the public
    view of any of them on demand."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, tuple[Table, list[Any]]] = OrderedDict()

    def states(self, game_id: str, events: list[RecordedEvent]) -> tuple[Table, list[Any]]:
        found = self._games.get(game_id)
        if found is None or len(found[1]) != len(events):
            table, states = Table(game_id), []
            for recorded in events:
                table.apply(recorded)
                states.append(table.state)
            found = (table, states)
            self._games[game_id] = found
            while len(self._games) > GAMES_KEPT:
                self._games.popitem(last=False)
        self._games.move_to_end(game_id)
        return found

    def page(self, game_id: str, events: list[RecordedEvent], after: int, limit: int) -> list[dict[str, Any]]:
        """The public view after each event from version ``after + 1``, at most ``limit + 1`` of them (null before
        the rules' first event)."""
        table, states = self.states(game_id, events)
        rules = table.rules
        assert rules is not None
        items = []
        for version in range(after + 1, min(len(states), after + limit + 1) + 1):
            state = states[version - 1]
            items.append({"step": version,
                          "view": None if state is None else msgspec.to_builtins(rules.view(state, None))})
        return items
