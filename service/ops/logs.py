"""Structured logs: one JSON object per line, in every process (issue 12, Observability).

``configure(level, fmt)`` routes every logger of the process (dicelog's own, uvicorn's access and
error logs, Litestar's, the libraries') through one structlog formatter on the root logger:

- ``json`` (the default, ``DICELOG_LOG_FORMAT``): ``{"timestamp": "2026-11-23T23:59:59.123Z",
  "level": "info", "logger": "dicelog.commands", "event": "command accepted", ...}``;
- ``console``: the same fields as aligned text, for a developer's terminal.

Each line carries the context bound for the request being served (``dicelog.service.ops.logs.
RequestContext``): ``request_id`` (the client's ``X-Request-ID`` when it is a sane token, else a
new one; echoed in the response's ``X-Request-ID``), ``game_id`` (from the path), and, once the
bearer token was checked, ``seat`` (the seat's name) and ``command`` (a command's type tag).
Tokens are never logged: ``redact`` replaces any ``Bearer <token>`` text and the value of any
field named like a token or an Authorization header with ``[redacted]``, as a last line of
defence (no code path logs a token to begin with).
"""

from __future__ import annotations

import logging
import re
import sys
import uuid
from typing import Any, Literal, TextIO

import structlog
from litestar.datastructures import MutableScopeHeaders
from structlog.contextvars import bind_contextvars, clear_contextvars

LogFormat = Literal["json", "console"]
LOG_FORMATS: tuple[str, ...] = ("json", "console")

_HANDLER_MARK = "_dicelog_handler"
_BEARER = re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]+")
_SECRET_KEYS = re.compile(r"(?i)(token|authorization|secret|password|view_key|seed)")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_GAME_PATH = re.compile(r"^/(?:games|campaigns)/([0-9a-fA-F-]{36})(?:/|$)")
REDACTED = "[redacted]"


def redact(_logger: Any, _method: str, event_dict: dict[str, Any]) -> dict[str, Any]:
    """structlog processor: no bearer token, Authorization header or secret in a log line."""
    for key, value in list(event_dict.items()):
        if _SECRET_KEYS.search(key) and value is not None:
            event_dict[key] = REDACTED
        elif isinstance(value, str) and _BEARER.search(value):
            event_dict[key] = _BEARER.sub(r"\1 " + REDACTED, value)
    return event_dict


def _plain(_logger: Any, _method: str, event_dict: dict[str, Any]) -> dict[str, Any]:
    """structlog processor: drop uvicorn's ``color_message`` (the message again, with terminal colours)."""
    event_dict.pop("color_message", None)
    return event_dict


def _shared_processors() -> list[Any]:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.add_log_level,
        structlog.stdlib.ExtraAdder(),
        structlog.processors.TimeStamper(fmt="iso", utc=True, key="timestamp"),
        _plain,
        redact,
    ]


def configure(level: str = "info", fmt: str = "json", stream: TextIO | None = None) -> None:
    """Send every log record of the process to ``stream`` (default standard error) as ``fmt``.

    Idempotent: a second call replaces the handler the first one installed, and leaves any other
    handler of the root logger (a test's capture, say) in place. ``level`` is a ``logging`` level
    name (``info``...); ``fmt`` is ``json`` or ``console`` (``ValueError`` otherwise)."""
    if fmt not in LOG_FORMATS:
        raise ValueError(f"log format {fmt!r}: one of {', '.join(LOG_FORMATS)}")
    shared = _shared_processors()
    structlog.configure(
        # filter_by_level first: a line below the level (``command accepted`` at debug, once per
        # command) is dropped before the other processors run
        processors=[
            structlog.stdlib.filter_by_level,
            *shared,
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    renderer: Any = (
        structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=False)
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            renderer,
        ],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    setattr(handler, _HANDLER_MARK, True)
    root = logging.getLogger()
    root.handlers = [h for h in root.handlers if not getattr(h, _HANDLER_MARK, False)] + [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "litestar"):
        own = logging.getLogger(name)
        own.handlers = []
        own.propagate = True


def get_logger(name: str) -> Any:
    """A structlog logger named ``name`` (its lines take the bound request context)."""
    return structlog.stdlib.get_logger(name)


async def ensure_request_id(message: Any, scope: Any) -> None:
    """The app's ``before_send`` hook: an answer that did not pass ``RequestContext`` (Litestar
    answers an unknown path or method before any middleware runs) still carries ``X-Request-ID``:
    the client's when it is sane, else a new one."""
    if message["type"] != "http.response.start":
        return
    headers = MutableScopeHeaders.from_message(message)
    if "x-request-id" not in headers:
        incoming = next((v for k, v in scope.get("headers", ()) if k == b"x-request-id"), b"")
        text = incoming.decode("latin-1")
        headers["x-request-id"] = text if _REQUEST_ID.match(text) else uuid.uuid4().hex


class RequestContext:
    """ASGI middleware: binds ``request_id`` and ``game_id`` to the logs of one HTTP request, and
    answers ``X-Request-ID``. An incoming ``X-Request-ID`` of 1 to 128 characters among letters,
    digits and ``._:-`` is kept (a client's or a proxy's correlation id); anything else is
    replaced by a new random id."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = next((v for k, v in scope.get("headers", ()) if k == b"x-request-id"), b"")
        text = incoming.decode("latin-1")
        request_id = text if _REQUEST_ID.match(text) else uuid.uuid4().hex
        clear_contextvars()
        bind_contextvars(request_id=request_id)
        if match := _GAME_PATH.match(scope.get("path", "")):
            bind_contextvars(game_id=match.group(1).lower())

        async def send_with_id(message: Any) -> None:
            if message["type"] == "http.response.start":
                MutableScopeHeaders.from_message(message)["x-request-id"] = request_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            clear_contextvars()
