"""The Litestar application: ``create_app(settings)`` wires store, projections, publisher, routes.

Errors are RFC 9457 ``application/problem+json`` (Litestar's ``ProblemDetailsPlugin``): every
domain refusal has a stable ``type`` (``urn:dicelog:rule:<rule id>``) and names the rule and its
rulebook section (422); validation errors are 400, unknown games 404, stale versions 409 (the only
409: ``dicelog.service.http.problem_types``). Faults of the
store and other infrastructure are 503 with ``Retry-After`` (``dicelog.service.ops.faults``); a body too
large is
413, nested too deep 400 (``dicelog.service.http.guards.BodyLimits``); any other error is a bug: 500, its
traceback logged once.
"""

from __future__ import annotations

import functools
import gc
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, get
from litestar.concurrency import sync_to_thread
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import HTTPException
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from msgspec import structs

from dicelog.domain.core import registry
from dicelog.domain.core.errors import DomainError
from dicelog.projections.audit_index import AuditIndexProjection
from dicelog.projections.board import BoardProjection
from dicelog.projections.initiative import InitiativeProjection
from dicelog.projections.log import LogProjection
from dicelog.service.app import campaigns
from dicelog.service.app.campaigns import CampaignNotFound
from dicelog.service.app.games import (
    AlreadyClaimed,
    Forbidden,
    GameNotFound,
    Games,
    IdempotencyMismatch,
    Unauthorized,
    VersionConflict,
)
from dicelog.service.app.tokens import TokenChanged
from dicelog.service.bodies.schemas import Health, RulesetInfo
from dicelog.service.http.api_types import api_types
from dicelog.service.http.cache import HttpCache
from dicelog.service.http.guards import BodyLimits, DefaultRuleset, JsonOnly, StrictSeatFlags, cors_config
from dicelog.service.http.openapi import openapi_config
from dicelog.service.http.problem_types import PROBLEM, http_kind
from dicelog.service.http.quotas import close_rate_limit_stores, rate_limit_middleware
from dicelog.service.http.routes import _problems, game_controller
from dicelog.service.http.routes_audit import AuditController
from dicelog.service.http.routes_campaigns import CampaignController
from dicelog.service.http.routes_content import content_routers, has_content
from dicelog.service.http.routes_stream import GameStream
from dicelog.service.http.routes_streams import CrossGameStream
from dicelog.service.http.routes_tokens import CampaignTokenController, TokenController
from dicelog.service.http.web import WEB, lobby_module, table_module
from dicelog.service.ops import logs
from dicelog.service.ops.faults import (
    RETRY_AFTER,
    STORE_UNAVAILABLE,
    StoreNotWritable,
    exception_handlers,
    probe_store,
    reason_of,
)
from dicelog.service.ops.metrics import CONSUMER_LAG, count_refusal
from dicelog.service.ops.settings import Settings
from dicelog.service.ops.warming import warm_up
from dicelog.service.store.fanout import ChangeFeed, FanOut
from dicelog.service.store.migrations import ensure_schema
from dicelog.service.store.partitions import Leases
from dicelog.service.store.projection_store import ReadModels, open_views
from dicelog.service.store.write_lane import WriteLane
from dicelog.service.worker.embedded import WorkerProcess
from dicelog.service.worker.follower import Follower

log = logging.getLogger("dicelog")
# Request metrics at /metrics; paths are grouped by route so game ids do not explode the labels.
METRICS = PrometheusConfig(app_name="dicelog", prefix="dicelog", group_path=True, exclude=["/metrics"])


class Metrics(PrometheusController):
    """Prometheus metrics (request counts, durations, in-flight requests) at ``/metrics``."""

    path = "/metrics"
    include_in_schema = False


def _rule(exc: DomainError) -> ProblemDetailsException:
    count_refusal(exc)
    return ProblemDetailsException(
        status_code=exc.status,
        type_=f"urn:dicelog:rule:{exc.rule}",
        title=f"Rule broken: {exc.rule}",
        detail=exc.detail,
        extra={"rule": exc.rule, "section": exc.section},
    )


def _problem(status: int, kind: str, title: str, **extra: Any) -> Any:
    def convert(exc: Exception) -> ProblemDetailsException:
        return ProblemDetailsException(
            status_code=status, type_=PROBLEM + kind, title=title, detail=str(exc), extra=extra or None
        )

    return convert


def _unexpected(exc: Exception) -> ProblemDetailsException:
    """A bug, not bad input: logged with its traceback, answered as problem+json all the same."""
    log.error("unexpected error", exc_info=exc)
    return ProblemDetailsException(
        status_code=500, type_=PROBLEM + "internal", title="Internal error", detail="the error was logged"
    )


def _version_conflict(exc: VersionConflict) -> ProblemDetailsException:
    return ProblemDetailsException(
        status_code=409,
        type_=PROBLEM + "version-conflict",
        title="Stale expected_version",
        detail=str(exc),
        extra={"expected_version": exc.expected, "current_version": exc.current},
    )


_UNKNOWN_FIELD = re.compile(r"unknown field `([^`]+)`")


def _named(error: Any) -> Any:
    """A validation error whose ``key`` names the offending field: msgspec reports an unknown field
    at the object holding it (``data`` for the body itself), so the field's name is added."""
    if not isinstance(error, dict) or not (found := _UNKNOWN_FIELD.search(str(error.get("message", "")))):
        return error
    key = error.get("key")
    return {**error, "key": found.group(1) if key in (None, "", "data") else f"{key}.{found.group(1)}"}


def _http(exc: HTTPException) -> ProblemDetailsException:
    extra = exc.extra
    if isinstance(extra, list):
        extra = [_named(e) for e in extra]
    return ProblemDetailsException(
        status_code=exc.status_code,
        type_=PROBLEM + http_kind(exc.status_code),
        title=exc.detail,
        detail=exc.detail,
        extra=extra if isinstance(extra, dict) else ({"errors": extra} if extra else None),
        headers=exc.headers,
    )


class Runtime:
    """The long-lived parts of one app instance (opened at start-up, closed at shutdown).

    Wake-ups (``dicelog.service.store.fanout``): a save wakes this process's SSE streams and follower through
    ``fanout``; with ``DICELOG_REDIS_URL`` set, ``wake`` (a ``RedisWake``: one pub/sub subscription
    per process, used by ``dicelog serve`` and ``dicelog worker`` alike) also carries it to every
    other process, and theirs to this one.
    """

    def __init__(self, settings: Settings) -> None:
        from dicelog.service.store.fanout import RedisWake

        ensure_schema(settings)  # the tables exist at the version this build expects (service.migrations)
        # so this process runs no DDL of its own: with the library's CREATE_TABLE on, two processes starting
        # at once (two workers, N replicas) raced on its CREATE OR REPLACE FUNCTION and one ended with
        # "tuple concurrently updated"; ``ensure_schema`` creates and upgrades under the migration lock
        settings = structs.replace(settings, auto_migrate=False)
        self.settings = settings
        self.fanout = FanOut()
        self.wake = RedisWake(settings.redis_url, self.fanout) if settings.redis_url else None
        self.games = Games(
            settings.library_env("games"), snapshot_interval=settings.snapshot_interval, fanout=self.fanout
        )
        self.games.write_lane = WriteLane(settings.write_concurrency(), max_wait=settings.write_wait())
        # SQLite: one serving process writes the games (``Games.trust_cache``); PostgreSQL: N replicas
        self.games.trust_cache = settings.store == "sqlite"
        self.views = open_views(settings)
        self.read_models = ReadModels(self.views)
        self.games.stored_index = self.read_models.stored_index
        # a chapter's result is recorded in its campaign when its game ends (docs/campaigns.md)
        self.games.game_ended = functools.partial(campaigns.chapter_ended, self.games)
        self.follower = Follower(
            self.games,
            build_consumers(self.games, self.views, settings),
            leases=open_leases(self.games, settings),
        )
        CONSUMER_LAG.follow(self.follower)
        self.worker_process: WorkerProcess | None = None
        self.feed = ChangeFeed(
            self.fanout, poll_interval=settings.sse_poll_interval, heartbeat=settings.sse_heartbeat
        )
        if self.wake is not None:
            self.wake.start()

    def start_worker(self, mode: str) -> None:
        """Start the projections and the publisher as ``mode`` says (``Settings.embedded_worker``):
        ``process``, a child process (``dicelog.service.worker.embedded``); ``thread``, this
        process's follower threads; ``off``, nothing."""
        if mode == "thread":
            self.follower.start()
        elif mode == "process":
            self.worker_process = WorkerProcess(self.settings, self.fanout)
            self.worker_process.start()

    def close(self) -> None:
        if self.worker_process is not None:
            self.worker_process.stop()
        if self.wake is not None:
            self.wake.close()
        CONSUMER_LAG.forget(self.follower)
        self.follower.stop()
        for consumer in self.follower.consumers:
            consumer.view.datastore.close()
        if self.games.write_lane is not None:
            self.games.write_lane.close()
        self.games.close()


def open_leases(games: Games, settings: Settings) -> Leases | None:
    """The process's partition leases when ``DICELOG_PARTITIONS`` > 1
    (``dicelog.service.store.partitions``)."""
    if settings.partitions <= 1:
        return None
    return Leases(games.recorder.datastore, settings.partitions, ttl=settings.lease_ttl)  # type: ignore[attr-defined]  # PostgreSQL: its recorder has one


def build_consumers(games: Games, views: dict[str, Any], settings: Settings) -> list[Any]:
    """The projections, and the Redis publisher when ``DICELOG_REDIS_URL`` is set."""

    def load(game_id: Any, version: int) -> Any:
        return games.game(game_id, version)

    consumers: list[Any] = [
        InitiativeProjection(views["initiative"], load),
        BoardProjection(views["board"], load),
        LogProjection(views["log"], load),
        AuditIndexProjection(
            views["audit_index"], games.build_index, lambda game_id: games.game(game_id, 1).ruleset
        ),
    ]
    if settings.redis_url:
        from dicelog.service.store.projection_store import open_tracking
        from dicelog.service.worker.publisher import RedisPublisher, Trimming, connect

        consumers.append(
            RedisPublisher(
                connect(settings.redis_url),
                open_tracking(settings, "publisher"),
                trimming=Trimming.from_settings(settings),
                load_game=games.game,
                marks=games.marks,
            )
        )
    return consumers


def rulesets_handler(names: tuple[str, ...]) -> Any:
    """``GET /rulesets``: the games this server plays."""

    @get("/rulesets", tags=["rulesets"], summary="The rulesets this server plays", sync_to_thread=False)
    def rulesets() -> list[RulesetInfo]:
        """Each ruleset served: its name (the ``ruleset`` of ``POST /games``) and where its
        content catalogue is (``null`` when it has none), and the module its games' web table loads."""
        return [
            RulesetInfo(
                name=name,
                content=f"/content/{name}" if has_content(name) else None,
                table=table_module(name),
                lobby=lobby_module(name),
            )
            for name in names
        ]

    return rulesets


@get("/health", tags=["operations"], summary="Liveness")
async def health() -> Health:
    """The process is up."""
    return Health(status="ok", checks={})


@get("/ready", tags=["operations"], summary="Readiness", sync_to_thread=True, responses=_problems(503))
def ready(runtime: NamedDependency[Runtime]) -> Health:
    """Ready when the event store can write now; reports how far each projection and the publisher
    are behind.

    The store is probed with a transaction that needs write access, rolled back
    (``dicelog.service.ops.faults.probe_store``: the write lock within 1 s on SQLite, a transaction id on
    PostgreSQL): a locked or read-only SQLite file, or a PostgreSQL server lost, unreachable or
    read-only, answers 503 problem+json ``urn:dicelog:problem:store-unavailable`` with ``Retry-After``.
    Lag is never fatal, whatever its size: commands and the audit reads do not depend on the read
    models, and a lag shared by every replica (one slow projection) would otherwise take them all out
    of service at once. It is reported (``behind by <n>``) for monitoring."""
    return readiness(runtime)


def readiness(runtime: Runtime) -> Health:
    """What ``GET /ready`` answers, for the API and for ``dicelog worker``'s probe port: the store
    probed for writing (503 ``store-unavailable`` problem when it cannot write), then each
    consumer's lag and error. Raises ``ProblemDetailsException`` (503)."""
    checks: dict[str, str] = {}
    try:
        probe_store(runtime.games.recorder)
        newest = runtime.games.recorder.max_notification_id() or 0
        checks["store"] = "ok"
    except Exception as e:  # noqa: BLE001 - any store failure means not ready
        reason = e.reason if isinstance(e, StoreNotWritable) else reason_of(e)
        cause = str(e) if isinstance(e, StoreNotWritable) else repr(e)
        log.warning("not ready: the event store cannot write: %s", cause)
        raise ProblemDetailsException(
            status_code=503,
            type_=STORE_UNAVAILABLE,
            title="Service unavailable",
            detail=f"the event store cannot write now ({reason})",
            headers={"Retry-After": str(RETRY_AFTER)},
            extra={"reason": reason, "retry_after": RETRY_AFTER},
        ) from None
    for consumer in runtime.follower.consumers:
        try:
            at = runtime.follower.checkpoint(consumer)
            checks[consumer.name] = "ok" if at >= newest else f"behind by {newest - at}"
        except Exception as e:  # noqa: BLE001
            checks[consumer.name] = f"unavailable: {e}"
    for name, error in runtime.follower.errors.items():
        checks[name] = f"error: {error}"
    if runtime.worker_process is not None:
        checks["embedded-worker"] = "running" if runtime.worker_process.running() else "restarting"
    return Health(status="ok", checks=checks)


def request_types(app: Litestar) -> list[Any]:
    """The signature model of every route handler of ``app`` (what msgspec decodes requests into), for
    ``dicelog.service.ops.warming.warm_up``."""
    return [
        handler.signature_model for route in app.routes for handler in getattr(route, "route_handlers", ())
    ]


GC_YOUNG_THRESHOLD = 10_000
"""The cyclic garbage collector's first threshold in a serving process (``collect_less_often``)."""


def collect_less_often() -> None:
    """Raise the cyclic garbage collector's first threshold to ``GC_YOUNG_THRESHOLD`` (Python's default
    is 700 net new container objects), never lower it.

    A command builds and drops thousands of small containers (events, the state's tuples), so at 700
    the collector ran about every other command, and each run traverses those large tuples: 0.7-0.9 s of
    CPU per 19,000 commands (``gc.callbacks``, 32 clients, ``bench/README.md`` §1), gone at 10,000
    (0.02 s). Nearly everything is freed by reference counting; what the collector is for (cycles)
    waits a little longer. Process-wide: called once the app has started (its lifespan)."""
    young, middle, old = gc.get_threshold()
    if young < GC_YOUNG_THRESHOLD:
        gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def create_app(
    settings: Settings | None = None,
    *,
    start_worker: bool | None = None,
    rulesets: tuple[str, ...] | None = None,
) -> Litestar:
    """Build the app. ``settings`` default to the environment; the embedded worker (projections
    and publisher) runs as ``Settings.embedded_worker`` says (a child process by default; threads when
    the app serves a ruleset this build does not ship, which a child could not load), or not at all
    with ``start_worker=False``. ``rulesets`` are the names of the rulesets served (default: every
    ruleset this build ships; tests add their own)."""
    settings = settings or Settings.from_env()
    logs.configure(settings.log_level, settings.log_format)
    types = api_types(tuple(rulesets) if rulesets is not None else registry.builtin_names())
    holder: dict[str, Runtime] = {}
    worker_mode = "off" if start_worker is False else settings.embedded_worker
    foreign = sorted(set(types.names) - set(registry.installed_names()))
    if worker_mode == "process" and foreign:
        # a child process knows only the rulesets this build ships, not those registered by this
        # process's own code (tests, embedding programs): it could not decode their events
        log.info("embedded worker as threads: the child process would not know the rulesets %s", foreign)
        worker_mode = "thread"

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        # lazily computed content and msgspec types, once, before requests run on many threads
        warm_up(types.names, request_types(app))
        runtime = await sync_to_thread(Runtime, settings)
        holder["runtime"] = runtime
        app.state.runtime = runtime
        runtime.start_worker(worker_mode)
        collect_less_often()
        try:
            yield
        finally:
            await runtime.feed.close()
            await sync_to_thread(runtime.close)

    def runtime() -> Runtime:
        return holder["runtime"]

    problem = ProblemDetailsPlugin(
        ProblemDetailsConfig(
            enable_for_all_http_exceptions=True,
            exception_to_problem_detail_map={
                DomainError: _rule,
                GameNotFound: _problem(404, "game-not-found", "No such game"),
                CampaignNotFound: _problem(404, "campaign-not-found", "No such campaign"),
                Unauthorized: _problem(401, "unauthorized", "Bearer token required"),
                Forbidden: _problem(403, "forbidden", "Not allowed for this token"),
                AlreadyClaimed: _problem(422, "already-claimed", "Place already taken"),
                TokenChanged: _problem(422, "token-changed", "Token changed meanwhile"),
                VersionConflict: _version_conflict,
                IdempotencyMismatch: _problem(422, "idempotency-key-reused", "Idempotency-Key reused"),
                HTTPException: _http,
                Exception: _unexpected,
            },
        )
    )

    def bug(request: Any, exc: Exception) -> Any:
        return _unexpected(exc).to_response(request)

    return Litestar(
        route_handlers=[
            game_controller(types),
            GameStream,
            CrossGameStream,
            TokenController,
            CampaignTokenController,
            AuditController,
            CampaignController,
            *content_routers(types.names),
            rulesets_handler(types.names),
            health,
            ready,
            Metrics,
            *WEB,
        ],
        middleware=[
            logs.RequestContext,
            METRICS.middleware,
            HttpCache(),
            *rate_limit_middleware(settings),
            JsonOnly(),
            BodyLimits(settings.max_body_bytes),
            DefaultRuleset(types.names),
            StrictSeatFlags(),
        ],
        request_max_body_size=settings.max_body_bytes,
        before_send=[logs.ensure_request_id],
        exception_handlers=exception_handlers(settings.store, bug),
        cors_config=cors_config(settings),
        dependencies={
            "runtime": Provide(runtime, sync_to_thread=False),
            "games": Provide(lambda: holder["runtime"].games, sync_to_thread=False),
            "read_models": Provide(lambda: holder["runtime"].read_models, sync_to_thread=False),
            "feed": Provide(lambda: holder["runtime"].feed, sync_to_thread=False),
        },
        plugins=[problem],
        logging_config=None,  # logs.configure: every logger through one JSON formatter
        lifespan=[lifespan],
        on_shutdown=[close_rate_limit_stores],
        openapi_config=openapi_config(types.names),
        state=State({"rulesets": types.names}),
    )
