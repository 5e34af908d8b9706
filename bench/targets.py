"""What the load generator sends, over HTTP with keep-alive connections: a league table of two generator players
(create a game, find the next move, POST it with an Idempotency-Key), or the floor's one INSERT per request.

When a command's reply carries the actor's new view with its legal moves (``view.legal``, the hot path's "one round
trip for the player"), the next move is taken from it and no ``GET /legal`` is sent; otherwise the generator asks
``GET /legal`` as the seat it expects to move (the view's pending seat when the reply names one). With ``watch``,
each player instead watches its game over ``GET /v1/games/{id}/ws``, as the play page does, and the seat to move
takes its moves from the view pushed to it (``GET /legal`` only when no push came within ``PUSH_WAIT``)."""

from __future__ import annotations

import asyncio
import random
import sys
from dataclasses import dataclass, field

import aiohttp
import msgspec

GAME = "hockeydice"
OPTIONS = {"periods": 1, "shots_per_period": 4}
"""Short games (``bench.tournament`` plays 1 period of 2 shots); a few more shots so that openings weigh less."""
PUSH_WAIT = 5.0
BUSY = {503, 504}
MOVED_ON = {409, 422}
_NULL = msgspec.Raw(b"null")


class ReplyView(msgspec.Struct, kw_only=True):
    """A view as a command's reply carries it, or the game's WebSocket pushes it."""
    seat: int | None = None
    version: int = 0
    ended: bool = False
    pending_seats: list[int] = []
    legal: msgspec.Raw = _NULL


class Reply(msgspec.Struct, kw_only=True):
    """A command's reply: today ``CommandDone``; with the hot path also the actor's ``view`` (unknown fields pass)."""
    ended: bool = False
    view: ReplyView | None = None
    legal: msgspec.Raw = _NULL
    """Should the legal moves come beside the view rather than inside it."""


class Legal(msgspec.Struct, kw_only=True):
    seat: int | None = None
    commands: list[msgspec.Raw] = []


class Player(msgspec.Struct):
    player_id: str
    token: str


_reply = msgspec.json.Decoder(Reply)
_view = msgspec.json.Decoder(ReplyView)
_legal = msgspec.json.Decoder(Legal)
_raw_list = msgspec.json.Decoder(list[msgspec.Raw])
_encode = msgspec.json.encode


def legal_of(raw: msgspec.Raw) -> list[msgspec.Raw] | None:
    """A view's ``legal``: a list of commands, or an object holding one under ``commands``; None when absent."""
    text = bytes(raw).lstrip()
    if text.startswith(b"["):
        return _raw_list.decode(text)
    if text.startswith(b"{"):
        return _legal.decode(text).commands
    return None


@dataclass
class Counts:
    commands: int = 0
    """POST .../commands answered 2xx."""
    legal_gets: int = 0
    views_used: int = 0
    """Replies whose view gave the next move (no GET /legal needed)."""
    views_seen: int = 0
    games_opened: int = 0
    games_ended: int = 0
    pushes: int = 0
    """Views pushed over the games' WebSockets (``watch``)."""
    moves_from_push: int = 0
    push_timeouts: int = 0
    """No push gave the next move within ``PUSH_WAIT`` (then it was asked with ``GET /legal``)."""
    errors: int = 0
    moved_on: int = 0
    waits: int = 0


@dataclass
class Table:
    """One concurrent game slot: two players, the game they play now, and its next move when known."""
    players: tuple[dict[str, str], ...]
    ids: tuple[str, ...]
    rng: random.Random
    game_id: str | None = None
    seat: int = 0
    moves: list[msgspec.Raw] | None = None
    failures: int = 0
    key: int = 0
    name: str = field(default="")
    version: int = 0
    """The game's version in the last reply: a pushed view older than it is stale."""
    pushed: dict[int, ReplyView] = field(default_factory=dict)
    """Each seat's latest view pushed over its WebSocket."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    sockets: list[asyncio.Task[None]] = field(default_factory=list)


class Http:
    def __init__(self, session: aiohttp.ClientSession, base_url: str) -> None:
        self.session, self.base = session, base_url.rstrip("/")
        self.errors_shown = 0

    async def request(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        async with self.session.request(method, self.base + path, data=body, headers=headers) as response:
            return response.status, await response.read()

    def show(self, what: str, status: int, payload: bytes) -> None:
        if self.errors_shown < 10:
            self.errors_shown += 1
            print(f"  loadgen: {what} -> {status} {payload[:200]!r}", file=sys.stderr, flush=True)


class LeagueTarget:
    name = "league"

    def __init__(self, http: Http, counts: Counts, watch: bool = False) -> None:
        self.http, self.counts, self.watch = http, counts, watch
        self.run = f"{random.getrandbits(32):08x}"

    async def register(self, name: str) -> tuple[dict[str, str], str]:
        status, payload = await self.http.request("POST", "/v1/players", _encode({"name": name}),
                                                  {"Content-Type": "application/json"})
        if status >= 300:
            raise RuntimeError(f"register {name}: {status} {payload[:200]!r}")
        player = msgspec.json.decode(payload, type=Player)
        return {"Authorization": f"Bearer {player.token}", "Content-Type": "application/json"}, player.player_id

    async def table(self, n: int) -> Table:
        seats = [await self.register(f"Load {self.run} {n}-{seat}") for seat in (0, 1)]
        return Table(players=tuple(h for h, _ in seats), ids=tuple(i for _, i in seats), rng=random.Random(n),
                     name=f"t{n}")

    async def open(self, table: Table) -> None:
        body = _encode({"game": GAME, "seats": 2, "options": OPTIONS, "players": list(table.ids)})
        status, payload = await self.http.request("POST", "/v1/games", body, table.players[0])
        if status >= 300:
            self.counts.errors += 1
            self.http.show("POST /v1/games", status, payload)
            await asyncio.sleep(0.2)
            return
        table.game_id, table.seat, table.moves = msgspec.json.decode(payload)["game_id"], 0, None
        table.version = 0
        self.counts.games_opened += 1
        if self.watch:
            await self.unwatch(table)
            table.sockets = [asyncio.create_task(self.watch_seat(table, table.game_id, seat)) for seat in (0, 1)]

    async def watch_seat(self, table: Table, game_id: str, seat: int) -> None:
        """Keep the seat's latest pushed view of ``game_id`` until the game ends and the league closes the socket."""
        headers = {"Authorization": table.players[seat]["Authorization"]}
        try:
            async with self.http.session.ws_connect(f"{self.http.base}/v1/games/{game_id}/ws",
                                                    headers=headers) as socket:
                async for message in socket:
                    if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                        break
                    view = _view.decode(message.data)
                    self.counts.pushes += 1
                    known = table.pushed.get(seat)
                    if table.game_id == game_id and (known is None or view.version > known.version):
                        table.pushed[seat] = view
                        table.changed.set()
        except aiohttp.ClientError as error:
            self.http.show(f"WebSocket of {game_id} seat {seat}", 0, str(error).encode())

    async def unwatch(self, table: Table) -> None:
        for task in table.sockets:
            task.cancel()
        await asyncio.gather(*table.sockets, return_exceptions=True)
        table.sockets, table.pushed = [], {}

    async def from_pushes(self, table: Table) -> bool:
        """The next move from a view pushed at the game's current version or later; else wait for the next push
        (False: ask again), or after ``PUSH_WAIT`` without one ask ``GET /legal``."""
        table.changed.clear()
        for seat in (table.seat, 1 - table.seat):
            view = table.pushed.get(seat)
            if view is not None and view.version >= table.version and seat in view.pending_seats:
                moves = legal_of(view.legal)
                if moves:
                    table.seat, table.moves = seat, moves
                    self.counts.moves_from_push += 1
                    return True
        try:
            await asyncio.wait_for(table.changed.wait(), PUSH_WAIT)
        except TimeoutError:
            self.counts.push_timeouts += 1
            return await self.from_legal(table)
        return False

    async def ready(self, table: Table) -> bool:
        """The table has a game and its next move is known (from the last reply's view, a pushed view, or from GET
        /legal)."""
        if table.game_id is None:
            await self.open(table)
            return False
        if table.moves:
            return True
        if self.watch:
            return await self.from_pushes(table)
        return await self.from_legal(table)

    async def from_legal(self, table: Table) -> bool:
        for seat in (table.seat, 1 - table.seat):
            status, payload = await self.http.request("GET", f"/v1/games/{table.game_id}/legal", None,
                                                      table.players[seat])
            self.counts.legal_gets += 1
            if status >= 300:
                self.failed(table, "GET legal", status, payload)
                await asyncio.sleep(0.05)  # no tight loop of refused requests
                return False
            moves = _legal.decode(payload).commands
            if moves:
                table.seat, table.moves = seat, moves
                return True
        self.counts.waits += 1  # nobody may move: the engine has something to do first
        await asyncio.sleep(0.02)
        return False

    def failed(self, table: Table, what: str, status: int, payload: bytes) -> bool:
        table.moves = None
        if status in MOVED_ON:
            self.counts.moved_on += 1
            return False
        self.counts.errors += 1
        self.http.show(what, status, payload)
        table.failures += 1
        if table.failures >= 5 and status not in BUSY:
            table.game_id, table.failures = None, 0  # give up on this game: open another
        return False

    async def send(self, table: Table) -> bool:
        assert table.game_id is not None and table.moves
        move = table.rng.choice(table.moves)
        table.key += 1
        headers = table.players[table.seat] | {"Idempotency-Key": f"{table.name}-{table.key}"}
        status, payload = await self.http.request("POST", f"/v1/games/{table.game_id}/commands", bytes(move),
                                                  headers)
        if status >= 300:
            return self.failed(table, "POST command", status, payload)
        self.counts.commands += 1
        table.failures, table.moves = 0, None
        reply = _reply.decode(payload)
        if reply.ended or (reply.view is not None and reply.view.ended):
            table.game_id = None
            self.counts.games_ended += 1
            return True
        view = reply.view
        if view is not None:
            table.version = max(table.version, view.version)
            self.counts.views_seen += 1
            moves = legal_of(view.legal) or legal_of(reply.legal)
            if view.seat is not None and view.seat in view.pending_seats and moves:
                table.seat, table.moves = view.seat, moves
                self.counts.views_used += 1
            elif view.pending_seats:
                table.seat = view.pending_seats[0]
        return True


class FloorTarget:
    """The floor app: one small durable INSERT per POST, same client, same headers as a league command."""
    name = "floor"

    def __init__(self, http: Http, counts: Counts) -> None:
        self.http, self.counts = http, counts

    async def table(self, n: int) -> Table:
        headers = {"Authorization": f"Bearer floor-{n}", "Content-Type": "application/json"}
        return Table(players=(headers,), ids=(f"floor-{n}",), rng=random.Random(n), name=f"f{n}")

    async def ready(self, table: Table) -> bool:
        return True

    async def send(self, table: Table) -> bool:
        table.key += 1
        body = _encode({"seat": 0, "move": table.rng.randrange(1000)})
        headers = table.players[0] | {"Idempotency-Key": f"{table.name}-{table.key}"}
        status, payload = await self.http.request("POST", "/insert", body, headers)
        if status >= 300:
            self.counts.errors += 1
            self.http.show("POST /insert", status, payload)
            return False
        self.counts.commands += 1
        return True


Target = LeagueTarget | FloorTarget
