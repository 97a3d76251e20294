"""The AsyncAPI 3 document of the live channels (``openapi/asyncapi.json``) is current, valid, and types
each channel with the event schema of the OpenAPI document.

It is validated by the AsyncAPI parser (``@asyncapi/parser``, pinned in ``clients/typescript/package.json``;
``clients/typescript/lint/validate-asyncapi.mjs``): no error, no warning. The server-sent events' message
and the Redis entries' ``event`` are the OpenAPI document's ``EventOut``, the same schema ``GET
/games/{id}/events`` answers with, and ``GET /games/{id}/stream`` points at it (``x-itemSchema``). Without
node or npm the validation skips, or fails under ``REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import json
import subprocess

from dicelog.service.http.asyncapi import ASYNCAPI_PATH, asyncapi_text
from dicelog.service.worker.publisher import StreamEntry
from tests.clients.conftest import OPENAPI
from tests.clients.test_redocly_lint import CLIENT, _redocly

DOCUMENT = json.loads(ASYNCAPI_PATH.read_text())
OPENAPI_DOC = json.loads(OPENAPI.read_text())


def test_the_committed_asyncapi_document_is_up_to_date():
    assert ASYNCAPI_PATH.read_text() == asyncapi_text(OPENAPI_DOC), "stale: run `dicelog openapi`"


def test_the_asyncapi_parser_finds_no_error_and_no_warning():
    _redocly()  # node, npm and the pinned packages (npm ci when missing)
    validated = subprocess.run(
        ["node", "lint/validate-asyncapi.mjs"],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(validated.stdout.strip().splitlines()[-1])
    assert validated.returncode == 0 and report["errors"] == [] and report["warnings"] == [], report
    assert set(report["channels"]) == {
        "/games/{game_id}/stream",
        "/stream",
        "dicelog:game:{game_id}",
        "dicelog:game:{game_id}:seat:{seat}",
        "dicelog:game:{game_id}:auditor",
        "dicelog:games",
    }


def test_every_channel_carries_the_event_schema_of_the_openapi_document():
    schemas = DOCUMENT["components"]["schemas"]
    messages = DOCUMENT["components"]["messages"]
    assert messages["serverSentEvent"]["payload"] == {"$ref": "#/components/schemas/EventOut"}
    assert messages["streamEntry"]["payload"] == {"$ref": "#/components/schemas/StreamEntry"}
    assert schemas["StreamEntry"]["properties"]["event"]["$ref"] == "#/components/schemas/EventOut"
    assert set(schemas["StreamEntry"]["properties"]) == set(StreamEntry.__struct_fields__)
    assert schemas["EventOut"]["properties"] == OPENAPI_DOC["components"]["schemas"]["EventOut"]["properties"]
    for channel in DOCUMENT["channels"].values():
        for message in channel["messages"].values():
            assert message["$ref"] in (
                "#/components/messages/serverSentEvent",
                "#/components/messages/serverSentGameEvent",
                "#/components/messages/streamEntry",
            )
    # GET /stream: {game_id, ruleset, event}, its event the same EventOut; OpenAPI's /stream points at it
    assert messages["serverSentGameEvent"]["payload"] == {"$ref": "#/components/schemas/StreamEvent"}
    assert DOCUMENT["channels"]["allGameEvents"]["address"] == "/stream"
    every = schemas["StreamEvent"]
    assert set(every["properties"]) == {"game_id", "ruleset", "event"} == set(every["required"])
    assert every["properties"]["event"]["$ref"] == "#/components/schemas/EventOut"
    assert every == OPENAPI_DOC["components"]["schemas"]["StreamEvent"]
    games = OPENAPI_DOC["paths"]["/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"]
    item = games["x-itemSchema"]["$ref"].rsplit("/", 1)[1]
    data = OPENAPI_DOC["components"]["schemas"][item]["properties"]["data"]
    assert data["contentSchema"] == {"$ref": "#/components/schemas/StreamEvent"}
    stream = OPENAPI_DOC["paths"]["/games/{game_id}/stream"]["get"]["responses"]["200"]["content"]
    item = stream["text/event-stream"]["x-itemSchema"]["$ref"].rsplit("/", 1)[1]
    data = OPENAPI_DOC["components"]["schemas"][item]["properties"]["data"]
    assert data["contentSchema"] == {"$ref": "#/components/schemas/EventOut"}
