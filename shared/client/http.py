"""The gateway's HTTP API from the client side."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import msgspec

from shared.messages.engine import GameView, LegalCommands


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class Player(msgspec.Struct, frozen=True):
    player_id: str
    name: str
    token: str


class LeagueClient:
    def __init__(self, session: aiohttp.ClientSession, base_url: str, token: str | None = None) -> None:
        self.session = session
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.player_id = ""

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return headers | (extra or {})

    async def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                   reply: Any = Any) -> Any:
        data = None if body is None else msgspec.json.encode(body)
        content = {"Content-Type": "application/json"} if data is not None else {}
        async with self.session.request(method, f"{self.base_url}{path}", data=data,
                                        headers=self._headers(content | (headers or {}))) as response:
            payload = await response.read()
            if response.status >= 400:
                error = msgspec.json.decode(payload) if payload else {}
                raise ApiError(response.status, error.get("code", "?"), error.get("message", ""))
            return msgspec.json.decode(payload, type=reply)

    async def register(self, name: str) -> Player:
        player = await self.call("POST", "/v1/players", {"name": name}, reply=Player)
        self.token, self.player_id = player.token, player.player_id
        return player

    async def create_game(self, game: str, seats: int, **fields: Any) -> str:
        return str((await self.call("POST", "/v1/games", {"game": game, "seats": seats, **fields}))["game_id"])

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
        await self.call("POST", f"/v1/tournaments/{tournament_id}/players", {})

    async def start(self, tournament_id: str) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("POST", f"/v1/tournaments/{tournament_id}/start")
        return result

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
