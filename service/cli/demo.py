"""``dicelog demo --game NAME``: a game played to its end by bot seats through the real HTTP API.

The service runs with the embedded default (SQLite under ``DICELOG_DATA_DIR``, in-process fan-out) on a
free local port. Everything game-specific is the ruleset's, found through the registry: its ``demo``
(``dicelog.domain.core.ruleset.Demo``: the game created, its options, what ends a turn, the tables printed,
the secrets each seat may not see) and its ``bot`` (``choose``, ``decide``). Each bot reads only its own
seat's ``/state`` and ``/legal-commands``; a decision goes to the seat of the piece it names (out of turn
when it must). The dice are the server's, committed at creation. The game log is printed as the game goes;
at the end the log is verified by replay, and every response a seat read was scanned for what the demo
says that seat may not see.

Exit code 0 when the log verifies and no seat saw another's secret (1 also when the bots are stuck, or a
command is refused: said even with ``--quiet``).
"""

from __future__ import annotations

import logging
import random
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import msgspec
import uvicorn
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from dicelog.domain.core import registry
from dicelog.domain.core.ruleset import DemoTable
from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings


@contextmanager
def running_service(settings: Settings, app: Any = None) -> Iterator[str]:
    """Run ``app`` (default: ``create_app(settings)``) with uvicorn in a thread on a free 127.0.0.1
    port; yield its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app or create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the service did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def demo_setup(seed: int, quiet: bool) -> tuple[Console, Settings, random.Random]:
    """What every demo starts with: its console, the settings (from the environment, without request quotas:
    bots play as fast as the server answers, on this machine only) and the bots' seeded choices."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    settings = msgspec.structs.replace(
        Settings.from_env(), rate_limit_create="off", rate_limit_commands="off"
    )
    return Console(quiet=quiet), settings, random.Random(seed)


def demos() -> dict[str, Any]:
    """The ``demo`` of every known ruleset that has one, by ruleset name."""
    found = {name: getattr(registry.get(name), "demo", None) for name in registry.names()}
    return {name: demo for name, demo in found.items() if demo is not None}


def _table(spec: DemoTable) -> Table:
    table = Table(title=spec.title)
    for column in spec.columns:
        table.add_column(column)
    for row in spec.rows:
        table.add_row(*row)
    return table


def run_demo(
    game: str = "mice-and-mystics",
    *,
    seed: int,
    max_turns: int,
    quiet: bool = False,
    options: dict[str, Any] | None = None,
) -> int:
    """Play one game of ruleset ``game`` with its demo's ``options``; return the process exit code (0 when
    the log verifies and no seat saw another's secret). Raises ``RuleBroken("game.unknown-ruleset")``, and
    ``ValueError`` for a ruleset without a demo or a bad option."""
    ruleset = registry.get(game)
    demo = getattr(ruleset, "demo", None)
    bot = getattr(ruleset, "bot", None)
    if demo is None or bot is None:
        raise ValueError(f"ruleset {game!r} has no demo")
    body = demo.game(options or {})
    console, settings, rng = demo_setup(seed, quiet)
    started = time.monotonic()
    served = tuple(dict.fromkeys((*registry.builtin_names(), game)))  # an installed plug-in's too
    app = create_app(settings, rulesets=served)
    with running_service(settings, app) as base, httpx.Client(base_url=base, timeout=30) as http:
        r = http.post("/games", json=body)
        if r.status_code != 201:
            Console().print(f"[red]could not create the game:[/red] {r.text}")
            return 1
        created = r.json()
        game_id = created["game"]["id"]
        seats = body["seats"]
        tokens = {t["seat"]: t["token"] for t in created["tokens"]}
        auditor = {"Authorization": f"Bearer {created['auditor_token']}"}
        console.print(
            f"[bold]dicelog demo --game {game}[/bold] game [cyan]{game_id}[/cyan] {settings.describe_store()}"
        )
        console.print(f"dice commitment sha256(seed) = {created['game']['dice_commitment']}")
        commands = reads = leaks = turns = log_after = 0
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total} turns"),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(demo.title, total=max_turns)
            while turns < max_turns:
                now = http.get(f"/games/{game_id}", headers=auditor).json()
                if now["result"] is not None or now["turn"] is None:
                    break
                pending = now["pending"]
                deciding = pending is not None and pending.get("type") == "DecisionRequested"
                if pending is not None and not deciding:
                    Console().print(f"[red]stuck: {pending.get('type')} pending with server dice[/red]")
                    return 1
                piece = pending["piece"] if deciding and pending.get("piece") else now["turn"]
                seat = next((s["name"] for s in seats if piece in s["controls"]), None)
                if seat is None:
                    Console().print(f"[red]stuck: no seat controls {piece!r}[/red]")
                    return 1
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                legal = http.get(f"/games/{game_id}/legal-commands", headers=auth)
                seen = http.get(f"/games/{game_id}/state", headers=auth)
                full = http.get(f"/games/{game_id}/state", headers=auditor).json()["state"]
                hidden = demo.secrets(full, seat)
                for response in (legal, seen):
                    reads += 1
                    if any(f'"{h}"' in response.text for h in hidden):
                        leaks += 1
                view: Any = msgspec.convert(seen.json()["state"], ruleset.state_type, strict=False)
                listed = legal.json()["commands"]
                if deciding:
                    choices = [c["option"] for c in listed if c["type"] == "Choose"]
                    if not choices:
                        Console().print(
                            f"[red]stuck: no option of {pending.get('decision')} for {seat}[/red]"
                        )
                        return 1
                    option = bot.decide(view, legal.json()["pending"], choices, rng)
                    sent: dict[str, Any] = {"type": "Choose", "option": option}
                else:
                    typed = [msgspec.convert(c, ruleset.command_type) for c in listed]
                    if not typed:
                        Console().print(f"[red]stuck: no legal command for {seat}[/red]")
                        return 1
                    sent = msgspec.to_builtins(bot.choose(view, typed, rng))
                r = http.post(
                    f"/games/{game_id}/commands",
                    headers=auth,
                    json={"command": sent, "expected_version": legal.json()["version"]},
                )
                if r.status_code != 201:
                    Console().print(f"[red]refused:[/red] {sent} -> {r.text}")
                    return 1
                commands += 1
                if demo.ends_turn(sent):
                    turns += 1
                    progress.advance(task)
                    log_after = _print_log(http, console, game_id, log_after)
                    if not quiet and turns % demo.table_every == 0:
                        for spec in _tables(http, demo, game_id)[:1]:
                            console.print(_table(spec))
        log_after = _print_log(http, console, game_id, log_after, wait=True)
        if not quiet:
            for spec in _tables(http, demo, game_id):
                console.print(_table(spec))
        final = http.get(f"/games/{game_id}", headers=auditor).json()
        result = final["result"]
        console.print(
            f"[bold]{'result: ' + result if result else f'stopped after {turns} turns (no result yet)'}"
            f"[/bold] at version {final['version']}"
        )
        report = http.post(f"/games/{game_id}/verify").json()["verification"]
        if report["ok"]:
            console.print(
                f"[green]verified[/green]: all {report['events']} events re-derived from their commands"
            )
        else:
            console.print(f"[red]verification failed[/red]: {report['divergence']}")
        Console().print(
            f"game {game_id}: {result or 'unfinished'} after {commands} commands "
            f"({time.monotonic() - started:.1f} s); verify {'ok' if report['ok'] else 'FAILED'}; "
            f"{reads} seat reads checked, {leaks} with another seat's secret"
        )
        return 0 if report["ok"] and not leaks else 1


def _tables(http: httpx.Client, demo: Any, game_id: str) -> list[DemoTable]:
    board = http.get(f"/games/{game_id}/board")
    initiative = http.get(f"/games/{game_id}/initiative")
    return demo.tables(
        board.json() if board.status_code == 200 else {},
        initiative.json() if initiative.status_code == 200 else {},
    )


def _print_log(http: httpx.Client, console: Console, game_id: str, after: int, wait: bool = False) -> int:
    """Print the game log lines after version ``after`` (waiting for the projection if asked)."""
    deadline = time.monotonic() + (5 if wait else 0)
    target = http.get(f"/games/{game_id}").json()["version"]
    while True:
        r = http.get(f"/games/{game_id}/log", params={"after": after, "limit": 1000})
        lines = r.json()["lines"] if r.status_code == 200 else []
        for line in lines:
            console.print(f"  [dim]{line['version']:>5}[/dim] {line['line']}")
            after = line["version"]
        if not wait or after >= target or time.monotonic() > deadline:
            return after
        board = http.get(f"/games/{game_id}/board")
        if board.status_code == 200 and board.json().get("version") == target:
            return after
        time.sleep(0.1)
