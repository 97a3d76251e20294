"""Observability (issue 12): domain metrics at /metrics, JSON logs with request context, no token
in any log line. Driven through the real app, on SQLite and PostgreSQL (``client``)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

from dicelog.service.http import routes_stream
from dicelog.service.http.app import create_app
from dicelog.service.ops import logs
from dicelog.service.ops.metrics import SSE_CLIENTS
from dicelog.service.ops.settings import Settings
from tests.api.conftest import Table


def _metrics(client: TestClient[Any]) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = client.get("/metrics")
    assert r.status_code == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(r.text)
        for sample in family.samples
    }


def _value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _turn_mouse(table: Table) -> str:
    return table.summary()["turn"]


def test_commands_are_counted_by_type_and_outcome_and_refusals_by_rule(client):
    table = Table(client)
    before = _metrics(client)
    mouse = _turn_mouse(table)
    accepted = table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse})
    assert accepted.status_code == 201, accepted.text
    other = next(m for m in ("collin", "filch", "maginos", "nez") if m != _turn_mouse(table))
    refused = table.send(table.seat_of(other), {"type": "Move", "mouse": other})
    assert refused.status_code in (409, 422)
    rule = refused.json()["rule"]
    stale = table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse}, expected_version=1)
    assert stale.status_code == 409 and stale.json()["type"].endswith("version-conflict")
    after = _metrics(client)

    def delta(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert delta("dicelog_commands_total", command="Move", outcome="accepted") == 1
    assert delta("dicelog_commands_total", command="Move", outcome="refused") == 1
    assert delta("dicelog_commands_total", command="Move", outcome="conflict") == 1
    assert delta("dicelog_rule_refusals_total", rule=rule) == 1
    written = [e["type"] for e in accepted.json()["events"]]
    for event_type in set(written):
        assert delta("dicelog_events_written_total", event=event_type) >= written.count(event_type)


def test_consumer_lag_is_exported_for_every_projection(client):
    Table(client)
    samples = _metrics(client)
    lags = {
        dict(labels)["consumer"]: value
        for (name, labels), value in samples.items()
        if name == "dicelog_consumer_lag_events"
    }
    assert {"board", "initiative", "log"} <= set(lags)
    assert all(value >= 0 for value in lags.values())
    failing = [v for (name, _), v in samples.items() if name == "dicelog_consumer_failing"]
    assert failing and set(failing) == {0.0}


def test_the_consumer_lag_grows_while_the_projections_are_stopped(tmp_path):
    settings = Settings(
        data_dir=tmp_path,
        embedded_worker="off",
        rate_limit_create="off",
        rate_limit_commands="off",
        rate_limit_expensive="off",
    )
    with TestClient(create_app(settings)) as client:
        Table(client)
        lag = [v for (name, _), v in _metrics(client).items() if name == "dicelog_consumer_lag_events"]
        assert lag and min(lag) > 0  # nothing processed: every consumer is behind by the new game's events
        client.app.state.runtime.follower.run_once()
        lag = [v for (name, _), v in _metrics(client).items() if name == "dicelog_consumer_lag_events"]
        assert set(lag) == {0.0}


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """Everything the process logs while the test runs, as the JSON lines ``logs.configure`` writes."""
    stream = io.StringIO()
    handler_before = list(logging.getLogger().handlers)
    yield stream
    logging.getLogger().handlers = handler_before


def _parsed(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_log_lines_are_json_with_request_game_and_seat_and_never_a_token(tmp_path, log_lines):
    settings = Settings(
        data_dir=tmp_path,
        rate_limit_create="off",
        rate_limit_commands="off",
        rate_limit_expensive="off",
        embedded_worker="thread",
    )
    app = create_app(settings)
    logs.configure("debug", "json", stream=log_lines)  # after create_app: into the test's stream
    with TestClient(app) as client:
        table = Table(client)
        mouse = _turn_mouse(table)
        r = table.send(
            table.seat_of(mouse), {"type": "Move", "mouse": mouse}, headers={"X-Request-ID": "req-42"}
        )
        assert r.status_code == 201 and r.headers["x-request-id"] == "req-42"
        other = next(m for m in ("collin", "filch", "maginos", "nez") if m != _turn_mouse(table))
        refused = table.send(table.seat_of(other), {"type": "Move", "mouse": other})
        generated = refused.headers["x-request-id"]
        assert generated and generated != "req-42"
        # a hostile request id (a header injection, a token-looking value) is replaced
        odd = client.get("/health", headers={"X-Request-ID": "a b\tc" + "x" * 200})
        assert odd.headers["x-request-id"] != "a b\tc" + "x" * 200
        logging.getLogger("dicelog").warning("a careless line: Authorization: Bearer %s", table.tokens["red"])
    lines = _parsed(log_lines)
    assert lines and all({"timestamp", "level", "logger", "event"} <= set(line) for line in lines)
    accepted = [line for line in lines if line["event"] == "command accepted"]
    assert accepted == [
        {
            **accepted[0],
            "request_id": "req-42",
            "game_id": table.id,
            "seat": table.seat_of(mouse),
            "command": "Move",
            "level": "debug",
            "logger": "dicelog.commands",
        }
    ]
    refusals = [line for line in lines if line["event"] == "command refused"]
    assert (
        len(refusals) == 1
        and refusals[0]["request_id"] == generated
        and refusals[0]["rule"] == refused.json()["rule"]
    )
    text = log_lines.getvalue()
    for token in [*table.tokens.values(), table.spectator_token, table.auditor_token]:
        assert token not in text
    assert "Bearer [redacted]" in text  # the careless line was caught, not dropped


def test_the_console_format_and_bad_values_are_named():
    stream = io.StringIO()
    logs.configure("info", "console", stream=stream)
    logging.getLogger("dicelog.test").info("hello %s", "table")
    assert "hello table" in stream.getvalue() and not stream.getvalue().lstrip().startswith("{")
    with pytest.raises(ValueError, match="log format"):
        logs.configure("info", "xml")
    with pytest.raises(ValueError, match="DICELOG_LOG_FORMAT"):
        Settings.from_env({"DICELOG_LOG_FORMAT": "xml"})
    with pytest.raises(ValueError, match="DICELOG_WORKER_PORT"):
        Settings.from_env({"DICELOG_WORKER_PORT": "70000"})
    logs.configure("info", "json")


def test_the_sse_client_gauge_counts_open_streams(client):
    table = Table(client)
    runtime = client.app.state.runtime
    game = runtime.games.game(UUID(table.id))
    viewer = runtime.games.viewer(game, table.tokens["red"])
    lens = runtime.games.lens(game, viewer)

    async def open_then_close() -> tuple[float, float, float]:
        before = SSE_CLIENTS._value.get()
        stream = routes_stream._events(runtime.games, runtime.feed, game.id, viewer, lens, 0)
        await anext(stream)  # the first event: the stream is open
        during = SSE_CLIENTS._value.get()
        await stream.aclose()  # the client went away
        return before, during, SSE_CLIENTS._value.get()

    before, during, after = asyncio.run(open_then_close())
    assert (during, after) == (before + 1, before)
