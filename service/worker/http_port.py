"""``dicelog worker``'s HTTP port: liveness, readiness and metrics (issue 12, Observability).

The worker has no API; this small Litestar app serves what an orchestrator and a Prometheus
server need from it, on ``DICELOG_WORKER_PORT`` (default 8001):

- ``GET /live``: 200 while every lane's follower thread runs (projections, publisher, and with
  ``DICELOG_PARTITIONS`` > 1 the lease heartbeat ``leases``); 503
  problem+json ``urn:dicelog:problem:worker-stopped`` naming the lanes that stopped (restart me).
- ``GET /ready``: as the API's ``/ready`` (``dicelog.service.http.app.readiness``): the store probed
  for writing (503 ``store-unavailable`` with ``Retry-After`` when it cannot write), then each
  consumer's lag (``behind by <n>``, never fatal) and error.
- ``GET /metrics``: Prometheus text (``dicelog.service.ops.metrics``: consumer lag and failures,
  events and process metrics).

The follower starts when the app starts and stops (``Runtime.close``) when uvicorn shuts down on
SIGTERM or SIGINT.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, get
from litestar.concurrency import sync_to_thread
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from dicelog.service.bodies.schemas import Health
from dicelog.service.http.app import PROBLEM, Runtime, readiness


def worker_app(runtime: Runtime) -> Litestar:
    """The probe app of a worker whose ``runtime`` (store, projections, publisher) is open; it
    starts ``runtime.follower`` at start-up and closes ``runtime`` at shutdown."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        runtime.follower.start()
        try:
            yield
        finally:
            await sync_to_thread(runtime.close)

    @get("/live", sync_to_thread=False)
    def live() -> Health:
        """200 while every lane's thread runs; 503 naming the lanes that stopped."""
        lanes = runtime.follower.alive()
        stopped = sorted(lane for lane, running in lanes.items() if not running)
        if stopped or not lanes:
            raise ProblemDetailsException(
                status_code=503,
                type_=PROBLEM + "worker-stopped",
                title="Worker stopped",
                detail=f"follower lanes not running: {', '.join(stopped) or 'none started'}",
            )
        return Health(status="ok", checks=dict.fromkeys(lanes, "running"))

    @get("/ready", sync_to_thread=True)
    def ready() -> Health:
        """The store can write; each consumer's lag (see the module docstring)."""
        return readiness(runtime)

    @get("/metrics", sync_to_thread=False, media_type=CONTENT_TYPE_LATEST)
    def metrics() -> Any:
        """Prometheus text exposition of this process's metrics."""
        return generate_latest(REGISTRY)

    return Litestar(
        route_handlers=[live, ready, metrics],
        lifespan=[lifespan],
        plugins=[ProblemDetailsPlugin(ProblemDetailsConfig(enable_for_all_http_exceptions=True))],
        openapi_config=None,
        logging_config=None,
    )
