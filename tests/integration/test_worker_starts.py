"""``dicelog worker`` started again and again into a running load never dies (issue 34).

Its two lanes (projections, Redis publisher) start on threads of their own; when both met the
lazily computed content and msgspec types for the first time at once, the worker died with SIGSEGV
at 5 of 7 starts. ``dicelog.service.ops.warming`` now computes them before any lane starts. Here a real
``dicelog serve`` (no embedded worker) takes commands from 4 clients on a SQLite store with a
private Redis, and a ``dicelog worker`` is started again and again into that load: each time both lanes
must run, the worker must serve its probes and stop cleanly on SIGTERM, and the load must have moved
on since the last start (the worker had new events to follow from its first pass). The default profile
starts it 3 times; the slow profile 20 times (each start is a new Python process importing the service:
about 4 s on the 2-core machine, and the crash this guards against came at 5 of 7 starts).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from dicelog.domain.mice_and_mystics.bot import choose_command as choose
from tests.faults.support import (
    ROOT,
    Ledger,
    RedisServer,
    Server,
    create_game,
    free_port,
    get_until_answered,
    record,
    send_until_answered,
    sqlite_env,
    wait_for,
)

pytestmark = pytest.mark.redis

CLIENTS = 4


def _play(url: str, seed: int, ledger: Ledger, stop: threading.Event) -> None:
    """Play games one after the other (a new one when one ends) until ``stop``."""
    rng = random.Random(seed)
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            game, token = create_game(http)
            while not stop.is_set():
                legal = get_until_answered(http, f"/games/{game}/legal-commands", token).json()
                if not legal["commands"]:  # the game ended (one client per game: nobody else moves)
                    game, token = create_game(http)
                    continue
                body = {"command": choose(legal["commands"], rng), "expected_version": legal["version"]}
                record(ledger, game, send_until_answered(http, game, token, body, ledger))
    except Exception as e:  # noqa: BLE001 - reported by the test
        ledger.unexpected.append(f"client crashed: {e!r}")


def _acked(ledger: Ledger) -> int:
    return sum(map(len, ledger.acked.values()))


def _start_and_stop(
    env: dict[str, str], log: Path, n: int, *, until_caught_up: threading.Event | None
) -> None:
    """Start a worker, check that both lanes run after their first passes, stop it with SIGTERM;
    with ``until_caught_up``, first set it (the load stops) and wait until every consumer is at the
    newest event."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with log.open("ab") as out:
        out.write(f"--- start {n}\n".encode())
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "dicelog.service.cli.main",
                "worker",
                "--port",
                str(port),
                "--poll-interval",
                "0.2",
            ],
            cwd=ROOT,
            env={**env, "PYTHONFAULTHANDLER": "1"},  # a crash prints every thread's traceback
            stdout=out,
            stderr=subprocess.STDOUT,
        )

    def live() -> bool:
        try:
            return httpx.get(f"{base}/live", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    def caught_up() -> bool:
        return all(v == "ok" for v in httpx.get(f"{base}/ready", timeout=5).json()["checks"].values())

    try:
        assert wait_for(lambda: live() or worker.poll() is not None, 60), _tail(log)
        time.sleep(0.5)  # both lanes' first passes, into the load
        assert worker.poll() is None, f"start {n}: the worker died ({worker.returncode})\n{_tail(log)}"
        body = httpx.get(f"{base}/live", timeout=5).json()
        assert body["checks"] == {"projections": "running", "publisher": "running"}, body
        if until_caught_up is not None:
            until_caught_up.set()
            assert wait_for(caught_up, 60), httpx.get(f"{base}/ready").text
            # what this worker processed, by consumer: each consumer took the events since the last start
            processed = {
                sample.labels["consumer"]: sample.value
                for family in text_string_to_metric_families(httpx.get(f"{base}/metrics").text)
                if family.name == "dicelog_events_processed"
                for sample in family.samples
                if sample.name == "dicelog_events_processed_total"
            }
            assert processed.keys() == {"board", "initiative", "log", "audit_index", "publisher"}, processed
            assert all(n > 0 for n in processed.values()), processed
    finally:
        worker.send_signal(signal.SIGTERM)
        code = worker.wait(timeout=30)
    assert code in (0, -signal.SIGTERM), f"start {n}: exit {code}\n{_tail(log)}"


def _tail(log: Path) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-40:])


@pytest.mark.parametrize("starts", [3, pytest.param(20, marks=pytest.mark.slow)])
def test_the_worker_started_repeatedly_into_a_running_load_never_dies(tmp_path: Path, starts: int) -> None:
    redis = RedisServer()
    env = {**sqlite_env(tmp_path / "data"), "DICELOG_REDIS_URL": redis.url, "DICELOG_EMBEDDED_WORKER": "off"}
    server = Server(env, tmp_path / "serve.log")
    ledger, stop = Ledger(), threading.Event()
    threads: list[threading.Thread] = []
    try:
        server.start()
        threads = [threading.Thread(target=_play, args=(server.url, n, ledger, stop)) for n in range(CLIENTS)]
        for t in threads:
            t.start()
        acked = 0
        for n in range(1, starts + 1):
            before = acked
            assert wait_for(lambda before=before: _acked(ledger) > before, 30), (
                f"the load stopped: {ledger.statuses}, {ledger.unexpected[:3]}"
            )
            acked = _acked(ledger)
            last = n == starts
            _start_and_stop(server.env, tmp_path / "worker.log", n, until_caught_up=stop if last else None)
            if last:
                for t in threads:
                    t.join(timeout=60)
        assert not ledger.unexpected, ledger.unexpected[:10]
        assert server.alive(), server.tail()
        print(f"{starts} worker starts into the load: none died; statuses {ledger.statuses}")
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
        server.stop()
        redis.stop()
