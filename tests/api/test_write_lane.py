"""The write lane (``service/store/write_lane.py``, issue 12, throughput): the handlers that write run on the
lane's threads, sized by the store, with the request's log context; a write that waited too long for
its turn is answered 503 ``busy`` and stores nothing; a command's answer states the same chain hashes
as the stored events."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from litestar.testing import TestClient

from dicelog.service.app.games import Games
from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.store.write_lane import WriteLane, WriteLaneBusy
from tests.api.conftest import IN_PROCESS, MICE, NO_QUOTAS, Table


def test_the_lane_is_four_threads_on_sqlite_and_the_pool_on_postgresql_unless_set():
    assert Settings(store="sqlite").write_concurrency() == 4
    assert Settings(store="postgres", postgres_pool_size=3, postgres_max_overflow=5).write_concurrency() == 8
    assert Settings(store="sqlite", write_threads=2).write_concurrency() == 2
    assert Settings.from_env({"DICELOG_WRITE_THREADS": "auto"}).write_threads == 0
    assert Settings.from_env({"DICELOG_WRITE_THREADS": "3"}).write_threads == 3
    with pytest.raises(ValueError, match="DICELOG_WRITE_THREADS"):
        Settings.from_env({"DICELOG_WRITE_THREADS": "0"})
    assert Settings(store="sqlite", sqlite_lock_timeout=7).write_wait() == 7
    assert Settings(store="postgres", postgres_connect_timeout=3).write_wait() == 3


REQUEST = contextvars.ContextVar("request", default=None)


def test_a_call_runs_on_a_lane_thread_with_the_callers_context_and_one_at_a_time():
    lane = WriteLane(1, max_wait=5)
    running, most = [0], [0]
    lock = threading.Lock()

    def work(n: int) -> tuple[str, Any, int]:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.01)
        with lock:
            running[0] -= 1
        return threading.current_thread().name, REQUEST.get(), n

    async def main() -> list[tuple[str, Any, int]]:
        async def one(n: int) -> tuple[str, Any, int]:
            REQUEST.set(f"req-{n}")
            return await lane.run(work, n)

        return await asyncio.gather(*(one(n) for n in range(5)))

    try:
        results = asyncio.run(main())
    finally:
        lane.close()
    assert [r[2] for r in results] == list(range(5))
    assert all(name.startswith("dicelog-write") for name, _, _ in results)
    assert [r[1] for r in results] == [f"req-{n}" for n in range(5)]
    assert most[0] == 1


def test_a_call_that_waited_longer_than_max_wait_is_not_run():
    lane = WriteLane(1, max_wait=0.05)
    ran: list[int] = []

    def slow() -> None:
        time.sleep(0.2)

    async def main() -> list[Any]:
        return await asyncio.gather(lane.run(slow), lane.run(ran.append, 1), return_exceptions=True)

    try:
        first, second = asyncio.run(main())
    finally:
        lane.close()
    assert first is None
    assert isinstance(second, WriteLaneBusy) and ran == []


@contextmanager
def threads_running(method: str) -> Iterator[list[str]]:
    """The names of the threads that run ``Games.<method>`` while the block runs."""
    seen: list[str] = []
    real = getattr(Games, method)

    def spy(self: Games, *args: Any, **kwargs: Any) -> Any:
        seen.append(threading.current_thread().name)
        return real(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Games, method, spy)
        yield seen


def test_commands_run_on_the_write_lane_and_answer_with_the_stored_hashes(client):
    table = Table(client)
    mouse = table.game["turn"]
    with threads_running("execute") as seen:
        r = table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse})
    assert r.status_code == 201, r.text
    assert seen and all(name.startswith("dicelog-write") for name in seen)
    answered = {e["version"]: e for e in r.json()["events"]}
    assert len(answered) > 1
    stored = {e["version"]: e for e in table.events()}
    for version, event in answered.items():
        assert event["hash"] == stored[version]["hash"], version
        assert event["prev_hash"] == stored[version]["prev_hash"], version


def test_a_write_that_waits_too_long_for_the_lane_is_503_busy_and_stores_nothing(tmp_path):
    settings = Settings(data_dir=tmp_path, write_threads=1, **NO_QUOTAS, **IN_PROCESS)
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        lane = client.app.state.runtime.games.write_lane
        lane.max_wait = 0.05
        version = table.summary()["version"]
        blocked = threading.Event()
        release = threading.Event()

        def hold() -> None:
            blocked.set()
            release.wait(5)

        holder = threading.Thread(target=lambda: asyncio.run(lane.run(hold)))
        holder.start()
        assert blocked.wait(5)
        threading.Timer(0.3, release.set).start()  # the command below waits behind ``hold`` until then
        try:
            mouse = table.game["turn"]
            r = table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse})
        finally:
            release.set()
            holder.join(5)
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["reason"] == "busy" and body["outcome"] == "not-stored"
        assert r.headers["retry-after"] == "2"
        assert table.summary()["version"] == version
        lane.max_wait = 10
        assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201


def test_creating_a_game_runs_on_the_lane_too(client):
    with threads_running("create_game") as seen:
        r = client.post(
            "/games",
            json={
                "setup": {"chapter": "chapter-1", "mice": MICE},
                "seats": [{"name": "all", "controls": MICE}],
            },
        )
    assert r.status_code == 201, r.text
    assert len(seen) == 1 and seen[0].startswith("dicelog-write")
