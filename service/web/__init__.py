"""The table in a browser: the lobby, a game's table and its history, served by dicelog itself.

The pages are static HTML and JavaScript modules (``service/web/static/``, shipped as package
data) that call the public REST API, so who sees what stays the API's job: a seat's token travels
in the URL fragment (``/play/{id}#token=...``), which a browser never sends to a server, and the
page's script sends it as ``Authorization: Bearer``. Nothing is loaded from another origin: the
pages' Content-Security-Policy allows this origin only.

- ``/``: the lobby (public games, create a game, join links);
- ``/play/{game_id}``: a game's table (a seat's view with a token, else the spectator's);
- ``/play/{game_id}/history``: the history and dispute view (versions, turns, dice proof, verify);
- ``/static/...``: the pages' scripts, styles and the vendored API docs UI.

None of them is part of the API: they are left out of the OpenAPI document.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get
from litestar.datastructures import CacheControlHeader
from litestar.params import PathParameter
from litestar.static_files import create_static_files_router

GameId = Annotated[UUID, PathParameter(description="Game id (UUID)")]
STATIC = Path(__file__).parent / "static"
"""The pages, scripts and styles (package data of ``dicelog.service.web``)."""

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}
"""Sent with every page: scripts, styles and API calls from this origin only; no referrer."""


@cache
def _page(name: str) -> bytes:
    return (STATIC / name).read_bytes()


def page(name: str) -> Response[bytes]:
    """One of the static HTML pages, with the security headers."""
    return Response(_page(name), media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)


class WebPages(Controller):
    """The lobby, the table and the history view (HTML pages; not in the OpenAPI document)."""

    path = "/"
    include_in_schema = False

    @get("/", sync_to_thread=False, name="web-lobby")
    def lobby(self) -> Response[bytes]:
        return page("lobby.html")

    @get("/play/{game_id:uuid}", sync_to_thread=False, name="web-table")
    def table(self, game_id: GameId) -> Response[bytes]:
        return page("table.html")

    @get("/play/{game_id:uuid}/history", sync_to_thread=False, name="web-history")
    def history(self, game_id: GameId) -> Response[bytes]:
        return page("history.html")


STATIC_FILES = create_static_files_router(
    path="/static",
    directories=[STATIC],
    name="web-static",
    include_in_schema=False,
    cache_control=CacheControlHeader(no_cache=True),
)
"""The scripts, styles and vendored assets under ``/static``."""

WEB = (WebPages, STATIC_FILES)
"""The route handlers of the web table (``dicelog.service.app`` registers them)."""
