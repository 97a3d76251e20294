"""The table in a browser: the lobby, a game's table and its history, served by dicelog itself.

The pages are static HTML and JavaScript modules (``service/http/web/static/``, shipped as package
data) that call the public REST API, so who sees what stays the API's job: a seat's token travels
in the URL fragment (``/play/{id}#token=...``), which a browser never sends to a server, and the
page's script sends it as ``Authorization: Bearer``. Nothing is loaded from another origin: the
pages' Content-Security-Policy allows this origin only.

- ``/``: the lobby (public games, create a game, join links);
- ``/play/{game_id}``: a game's table (a seat's view with a token, else the spectator's);
- ``/play/{game_id}/history``: the history and dispute view (versions, turns, dice proof, verify);
- ``/static/...``: the pages' scripts, styles and the vendored API docs UI (nothing game-specific);
- ``/web/rulesets/<ruleset>/<file>``: a ruleset's own files for the table (its ``web`` hook, a
  ``WebAssets``: package data of the ruleset), among them the module the table page imports for the
  ruleset's games (``table_module``); a ruleset without them gets the generic table
  (``/static/js/generic.js``). The service names no ruleset: it finds them through the registry.

None of them is part of the API: they are left out of the OpenAPI document.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Response, get
from litestar.datastructures import CacheControlHeader
from litestar.exceptions import NotFoundException
from litestar.params import PathParameter
from litestar.static_files import create_static_files_router

from dicelog.domain.core import registry
from dicelog.domain.core.errors import RuleBroken

GameId = Annotated[UUID, PathParameter(description="Game id (UUID)")]
RulesetName = Annotated[str, PathParameter(description="A ruleset's name (``vast``)")]
AssetPath = Annotated[str, PathParameter(description="A file of the ruleset's web folder (``/vast.js``)")]
STATIC = Path(__file__).parent / "static"
"""The pages, scripts and styles (package data of ``dicelog.service.http.web``)."""

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


GENERIC_TABLE = "/static/js/generic.js"
"""The table module of a ruleset that brings none: its views drawn as nested lists."""

MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
}
"""The kinds of file a ruleset's web folder may serve, by suffix; any other name is not found."""

_ASSET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _web_assets(ruleset: str) -> Any:
    try:
        return getattr(registry.get(ruleset), "web", None)
    except RuleBroken:
        return None


def table_module(ruleset: str) -> str:
    """The path of the ES module the table page imports for a game of ``ruleset``: its ``web``
    hook's ``table`` under ``/web/rulesets/<ruleset>/``, else the generic table's
    (``GENERIC_TABLE``)."""
    web = _web_assets(ruleset)
    return f"/web/rulesets/{ruleset}/{web.table}" if web is not None else GENERIC_TABLE


def lobby_module(ruleset: str) -> str | None:
    """The path of the ES module that draws the lobby's setup form for a new game of ``ruleset`` (its
    ``web`` hook's ``lobby``), ``None`` when it has none (the setup is typed as JSON)."""
    web = _web_assets(ruleset)
    return f"/web/rulesets/{ruleset}/{web.lobby}" if web is not None and web.lobby else None


@cache
def _asset(ruleset: str, path: str) -> tuple[bytes, str] | None:
    web = _web_assets(ruleset)
    parts = path.strip("/").split("/")
    suffix = Path(parts[-1]).suffix
    if web is None or suffix not in MEDIA_TYPES or not all(_ASSET_NAME.fullmatch(p) for p in parts):
        return None
    node = files(web.package).joinpath(web.folder, *parts)
    if not node.is_file():
        return None
    return node.read_bytes(), MEDIA_TYPES[suffix]


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

    @get("/web/rulesets/{ruleset:str}/{path:path}", sync_to_thread=False, name="web-ruleset-asset")
    def ruleset_asset(self, ruleset: RulesetName, path: AssetPath) -> Response[bytes]:
        """One file of ruleset ``ruleset``'s web folder (``WebAssets``); 404 for anything else
        (no such ruleset, no web folder, a name with ``..`` or an unknown suffix)."""
        found = _asset(ruleset, path)
        if found is None:
            raise NotFoundException(detail=f"no web file {path.strip('/')!r} for ruleset {ruleset!r}")
        body, media_type = found
        return Response(body, media_type=media_type, headers=SECURITY_HEADERS)


STATIC_FILES = create_static_files_router(
    path="/static",
    directories=[STATIC],
    name="web-static",
    include_in_schema=False,
    cache_control=CacheControlHeader(no_cache=True),
)
"""The scripts, styles and vendored assets under ``/static``."""

WEB = (WebPages, STATIC_FILES)
"""The route handlers of the web table (``dicelog.service.http.app`` registers them)."""
