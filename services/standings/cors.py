"""Everything under /v1 is public and read-only, so any page may read it: the play page, served by the gateway on
another origin, lists the games and names it shows from here. No credentials are ever involved."""

from __future__ import annotations

from aiohttp import web

from services.standings.http import Handler


@web.middleware
async def public_reads(request: web.Request, handler: Handler) -> web.StreamResponse:
    if request.method == "OPTIONS" and request.path.startswith("/v1/"):
        return web.Response(status=204, headers={"Access-Control-Allow-Origin": "*",
                                                 "Access-Control-Allow-Methods": "GET",
                                                 "Access-Control-Allow-Headers": "If-None-Match, Last-Event-ID",
                                                 "Access-Control-Max-Age": "86400"})
    response = await handler(request)
    if request.path.startswith("/v1/") and not response.prepared:
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Expose-Headers"] = "ETag"
    return response
