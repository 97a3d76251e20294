"""``dicelog demo --game vast``: a Knight, Goblins, Dragon and Cave game (VF §7, 4 players; ``--roles`` any
other VF §7 setup, the Thief's too, up to all five roles) played to its end by the bots
(``dicelog.service.vast_bot``) through the real HTTP API, each bot reading only its own seat's ``/state`` and
``/legal-commands``. The game asks every decision (``decision_policy: ask``): the seat of the role it names
answers it with ``vast_bot.decide``, out of turn when it must (the Thief's Stat tokens, a Goblins' Loot Drop
bonus...). Then the log is verified, and every response a seat read during play is checked for the other
roles' secrets (the Dark tiles' identities but those the Thief looked at, for him; the Cave's hand; the
Goblins', Dragon's and Knight's cards; the Vaults left; known from the auditor's view).

Exit code 0 when the game ended, the log verifies and no secret was seen by the wrong seat.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import msgspec
from rich.console import Console
from rich.table import Table

from dicelog.domain.vast.commands import VastCommandUnion
from dicelog.service.demo import demo_setup, running_service
from dicelog.service.vast_bot import choose, decide, decode_state

ROLES = ["knight", "goblins", "dragon", "cave"]
"""VF §7's recommended 4-player setup: Knight, Goblins, Dragon and Cave."""
ALL_ROLES = ["knight", "goblins", "dragon", "cave", "thief"]
"""Every role of the game (VF §7, 5 players)."""


def _secrets(state: dict[str, Any], seat: str) -> set[str]:
    """What ``seat`` may not know now (VAST-DESIGN.md §3.10), from the auditor's view of the state."""
    hidden = set(state["stack"]) | set(state["crystals"]) | set(state.get("vaults", ()))
    if seat != "goblins" and state.get("goblins"):
        hidden |= set(state["goblins"]["hand"]) | set(state["goblins"]["drawn"])
    if seat != "cave":
        hidden |= {c["tile"] for c in state["cells"] if not c["lit"]}
        hidden |= set(state["cave"]["hand"]) if state.get("cave") else set()
    if seat != "knight" and state.get("knight"):
        hidden |= set(state["knight"]["sidequests"])
        if seat != "cave":  # her face-down Treasure cards: hers and the Cave's (which chose them)
            hidden |= set(state["knight"]["treasures"])
    if seat != "dragon" and state.get("dragon"):
        hidden |= set(state["dragon"]["hand"])
    if seat in ("thief", "cave") and state.get("thief"):
        # the Dark tiles he looked at are his and the Cave's to know, wherever they went since (back under
        # the stack in the Collapse or by Wrath: ``ThiefRole.peeked`` keeps naming them)
        hidden -= set(state["thief"]["peeked"])
    return hidden - {"?"}


def _cave_table(board: dict[str, Any]) -> Table:
    view = board.get("board", {})
    cells = view.get("cells", [])
    table = Table(
        title=f"The cave: {len(cells)} tiles, stack {view.get('stack')}, collapse {view.get('collapse')}"
    )
    if not cells:
        return table
    xs = [c["x"] for c in cells]
    ys = [c["y"] for c in cells]
    by_pos = {(c["x"], c["y"]): c for c in cells}
    table.add_column("y\\x")
    for x in range(min(xs), max(xs) + 1):
        table.add_column(str(x), justify="center")
    for y in range(max(ys), min(ys) - 1, -1):
        row = [str(y)]
        for x in range(min(xs), max(xs) + 1):
            c = by_pos.get((x, y))
            if c is None:
                row.append("")
                continue
            mark = {"entrance": "E", "lit": (c.get("kind") or "?")[:2], "dark": "#"}[c["side"]]
            mark += "*" if c.get("crystal") else ""
            mark += "$" if c.get("treasure") else ""
            mark += "K" if "knight" in c.get("pieces", []) else ""
            mark += "D" if "dragon" in c.get("pieces", []) else ""
            mark += "T" if "thief" in c.get("pieces", []) else ""
            mark += "v" if c.get("vault") else ""
            mark += "g" if c.get("gems") else ""
            row.append(mark)
        table.add_row(*row)
    return table


def run_vast_demo(
    *,
    seed: int,
    mice: list[str],
    max_turns: int,
    quiet: bool = False,
    roles: list[str] | None = None,
    setup: str | None = None,
) -> int:
    """Play one game (Knight, Goblins, Dragon and Cave unless ``roles`` or the VF §7 row ``setup`` says
    otherwise, e.g. ``knight-solo-hard``); return the process exit code (``mice`` is not used)."""
    from dicelog.domain.vast.rules.setup import SETUPS

    row = SETUPS.get(setup) if setup is not None else None
    roles = roles or (list(row.roles) if row is not None else ROLES)
    seats = [{"name": role, "controls": [role]} for role in roles]
    document: dict[str, Any] = {"roles": roles} | ({"setup": setup} if setup is not None else {})
    console, settings, rng = demo_setup(seed, quiet)
    started = time.monotonic()
    with running_service(settings) as base, httpx.Client(base_url=base, timeout=30) as http:
        r = http.post(
            "/games",
            json={"ruleset": "vast", "setup": document, "seats": seats, "decision_policy": "ask"},
        )
        if r.status_code != 201:
            Console().print(f"[red]could not create the game:[/red] {r.text}")
            return 1
        body = r.json()
        game_id = body["game"]["id"]
        tokens = {t["seat"]: t["token"] for t in body["tokens"]}
        auditor = {"Authorization": f"Bearer {body['auditor_token']}"}
        console.print(
            f"[bold]dicelog demo --game vast[/bold] game [cyan]{game_id}[/cyan] {settings.describe_store()}"
        )
        commands = reads = leaks = 0
        turns = 0
        while turns < max_turns:
            game = http.get(f"/games/{game_id}", headers=auditor).json()
            if game["result"] is not None or game["turn"] is None:
                break
            pending = game["pending"]
            deciding = pending is not None and pending.get("type") == "DecisionRequested"
            if pending is not None and not deciding:
                console.print(f"[red]stuck: {pending.get('type')} pending with server dice[/red]")
                return 1
            # a decision goes to the seat of the role it names, out of turn when it must
            role = pending["piece"] if deciding else game["turn"]
            seat = next((s["name"] for s in seats if role in s["controls"]), game["turn"])
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = http.get(f"/games/{game_id}/legal-commands", headers=auth)
            seen = http.get(f"/games/{game_id}/state", headers=auth)
            hidden = _secrets(http.get(f"/games/{game_id}/state", headers=auditor).json()["state"], seat)
            for response in (legal, seen):
                reads += 1
                if any(f'"{h}"' in response.text for h in hidden):
                    leaks += 1
            view = decode_state(seen.json()["state"])
            if deciding:
                options = [c["option"] for c in legal.json()["commands"] if c["type"] == "Choose"]
                if not options:
                    console.print(f"[red]stuck: no option of {pending.get('decision')} for {seat}[/red]")
                    return 1
                sent: Any = {"type": "Choose", "option": decide(view, legal.json()["pending"], options, rng)}
            else:
                options = [msgspec.convert(c, VastCommandUnion) for c in legal.json()["commands"]]
                if not options:
                    console.print(f"[red]stuck: no legal command for {seat}[/red]")
                    return 1
                sent = choose(view, options, rng)
            r = http.post(
                f"/games/{game_id}/commands",
                headers=auth,
                json={
                    "command": sent if deciding else msgspec.to_builtins(sent),
                    "expected_version": legal.json()["version"],
                },
            )
            if r.status_code != 201:
                console.print(f"[red]refused:[/red] {sent} -> {r.text}")
                return 1
            commands += 1
            if type(sent).__name__ == "VastEndTurn":
                turns += 1
                if turns % 6 == 0:
                    console.print(_cave_table(http.get(f"/games/{game_id}/board").json()))
        final = http.get(f"/games/{game_id}").json()
        console.print(_cave_table(http.get(f"/games/{game_id}/board").json()))
        tail = http.get(
            f"/games/{game_id}/log", params={"after": max(0, final["version"] - 80), "limit": 1000}
        )
        for line in tail.json().get("lines", [])[-12:]:
            console.print(f"  v{line['version']} {line['line']}")
        report = http.post(f"/games/{game_id}/verify").json()["verification"]
        result = final["result"]
        Console().print(
            f"game {game_id}: {result or 'unfinished'} after {commands} commands "
            f"({time.monotonic() - started:.1f} s); "
            f"verify {'ok' if report['ok'] else 'FAILED'}; {reads} seat reads checked, {leaks} with another "
            "seat's secret"
        )
        return 0 if report["ok"] and result and not leaks else 1
