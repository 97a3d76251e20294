"""Who sees what of a Vast sandbox table (issue 31; docs/who-sees-what.md, Vast): the table a sandbox lays is
stored whole in ``GameCreated.setup``, and the one Lens function masks it per reader as the same secrets are
masked in play. A sandbox game with a laid Cave hand, Event deck top, Sidequest deck top, a Dark tile and the
Knight's hidden cards is read through the real API by each seat, the spectator token and a reader without a
token: every raw answer is scanned for the ids that reader may not know (0
leaks), and each reader's own export and ``POST /verify`` still verify the chain (version 1, its setup
masked, checked by digest until the end), again after an undo (whose ``UndoApplied`` carries the game's
``GameCreated``)."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from litestar.testing import TestClient

from dicelog.service.app.export import verify_file
from tests.api.test_vast_api import SEAT_OF, VastTable
from tests.rulesets.vast.test_sandbox import TABLE

ROLES = ("knight", "cave")
SANDBOX = {
    **TABLE,
    "cave": {"hand": ["event-01"], "omens": ["bat-1"]},
    "event_top": ["deep-and-dark-2", "fresh-water", "vantage-point"],
    "sidequest_top": ["intrepid", "persistent"],
}
"""The Cave holds ``event-01`` and reads the Event deck's top three; ``ambush-01`` lies Dark at (2, 0); the
Knight holds ``elven-sword`` face down and the Sidequest ``swift``; the Sidequest deck's order is laid."""
EVENT_TOP = {"deep-and-dark-2", "fresh-water", "vantage-point"}
SECRET_FROM: dict[str | None, set[str]] = {
    "sir": {"event-01", "ambush-01"} | EVENT_TOP,
    "deep": {"swift"},
    "spectator": {"event-01", "ambush-01", "elven-sword", "swift"} | EVENT_TOP,
}
"""The laid ids each reader may not know (the Sidequest deck's cards are public, ``RolesSeated``: only their
order is secret, scanned by ``ORDERS``)."""
SECRET_FROM[None] = SECRET_FROM["spectator"]  # no token: an unlisted game's spectator
ORDERS: dict[str | None, tuple[str, ...]] = {
    "sir": ("sidequest_top", "event_top"),
    "deep": ("sidequest_top",),
    "spectator": ("sidequest_top", "event_top"),
    None: ("sidequest_top", "event_top"),
}
"""The laid orders each reader may not know: every list under these keys, anywhere in an answer, must read
``"?"`` only."""


def _shown_orders(text: str, keys: tuple[str, ...]) -> list[str]:
    """The lists under ``keys`` in ``text`` that hold a value other than ``"?"``."""
    return [
        m.group(0)
        for m in re.finditer(r'"(' + "|".join(keys) + r')"\s*:\s*\[[^\]]*\]', text)
        if set(re.findall(r'"([^"]*)"', m.group(0).partition(":")[2])) - {"?"}
    ]


READ_PATHS = ("", "/events", "/export", "/state", "/board", "/initiative", "/log", "/legal-commands", "/dice")


def _leaks(table: VastTable, who: str | None, secret: set[str]) -> list[str]:
    found = []
    for path in READ_PATHS:
        r = table.get(path, who)
        # legal commands are a seat's: a spectator's answer is a refusal, scanned all the same
        refused = 401 if who is None else 403
        assert r.status_code == (
            refused if path == "/legal-commands" and who not in SEAT_OF.values() else 200
        ), (
            path,
            who,
            r.text,
        )
        found += [f"{who} {path}: {s}" for s in sorted(secret) if f'"{s}"' in r.text]
        found += [f"{who} {path}: {order}" for order in _shown_orders(r.text, ORDERS[who])]
    r = table.client.post(
        f"/games/{table.id}/verify", headers={"Authorization": f"Bearer {table.tokens[who]}"} if who else {}
    )
    found += [f"{who} /verify: {s}" for s in sorted(secret) if f'"{s}"' in r.text]
    return found


def _still_secret(table: VastTable) -> set[str]:
    """The laid ids the auditor's state still holds as secrets (none revealed by the steps played)."""
    s = table.full_state()
    dark = {c["tile"] for c in s["cells"] if not c["lit"]}
    return (
        set(s["cave"]["hand"])
        | dark
        | set(s["event_top"])
        | set(s["sidequest_top"])
        | set(s["knight"]["sidequests"])
        | set(s["knight"]["treasures"])
    )


@pytest.mark.parametrize("backend", ["sqlite"])
def test_no_reader_sees_a_laid_secret_and_every_readers_log_verifies(client: TestClient[Any]) -> None:
    table = VastTable(client, ROLES, setup={"roles": list(ROLES), "sandbox": SANDBOX}, undo_policy="host")
    # the auditor reads the table as laid: the scan looks for ids that are there
    laid = table.get("/events", "auditor").text
    assert all(f'"{s}"' in laid for s in set().union(*SECRET_FROM.values()))
    assert _shown_orders(laid, ("sidequest_top", "event_top")) != []
    for step in ("created", "undone"):
        if step == "undone":  # a command, then the host's undo: UndoApplied carries the game's GameCreated
            before = table.get("", "auditor").json()["version"]
            r = table.send(table.first, {"type": "vast.PlaceHeroCube", "target": "movement"})
            assert r.status_code == 201, r.text
            r = table.send(table.first, {"type": "RequestUndo", "to_version": before})
            assert r.status_code == 201, r.text
            assert '"UndoApplied"' in table.get("/events", "auditor").text
        held = _still_secret(table)
        assert {"event-01", "ambush-01", "swift", "elven-sword", "intrepid"} <= held, step
        leaks = [leak for who, secret in SECRET_FROM.items() for leak in _leaks(table, who, secret & held)]
        assert leaks == [], leaks
        for who in ("sir", "deep", "spectator"):
            report = verify_file(io.BytesIO(table.get("/export", who).content))
            assert report.ok and report.chain_format == 2, (step, who, report)
            assert 1 in report.digest_only, (step, who)  # its setup masked: checked by digest until the end
            posted = client.post(
                f"/games/{table.id}/verify", headers={"Authorization": f"Bearer {table.tokens[who]}"}
            ).json()["verification"]
            assert posted["ok"] is True and tuple(posted["digest_only"]) == report.digest_only, (who, posted)
    assert SEAT_OF["cave"] == "deep"
