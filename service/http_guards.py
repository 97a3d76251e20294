"""HTTP-level guards of the API: CORS (``cors_config``) and the request media type (``JsonOnly``).

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
"""

from __future__ import annotations

from typing import Any

from litestar.config.cors import CORSConfig
from litestar.datastructures import Headers
from litestar.enums import RequestEncodingType, ScopeType
from litestar.middleware.base import ASGIMiddleware
from litestar.plugins.problem_details import ProblemDetailsException
from litestar.types import ASGIApp, Receive, Scope, Send

from service.settings import Settings

UNSUPPORTED_MEDIA_TYPE = "urn:dicelog:problem:unsupported-media-type"
ALLOWED_HEADERS = ("Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID")
"""Request headers a browser app may send (besides the CORS-safelisted ones)."""
EXPOSED_HEADERS = (
    "Location", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy",
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
    return media_type == "application/json" or (media_type.startswith("application/") and media_type.endswith("+json"))


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
        has_body = headers.get("content-length", "0").strip() not in ("", "0") or "transfer-encoding" in headers
        stated = headers.get("content-type")
        if has_body and stated is not None and _takes_json_body(scope["route_handler"]):
            media_type = stated.split(";", 1)[0].strip().lower()
            if not is_json(media_type):
                raise ProblemDetailsException(
                    status_code=415,
                    type_=UNSUPPORTED_MEDIA_TYPE,
                    title="Unsupported Media Type",
                    detail=f"the body must be JSON with Content-Type: application/json, not {media_type or '(empty)'}",
                    extra={"content_type": stated, "accepted": ["application/json", "application/*+json"]},
                    headers={"Accept-Post": "application/json"} if scope["method"] == "POST" else None,
                )
        await next_app(scope, receive, send)
