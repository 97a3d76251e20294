"""``dicelog worker``'s probe port (issue 12, Observability): /live, /ready and /metrics from a
real worker process, its logs as JSON lines, and a clean stop on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.faults.support import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]


def test_a_worker_serves_live_ready_and_metrics_then_stops_on_sigterm(tmp_path):
    port = free_port()
    env = {**os.environ, "DICELOG_DATA_DIR": str(tmp_path), "DICELOG_WORKER_PORT": str(port)}
    env.pop("DICELOG_REDIS_URL", None)
    log = tmp_path / "worker.log"
    with open(log, "w") as err:
        worker = subprocess.Popen(
            [sys.executable, "-m", "dicelog.service.cli.main", "worker", "--poll-interval", "0.2"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    base = f"http://127.0.0.1:{port}"
    try:

        def live() -> bool:
            try:
                return httpx.get(f"{base}/live", timeout=1).status_code == 200
            except httpx.TransportError:
                return False

        assert wait_for(live, 60), log.read_text()[-2000:]
        body = httpx.get(f"{base}/live").json()
        assert body["status"] == "ok" and body["checks"] == {"projections": "running"}
        ready = httpx.get(f"{base}/ready")
        assert ready.status_code == 200
        assert ready.json()["checks"]["store"] == "ok"
        assert {"board", "initiative", "log"} <= set(ready.json()["checks"])
        metrics = httpx.get(f"{base}/metrics")
        assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
        names = {family.name for family in text_string_to_metric_families(metrics.text)}
        assert {"dicelog_consumer_lag_events", "dicelog_consumer_failing"} <= names
        lanes = {
            sample.labels["consumer"]
            for family in text_string_to_metric_families(metrics.text)
            if family.name == "dicelog_consumer_lag_events"
            for sample in family.samples
        }
        assert {"board", "initiative", "log"} <= lanes
        processed = {
            sample.labels["consumer"]: sample.value
            for family in text_string_to_metric_families(metrics.text)
            if family.name == "dicelog_events_processed"
            for sample in family.samples
            if sample.name == "dicelog_events_processed_total"
        }
        assert processed.keys() >= {"board", "initiative", "log"}, processed  # at 0 before any event
    finally:
        worker.send_signal(signal.SIGTERM)
        code = worker.wait(timeout=30)
    # uvicorn stops gracefully, then re-raises the signal so the process ends as signalled
    assert code in (0, -signal.SIGTERM), log.read_text()[-2000:]
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    parsed = [json.loads(line) for line in lines]  # every line the worker logged is one JSON object
    assert any(line["event"].startswith("worker following the notification log") for line in parsed)
    assert all({"timestamp", "level", "logger", "event"} <= set(line) for line in parsed)
    assert any(line["event"] == "Application shutdown complete." for line in parsed)  # the lanes stopped
    assert "\x1b[" not in log.read_text()  # no terminal colours in a JSON log
