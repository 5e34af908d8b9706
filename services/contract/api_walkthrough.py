"""docs/api.md: a curl walkthrough of the players' API, a whole game of each kind, written from the types the
gateway decodes (``RegisterPlayer``, ``NewGame``, each game's commands) so that it cannot drift from them.
``python -m services.contract.api_walkthrough > docs/api.md`` writes it; tests/e2e/test_api_walkthrough.py checks
the file is what this writes and runs every ``sh`` block of it, in order, against a running league."""

from __future__ import annotations

import sys
from typing import Any

import msgspec

from services.contract.command_examples import examples, fields_of, player_commands, shaped, tag_of
from services.gateway.schemas import ClientSeed, GameName, NewGame, RegisterPlayer

GAMES: list[tuple[GameName, str, int, dict[str, Any]]] = [
    ("vortex", "Phantom's Vortex: a race of 2 phantoms", 2, {"max_rounds": 6}),
    ("hockeydice", "Hockey Championship: you against a bot", 2, {}),
    ("phantoms", "Phantoms of the Ice: a short season of 2 managers (Power Play cards, first to 5 wins, best of 3)",
     2, {"edition": "powerplay", "season_end": "five_wins_series3"}),
]
"""(game, title, seats, table options): you hold seat 0; the league's greedy bot plays the others."""


def json_of(obj: msgspec.Struct) -> str:
    return msgspec.json.encode(obj).decode()


def sh(*lines: str) -> str:
    return "```sh\n" + "\n".join(lines) + "\n```\n"


REGISTER = sh(
    'GATEWAY="${GATEWAY:-http://127.0.0.1:8080}"',
    "me=$(curl -sS --fail-with-body -X POST \"$GATEWAY/v1/players\" -H 'Content-Type: application/json' \\",
    "  -d '" + json_of(RegisterPlayer(name="Ada")) + "')",
    'TOKEN=$(jq -r .token <<<"$me"); ME=$(jq -r .player_id <<<"$me")',
    'AUTH="Authorization: Bearer $TOKEN"',
    'echo "registered as $ME"')
PLAY_TO_END = sh(
    "play_to_end() {",
    '  local view move answer',
    '  view=$(curl -sS --fail-with-body "$GATEWAY/v1/games/$1" -H "$AUTH")',
    '  while [ "$(jq -r .ended <<<"$view")" != true ]; do',
    "    move=$(jq -c '.legal[0] // empty' <<<\"$view\")",
    '    if [ -n "$move" ]; then',
    '      answer=$(curl -sS -X POST "$GATEWAY/v1/games/$1/commands" -H "$AUTH" \\',
    "        -H 'Content-Type: application/json' -d \"$move\")",
    "      view=$(jq -c '.view // empty' <<<\"$answer\")  # a refused move (the game moved on) has none",
    "    else",
    "      sleep 0.2; view=''  # the bots' turn",
    "    fi",
    '    [ -n "$view" ] || view=$(curl -sS --fail-with-body "$GATEWAY/v1/games/$1" -H "$AUTH")',
    "  done",
    "  jq -c '{game_id, version, ended, winners}' <<<\"$view\"",
    "}")
INTRO = f"""# The players' API by example

A whole game of each kind played with `curl` (and `jq` to pick fields out of the answers), against the gateway
that `make run` starts on port 8080. Every JSON body below is made from the types the gateway decodes, and
`tests/e2e/test_api_walkthrough.py` runs every `sh` block of this page, in order, against a running league: what
you read here works. (Written by `python -m services.contract.api_walkthrough > docs/api.md`; the full reference
is `GET /openapi.json`, the live feeds `GET /asyncapi.json`.)

Every error is JSON `{{"code": ..., "message": ...}}` with a 4xx status; a move that breaks a rule is a 422 whose
`code` is the rule's id.

## Register

A player is a name; the answer holds your id and a bearer token, shown once (`RegisterPlayer` →
`Registered`). Body: `{json_of(RegisterPlayer(name="Ada"))}`.

{REGISTER}
A helper for the rest of the page: it plays your seat to the end, sending the first of your legal moves whenever
the game waits for you (each view lists them in `legal`; the answer to a move holds your new view), and prints how
the game ended.

{PLAY_TO_END}"""


def commands_section(game: str) -> str:
    found = examples(game)
    rows = ["| command | fields | example |", "| --- | --- | --- |"]
    for command_type in player_commands(game):
        tag = tag_of(command_type)
        fields = ", ".join(f"`{name}`: {kind}" for name, kind in fields_of(command_type) if name != "type")
        example = found.get(tag)
        note = "" if example is not None else " (the type's first values: the sample games never offered one)"
        rows.append(f"| `{tag}` | {fields} | `{(example or shaped(command_type)).decode()}`{note} |")
    return ("Every command a player of this game may send (`POST /v1/games/{game_id}/commands`), each example one "
            "the rules offered a seat in a sample game:\n\n" + "\n".join(rows) + "\n")


def game_section(game: GameName, title: str, seats: int, options: dict[str, Any]) -> str:
    new_game = NewGame(game=game, seats=seats, options=options, players=["<your player_id>"] + [None] * (seats - 1),
                       bots=[None] + ["greedy"] * (seats - 1))
    var = "$" + game.upper()
    body = f"jq -c --arg me \"$ME\" '.players[0] = $me' <<<'{json_of(new_game)}'"
    url = f'"$GATEWAY/v1/games/{var}'
    json_header = "-H 'Content-Type: application/json'"
    open_table = sh(
        f'{game.upper()}=$(curl -sS --fail-with-body -X POST "$GATEWAY/v1/games" -H "$AUTH" \\',
        f'  {json_header} -H "Idempotency-Key: {game}-$ME" -d "$({body})" | jq -r .game_id)',
        f'echo "opened {var}"')
    look = sh(f"curl -sS --fail-with-body {url}\" -H \"$AUTH\" | jq -c '{{version, seat, pending_seats, legal}}'",
              f"curl -sS --fail-with-body {url}/legal\" -H \"$AUTH\" | jq -c .commands")
    first_move = sh(
        f"move=$(curl -sS --fail-with-body {url}\" -H \"$AUTH\" | jq -c '.legal[0] // empty')",
        'if [ -n "$move" ]; then',
        f'  answer=$(curl -sS -X POST {url}/commands" -H "$AUTH" -w \' %{{http_code}}\' \\',
        f"    {json_header} -H 'Idempotency-Key: {game}-first-move' -d \"$move\")",
        '  [ "${answer##* }" -lt 500 ]  # a refused move is a 4xx; a 5xx is the league failing',
        "  jq -c 'if .code then {refused: .code, message} else {version, duplicate, ended} end' <<<\"${answer% *}\"",
        "fi")
    to_the_end = sh(
        f'play_to_end "{var}"',
        "for _ in $(seq 60); do",
        f'  audit=$(curl -sS "$GATEWAY/audit/{var}")',
        '  [ "$(jq -r .verified <<<"$audit")" = true ] && break',
        "  sleep 0.5",
        "done",
        'jq -r .summary <<<"$audit"')
    return f"""## {title}

{commands_section(game)}
Open a table (`NewGame`, answered with `GameCreated`): you at seat 0, the league's greedy bot at the others. The
body is `{json_of(new_game)}` with your id in it; an `Idempotency-Key` header makes a retry return the same
game.

{open_table}
Your view (`GameView`: the game as your seat sees it, your legal moves in `legal`), and the moves alone:

{look}
Send a move (`CommandDone` comes back with your new view). With an `Idempotency-Key` a retry of the same move is
answered with the first result and changes nothing; without one, each send is a new move. A move the game no longer
wants, because another seat acted first (in Hockey either team may call the roll, and the league's bot does at once),
is refused (a 4xx whose `{{code, message}}` names the rule) and changes nothing: read your view again.

{first_move}
Play it to the end, then ask the referee's audit (it waits until the RNG has revealed the game's seed):

{to_the_end}"""


def page() -> str:
    seed = ClientSeed(client_seed="my own words")
    outro = f"""## Client seeds

A game opened with `"client_seed_seconds": 30` waits (at most that long) for each seated player's seed before its
first draw, and mixes them into every draw: `POST /v1/games/{{game_id}}/client-seed` with
`{json_of(seed)}` (`ClientSeed`). Its view shows `seeding_until` and the seats still to send.
"""
    return "\n".join([INTRO, *(game_section(*g) for g in GAMES), outro])


if __name__ == "__main__":
    sys.stdout.write(page())
