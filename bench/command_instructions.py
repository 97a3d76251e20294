"""Machine instructions per command on the in-process command path, counted by callgrind.

    python bench/command_instructions.py [--commands N] [--warmup W]

What it counts: ``POST /games/{id}/commands`` driven through Litestar's ``TestClient`` in one
process (routing, the token's audience, the game's lock, decide, the save on SQLite, the answer
encoded), the same workload as ``http_roundtrip.py``'s players: the mouse whose turn it is sends
``Move`` (the server rolls) then ``EndTurn``, a new game when one ends. The app is
``create_app()`` with its defaults (SQLite in a temporary directory, snapshots, the aggregate
cache, the write lane); the embedded worker's child process runs natively, outside the count.

Why instructions: ``valgrind --tool=callgrind`` counts the instructions the process executes, not
seconds, so the figure is the same whatever else the machine is doing. It runs the script twice
under callgrind, with W warm-up steps and then with W + N steps, and reports
``(total(W + N) - total(W)) / N``: start-up, imports and warm-up cancel out. Every random source the
app reads (``os.urandom``, which ``secrets``, ``uuid4`` and the server's dice seeds use) is a seeded
generator in the child, so both runs play the same games: the count repeats to the instruction.

Use it to compare two commits (an A/B: check each out, run this file from both, the same ``N``);
the figure includes the in-process HTTP client's own work, so differences are what matters.
Needs ``valgrind`` (Debian's package); a run takes a few minutes (callgrind is ~50x slower).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

MICE = ("collin", "filch", "maginos", "nez")
SEATS = ({"name": "red", "controls": ["collin", "filch"]}, {"name": "blue", "controls": ["maginos", "nez"]})
SEAT_OF = {mouse: seat["name"] for seat in SEATS for mouse in seat["controls"]}


class Player:
    """One client on its own game (``http_roundtrip.DicelogPlayer``, synchronous)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.create()

    def create(self) -> None:
        r = self.client.post(
            "/games",
            json={
                "setup": {"chapter": "chapter-1", "mice": list(MICE)},
                "seats": list(SEATS),
                "dice_mode": "server",
                "decision_policy": "default",
            },
        )
        assert r.status_code == 201, r.text
        body = r.json()
        self.id, self.version, self.turn = body["game"]["id"], body["game"]["version"], body["game"]["turn"]
        self.auth = {t["seat"]: {"Authorization": f"Bearer {t['token']}"} for t in body["tokens"]}
        self.moved = False

    def send(self, command: dict[str, Any]) -> dict[str, Any] | None:
        r = self.client.post(
            f"/games/{self.id}/commands",
            json={"command": command, "expected_version": self.version},
            headers=self.auth[SEAT_OF[command["mouse"]]],
        )
        if r.status_code != 201:
            return None
        body = r.json()
        self.version, self.turn = body["version"], body["turn"]
        if body.get("result") is not None:
            self.turn = None
        return body

    def step(self) -> None:
        if self.turn is None:
            self.create()
        if not self.moved and self.send({"type": "Move", "mouse": self.turn}) is not None:
            self.moved = True
            return
        done = self.send({"type": "EndTurn", "mouse": self.turn})
        self.moved = False
        if done is None:
            self.turn = None


def child(steps: int) -> None:
    """Play ``steps`` steps in-process (run under callgrind by ``main``)."""
    rng = random.Random(42)
    os.urandom = random._urandom = rng.randbytes  # type: ignore[attr-defined]  # the same games every run
    os.environ["DICELOG_DATA_DIR"] = tempfile.mkdtemp(prefix="dicelog-instructions-")
    os.environ["DICELOG_RATE_LIMIT_CREATE"] = os.environ["DICELOG_RATE_LIMIT_COMMANDS"] = "off"
    os.environ["DICELOG_LOG_LEVEL"] = "warning"
    from litestar.testing import TestClient

    try:
        from dicelog.service.http.app import create_app
    except ImportError:  # before the service's split into sub-packages (issue 29)
        from dicelog.service.app import create_app  # type: ignore[no-redef]

    with TestClient(app=create_app()) as client:
        player = Player(client)
        for _ in range(steps):
            player.step()
        print(f"version {player.version}", file=sys.stderr)


def instructions(steps: int, out: Path) -> int:
    """The instructions callgrind counts for a run of ``steps`` steps."""
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--child",
            str(steps),
        ],
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        capture_output=True,
    )
    for line in out.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"no summary line in {out}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=100, help="steps counted (default 100)")
    parser.add_argument("--warmup", type=int, default=20, help="steps in both runs, cancelled (default 20)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        child(args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = instructions(args.warmup, Path(tmp) / "warmup.out")
        total = instructions(args.warmup + args.commands, Path(tmp) / "counted.out")
    per = (total - base) / args.commands
    print(f"instructions: {base:,} (warm-up only), {total:,} (+{args.commands} commands)")
    print(f"per command: {per:,.0f}")


if __name__ == "__main__":
    main()
