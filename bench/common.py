"""Shared helpers of the benchmarks: statistics, result files, servers, a long game.

Imported by the scripts in this folder (each adds this folder to ``sys.path``), never by the
project. Nothing here is timed itself.
"""

from __future__ import annotations

import json
import math
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RESULTS = BENCH / "results"
PYTHON = sys.executable
if str(ROOT) not in sys.path:  # import the code of the tree this folder belongs to
    sys.path.insert(1, str(ROOT))

MICE = ("collin", "filch", "maginos", "nez")
SEATS = ({"name": "red", "controls": ["collin", "filch"]}, {"name": "blue", "controls": ["maginos", "nez"]})
SEAT_OF = {mouse: seat["name"] for seat in SEATS for mouse in seat["controls"]}


# --- statistics ----------------------------------------------------------------------------


def percentile(samples: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of ``samples``: no interpolation, so p99 of 1,000
    samples is the 990th smallest."""
    ordered = sorted(samples)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def summarize_ms(samples_ns: Sequence[int]) -> dict[str, float]:
    """Median, p90, p99, max and mean (milliseconds) of durations in nanoseconds."""
    ms = [s / 1e6 for s in samples_ns]
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 4),
        "p90_ms": round(percentile(ms, 90), 4),
        "p99_ms": round(percentile(ms, 99), 4),
        "max_ms": round(max(ms), 4),
        "mean_ms": round(statistics.fmean(ms), 4),
    }


def ratio(value: float, baseline: float) -> float:
    return round(value / baseline, 3) if baseline else math.nan


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


# --- result files --------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """Where the figures come from."""
    git = ["git", "-C", str(ROOT)]
    commit = subprocess.run(
        [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    )
    if commit.returncode == 0 and (ROOT / ".git").exists():
        head = commit.stdout.strip()
        dirty: bool | None = bool(
            subprocess.run(
                [*git, "status", "--porcelain", "--", ".", ":!bench"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
        )
    else:  # an exported tree (git archive): say which commit it is with DICELOG_BENCH_COMMIT
        head, dirty = os.environ.get("DICELOG_BENCH_COMMIT", "unknown (not a git work tree)"), None
    import msgspec
    import uvicorn

    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "eventsourcing": _dist_version("eventsourcing"),
        "litestar": _dist_version("litestar"),
        "msgspec": msgspec.__version__,
        "uvicorn": uvicorn.__version__,
        "git_commit": head,
        "git_dirty_outside_bench": dirty,
        "loadavg_at_write": loadavg(),
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def loadavg() -> list[float]:
    """1, 5 and 15 minute load averages: other work on the machine skews every figure here."""
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return []


def _dist_version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


def write_result(name: str, result: dict[str, Any]) -> Path:
    """Write ``bench/results/<name>.json`` (the folder is git-ignored)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps({"benchmark": name, "machine": machine(), **result}, indent=2) + "\n")
    return path


# --- processes -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def clean_environ() -> dict[str, str]:
    """This environment without ``DICELOG_*`` settings, so servers start from the defaults."""
    return {k: v for k, v in os.environ.items() if not k.startswith("DICELOG_")}


def wait_http(url: str, *, timeout: float = 120.0, proc: subprocess.Popen[bytes] | None = None) -> None:
    """Poll ``url`` until it answers 200 (raise if the process dies or time runs out). A server
    starts in about 1 s on an idle machine; 120 s leaves room for a busy one (a start took over 30 s
    at a load average of 19 on 2 cores)."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before answering {url}")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server this benchmark started (SIGTERM, then SIGKILL)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS / VmHWM (kB) and thread count from /proc/<pid>/status."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            out[key] = int(value.split()[0])
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / os.sysconf("SC_CLK_TCK")


# --- a long game, built with the core ------------------------------------------------------


def game_created(seed: bytes, *, undo_policy: str = "none") -> Any:
    """A Chapter 1 ``GameCreated`` in ``server`` dice mode with default decisions (the server
    answers the rules' choices by their documented default), as ``POST /games`` builds it."""
    import msgspec

    from dicelog.domain.core.dice import commitment
    from dicelog.domain.core.events import GameCreated, Seat

    return GameCreated(
        ruleset="mice-and-mystics",
        setup=msgspec.Raw(msgspec.json.encode({"chapter": "chapter-1", "mice": list(MICE)})),
        seats=tuple(Seat(name=s["name"], controls=tuple(s["controls"])) for s in SEATS),
        dice_mode="server",
        undo_policy=undo_policy,  # type: ignore[arg-type]
        decision_policy="default",
        dice_commitment=commitment(seed),
    )


UNDO_BACK = 30
UNDO_NOTE = (
    "A Chapter 1 game ends (victory or defeat) long before 10,000 events, so the long game is "
    "Chapter 1 with undo (undo_policy all-seats): whenever every legal command would end the "
    "game, one seat asks to undo to a random point among the last 30 player commands and the "
    "other seat approves (RequestUndo, ApproveUndo: UndoRequested, UndoApproved, UndoApplied), "
    "and play goes on; the undone events stay in the log, as in the app."
)


class LongGame:
    """A game of at least ``events`` events, played with
    ``dicelog.domain.core.game.run_command_and_auto_answers_records``: Chapter 1,
    server dice, default decisions, a random legal command from ``RULESET.legal_commands`` each
    time (seeded), issued by the seat controlling the mouse; a command that would end the game
    is skipped for another legal one while there is one. When none is left: without ``undo``
    the game ends and building stops; with ``undo`` the seats undo (see ``UNDO_NOTE``). Stops at
    the first command boundary at or past ``events`` (a command's events are stored together,
    so a real log never ends mid-command).

    ``batches`` holds (game before, records) per write, exactly what ``Games`` would save:
    the creation first, then one entry per command.
    """

    def __init__(self, events: int, *, undo: bool = False, rng_seed: int = 1) -> None:
        from dicelog.domain.core.commands import Choose
        from dicelog.domain.core.events import DecisionRequested
        from dicelog.domain.core.game import create, fold

        rng = random.Random(rng_seed)
        self.seed = bytes(rng.randrange(256) for _ in range(32))
        self.id: UUID = uuid4()
        self.undos = 0
        created = game_created(self.seed, undo_policy="all-seats" if undo else "none")
        first = create(self.id, created, at=datetime.now(UTC), seed=self.seed, command_id=f"create-{self.id}")
        self.batches: list[tuple[Any, list[Any]]] = [(None, first)]
        self.records: list[Any] = list(first)
        self.game = fold(None, first)
        self.commands: dict[str, int] = {}
        self.stopped = ""
        boundaries: list[int] = []  # versions right before a player command, on the live line
        while len(self.records) < events:
            game = self.game
            if game.result is not None:
                self.stopped = f"the game ended ({game.result})"
                break
            if isinstance(game.pending, DecisionRequested):
                options: list[Any] = [Choose(option=o) for o in game.pending.options]
            else:
                options = list(self.ruleset.legal_commands(game.state))
            rng.shuffle(options)
            chosen = None
            for command in options:
                new = self._play(command)
                if fold(game, new).result is None or not undo:
                    chosen = command
                    break
            if chosen is not None:
                boundaries.append(game.version)
                self._append(chosen, new)
                continue
            if not undo or not boundaries:
                self.stopped = f"no legal command that keeps the game going (pending {game.pending!r})"
                break
            target = rng.choice(boundaries[-UNDO_BACK:])
            self._undo(target)
            boundaries = [b for b in boundaries if b < target]
        self.final = self.game

    @property
    def ruleset(self) -> Any:
        from dicelog.domain.mice_and_mystics.ruleset import RULESET

        return RULESET

    def _play(self, command: Any, seat: str | None = None) -> list[Any]:
        from dicelog.domain.core.game import run_command_and_auto_answers_records

        if seat is None:
            mouse = self.ruleset.piece_of(command)
            seat = SEAT_OF.get(mouse or "", SEATS[0]["name"])
        kwargs: dict[str, Any] = {}
        if type(command).__name__ in ("RequestUndo", "ApproveUndo", "RejectUndo"):
            from dicelog.domain.core.game import ListHistory

            kwargs["history"] = ListHistory(self.records)
        return run_command_and_auto_answers_records(
            self.game,
            command,
            seat=seat,
            command_id=str(uuid4()),
            at=datetime.now(UTC),
            seed=self.seed,
            **kwargs,
        )

    def _append(self, command: Any, new: list[Any]) -> None:
        from dicelog.domain.core.game import fold

        name = type(command).__name__
        self.commands[name] = self.commands.get(name, 0) + 1
        self.batches.append((self.game, new))
        self.records.extend(new)
        self.game = fold(self.game, new)

    def _undo(self, to_version: int) -> None:
        """One seat asks to undo to ``to_version``, the other approves (all-seats policy)."""
        from dicelog.domain.core.commands import ApproveUndo, RequestUndo

        asker, other = SEATS[0]["name"], SEATS[1]["name"]
        request = RequestUndo(to_version=to_version)
        self._append(request, self._play(request, asker))
        if self.game.undo_request is not None:
            approve = ApproveUndo()
            self._append(approve, self._play(approve, other))
        if self.game.version <= to_version or self.game.undo_request is not None:
            raise RuntimeError(f"undo to version {to_version} was not applied")
        self.undos += 1

    @classmethod
    def at_least(cls, events: int) -> tuple[LongGame, dict[str, Any], LongGame]:
        """A game of ``events`` events: a plain Chapter 1 game if it lasts that long, else one
        with undo (``UNDO_NOTE``). Returns it, a note on how it was built (for the result file),
        and the plain Chapter 1 game (the same game when it was long enough)."""
        plain = cls(events)
        info: dict[str, Any] = {
            "plain_chapter_1_game_events": len(plain.records),
            "plain_stopped": plain.stopped,
        }
        if len(plain.records) >= events:
            return plain, {**info, "built_with": "chapter-1"}, plain
        long = cls(events, undo=True)
        if len(long.records) < events:
            raise RuntimeError(f"could not build a {events}-event game: {long.stopped}")
        return (
            long,
            {**info, "built_with": "chapter-1 with undo", "undos": long.undos, "note": UNDO_NOTE},
            plain,
        )

    def store(self, games: Any, *, chunk: int = 1000, snapshots: bool) -> None:
        """Save every record with ``Games.save`` in chunks of about ``chunk`` events (whole
        commands per chunk); with ``snapshots``, store the snapshots the app would have taken,
        through the app's own rule (``_snapshots``)."""
        from dicelog.service.store.records import GameSecret, secret_id

        secret = GameSecret(
            originator_id=secret_id(self.id),
            timestamp=self.records[0].timestamp,
            game_id=self.id,
            seed=self.seed.hex(),
            token_hashes={},
        )
        pending: list[Any] = [secret]
        for _, records in self.batches:
            pending.extend(records)
            if len(pending) >= chunk:
                games.save(*pending)
                pending = []
        if pending:
            games.save(*pending)
        if snapshots:
            self._snapshots(games)

    def _snapshots(self, games: Any) -> None:
        """Every command's write through the app's own snapshot rule, ``Games._saved`` (its
        signature has been ``(before, records)`` and ``(before, after)``); without it, the same
        rule spelled out here: a snapshot of the game after a write whose events cross a
        multiple of ``games.snapshot_interval``."""
        import inspect

        from dicelog.domain.core.game import GameSnapshot

        afters = [before for before, _ in self.batches[1:]] + [self.final]
        saved = getattr(games, "_saved", None)
        params = list(inspect.signature(saved).parameters) if saved is not None else []
        n = games.snapshot_interval
        for (before, records), after in zip(self.batches, afters, strict=True):
            if params[1:2] == ["records"]:
                saved(before, records)
            elif params[1:2] == ["after"]:
                saved(before, after)
            elif n > 0 and after.version // n > (before.version if before is not None else 0) // n:
                games.snapshots.put([GameSnapshot.take(after)])


def sqlite_env(path: Path, **extra: str) -> dict[str, str]:
    """Library environment for a SQLite file, as ``Settings.library_env`` builds it."""
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "10",
        **extra,
    }


def header(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 74 - len(title)), flush=True)


# Debian's Chromium as the web-table benchmarks launch it (headless, no background traffic).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
