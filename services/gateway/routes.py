"""A gateway route stated once: method, path, handler and OpenAPI operation. The router gets the route modules'
``ROUTES`` (``add_routes``); ``/openapi.json`` documents the same ones (``services.gateway.openapi``)."""

from __future__ import annotations

from typing import Literal, NamedTuple

from aiohttp import web
from aiohttp.typedefs import Handler


class Route(NamedTuple):
    method: Literal["GET", "POST", "DELETE"]
    path: str
    handler: Handler
    operation: str
    """Its OpenAPI operationId, which ``openapi.document`` describes."""


def add_routes(app: web.Application, routes: tuple[Route, ...]) -> None:
    for route in routes:
        if route.method == "GET":
            app.router.add_get(route.path, route.handler)  # HEAD too, as aiohttp answers it for every GET
        else:
            app.router.add_route(route.method, route.path, route.handler)
