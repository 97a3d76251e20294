"""HTTP caching of the reads (docs/api-contract.md, HTTP caching): a strong ``ETag`` on every ``200``
answer to a ``GET`` of a game or of content, ``Cache-Control`` saying how long it holds, and ``304 Not
Modified`` for a conditional ``GET`` whose ``If-None-Match`` names the current ``ETag``.

The ``ETag`` is ``"<first 32 hex digits of sha256(body)>"``: the same bytes, the same tag, so it is
strong and needs no store. ``Cache-Control``:

- an ended game (and, for a fork, its original ended too: ``Games.revealed``) never changes again, so
  every read of it is ``max-age=31536000, immutable``;
- a running game's reads may change with the next command (or, for a past version or an old page, when
  an undo marks events undone or the end reveals what was masked): ``no-cache`` (revalidate with the
  ``ETag`` each time);
- each is ``private`` when the request carries a token or the game is ``private`` (the answer is that
  reader's view), else ``public``; ``Vary: Authorization`` says the view depends on the token (added to
  the answer's own ``Vary``, e.g. an export's ``Accept``);
- content (``/content/...``) is ``public, max-age=86400``: it changes only with a new release.

The route handlers say which of the first two applies by calling ``mark`` (``dicelog.service.http.routes``'
``_reader`` does, for every read of a game); an answer no handler marked gets no ``Cache-Control`` and
no ``ETag`` unless it is content.
"""

from __future__ import annotations

import hashlib
from typing import Any

from litestar.datastructures import Headers, MutableScopeHeaders
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

SCOPE_KEY = "dicelog_cache"
FOREVER = 31_536_000
"""Seconds an ended game's answer may be reused (a year: RFC 9111's customary "never expires")."""
CONTENT_MAX_AGE = 86_400
"""Seconds a content answer may be reused without revalidation."""
_CACHEABLE = ("application/json", "application/jsonl")


def mark(scope: Any, *, final: bool, private: bool) -> None:
    """Say how the answer to this request may be cached: ``final`` (it can no longer change) and
    ``private`` (it is one reader's view)."""
    scope[SCOPE_KEY] = (final, private)


def cache_control(scope: Any) -> str | None:
    """The ``Cache-Control`` of a ``200`` answer to the ``GET`` in ``scope`` (``None``: not cached)."""
    if scope.get("path", "").startswith("/content/"):
        return f"public, max-age={CONTENT_MAX_AGE}"
    marked = scope.get(SCOPE_KEY)
    if marked is None:
        return None
    final, private = marked
    who = "private" if private or Headers.from_scope(scope).get("authorization") else "public"
    return f"{who}, max-age={FOREVER}, immutable" if final else f"{who}, no-cache"


def _matches(if_none_match: str, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (weak comparison, RFC 9110 13.1.2) or is ``*``."""
    tags = [t.strip() for t in if_none_match.split(",")]
    return "*" in tags or any(t.removeprefix("W/") == etag for t in tags)


class HttpCache(ASGIMiddleware):
    """``ETag``, ``Cache-Control`` and ``304`` on ``GET`` answers (module docstring)."""

    scopes = (ScopeType.HTTP,)

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        if scope["type"] != ScopeType.HTTP or scope["method"] not in ("GET", "HEAD"):
            await next_app(scope, receive, send)
            return
        start: dict[str, Any] | None = None
        chunks: list[bytes] = []

        async def buffered(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = MutableScopeHeaders.from_message(message)
                media = headers.get("content-type", "").split(";", 1)[0].strip()
                if message["status"] == 200 and media in _CACHEABLE and cache_control(scope) is not None:
                    start = dict(message)
                    return
                await send(message)
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    await self._answer(scope, start, b"".join(chunks), send)
            else:
                await send(message)

        await next_app(scope, receive, buffered)

    async def _answer(self, scope: Scope, start: dict[str, Any], body: bytes, send: Send) -> None:
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers = MutableScopeHeaders.from_message(start)  # type: ignore[arg-type]
        headers["etag"] = etag
        headers["cache-control"] = cache_control(scope) or "no-cache"
        if SCOPE_KEY in scope:  # besides what the handler's answer varies on (an export's ``Accept``)
            vary = [v.strip() for v in headers.get("vary", "").split(",") if v.strip()]
            headers["vary"] = ", ".join(dict.fromkeys([*vary, "Authorization"]))
        condition = Headers.from_scope(scope).get("if-none-match")
        if condition is not None and _matches(condition, etag):
            start["status"] = 304
            for name in ("content-length", "content-type"):
                if name in headers:
                    del headers[name]
            await send(start)  # type: ignore[arg-type]
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        await send(start)  # type: ignore[arg-type]
        await send({"type": "http.response.body", "body": body, "more_body": False})
