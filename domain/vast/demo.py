"""``dicelog demo --game vast``: a Knight, Goblins, Dragon and Cave game (``--roles`` any other setup of
``GET /content/vast/setups``, the Thief's too, up to all five roles; ``--setup`` a row by id) played to
its end by the bots (``dicelog.domain.vast.bot``), each reading only its own seat's ``/state`` and
``/legal-commands``. The game asks every decision (``decision_policy: ask``): the seat of the role it
names answers it, out of turn when it must (the Thief's Stat tokens, a Goblins' Loot Drop bonus...).
Every response a seat reads is checked for the other roles' secrets (``secrets``). The ruleset's
``demo`` (``dicelog.domain.core.ruleset.Demo``)."""

from __future__ import annotations

from typing import Any

from dicelog.domain.core.ruleset import DemoOption, DemoTable
from dicelog.domain.vast.rules.setup import SETUPS

ROLES = ["knight", "goblins", "dragon", "cave"]
"""The recommended 4-player setup (Vast rulebook, Setup): Knight, Goblins, Dragon and Cave."""
ALL_ROLES = ["knight", "goblins", "dragon", "cave", "thief"]
"""Every role of the game (5 players)."""


def secrets(state: dict[str, Any], seat: str) -> set[str]:
    """What ``seat`` may not know now (docs/architecture.md, Who sees what), from the auditor's view of the
    state."""
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


def cave_table(board: dict[str, Any]) -> DemoTable:
    """The cave as a grid (``E`` Entrance, ``#`` Dark, a Lit tile's kind; ``*`` Crystal, ``$`` Treasure,
    ``K``/``D``/``T`` the Knight, Dragon, Thief, ``v`` Vault, ``g`` Gems), from ``GET /games/{id}/board``."""
    view = board.get("board", {})
    cells = view.get("cells", [])
    title = f"The cave: {len(cells)} tiles, stack {view.get('stack')}, collapse {view.get('collapse')}"
    if not cells:
        return DemoTable(title, (), ())
    xs = [c["x"] for c in cells]
    ys = [c["y"] for c in cells]
    by_pos = {(c["x"], c["y"]): c for c in cells}
    columns = ("y\\x", *(str(x) for x in range(min(xs), max(xs) + 1)))
    rows = []
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
        rows.append(tuple(row))
    return DemoTable(title, columns, tuple(rows))


class VastDemo:
    title = "playing Vast"
    options = (
        DemoOption(
            "--roles",
            "roles",
            "vast: the roles seated, comma-separated, any setup of GET /content/vast/setups: "
            "knight,goblins,dragon,cave (the default), all five with thief, knight,goblins,dragon,thief, "
            "cave,thief, knight,cave...",
        ),
        DemoOption(
            "--setup",
            "setup",
            "vast: a setup row by id (GET /content/vast/setups), e.g. knight-solo-hard or knight-vs-thief; "
            "the rows sharing their roles (the solo levels) need it",
            metavar="ROW",
        ),
    )
    table_every = 6

    def game(self, options: dict[str, Any]) -> dict[str, Any]:
        setup = options.get("setup")
        given = options.get("roles")
        row = SETUPS.get(setup) if setup is not None else None
        if setup is not None and row is None:
            raise ValueError(f"no Vast setup {setup!r} (GET /content/vast/setups)")
        roles = (given.split(",") if isinstance(given, str) else given) or (
            list(row.roles) if row is not None else ROLES
        )
        document: dict[str, Any] = {"roles": roles} | ({"setup": setup} if setup is not None else {})
        seats = [{"name": role, "controls": [role]} for role in roles]
        return {"ruleset": "vast", "setup": document, "seats": seats, "decision_policy": "ask"}

    def ends_turn(self, command: dict[str, Any]) -> bool:
        return command.get("type") == "vast.EndTurn"

    def tables(self, board: dict[str, Any], initiative: dict[str, Any]) -> list[DemoTable]:
        return [cave_table(board)]

    def secrets(self, state: dict[str, Any], seat: str) -> set[str]:
        return secrets(state, seat)


DEMO = VastDemo()
