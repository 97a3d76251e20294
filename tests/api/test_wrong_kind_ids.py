"""Ids are public (``Location`` headers) and a campaign's and a game's share one store: any id of the wrong
kind on any path is that path's 404 problem+json, never a 5xx (docs/campaigns.md). Every path of the served
OpenAPI document that takes a game id is sent a campaign's id, and every campaign path a game's id, with and
without a token of the id's owner."""

from __future__ import annotations

import json
import re
from typing import Any

from dicelog.service.http.openapi import EXAMPLES, OPENAPI_PATH
from tests.api.test_campaign_api import MICE, SEATS


def operations(parameter: str) -> list[tuple[str, str, str | None]]:
    """(method, path template, operation id) of every operation whose path takes ``parameter``, from the
    committed OpenAPI document (the served one, test_openapi_contract.py; built faster)."""
    paths = json.loads(OPENAPI_PATH.read_text())["paths"]
    return [
        (method, path, op.get("operationId"))
        for path, ops in paths.items()
        if "{" + parameter + "}" in path
        for method, op in ops.items()
    ]


def send(
    client: Any, method: str, template: str, operation: str | None, ids: dict[str, str], auth: dict[str, str]
) -> Any:
    path = template.format(**{"number": "1", **ids})
    if method == "get":
        return client.get(path, headers=auth)
    body = EXAMPLES.get(operation or "", {})
    return client.request(method.upper(), path, json=body, headers=auth)


def assert_not_found(r: Any, what: str) -> None:
    assert r.status_code == 404, (what, r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/problem+json"), (what, r.headers)


def test_every_game_path_answers_a_campaign_id_with_a_404_problem(client):
    r = client.post("/campaigns", json={"chapters": ["chapter-1"], "party": {"mice": MICE}, "seats": SEATS})
    campaign, token = r.json()["campaign"]["id"], r.json()["tokens"][0]["token"]
    ops = operations("game_id")
    assert len(ops) >= 16 and any(re.search(r"/stream$", p) for _, p, _ in ops)
    for auth in ({}, {"Authorization": f"Bearer {token}"}):
        for method, template, operation in ops:
            r = send(client, method, template, operation, {"game_id": campaign}, auth)
            assert_not_found(r, f"{method} {template} {bool(auth)}")
            assert "game" in r.json()["detail"].lower() or "game" in r.json()["title"].lower(), r.text


def test_every_campaign_path_answers_a_game_id_with_a_404_problem(client):
    r = client.post("/games", json={"setup": {"mice": MICE}, "seats": SEATS})
    game, token = r.json()["game"]["id"], r.json()["tokens"][0]["token"]
    ops = operations("campaign_id")
    assert len(ops) >= 5
    for auth in ({}, {"Authorization": f"Bearer {token}"}):
        for method, template, operation in ops:
            r = send(client, method, template, operation, {"campaign_id": game}, auth)
            assert_not_found(r, f"{method} {template} {bool(auth)}")
            assert "campaign" in r.json()["detail"].lower() or "campaign" in r.json()["title"].lower(), r.text
