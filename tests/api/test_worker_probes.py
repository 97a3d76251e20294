"""``dicelog worker``'s probe app (``service/worker/http_port.py``), in-process: the same app the
command serves with uvicorn, on a SQLite store, driven by Litestar's test client.

- ``/live`` is 200 naming each lane while its thread runs, and 503 ``worker-stopped`` naming the
  lanes that stopped once they have;
- ``/ready`` probes the store for a write and reports each consumer;
- ``/metrics`` is Prometheus text with the consumers' lag.
"""

from __future__ import annotations

from types import SimpleNamespace

import msgspec
from litestar.testing import TestClient

from dicelog.service.http.app import Runtime
from dicelog.service.ops.settings import Settings
from dicelog.service.worker.http_port import worker_app


def _runtime(tmp_path) -> Runtime:
    return Runtime(Settings.from_env({"DICELOG_DATA_DIR": str(tmp_path)}))


def test_live_names_every_running_lane_then_the_stopped_ones(tmp_path):
    runtime = _runtime(tmp_path)
    with TestClient(app=worker_app(runtime)) as client:
        r = client.get("/live")
        assert r.status_code == 200
        lanes = r.json()["checks"]
        assert lanes and set(lanes.values()) == {"running"}
        assert set(lanes) == set(runtime.follower.lanes())

        runtime.follower.stop()  # every lane's thread ends, as when a lane dies
        r = client.get("/live")
        assert r.status_code == 503
        assert r.headers["content-type"].startswith("application/problem+json")
        problem = r.json()
        assert problem["type"].endswith("worker-stopped")
        assert all(lane in problem["detail"] for lane in lanes)


def test_live_before_any_lane_started_is_503():
    """A follower with no lane (``alive()`` empty) is not live: nothing would ever project."""
    follower = SimpleNamespace(start=lambda: None, alive=dict)
    with TestClient(app=worker_app(SimpleNamespace(follower=follower, close=lambda: None))) as client:
        r = client.get("/live")
    assert r.status_code == 503
    assert "none started" in r.json()["detail"]


def test_ready_and_metrics(tmp_path):
    runtime = _runtime(tmp_path)
    with TestClient(app=worker_app(runtime)) as client:
        r = client.get("/ready")
        assert r.status_code == 200, r.text
        health = msgspec.json.decode(r.content)
        assert health["status"] == "ok"
        assert health["checks"]  # the store's write probe and each consumer
        r = client.get("/metrics")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/plain")
        assert "dicelog_" in r.text
