"""Quotas: Litestar's rate-limit middleware on the writes that cost the most.

Three quotas (``DICELOG_RATE_LIMIT_CREATE``, ``DICELOG_RATE_LIMIT_COMMANDS`` and
``DICELOG_RATE_LIMIT_EXPENSIVE``, see ``service/ops/settings.py``), each a fixed window of
``<count>/<unit>``, or ``off``:

- **create**: ``POST /games``, ``POST /campaigns``, ``POST /games/{id}/forks``, per client address;
- **commands**: ``POST /games/{id}/commands`` and every ``POST /campaigns/{id}/...``, per bearer
  token; the key holds ``sha256(token)``, never the token; without a token, per client address;
- **expensive**: the operations that read or re-check a whole log: ``POST /games/{id}/verify``,
  ``GET /games/{id}/export``, ``POST /games/{id}/claims``, ``GET /games/{id}/state?version=N``,
  ``GET /games/{id}/board?version=N`` and ``GET /games/{id}/initiative?version=N`` (replays),
  ``POST /campaigns/{id}/verify`` and ``GET /campaigns/{id}/export``, per bearer token as above,
  else per client address.

The client address is the ASGI ``client`` the server gives. ``dicelog serve`` lets uvicorn take it
from ``X-Forwarded-For`` / ``X-Forwarded-Proto`` only when the connection comes from an address in
``DICELOG_FORWARDED_ALLOW_IPS`` (default: none, so the socket's peer address counts and a forged
header changes nothing); no forwarding header is read here.

Other requests (every other ``GET`` among them) are never counted. Counters live in a Litestar store:
the app's in-memory store ``dicelog-rate-limit`` by default, Redis (namespace
``dicelog:rate-limit``) when ``DICELOG_REDIS_URL`` is set, so that N API replicas share them.

A refused request is 429 ``application/problem+json`` of type ``urn:dicelog:problem:rate-limited``
with ``Retry-After`` (seconds) and the ``RateLimit-*`` headers; it reaches no handler, so it
changes nothing. Accepted requests carry the ``RateLimit-*`` headers too.

Quotas fail open: when their store fails (Redis down, or slower than ``STORE_TIMEOUT``), requests
are served uncounted and the store is tried again every ``STORE_RETRY`` seconds, with one warning
when the outage starts and one when it ends (commands succeed without Redis, as for notifications).
The memory store drops expired counters every ``SWEEP_INTERVAL`` seconds (Redis expires its own).

The app puts ``*rate_limit_middleware(settings)`` in its middleware, and
``close_rate_limit_stores`` in its ``on_shutdown`` (it closes the Redis connections).
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from time import time
from typing import TYPE_CHECKING, Any, Literal

import anyio
from litestar.middleware.base import DefineMiddleware
from litestar.middleware.rate_limit import (
    DURATION_VALUES,
    CacheObject,
    RateLimitConfig,
    RateLimitMiddleware,
    get_remote_address,
)
from litestar.plugins.problem_details import ProblemDetailsException
from litestar.stores.memory import MemoryStore

from dicelog.service.ops.settings import RateUnit, Settings, parse_rate_limit

if TYPE_CHECKING:
    from litestar import Litestar
    from litestar.connection import Request
    from litestar.stores.base import Store
    from litestar.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "RATE_LIMITED",
    "STORE_NAME",
    "QuotaConfig",
    "QuotaMiddleware",
    "close_rate_limit_stores",
    "rate_limit_middleware",
]

log = logging.getLogger("dicelog.quotas")

RATE_LIMITED = "urn:dicelog:problem:rate-limited"
STORE_NAME = "dicelog-rate-limit"
REDIS_NAMESPACE = "dicelog:rate-limit"
STORE_TIMEOUT = 0.5  # seconds, for connecting to and answering from Redis
STORE_RETRY = 5.0  # seconds without counting after the store failed
SWEEP_INTERVAL = 60.0  # seconds between two sweeps of the expired counters of a memory store

Quota = Literal["create", "commands", "expensive"]
QUOTAS: tuple[Quota, ...] = ("create", "commands", "expensive")

# Route path templates (parameters written ``{}``) of each quota; POST unless said otherwise.
_CREATE = frozenset({"/games", "/campaigns", "/games/{}/forks"})
_COMMANDS = frozenset({"/games/{}/commands"})
_CAMPAIGN_COMMANDS = "/campaigns/{}/"
_EXPENSIVE_POSTS = frozenset({"/games/{}/verify", "/games/{}/claims", "/campaigns/{}/verify"})
_EXPORTS = frozenset({"/games/{}/export", "/campaigns/{}/export"})
_REPLAYS = frozenset({"/games/{}/state", "/games/{}/board", "/games/{}/initiative"})
_PARAMETER = re.compile(r"\{[^}]*\}")
EXPENSIVE_OPERATIONS = (
    ("post", "/games/{game_id}/verify"),
    ("post", "/games/{game_id}/claims"),
    ("get", "/games/{game_id}/export"),
    ("get", "/games/{game_id}/state"),
    ("get", "/games/{game_id}/board"),
    ("get", "/games/{game_id}/initiative"),
    ("post", "/campaigns/{campaign_id}/verify"),
    ("get", "/campaigns/{campaign_id}/export"),
)
"""The operations of the ``expensive`` quota, as (method, OpenAPI path) (``state``, ``board`` and
``initiative`` only with ``version``)."""


def quota_of(request: Request[Any, Any, Any]) -> Quota | None:
    """The quota a request counts against, if any (from its method and route, not its raw path)."""
    template = request.scope.get("path_template") or request.scope["path"]
    return quota_of_operation(request.method, template, replay="version" in request.query_params)


def quota_of_operation(method: str, path: str, *, replay: bool = True) -> Quota | None:
    """The quota an operation (``method``, route template such as ``/games/{game_id}/state``)
    counts against, if any; ``replay``: a ``GET .../state`` (``.../board``, ``.../initiative``) has a
    ``version`` (the OpenAPI document declares the quota on the operations it may count)."""
    route = _PARAMETER.sub("{}", path).rstrip("/") or "/"
    method = method.upper()
    if method == "GET":
        if route in _EXPORTS or (route in _REPLAYS and replay):
            return "expensive"
        return None
    if method != "POST":
        return None
    if route in _EXPENSIVE_POSTS:
        return "expensive"
    if route in _CREATE:
        return "create"
    if route in _COMMANDS or route.startswith(_CAMPAIGN_COMMANDS):
        return "commands"
    return None


def _client(request: Request[Any, Any, Any]) -> str:
    return f"addr:{get_remote_address(request)}"


def _token_or_client(request: Request[Any, Any, Any]) -> str:
    """``token:<sha256 hex>`` of the bearer token, else the client address."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() == "bearer" and token:
        return "token:" + hashlib.sha256(token.encode()).hexdigest()
    return _client(request)


@dataclass
class QuotaConfig(RateLimitConfig):
    """A ``RateLimitConfig`` for one quota: its own key space, a store given outright (Redis) or
    taken from the app (``STORE_NAME``), and one lock for all the routes it covers."""

    quota: Quota = "create"
    shared_store: Store | None = None
    lock: anyio.Lock = field(default_factory=anyio.Lock)
    store_failed_at: float | None = None
    swept_at: float = field(default_factory=time)

    def get_store_from_app(self, app: Litestar) -> Store:
        return self.shared_store if self.shared_store is not None else app.stores.get(self.store)


class QuotaMiddleware(RateLimitMiddleware):
    """Litestar's ``RateLimitMiddleware``, refusing with a problem+json 429 and ``Retry-After``."""

    def __init__(self, app: ASGIApp, config: QuotaConfig) -> None:
        super().__init__(app=app, config=config)
        self.config: QuotaConfig = config
        # Litestar builds one middleware instance per route: one lock per quota instead.
        self._lock = config.lock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # Litestar's own __call__, but for the exception raised when the quota is spent and for
        # a failing store (see count).
        app = scope["litestar_app"]
        request: Request[Any, Any, Any] = app.request_class(scope)
        if await self.should_check_request(request=request):
            counted = await self.count(request, self.config.get_store_from_app(app))
            if counted is not None:
                cache_object, allowed = counted
                if not allowed:
                    raise self.refusal(cache_object)
                if self.config.set_rate_limit_headers:
                    send = self.create_send_wrapper(send=send, cache_object=cache_object)
        await self.app(scope, receive, send)

    async def count(self, request: Request[Any, Any, Any], store: Store) -> tuple[CacheObject, bool] | None:
        """The window's history and whether the request is allowed (then it is counted); ``None``
        when the store failed (the request is served uncounted)."""
        config = self.config
        if config.store_failed_at is not None and time() - config.store_failed_at < STORE_RETRY:
            return None
        key = self.cache_key_from_request(request)
        async with self._lock:
            if config.store_failed_at is not None and time() - config.store_failed_at < STORE_RETRY:
                return None
            try:
                cache_object = await self.retrieve_cached_history(key, store)
                allowed = len(cache_object.history) < self.max_requests
                if allowed:
                    await self.set_cached_history(key=key, cache_object=cache_object, store=store)
            except Exception as e:  # noqa: BLE001 - a quota must never take the API down
                if config.store_failed_at is None:
                    log.warning(
                        "%s quota not enforced while its store fails (retried every %.0f s): %s: %s",
                        config.quota,
                        STORE_RETRY,
                        type(e).__name__,
                        e,
                    )
                config.store_failed_at = time()
                return None
            if config.store_failed_at is not None:
                log.warning("%s quota enforced again: store answers", config.quota)
                config.store_failed_at = None
            if isinstance(store, MemoryStore) and time() - config.swept_at >= SWEEP_INTERVAL:
                config.swept_at = time()
                await store.delete_expired()  # one counter per token or address seen, else kept forever
            return cache_object, allowed

    def refusal(self, cache_object: CacheObject) -> ProblemDetailsException:
        retry_after = max(1, cache_object.reset - int(time()))
        who = "client" if self.config.quota == "create" else "token"
        what = {"create": "creations", "commands": "commands", "expensive": "expensive requests"}[
            self.config.quota
        ]
        window = DURATION_VALUES[self.unit]
        return ProblemDetailsException(
            status_code=429,
            type_=RATE_LIMITED,
            title="Rate limit exceeded",
            detail=f"at most {self.max_requests} {what} per {self.unit} per {who}; retry in {retry_after} s",
            headers={**self.create_response_headers(cache_object), "Retry-After": str(retry_after)},
            extra={"quota": self.config.quota, "limit": self.max_requests, "window_seconds": window},
        )


def _store(settings: Settings) -> Store | None:
    """The Redis store when ``DICELOG_REDIS_URL`` is set; else ``None`` (the app's memory store)."""
    if not settings.redis_url:
        return None
    from litestar.stores.redis import RedisStore
    from redis.asyncio import Redis

    client = Redis.from_url(
        settings.redis_url, socket_timeout=STORE_TIMEOUT, socket_connect_timeout=STORE_TIMEOUT
    )
    return RedisStore(client, namespace=REDIS_NAMESPACE, handle_client_shutdown=True)


def rate_limit_middleware(settings: Settings) -> list[DefineMiddleware]:
    """The middleware of the three quotas (none for a quota that is ``off``), for the app's list."""
    limits: dict[Quota, tuple[RateUnit, int] | None] = {
        "create": parse_rate_limit(settings.rate_limit_create, "DICELOG_RATE_LIMIT_CREATE"),
        "commands": parse_rate_limit(settings.rate_limit_commands, "DICELOG_RATE_LIMIT_COMMANDS"),
        "expensive": parse_rate_limit(settings.rate_limit_expensive, "DICELOG_RATE_LIMIT_EXPENSIVE"),
    }
    if not any(limits.values()):
        return []
    store = _store(settings)
    middleware = []
    for quota, limit in limits.items():
        if limit is None:
            continue
        identify = _client if quota == "create" else _token_or_client

        def identifier(request: Request[Any, Any, Any], quota: str = quota, identify: Any = identify) -> str:
            return f"{quota}|{identify(request)}"

        async def applies(request: Request[Any, Any, Any], quota: str = quota) -> bool:
            # async: Litestar runs a synchronous check_throttle_handler in a worker thread, one thread hop
            # per quota on every request (three), which cost the event loop about 8 % of its time at
            # 32 clients (bench/README.md §1); this one neither blocks nor does I/O
            return quota_of(request) == quota

        config = QuotaConfig(
            rate_limit=limit,
            identifier_for_request=identifier,
            check_throttle_handler=applies,
            middleware_class=QuotaMiddleware,
            store=STORE_NAME,
            quota=quota,
            shared_store=store,
        )
        middleware.append(config.middleware)
    return middleware


async def close_rate_limit_stores(app: Litestar) -> None:
    """Close the stores the quotas opened themselves (Redis), for the app's ``on_shutdown``."""
    stores = {
        id(config.shared_store): config.shared_store
        for m in app.middleware
        if isinstance(m, DefineMiddleware)
        and isinstance(config := m.kwargs.get("config"), QuotaConfig)
        and config.shared_store is not None
    }
    for store in stores.values():
        await store.__aexit__(None, None, None)  # the RedisStore closes its client
