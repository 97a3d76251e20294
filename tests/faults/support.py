"""What the fault tests share: a real ``dicelog serve`` process that can be killed with SIGKILL
and restarted on the same store, a private redis-server that can be paused (SIGSTOP) and resumed
(SIGCONT), clients that send legal commands with an ``Idempotency-Key`` and retry an unanswered one
with the same key, and the checks every fault test ends with (``check_game``).
"""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.services import PG, redis_server_binary

ROOT = Path(__file__).resolve().parents[2]
MICE = ["collin", "filch", "maginos", "nez"]
NEW_GAME = {
    "ruleset": "mice-and-mystics",
    "setup": {"chapter": "chapter-1", "mice": MICE},
    "seats": [{"name": "red", "controls": MICE}],
}
PROBLEM = "application/problem+json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate: Callable[[], Any], timeout: float, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def sqlite_env(data_dir: Path) -> dict[str, str]:
    return {"DICELOG_DATA_DIR": str(data_dir)}


def postgres_env(schema: str) -> dict[str, str]:
    return {
        "DICELOG_STORE": "postgres",
        "DICELOG_POSTGRES_HOST": PG["host"],
        "DICELOG_POSTGRES_PORT": str(PG["port"]),
        "DICELOG_POSTGRES_DBNAME": PG["dbname"],
        "DICELOG_POSTGRES_USER": PG["user"],
        "DICELOG_POSTGRES_SCHEMA": schema,
    }


class Server:
    """``dicelog serve`` (embedded worker) as a child process on a fixed port, so that a restart
    after ``kill -9`` is reached at the same address. Its output goes to ``log``."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("DICELOG_", "PG"))}
        self.env.update(
            PYTHONFAULTHANDLER="1",  # a crash of the server (a signal, not our kill -9) prints its traceback
            DICELOG_LOG_LEVEL="warning",
            DICELOG_RATE_LIMIT_CREATE="off",
            DICELOG_RATE_LIMIT_COMMANDS="off",
            **env,
        )
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, timeout: float = 60.0) -> None:
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts + 1}\n".encode())
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "dicelog.service.cli.main", "serve", "--port", str(self.port)],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.starts += 1
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, (
                f"dicelog serve exited with {self.proc.returncode}:\n{self.tail()}"
            )
            try:
                if httpx.get(f"{self.url}/ready", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"dicelog serve not ready after {timeout} s:\n{self.tail()}"
            time.sleep(0.05)

    def kill9(self) -> None:
        assert self.proc is not None and self.proc.poll() is None, (
            f"the server died by itself:\n{self.tail()}"
        )
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


class RedisServer:
    """A private redis-server on a free port (no persistence); ``pause``/``resume`` freeze it with
    SIGSTOP/SIGCONT: connections stay open and nothing answers, the worst kind of outage."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = subprocess.Popen(
            [
                redis_server_binary(),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        self.client = redis.Redis(port=self.port, socket_timeout=5)
        assert wait_for(self._ping, 10), "redis-server did not start"

    def _ping(self) -> bool:
        import redis

        try:
            return bool(self.client.ping())
        except redis.ConnectionError:
            return False

    def pause(self) -> None:
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.resume()
        self.proc.terminate()
        self.proc.wait(timeout=10)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_game(http: httpx.Client) -> tuple[str, str]:
    r = http.post("/games", json=NEW_GAME)
    assert r.status_code == 201, r.text
    return r.json()["game"]["id"], r.json()["tokens"][0]["token"]


@dataclass
class Ledger:
    """What the clients saw: every acknowledged (201) command's events, every unexpected answer."""

    acked: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """game id -> the events of every 201 answer (replays of the same key included)"""
    statuses: dict[int, int] = field(default_factory=dict)
    unexpected: list[str] = field(default_factory=list)
    interrupted: int = 0
    """requests that got no answer (connection refused or reset) and were sent again with their key"""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int) -> None:
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def note_interrupted(self) -> None:
        with self.lock:
            self.interrupted += 1


def send_until_answered(
    http: httpx.Client, game: str, token: str, body: dict[str, Any], ledger: Ledger, *, timeout: float = 120.0
) -> httpx.Response:
    """POST a command with a fresh ``Idempotency-Key``; while no answer comes (server killed or
    restarting) or the answer is 503, send it again with the same key and body."""
    headers = {**bearer(token), "Idempotency-Key": str(uuid.uuid4())}
    deadline = time.monotonic() + timeout
    while True:
        try:
            r = http.post(f"/games/{game}/commands", json=body, headers=headers)
            if r.status_code != 503:
                return r
            ledger.count(503)
        except httpx.TransportError:
            ledger.note_interrupted()
        assert time.monotonic() < deadline, f"no answer for {body} within {timeout} s"
        time.sleep(0.1)


def get_until_answered(
    http: httpx.Client, path: str, token: str, *, timeout: float = 120.0
) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while True:
        try:
            r = http.get(path, headers=bearer(token))
            if r.status_code < 500:
                return r
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"no answer for GET {path} within {timeout} s"
        time.sleep(0.1)


def record(ledger: Ledger, game: str, r: httpx.Response, *, conflicts_allowed: bool = True) -> None:
    """Classify an answer: 201 -> acknowledged; 409/422 problem+json -> a lost race or a command
    made illegal by another client's; anything else is unexpected."""
    ledger.count(r.status_code)
    if r.status_code == 201:
        with ledger.lock:
            ledger.acked.setdefault(game, []).extend(r.json()["events"])
    elif r.status_code in (409, 422) and conflicts_allowed:
        if not r.headers.get("content-type", "").startswith(PROBLEM):
            ledger.unexpected.append(f"{r.status_code} without problem+json: {r.text[:200]}")
    else:
        ledger.unexpected.append(f"{r.status_code}: {r.text[:300]}")


def all_events(http: httpx.Client, game: str, token: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = http.get(
            f"/games/{game}/events", params={"after": after, "limit": 1000}, headers=bearer(token)
        )
        assert page.status_code == 200, page.text
        events.extend(page.json()["events"])
        after = page.json()["next_after"]
        if after is None:
            return events


def check_game(
    http: httpx.Client,
    game: str,
    token: str,
    acked: list[dict[str, Any]],
    *,
    projection_timeout: float = 60.0,
) -> int:
    """The invariants every fault test ends with; returns the game's version.

    - versions 1..N without a gap, each event chained to the one before (``prev_hash``);
    - every event of every acknowledged answer is in the log at its version, with the same hash
      and command id (nothing acknowledged was lost or replaced), and each acknowledged command's
      events are there exactly once;
    - ``POST /games/{id}/verify`` is ok;
    - the ``/board`` projection reaches the game's version.
    """
    log = all_events(http, game, token)
    versions = [e["version"] for e in log]
    assert versions == list(range(1, len(log) + 1)), f"gaps or disorder in the versions of {game}"
    for before, event in itertools.pairwise(log):
        assert event["prev_hash"] == before["hash"], f"chain broken at version {event['version']}"
    by_version = {e["version"]: e for e in log}
    per_command: dict[str, int] = {}
    for e in log:
        per_command[e["command_id"]] = per_command.get(e["command_id"], 0) + 1
    answered: dict[str, set[int]] = {}
    for e in acked:
        stored = by_version.get(e["version"])
        assert stored is not None, (
            f"acknowledged event {e['version']} ({e['type']}) of {game} is not in the log"
        )
        assert (stored["hash"], stored["command_id"]) == (e["hash"], e["command_id"]), (
            f"acknowledged event {e['version']} of {game} was replaced in the log"
        )
        answered.setdefault(e["command_id"], set()).add(e["version"])
    for command_id, versions_answered in answered.items():
        assert per_command[command_id] == len(versions_answered), (
            f"command {command_id}: {len(versions_answered)} events acknowledged, {per_command[command_id]} "
            "stored"
        )
    r = http.post(f"/games/{game}/verify", headers=bearer(token), timeout=120)
    assert r.status_code == 200, r.text
    assert r.json()["verification"]["ok"], r.json()
    version = len(log)
    assert http.get(f"/games/{game}", headers=bearer(token)).json()["version"] == version
    assert wait_for(lambda: board_version(http, game, token) == version, projection_timeout), (
        f"/board of {game} stayed at {board_version(http, game, token)}, the game is at {version}"
    )
    return version


def board_version(http: httpx.Client, game: str, token: str) -> int | None:
    r = http.get(f"/games/{game}/board", headers=bearer(token))
    return r.json().get("version") if r.status_code == 200 else None
