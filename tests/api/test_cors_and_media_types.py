"""CORS (off by default, an allow-list by setting) and 415 for bodies that are not JSON
(service/http/guards.py), through the real app."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from tests.api.conftest import MICE, SEATS, Table, settings_for

APP_ORIGIN = "https://app.example.org"
OTHER_ORIGIN = "https://evil.example.com"
GAME = {"ruleset": "mice-and-mystics", "setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS}
PROBLEM_JSON = "application/problem+json"


def _client(tmp_path: Path, **overrides: Any) -> Iterator[TestClient[Any]]:
    settings, _ = settings_for("sqlite", tmp_path)
    with TestClient(create_app(msgspec.structs.replace(settings, **overrides))) as client:
        yield client


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[TestClient[Any]]:
    """The app with the default settings: CORS off."""
    yield from _client(tmp_path)


@pytest.fixture
def cors(tmp_path: Path) -> Iterator[TestClient[Any]]:
    """The app allowing one origin besides its own."""
    yield from _client(tmp_path, cors_origins=(APP_ORIGIN, "http://localhost:5173"))


def _preflight(client: TestClient[Any], path: str, origin: str, headers: str) -> Any:
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": headers,
        },
    )


def _names(value: str | None) -> set[str]:
    return {v.strip().lower() for v in (value or "").split(",") if v.strip()}


def _stored(client: TestClient[Any]) -> int:
    """The newest notification id of the store: anything saved moves it."""
    return client.app.state.runtime.games.recorder.max_notification_id() or 0


# --- CORS ------------------------------------------------------------------------------------------


def test_cors_is_off_by_default(plain):
    table = Table(plain)
    r = _preflight(plain, f"/games/{table.id}/commands", APP_ORIGIN, "authorization, content-type")
    assert "access-control-allow-origin" not in r.headers and "access-control-allow-headers" not in r.headers
    r = plain.get(f"/games/{table.id}", headers={"Origin": APP_ORIGIN})
    assert r.status_code == 200 and not any(h.startswith("access-control-") for h in r.headers)


def test_a_preflight_from_an_allowed_origin_allows_what_clients_send(cors):
    table = Table(cors)
    r = _preflight(
        cors,
        f"/games/{table.id}/commands",
        APP_ORIGIN,
        "Authorization, Content-Type, Idempotency-Key, Last-Event-ID",
    )
    assert r.status_code == 204, r.text
    assert r.headers["access-control-allow-origin"] == APP_ORIGIN
    assert "origin" in _names(r.headers["vary"])
    assert {"authorization", "content-type", "idempotency-key", "last-event-id"} <= _names(
        r.headers["access-control-allow-headers"]
    )
    assert {"get", "post"} <= _names(r.headers["access-control-allow-methods"])
    assert "access-control-allow-credentials" not in r.headers, "tokens travel in Authorization, not cookies"
    assert int(r.headers["access-control-max-age"]) > 0


def test_a_preflight_allows_a_table_devices_dicelog_seat(cors):
    """A table device in a browser on another origin names the seat it acts as in ``Dicelog-Seat`` on
    ``POST /games/{id}/commands``: the preflight allows that header (and ``Dicelog-Tokens``, which
    ``GET /stream`` reads), beside ``Authorization``."""
    table = Table(cors)
    r = _preflight(
        cors, f"/games/{table.id}/commands", APP_ORIGIN, "authorization, content-type, dicelog-seat"
    )
    assert r.status_code == 204, r.text
    assert r.headers["access-control-allow-origin"] == APP_ORIGIN
    assert {"authorization", "content-type", "dicelog-seat"} <= _names(
        r.headers["access-control-allow-headers"]
    )
    r = _preflight(cors, "/stream", APP_ORIGIN, "authorization, dicelog-tokens, last-event-id")
    assert r.status_code == 204, r.text
    assert {"dicelog-tokens", "last-event-id"} <= _names(r.headers["access-control-allow-headers"])


def test_a_browser_app_can_make_conditional_reads(cors):
    """The HTTP cache (``ETag``, ``If-None-Match``, ``Link: rel=next``) works across origins: the
    preflight allows ``If-None-Match`` and the answer exposes ``ETag`` and ``Link``."""
    table = Table(cors)
    path = f"/games/{table.id}/events"
    r = _preflight(cors, path, APP_ORIGIN, "authorization, if-none-match")
    assert r.status_code == 204, r.text
    assert "if-none-match" in _names(r.headers["access-control-allow-headers"])
    r = cors.get(path + "?limit=1", headers={**table.auth("red"), "Origin": APP_ORIGIN})
    assert r.status_code == 200, r.text
    assert r.headers["etag"] and 'rel="next"' in r.headers["link"]
    assert {"etag", "link"} <= _names(r.headers["access-control-expose-headers"])


def test_responses_to_an_allowed_origin_expose_the_headers_clients_read(cors):
    r = cors.post("/games", json=GAME, headers={"Origin": "http://localhost:5173"})
    assert r.status_code == 201, r.text
    assert r.headers["access-control-allow-origin"] == "http://localhost:5173"
    assert {
        "location",
        "retry-after",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
        "ratelimit-policy",
        "x-request-id",
    } <= _names(r.headers["access-control-expose-headers"])
    assert r.headers["x-request-id"]  # the id the logs of this request carry


def test_a_disallowed_origin_gets_no_cors_grant(cors):
    table = Table(cors)
    r = _preflight(cors, f"/games/{table.id}/commands", OTHER_ORIGIN, "authorization, content-type")
    assert r.status_code == 400
    assert not any(h.startswith("access-control-") for h in r.headers), r.headers
    r = cors.get(f"/games/{table.id}", headers={"Origin": OTHER_ORIGIN})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


def test_a_preflight_for_a_header_the_api_does_not_take_is_refused(cors):
    r = _preflight(cors, "/games", APP_ORIGIN, "content-type, x-secret-sauce")
    assert r.status_code == 400 and "access-control-allow-origin" not in r.headers


def test_any_origin_only_when_set_explicitly(tmp_path):
    for client in _client(tmp_path, cors_origins=("*",)):
        r = _preflight(client, "/games", OTHER_ORIGIN, "content-type")
        assert r.status_code == 204 and r.headers["access-control-allow-origin"] == "*"


def test_cors_origins_setting():
    assert Settings.from_env({}).cors_origins == ()
    assert Settings.from_env(
        {"DICELOG_CORS_ORIGINS": " https://a.example , http://localhost:5173 "}
    ).cors_origins == ("https://a.example", "http://localhost:5173")
    assert Settings.from_env({"DICELOG_CORS_ORIGINS": "*"}).cors_origins == ("*",)
    assert Settings.from_env({"DICELOG_CORS_ORIGINS": "http://[::1]:8080"}).cors_origins == (
        "http://[::1]:8080",
    )
    for bad in (
        "*, https://a.example",
        "https://a.example/app",
        "a.example",
        "ftp://a.example",
        "https://*.example",
    ):
        with pytest.raises(ValueError, match="DICELOG_CORS_ORIGINS"):
            Settings.from_env({"DICELOG_CORS_ORIGINS": bad})


# --- 415 -------------------------------------------------------------------------------------------


def _assert_415(r: Any) -> None:
    assert r.status_code == 415, r.text
    assert r.headers["content-type"].startswith(PROBLEM_JSON)
    problem = r.json()
    assert problem["type"] == "urn:dicelog:problem:unsupported-media-type" and problem["status"] == 415
    assert "application/json" in problem["detail"]


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "application/xml"],
)
def test_creating_a_game_with_a_body_that_is_not_json_is_415_and_stores_nothing(plain, content_type):
    before = _stored(plain)
    r = plain.post("/games", content=json.dumps(GAME), headers={"Content-Type": content_type})
    _assert_415(r)
    assert r.headers.get("accept-post") == "application/json"
    assert _stored(plain) == before


def test_a_command_with_a_text_plain_body_is_415_and_changes_nothing(plain):
    table = Table(plain)
    before, version = _stored(plain), table.summary()["version"]
    mouse = table.summary()["turn"]
    body = json.dumps({"command": {"type": "EndTurn", "mouse": mouse}, "expected_version": version})
    r = plain.post(
        f"/games/{table.id}/commands",
        content=body,
        headers={**table.auth(table.seat_of(mouse)), "Content-Type": "text/plain"},
    )
    _assert_415(r)
    assert _stored(plain) == before and table.summary()["version"] == version
    # The same body as JSON is accepted: the 415 was about the media type only.
    r = plain.post(
        f"/games/{table.id}/commands",
        content=body,
        headers={**table.auth(table.seat_of(mouse)), "Content-Type": "application/json"},
    )
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
        "application/vnd.dicelog+json",
    ],
)
def test_json_media_types_are_accepted(plain, content_type):
    r = plain.post("/games", content=json.dumps(GAME), headers={"Content-Type": content_type})
    assert r.status_code == 201, r.text


def test_a_json_body_without_content_type_is_read_as_json(plain):
    request = plain.build_request("POST", "/games", content=json.dumps(GAME).encode())
    assert "content-type" not in request.headers  # httpx states none for raw bytes
    r = plain.send(request)
    assert r.status_code == 201, r.text


def test_a_body_without_content_type_that_is_not_json_is_a_400(plain):
    before = _stored(plain)
    request = plain.build_request("POST", "/games", content=b"ruleset=mice-and-mystics")
    assert "content-type" not in request.headers
    r = plain.send(request)
    assert r.status_code == 400 and r.headers["content-type"].startswith(PROBLEM_JSON)
    assert _stored(plain) == before


def test_endpoints_without_a_body_ignore_the_content_type(plain):
    table = Table(plain)
    r = plain.get(f"/games/{table.id}", headers={"Content-Type": "text/plain"})
    assert r.status_code == 200
