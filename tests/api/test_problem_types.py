"""Every problem the API sends is in the contract (docs/api-contract.md, Status codes and problem
types): its ``type`` is a ``ProblemType`` of the OpenAPI document or a rule's, every field of its
body is a property of ``Problem``, its rate-limit and retry headers are declared on the operation's
response; 409 is only a version conflict and a rule refusal is 422."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.http.problem_types import PROBLEM, PROBLEM_TYPES
from dicelog.service.ops.settings import Settings
from tests.api.conftest import MICE, SEATS, Table

SERVICE = Path(__file__).resolve().parents[2] / "service"
DOC = Path(__file__).resolve().parents[2] / "docs" / "api-contract.md"
GAME = {"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS}
RULE = re.compile(r"^urn:dicelog:rule:[A-Za-z0-9._:-]+$")


def test_every_problem_type_the_code_names_is_listed_once_with_its_status():
    sent: dict[str, set[int | None]] = {}
    for path in SERVICE.rglob("*.py"):
        text = path.read_text()
        for kind in re.findall(r"urn:dicelog:problem:([a-z][a-z-]*[a-z])", text):
            sent.setdefault(kind, set()).add(None)
        for status, kind in re.findall(r'_problem\((\d{3}), "([a-z-]+)"', text):
            sent.setdefault(kind, set()).add(int(status))
        for kind in re.findall(r'PROBLEM \+ "([a-z-]+)"', text):
            sent.setdefault(kind, set()).add(None)
    sent.pop("worker-stopped", None)  # the worker's own probe app (service/worker/http_port.py), not the API
    assert sent, "the scan found the problem types"
    assert set(sent) <= set(PROBLEM_TYPES), sorted(set(sent) - set(PROBLEM_TYPES))
    for kind, statuses in sent.items():
        assert statuses - {None} <= {PROBLEM_TYPES[kind][0]}, (kind, statuses)
    doc = DOC.read_text()
    for kind in PROBLEM_TYPES:
        assert doc.count(f"| `{PROBLEM}{kind}` |") == 1, kind


@pytest.fixture
def app_client(tmp_path: Path) -> Any:
    settings = Settings(
        data_dir=tmp_path,
        embedded_worker="thread",
        rate_limit_create="6/minute",
        rate_limit_commands="off",
        rate_limit_expensive="2/minute",
        max_body_bytes=4096,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def _contract(client: TestClient[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    document = client.get("/schema/openapi.json").json()
    return document["paths"], document["components"]["schemas"]


def _template(paths: dict[str, Any], path: str) -> str:
    """The OpenAPI path template a concrete path matches."""
    parts = path.split("?")[0].split("/")
    for template in paths:
        pattern = template.split("/")
        if len(pattern) == len(parts) and all(
            p == q or p.startswith("{") for p, q in zip(pattern, parts, strict=True)
        ):
            return template
    raise AssertionError(f"no path template for {path}")


def test_every_problem_sent_has_a_declared_type_fields_and_headers(app_client):
    client = app_client
    paths, schemas = _contract(client)
    kinds = set(schemas["ProblemType"]["enum"])
    assert kinds == {PROBLEM + k for k in PROBLEM_TYPES}
    fields = set(schemas["Problem"]["properties"])
    table = Table(client)
    game = f"/games/{table.id}"
    other_seat_mouse = next(m for m in MICE if table.seat_of(m) != table.seat_of(table.summary()["turn"]))
    stale = table.summary()["version"] - 1
    answers = [
        ("post", "/games", client.post("/games", json={**GAME, "nonsense": 1})),
        ("post", "/games", client.post("/games", content=b"x=1", headers={"content-type": "text/plain"})),
        (
            "post",
            "/games",
            client.post(
                "/games", content=b"[" * 3000 + b"]" * 3000, headers={"content-type": "application/json"}
            ),
        ),
        (
            "post",
            "/games",
            client.post(
                "/games",
                content=b'{"a": "' + b"x" * 5000 + b'"}',
                headers={"content-type": "application/json"},
            ),
        ),
        ("get", game + "/state", client.get(game + "/state", headers={"Authorization": "Bearer nope"})),
        ("get", "/games/{id}", client.get("/games/00000000-0000-0000-0000-000000000000")),
        ("get", game + "/turns/999", client.get(game + "/turns/999")),
        (
            "post",
            game + "/commands",
            table.send(table.seat_of(other_seat_mouse), {"type": "EndTurn", "mouse": other_seat_mouse}),
        ),
        (
            "post",
            game + "/commands",
            table.send(
                table.seat_of(table.summary()["turn"]),
                {"type": "EndTurn", "mouse": table.summary()["turn"]},
                expected_version=stale,
            ),
        ),
        ("post", game + "/commands", table.send("red", {"type": "EndTurn", "mouse": "maginos"})),
    ]
    for _ in range(3):
        answers.append(("post", game + "/verify", client.post(game + "/verify")))
    for _ in range(3):
        answers.append(("post", "/games", client.post("/games", json=GAME)))
    seen_statuses = set()
    for method, path, r in answers:
        template = _template(paths, path) if "{id}" not in path else "/games/{game_id}"
        declared = paths[template][method]["responses"]
        status = str(r.status_code)
        assert status in declared, (method, template, status, r.text)
        for header in (
            "ratelimit-policy",
            "ratelimit-limit",
            "ratelimit-remaining",
            "ratelimit-reset",
            "retry-after",
        ):
            if header in r.headers:
                names = {h.lower() for h in declared[status].get("headers", {})}
                assert header in names, (method, template, status, header)
        if r.status_code < 400:
            continue
        seen_statuses.add(r.status_code)
        assert r.headers["content-type"].startswith("application/problem+json"), r.text
        body = r.json()
        assert set(body) <= fields, (path, sorted(set(body) - fields))
        assert body["type"] in kinds or RULE.match(body["type"]), body
        if body["type"] in kinds:
            assert PROBLEM_TYPES[body["type"].removeprefix(PROBLEM)][0] == r.status_code, body
        if r.status_code == 409:
            assert body["type"] == PROBLEM + "version-conflict", body
        if RULE.match(body["type"]):
            assert r.status_code == 422, body
    assert {400, 401, 403, 404, 409, 413, 415, 422, 429} <= seen_statuses, seen_statuses


def test_a_command_out_of_turn_is_a_422_rule_refusal_not_a_409(app_client):
    table = Table(app_client)
    on_turn = table.summary()["turn"]
    seat = table.seat_of(on_turn)
    waiting = next(m for m in MICE if table.seat_of(m) == seat and m != on_turn)
    r = table.send(seat, {"type": "EndTurn", "mouse": waiting})
    assert r.status_code == 422, r.text
    assert (
        r.json()["rule"] == "turn.not-your-turn" and r.json()["type"] == "urn:dicelog:rule:turn.not-your-turn"
    )
