"""Two ``dicelog worker`` processes share the projections and the publishing by partitions of games
(issue 34, item 3; ``dicelog.service.store.partitions``), and one takes over when the other is killed.

A real ``dicelog serve`` (no embedded worker) on a fresh PostgreSQL schema with a private Redis takes
commands from 3 clients; two workers with ``DICELOG_PARTITIONS=8`` follow the store. They must split
the 8 partitions 4 and 4, process every notification exactly once between them (the sum of their
``dicelog_events_processed_total`` is the number of notifications; no "Failed to record tracking"),
keep one tracking record per partition, and leave complete read models and Redis streams. Then one
is killed with SIGKILL: the other takes its 4 partitions once their leases expire
(``DICELOG_LEASE_TTL=2``) and the read models are complete again.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.faults.support import Ledger, RedisServer, Server, postgres_env, wait_for
from tests.integration.support import CONSUMERS, Worker, check_read_models, play

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

PARTITIONS, CLIENTS = 8, 3


def test_two_workers_share_the_partitions_and_one_takes_over_when_the_other_dies(
    tmp_path: Path, schema: str
) -> None:
    redis = RedisServer()
    env = {
        **postgres_env(schema),
        "DICELOG_REDIS_URL": redis.url,
        "DICELOG_EMBEDDED_WORKER": "off",
        "DICELOG_PARTITIONS": str(PARTITIONS),
        "DICELOG_LEASE_TTL": "2",
    }
    server = Server(env, tmp_path / "serve.log")
    ledger, stop = Ledger(), threading.Event()
    threads: list[threading.Thread] = []
    workers: list[Worker] = []
    try:
        server.start()
        workers = [Worker(server.env, tmp_path / f"worker{n}.log") for n in range(2)]
        threads = [threading.Thread(target=play, args=(server.url, n, ledger, stop)) for n in range(CLIENTS)]
        for t in threads:
            t.start()
        # generous: a worker starts in ~2 s on an idle machine, far longer on a loaded one
        assert wait_for(lambda: [w.held() for w in workers] == [4, 4], 120), (
            [w.held() for w in workers],
            workers[0].text()[-2000:],
        )
        time.sleep(6)  # both at work under the load
        stop.set()
        for t in threads:
            t.join(timeout=60)
        assert not ledger.unexpected, ledger.unexpected[:5]
        assert wait_for(lambda: all(w.caught_up() for w in workers), 120), [
            httpx.get(f"{w.base}/ready", timeout=5).text for w in workers
        ]
        count = check_read_models(schema, redis, PARTITIONS, CLIENTS)
        shares = [w.processed() for w in workers]
        for consumer in CONSUMERS:  # every notification processed once, by one of the two
            assert sum(share[consumer] for share in shares) == count, (consumer, shares, count)
        assert all(share["board"] > 0 for share in shares), shares
        for w in workers:
            assert "Failed to record tracking" not in w.text(), w.text()[-3000:]
            assert w.proc.poll() is None, w.text()[-3000:]

        # kill -9 one worker: the other takes its partitions once their leases expire
        workers[0].proc.send_signal(signal.SIGKILL)
        workers[0].proc.wait(timeout=10)
        killed_at = time.monotonic()
        stop.clear()
        threads = [threading.Thread(target=play, args=(server.url, n, ledger, stop)) for n in range(CLIENTS)]
        for t in threads:
            t.start()
        assert wait_for(lambda: workers[1].held() == PARTITIONS, 60), workers[1].text()[-3000:]
        takeover = time.monotonic() - killed_at
        time.sleep(3)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        assert not ledger.unexpected, ledger.unexpected[:5]
        assert wait_for(workers[1].caught_up, 120), workers[1].text()[-3000:]
        check_read_models(schema, redis, PARTITIONS, CLIENTS)
        assert "Failed to record tracking" not in workers[1].text()
        print(f"shares before the kill: {shares}; takeover after {takeover:.1f} s")
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
        for w in workers:
            w.stop()
        server.stop()
        redis.stop()
