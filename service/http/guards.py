"""HTTP-level guards of the API: CORS (``cors_config``), the request media type (``JsonOnly``) and
the size and depth of JSON bodies (``BodyLimits``).

CORS is off unless ``DICELOG_CORS_ORIGINS`` lists origins (``Settings.cors_origins``): without
it, a browser app on another origin cannot call the API (nothing is answered to a preflight, no
``Access-Control-Allow-Origin`` is sent). With it, Litestar's CORS middleware answers preflights
from those origins (``*`` only when set explicitly): the methods the API has (GET, POST), the
request headers clients send (``Authorization``, ``Content-Type``, ``Idempotency-Key``,
``Last-Event-ID``), the response headers they read (``Location``, ``Retry-After``, the
``RateLimit-*`` headers). No credentials mode: tokens travel in ``Authorization``, never in
cookies.

``JsonOnly``: a request with a body to an endpoint that takes a JSON body must say
``Content-Type: application/json`` (or ``application/<anything>+json``; parameters such as
``charset`` are allowed). Any other stated media type (``text/plain``, form data, ...) is refused
with 415 problem+json ``urn:dicelog:problem:unsupported-media-type`` before the handler runs, so
nothing changes. A body without any ``Content-Type`` is read as JSON (and is a 400 when it is not
JSON): tools that send raw bytes without a header keep working; whatever states another type is
refused. A request without a body is left to the handler (a missing body is a 400 there).

``BodyLimits``: the body of a request to an endpoint that takes a JSON body is read whole before
anything decodes it, and refused

- with 413 problem+json ``urn:dicelog:problem:body-too-large`` when it is larger than
  ``DICELOG_MAX_BODY_BYTES`` (2 MiB; ``Settings.max_body_bytes``): at once when ``Content-Length``
  says so, else as soon as the bytes read pass the limit (a content pack has its own, smaller cap:
  1 MiB of canonical JSON, checked after decoding);
- with 400 problem+json ``urn:dicelog:problem:body-too-deep`` when its arrays and objects nest
  deeper than ``MAX_DEPTH`` (64) levels. The check is a linear scan without recursion
  (``json_depth``): msgspec's decoder recurses and raises ``RecursionError`` near 1,000 levels (a
  500 with a traceback per request before this guard), and the domain walks decoded values
  recursively too. The deepest body the API needs is a content pack: 10 levels.

Neither reaches a handler, so nothing changes. An over-long body is drained (up to ``DRAIN_BYTES``)
before the answer, so that the client, still sending, reads the 413 rather than a reset connection.

``DefaultRuleset``: ``POST /games`` names its ruleset in ``ruleset`` (the body is a union tagged by it).
Releases that served one game alone (Mice and Mystics) published that field as optional, so clients
written for them may leave it out: a JSON object body without ``ruleset`` is read as the served ruleset
whose ``default_when_unnamed`` is true (``dicelog.domain.core.registry.default_when_unnamed``; the service
names no game). Any other body is passed on untouched, and the handler's validation answers it as usual.

``StrictSeatFlags``: a seat's ``bot`` flag (``POST /games``, ``POST /campaigns``) is a JSON boolean or a
400, although Litestar's lenient conversion would take ``0``/``1``/``"true"`` for one.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Any

import msgspec
from litestar.config.cors import CORSConfig
from litestar.datastructures import Headers
from litestar.enums import RequestEncodingType, ScopeType
from litestar.exceptions import ValidationException
from litestar.middleware.base import ASGIMiddleware
from litestar.plugins.problem_details import ProblemDetailsException
from litestar.types import ASGIApp, HTTPRequestEvent, Receive, ReceiveMessage, Scope, Send

from dicelog.domain.core import registry
from dicelog.service.ops.settings import Settings

UNSUPPORTED_MEDIA_TYPE = "urn:dicelog:problem:unsupported-media-type"
BODY_TOO_LARGE = "urn:dicelog:problem:body-too-large"
BODY_TOO_DEEP = "urn:dicelog:problem:body-too-deep"
MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted in a JSON body."""
DRAIN_BYTES = 16 * 1024 * 1024
"""At most this much of a refused body is read (and dropped) before answering 413; the connection of
a longer one is closed after the answer."""
ALLOWED_HEADERS = (
    "Authorization",
    "Content-Type",
    "Dicelog-Seat",
    "Dicelog-Tokens",
    "Idempotency-Key",
    "If-None-Match",
    "Last-Event-ID",
    "X-Request-ID",
)
"""Request headers a browser app may send (besides the CORS-safelisted ones); ``If-None-Match`` for the
conditional reads of the HTTP cache (docs/api-contract.md)."""
EXPOSED_HEADERS = (
    "ETag",
    "Link",
    "Location",
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
    "X-Request-ID",
)
"""Response headers a browser app may read (besides the CORS-safelisted ones)."""


def cors_config(settings: Settings) -> CORSConfig | None:
    """Litestar's ``CORSConfig`` for ``settings.cors_origins``; ``None`` (CORS off) when empty."""
    if not settings.cors_origins:
        return None
    return CORSConfig(
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST"],
        allow_headers=list(ALLOWED_HEADERS),
        expose_headers=list(EXPOSED_HEADERS),
        allow_credentials=False,
        max_age=600,
    )


def is_json(media_type: str) -> bool:
    """``application/json`` or ``application/<x>+json`` (lower-case, without parameters)."""
    if media_type == "application/json":
        return True
    return media_type.startswith("application/") and media_type.endswith("+json")


def _takes_json_body(handler: Any) -> bool:
    """Whether a route handler reads a JSON body (its ``data`` parameter, JSON by default)."""
    data = handler.parsed_fn_signature.parameters.get("data")
    if data is None:
        return False
    media_type = getattr(data.kwarg_definition, "media_type", RequestEncodingType.JSON)
    return media_type == RequestEncodingType.JSON


class JsonOnly(ASGIMiddleware):
    """415 problem+json for a body whose stated ``Content-Type`` is not JSON (module docstring)."""

    scopes = (ScopeType.HTTP,)

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        headers = Headers.from_scope(scope)
        length = headers.get("content-length", "0").strip()
        has_body = length not in ("", "0") or "transfer-encoding" in headers
        stated = headers.get("content-type")
        if has_body and stated is not None and _takes_json_body(scope["route_handler"]):
            media_type = stated.split(";", 1)[0].strip().lower()
            if not is_json(media_type):
                raise ProblemDetailsException(
                    status_code=415,
                    type_=UNSUPPORTED_MEDIA_TYPE,
                    title="Unsupported Media Type",
                    detail="the body must be JSON with Content-Type: application/json, "
                    f"not {media_type or '(empty)'}",
                    extra={"content_type": stated, "accepted": ["application/json", "application/*+json"]},
                    headers={"Accept-Post": "application/json"}
                    if scope["type"] == ScopeType.HTTP and scope["method"] == "POST"
                    else None,
                )
        await next_app(scope, receive, send)


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
"""A JSON string (escapes included): its brackets are text, not structure."""
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DEPTH_STEP = [0] * 256
for _b in b"[{":
    _DEPTH_STEP[_b] = 1
for _b in b"]}":
    _DEPTH_STEP[_b] = -1


def json_depth(body: bytes, limit: int = MAX_DEPTH) -> int:
    """How deep the arrays and objects of a JSON text nest (``[[1]]``: 2), without recursion.

    Linear in the body: strings are cut out (a regular expression), the other bytes but brackets
    dropped (``bytes.translate``), and the deepest running count of open brackets taken, all in C.
    Returns at most the number of opening brackets; when that is at most ``limit`` the body is not
    scanned at all. Malformed JSON gives some number: the decoder refuses it afterwards anyway."""
    opening = body.count(b"[") + body.count(b"{")
    if opening <= limit:
        return opening
    brackets = _STRING.sub(b"", body).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


class BodyLimits(ASGIMiddleware):
    """413 / 400 problem+json for a JSON body too large or nested too deep (module docstring)."""

    scopes = (ScopeType.HTTP,)

    def __init__(self, max_bytes: int, max_depth: int = MAX_DEPTH) -> None:
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    def too_large(self, drained: bool) -> ProblemDetailsException:
        return ProblemDetailsException(
            status_code=413,
            type_=BODY_TOO_LARGE,
            title="Request body too large",
            detail=f"the body is larger than {self.max_bytes} bytes",
            extra={"max_bytes": self.max_bytes},
            headers=None if drained else {"Connection": "close"},
        )

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        headers = Headers.from_scope(scope)
        length = headers.get("content-length", "").strip()
        has_body = length not in ("", "0") or "transfer-encoding" in headers
        if not has_body or not _takes_json_body(scope["route_handler"]):
            await next_app(scope, receive, send)
            return
        declared = int(length) if length.isascii() and length.isdigit() else None
        if declared is not None and declared > self.max_bytes:
            raise self.too_large(await _drain(receive, 0, declared))
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # http.disconnect: the client left, nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                raise self.too_large(message.get("more_body", False) is False or await _drain(receive, size))
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if json_depth(body, self.max_depth) > self.max_depth:
            raise ProblemDetailsException(
                status_code=400,
                type_=BODY_TOO_DEEP,
                title="JSON body nested too deep",
                detail=f"the body's arrays and objects nest more than {self.max_depth} levels deep",
                extra={"max_depth": self.max_depth},
            )
        await next_app(scope, replaying(body, receive), send)


def replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` (already read whole) as one message, then defers to ``receive``."""
    replayed = False

    async def replay() -> ReceiveMessage:
        nonlocal replayed
        if not replayed:
            replayed = True
            whole: HTTPRequestEvent = {"type": "http.request", "body": body, "more_body": False}
            return whole
        return await receive()

    return replay


async def _drain(receive: Receive, size: int, declared: int | None = None) -> bool:
    """Read and drop the rest of a refused body, up to ``DRAIN_BYTES`` in all; whether it all came."""
    if declared is not None and declared > DRAIN_BYTES:
        return False
    while size <= DRAIN_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return False  # http.disconnect
        size += len(message.get("body", b""))
        if not message.get("more_body", False):
            return True
    return False


async def whole_body(receive: Receive) -> bytes | None:
    """The request body read to its end; ``None`` when the client went away first."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None  # http.disconnect
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


class DefaultRuleset(ASGIMiddleware):
    """Reads a ``POST /games`` body without ``ruleset`` as the served ruleset that says it is meant then
    (``registry.default_when_unnamed``: Mice and Mystics; module docstring)."""

    scopes = (ScopeType.HTTP,)

    def __init__(self, served: tuple[str, ...]) -> None:
        self.default = registry.default_when_unnamed(served)
        self.active = self.default is not None

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        if not self.active or scope.get("method") != "POST" or scope.get("path", "").rstrip("/") != "/games":
            await next_app(scope, receive, send)
            return
        body = await whole_body(receive)
        if body is None:
            return
        try:
            document = msgspec.json.decode(body)
        except msgspec.DecodeError:
            document = None
        if isinstance(document, dict) and "ruleset" not in document:
            body = msgspec.json.encode({"ruleset": self.default, **document})
        await next_app(scope, replaying(body, receive), send)


class StrictSeatFlags(ASGIMiddleware):
    """400 for a ``POST /games`` or ``POST /campaigns`` body whose ``seats[].bot`` or ``table_device`` is not
    a JSON boolean.

    Litestar converts request bodies leniently (msgspec's ``strict=False``): ``0``, ``1``, ``"true"`` or
    ``"false"`` would pass as a boolean, although the OpenAPI document (and so every generated client) says
    ``boolean``. A seat's ``bot`` flag decides whether the server plays the seat, ``table_device`` whether
    a token acts for every seat: each is taken only as ``true`` or ``false``. Any other body is passed on
    untouched."""

    scopes = (ScopeType.HTTP,)
    paths = ("/games", "/campaigns")

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        if scope.get("method") != "POST" or scope.get("path", "").rstrip("/") not in self.paths:
            await next_app(scope, receive, send)
            return
        body = await whole_body(receive)
        if body is None:
            return
        if b'"bot"' in body or b'"table_device"' in body:
            try:
                document = msgspec.json.decode(body)
            except msgspec.DecodeError:
                document = None
            seats = document.get("seats") if isinstance(document, dict) else None
            for i, seat in enumerate(seats if isinstance(seats, list) else ()):
                if isinstance(seat, dict) and "bot" in seat and not isinstance(seat["bot"], bool):
                    raise ValidationException(f"seats[{i}].bot must be true or false, not {seat['bot']!r}")
            flag = document.get("table_device", False) if isinstance(document, dict) else False
            if not isinstance(flag, bool):
                raise ValidationException(f"table_device must be true or false, not {flag!r}")
        await next_app(scope, replaying(body, receive), send)
