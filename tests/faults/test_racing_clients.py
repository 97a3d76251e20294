"""Racing clients (issue 12: "16 and 50 racing clients: 0 acknowledged commands lost, 0 gaps").

16 clients play the same game on a real ``dicelog serve``: in each of ROUNDS rounds they all read
``/legal-commands``, wait for each other (a barrier) and send a legal command with the
``expected_version`` they read, at once. Every answer is 201, or a 409/422 problem+json (a lost
race, or a command another client's made illegal), never a 5xx; the log has no gap and verifies;
each 201's events are in the log exactly once, and no two 201s claim the same version.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import httpx
import pytest

from dicelog.domain.mice_and_mystics.bot import choose_command as choose
from tests.faults.support import Ledger, Server, bearer, check_game, create_game, record, sqlite_env

pytestmark = pytest.mark.faults

CLIENTS, ROUNDS = 16, 12


def test_sixteen_clients_racing_on_one_game_lose_nothing_and_never_get_a_5xx(tmp_path: Path) -> None:
    server = Server(sqlite_env(tmp_path / "data"), tmp_path / "serve.log")
    ledger, barrier = Ledger(), threading.Barrier(CLIENTS, timeout=120)
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=60) as http:
            game, token = create_game(http)

            def client(n: int) -> None:
                rng = random.Random(n)
                with httpx.Client(base_url=server.url, timeout=60) as mine:
                    for _ in range(ROUNDS):
                        legal = mine.get(f"/games/{game}/legal-commands", headers=bearer(token)).json()
                        barrier.wait()
                        if not legal["commands"]:
                            continue
                        body = {
                            "command": choose(legal["commands"], rng),
                            "expected_version": legal["version"],
                        }
                        record(
                            ledger,
                            game,
                            mine.post(f"/games/{game}/commands", json=body, headers=bearer(token)),
                        )

            def run(n: int) -> None:
                try:
                    client(n)
                except Exception as e:  # noqa: BLE001 - reported below
                    ledger.unexpected.append(f"client {n}: {e!r}")
                    barrier.abort()

            threads = [threading.Thread(target=run, args=(n,)) for n in range(CLIENTS)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=300)
            assert not ledger.unexpected, ledger.unexpected[:10]
            assert all(s < 500 for s in ledger.statuses), ledger.statuses
            acked = ledger.acked.get(game, [])
            assert ledger.statuses.get(201, 0) > 0, ledger.statuses
            assert ledger.statuses.get(409, 0) > 0, (
                f"no race was lost: the clients did not race {ledger.statuses}"
            )
            claimed = [e["version"] for e in acked]
            assert len(claimed) == len(set(claimed)), "two acknowledged answers claim the same version"
            check_game(http, game, token, acked)
            assert server.alive()
            print(f"{CLIENTS} racing clients x {ROUNDS} rounds: statuses {ledger.statuses}")
    finally:
        server.stop()
