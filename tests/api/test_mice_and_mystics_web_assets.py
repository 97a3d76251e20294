"""The Mice and Mystics web files are its ruleset's (issue 29, docs/web-table.md): the lobby's setup form and
the history page's board come from ``/web/rulesets/mice-and-mystics/``, not from the shell."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient


def test_its_lobby_form_and_history_hooks_are_served_from_its_package(client: TestClient[Any]) -> None:
    info = {r["name"]: r for r in client.get("/rulesets").json()}["mice-and-mystics"]
    assert info["lobby"] == "/web/rulesets/mice-and-mystics/lobby.js"
    lobby = client.get(info["lobby"])
    assert lobby.status_code == 200 and lobby.headers["content-type"].startswith("text/javascript")
    assert "export async function setupForm" in lobby.text and "pieces:" in lobby.text
    table = client.get(info["table"]).text
    for hook in ("renderVersion", "eventText", "commandLabel"):
        assert f"export function {hook}" in table, hook
    for shell in ("/static/js/history.js", "/static/js/lobby.js"):
        assert "/web/rulesets/" not in client.get(shell).text, shell
