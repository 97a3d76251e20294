"""``dicelog demo``: a Chapter 1 game played to its end by bot seats through the real HTTP API.

The service runs with the embedded default (SQLite under ``DICELOG_DATA_DIR``, in-process
fan-out) on a free local port; one bot per mouse asks ``/legal-commands`` and ``/state`` and picks
with a simple, readable policy that tries to win (``service/bot.py``: fight minions in reach,
explore toward the Courtyard, walk to the tree entrance, search when nothing else helps), rolling nothing
itself: the dice are the server's, committed at creation. The board, the initiative track and the
game log are printed as the game goes; at the end the log is verified by replay.
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

from dicelog.service.app import create_app
from dicelog.service.bot import choose_for, decode_state
from dicelog.service.settings import Settings

# Order of preference among legal commands; unknown command types come before EndTurn.
PREFERENCE = ("Battle", "Explore", "Search", "Recover", "Move", "MoveTo", "Scurry")


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


def choose(
    commands: list[dict[str, Any]], rng: random.Random, state: Any = None, mouse: str | None = None
) -> dict[str, Any]:
    """The bot policy. Given the game state, ``dicelog.service.bot.choose_for`` (fight, explore toward the
    goal room, walk to the goal space). Without it, the most preferred command type; among several
    of that type, a random one (for ``MoveTo``, favouring longer paths)."""
    if state is not None and mouse is not None and commands:
        return choose_for(state, mouse, commands)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for command in commands:
        by_type.setdefault(command["type"], []).append(command)
    unknown = [t for t in by_type if t not in PREFERENCE and t != "EndTurn"]
    for kind in (*PREFERENCE[:4], *unknown, *PREFERENCE[4:], "EndTurn"):
        options = by_type.get(kind)
        if options:
            if kind == "MoveTo":
                longest = max(len(c["path"]) for c in options)
                options = [c for c in options if len(c["path"]) == longest]
            return rng.choice(options)
    raise ValueError("no legal command")


def _board_table(board: dict[str, Any]) -> Table:
    """Occupied spaces per room tile, with the hourglass and the cheese wheel."""
    view = board.get("board", {})
    table = Table(
        title=f"Board - hourglass page {view.get('hourglass_page')} "
        f"(end marker {view.get('end_marker_page')}), minion cheese wheel {view.get('cheese_wheel')}"
    )
    table.add_column("room tile")
    table.add_column("space")
    table.add_column("figures")
    for tile in view.get("tiles", []):
        for space in tile.get("spaces", []):
            if space.get("figures"):
                table.add_row(tile.get("name", ""), space["id"], ", ".join(space["figures"]))
    return table


def _initiative_table(initiative: dict[str, Any]) -> Table:
    view = initiative.get("initiative", {})
    table = Table(title=f"Initiative track - round {view.get('round')}")
    table.add_column("slot")
    table.add_column("card")
    table.add_column("figures")
    for card in view.get("cards", []):
        marker = " <" if card.get("current") else ""
        table.add_row(
            str(card.get("slot")), f"{card.get('name')}{marker}", ", ".join(card.get("figures", []))
        )
    return table


def demo_setup(seed: int, quiet: bool) -> tuple[Console, Settings, random.Random]:
    """What every demo starts with: its console, the settings (from the environment, without request quotas:
    bots play as fast as the server answers, on this machine only) and the bots' seeded choices."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    settings = msgspec.structs.replace(
        Settings.from_env(), rate_limit_create="off", rate_limit_commands="off"
    )
    return Console(quiet=quiet), settings, random.Random(seed)


def run_demo(*, seed: int, mice: list[str], max_turns: int, quiet: bool = False) -> int:
    """Play one game; return the process exit code (0 when the log verifies)."""
    console, settings, rng = demo_setup(seed, quiet)
    seats = [{"name": f"seat-{m}", "controls": [m]} for m in mice]
    with running_service(settings) as base, httpx.Client(base_url=base, timeout=30) as http:
        r = http.post(
            "/games",
            json={
                "ruleset": "mice-and-mystics",
                "setup": {"chapter": "chapter-1", "mice": mice},
                "seats": seats,
            },
        )
        if r.status_code != 201:
            Console().print(f"[red]could not create the game:[/red] {r.text}")
            return 1
        body = r.json()
        game_id = body["game"]["id"]
        tokens = {t["seat"]: t["token"] for t in body["tokens"]}
        console.print(f"[bold]dicelog demo[/bold] game [cyan]{game_id}[/cyan] {settings.describe_store()}")
        console.print(f"dice commitment sha256(seed) = {body['game']['dice_commitment']}")
        turns, log_after, result = 0, 0, None
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total} turns"),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task("playing Chapter 1", total=max_turns)
            while turns < max_turns:
                game = http.get(f"/games/{game_id}").json()
                result = game["result"]
                if result is not None or game["turn"] is None:
                    break
                seat = f"seat-{game['turn']}"
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                legal = http.get(f"/games/{game_id}/legal-commands", headers=auth).json()
                if not legal["commands"]:
                    console.print(
                        f"[red]stuck: no legal command for {seat}[/red] (pending {legal['pending']})"
                    )
                    return 1
                state = decode_state(http.get(f"/games/{game_id}/state").json()["state"])
                command = choose(legal["commands"], rng, state, game["turn"])
                r = http.post(
                    f"/games/{game_id}/commands",
                    headers=auth,
                    json={"command": command, "expected_version": legal["version"]},
                )
                if r.status_code != 201:
                    console.print(f"[red]refused:[/red] {command} -> {r.text}")
                    return 1
                if command["type"] == "EndTurn":
                    turns += 1
                    progress.advance(task)
                    log_after = _print_log(http, console, game_id, log_after)
                    if turns % len(mice) == 0:
                        console.print(_board_table(http.get(f"/games/{game_id}/board").json()))
        log_after = _print_log(http, console, game_id, log_after, wait=True)
        console.print(_board_table(http.get(f"/games/{game_id}/board").json()))
        console.print(_initiative_table(http.get(f"/games/{game_id}/initiative").json()))
        final = http.get(f"/games/{game_id}").json()
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
            f"game {game_id}: {result or 'unfinished'}; verify {'ok' if report['ok'] else 'FAILED'}"
        )
        return 0 if report["ok"] else 1


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


def _run_vast(**kwargs: Any) -> int:
    from dicelog.service.demo_vast import run_vast_demo

    return run_vast_demo(**kwargs)


DEMOS = {"mice-and-mystics": run_demo, "vast": _run_vast}
"""``dicelog demo --game NAME``: the demo of each ruleset that has one."""
