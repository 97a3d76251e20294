"""The embedded worker in a child process (``DICELOG_EMBEDDED_WORKER=process``, the default;
``service/worker/embedded.py``): it projects what the API stores, is restarted when it dies, stops with
the API, and never outlives it, even when the API is killed."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.worker.embedded import decode_settings, encode_settings
from dicelog.service.worker.embedded_child import main
from tests.api.conftest import NO_QUOTAS, Table
from tests.faults.support import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) is not running
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(") ", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _projected(client: TestClient[Any], table: Table) -> bool:
    version = table.summary()["version"]
    r = client.get(f"/games/{table.id}/board")
    return r.status_code == 200 and r.json()["version"] == version


def test_the_settings_go_to_the_child_whole_and_an_empty_input_stops_it(tmp_path):
    settings = Settings(data_dir=tmp_path, redis_url="redis://127.0.0.1:6379/0", write_threads=3)
    assert decode_settings(encode_settings(settings)) == settings
    assert main(io.BytesIO(b"")) == 0


def test_by_default_the_projections_run_in_a_child_process_that_stops_with_the_app(tmp_path):
    settings = Settings(data_dir=tmp_path, **NO_QUOTAS)
    assert settings.embedded_worker == "process"
    with TestClient(create_app(settings)) as client:
        worker = client.app.state.runtime.worker_process
        assert worker is not None and worker.running() and worker.pid != os.getpid()
        assert not client.app.state.runtime.follower.alive(), "no follower thread in the API process"
        table = Table(client)
        mouse = table.game["turn"]
        assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201
        assert wait_for(lambda: _projected(client, table), 30), client.get("/ready").json()
        assert client.get(f"/games/{table.id}/log").json()["lines"]
        assert client.get("/ready").json()["checks"]["embedded-worker"] == "running"
        pid = worker.pid
    assert not _alive(pid), "the child outlived the app"


def test_a_child_that_dies_is_started_again_and_catches_up(tmp_path):
    with TestClient(create_app(Settings(data_dir=tmp_path, **NO_QUOTAS))) as client:
        worker = client.app.state.runtime.worker_process
        table = Table(client)
        assert wait_for(lambda: _projected(client, table), 30)
        first = worker.pid
        os.kill(first, signal.SIGKILL)
        mouse = table.game["turn"]
        assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201
        assert wait_for(lambda: worker.restarts == 1 and worker.running(), 30)
        assert worker.pid != first
        assert wait_for(lambda: _projected(client, table), 30), client.get("/ready").json()


def test_a_serve_killed_with_sigkill_leaves_no_worker_behind(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DICELOG_")}
    env.update(DICELOG_DATA_DIR=str(tmp_path), DICELOG_LOG_LEVEL="warning")
    log = tmp_path / "serve.log"
    with open(log, "w") as err:
        serve = subprocess.Popen(
            [sys.executable, "-m", "dicelog.service.cli.main", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:

        def up() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/ready", timeout=1).status_code == 200
            except httpx.TransportError:
                return False

        assert wait_for(up, 60), log.read_text()[-2000:]
        assert wait_for(lambda: len(_children(serve.pid)) == 1, 30), _children(serve.pid)
        (child,) = _children(serve.pid)
        assert "dicelog.service.worker.embedded" in Path(f"/proc/{child}/cmdline").read_text()
        serve.kill()
        serve.wait(10)
        assert wait_for(lambda: not _alive(child), 15), "the worker outlived its API process"
    finally:
        if serve.poll() is None:
            serve.kill()
