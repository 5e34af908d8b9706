"""The gateway's HTTP API from the client side."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import msgspec

from shared.client.retry import AGAIN, PATIENT, UNANSWERED, Retry
from shared.messages.engine import GameView, LegalCommands
from shared.refusals import Refusal


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message

    @classmethod
    def of(cls, status: int, payload: bytes) -> ApiError:
        try:
            error = msgspec.json.decode(payload) if payload else {}
        except msgspec.DecodeError:
            error = {}
        if not isinstance(error, dict):
            error = {}
        return cls(status, error.get("code", "?"), error.get("message", payload[:200].decode(errors="replace")))


class Player(msgspec.Struct, frozen=True):
    player_id: str
    name: str
    token: str


class LeagueClient:
    def __init__(self, session: aiohttp.ClientSession, base_url: str, token: str | None = None, *,
                 retry: Retry = PATIENT) -> None:
        self.session = session
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.player_id = ""
        self.retry = retry
        """When a call the league did not answer, or answered too busy, is sent again (``shared.client.retry``)."""

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return headers | (extra or {})

    async def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                   reply: Any = Any, done_if: frozenset[str] = frozenset()) -> Any:
        """One call, sent again while the league does not answer or is too busy (``self.retry``); ApiError for
        an error it answers (a 4xx, a 500, or the busy answer once the retries are used up). An error whose code is
        in ``done_if``, answering a try sent again, says an earlier try did it: the call returns None."""
        data = None if body is None else msgspec.json.encode(body)
        content = {"Content-Type": "application/json"} if data is not None else {}
        sent_headers = self._headers(content | (headers or {}))
        deadline = asyncio.get_running_loop().time() + self.retry.give_up_after
        attempt = 0
        while True:
            retry_after = None
            try:
                async with self.session.request(method, f"{self.base_url}{path}", data=data,
                                                headers=sent_headers) as response:
                    payload = await response.read()
                    if response.status < 400:
                        return msgspec.json.decode(payload, type=reply)
                    error = ApiError.of(response.status, payload)
                    retry_after = response.headers.get("Retry-After")
                    if attempt and error.code in done_if:
                        return None
                    if response.status not in AGAIN:
                        raise error
            except UNANSWERED as unanswered:
                error = ApiError(0, "client.unanswered", f"{method} {path}: {type(unanswered).__name__}: "
                                                         f"{unanswered}")
            wait = self.retry.delay(attempt, retry_after)
            if asyncio.get_running_loop().time() + wait > deadline:
                raise error
            await asyncio.sleep(wait)
            attempt += 1

    async def register(self, name: str) -> Player:
        player: Player = await self.call("POST", "/v1/players", {"name": name}, reply=Player)
        self.token, self.player_id = player.token, player.player_id
        return player

    async def create_game(self, game: str, seats: int, **fields: Any) -> str:
        """Under an Idempotency-Key of its own: a retry after an unanswered try opens no second game."""
        created = await self.call("POST", "/v1/games", {"game": game, "seats": seats, **fields},
                                  {"Idempotency-Key": uuid.uuid4().hex})
        return str(created["game_id"])

    async def view(self, game_id: str) -> GameView:
        return await self.call("GET", f"/v1/games/{game_id}", reply=GameView)  # type: ignore[no-any-return]

    async def client_seed(self, game_id: str, client_seed: str) -> dict[str, Any]:
        """Your seat's client seed for a game that waits for them; the same seed again is a harmless retry."""
        result: dict[str, Any] = await self.call("POST", f"/v1/games/{game_id}/client-seed",
                                                 {"client_seed": client_seed})
        return result

    async def legal(self, game_id: str) -> tuple[LegalCommands, list[Any]]:
        legal: LegalCommands = await self.call("GET", f"/v1/games/{game_id}/legal", reply=LegalCommands)
        return legal, msgspec.json.decode(legal.commands)

    async def command(self, game_id: str, command: Any, key: str | None = None) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("POST", f"/v1/games/{game_id}/commands", command,
                                                 {"Idempotency-Key": key or uuid.uuid4().hex})
        return result

    async def create_tournament(self, name: str, game: str, format: dict[str, Any], max_players: int,  # noqa: A002
                                options: dict[str, Any] | None = None, **fields: Any) -> str:
        ref = await self.call("POST", "/v1/tournaments", {"name": name, "game": game, "format": format,
                                                         "max_players": max_players, "options": options or {},
                                                         **fields})
        return str(ref["tournament_id"])

    async def enter(self, tournament_id: str) -> None:
        """A try that went unanswered may have entered us: "already registered" then answers the retry."""
        await self.call("POST", f"/v1/tournaments/{tournament_id}/players", {},
                        done_if=frozenset({Refusal.TOURNAMENT_ALREADY_REGISTERED}))

    async def start(self, tournament_id: str) -> dict[str, Any]:
        result: dict[str, Any] | None = await self.call("POST", f"/v1/tournaments/{tournament_id}/start",
                                                        done_if=frozenset({Refusal.TOURNAMENT_ALREADY_STARTED}))
        return result if result is not None else await self.tournament(tournament_id)

    async def tournament(self, tournament_id: str) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("GET", f"/v1/tournaments/{tournament_id}")
        return result

    async def my_table(self, tournament_id: str) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("GET", f"/v1/tournaments/{tournament_id}/me")
        return result

    async def views(self, game_id: str) -> AsyncIterator[GameView]:
        """Your view now, then each time the game changes, until it ends or the connection drops."""
        url = f"{self.base_url}/v1/games/{game_id}/ws"
        try:
            async with self.session.ws_connect(url, headers=self._headers()) as socket:
                async for message in socket:
                    if message.type != aiohttp.WSMsgType.BINARY:
                        break
                    yield msgspec.json.decode(message.data, type=GameView)
        except (aiohttp.ClientConnectionError, aiohttp.WSServerHandshakeError, ConnectionResetError):
            return
