"""The AsyncAPI 3 document of the live channels (``openapi/asyncapi.json``): the server-sent events of
``GET /games/{game_id}/stream`` and of ``GET /stream`` (every game the tokens read: ``StreamEvent``, whose
``event`` is the same ``EventOut``) and the Redis streams the publisher writes
(``dicelog.service.worker.publisher``).

It is built from the refined OpenAPI document (``dicelog.service.http.openapi``), so the event a channel
carries is the very schema ``GET /games/{game_id}/events`` answers with (``EventOut``, and every
component it refers to), and from ``publisher.StreamEntry`` for a Redis entry, whose ``event`` is that
same ``EventOut``. ``dicelog openapi`` writes it beside ``openapi.json`` (``--check`` compares both);
``tests/clients/test_asyncapi.py`` validates it with the AsyncAPI parser (``@asyncapi/parser``, pinned in
``clients/typescript/package.json``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import msgspec

from dicelog.service.worker.publisher import ENTRY_FORMAT, GLOBAL_STREAM, entry_schema

ASYNCAPI_PATH = Path(__file__).resolve().parents[2] / "openapi" / "asyncapi.json"
REF = "#/components/schemas/{name}"
SSE_MESSAGE = "ServerSentEventMessage"
"""The OpenAPI component describing one message of ``/games/{game_id}/stream`` (its ``data``: an
``EventOut``'s JSON)."""
SSE_GAMES_MESSAGE = "ServerSentGameEventMessage"
"""The OpenAPI component describing one message of ``GET /stream`` (its ``data``: a ``StreamEvent``'s JSON:
``game_id``, ``ruleset`` and the ``EventOut``)."""
STREAM_EVENT = "StreamEvent"


def _refs(node: Any, into: set[str], components: dict[str, Any]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            if name not in into:
                into.add(name)
                _refs(components[name], into, components)
        mapping = node.get("discriminator", {}).get("mapping", {})
        for target in mapping.values() if isinstance(mapping, dict) else ():
            _refs({"$ref": target}, into, components)
        for value in node.values():
            _refs(value, into, components)
    elif isinstance(node, list):
        for value in node:
            _refs(value, into, components)


def _asyncapi_schema(node: Any) -> Any:
    """An OpenAPI 3.1 schema as an AsyncAPI Schema Object: the same but for ``discriminator``, there a
    string (the tag's property name) where OpenAPI has an object (with a mapping)."""
    if isinstance(node, dict):
        out = {k: _asyncapi_schema(v) for k, v in node.items()}
        if isinstance(out.get("discriminator"), dict):
            out["discriminator"] = out["discriminator"]["propertyName"]
        return out
    if isinstance(node, list):
        return [_asyncapi_schema(v) for v in node]
    return node


def _stream_entry() -> dict[str, Any]:
    """``StreamEntry``'s schema with its ``event`` pointing at the shared ``EventOut``."""
    whole = entry_schema()
    schema = copy.deepcopy(whole["$defs"]["StreamEntry"]) if "$defs" in whole else copy.deepcopy(whole)
    schema["properties"]["event"] = {
        "description": schema["properties"]["event"].get("description", ""),
        "$ref": REF.format(name="EventOut"),
    }
    schema["title"] = "StreamEntry"
    return schema


def asyncapi_document(openapi: dict[str, Any]) -> dict[str, Any]:
    """The AsyncAPI 3.0 document of the live channels, from the refined OpenAPI document ``openapi``."""
    components = openapi["components"]["schemas"]
    used: set[str] = set()
    _refs({"$ref": REF.format(name="EventOut")}, used, components)
    _refs(components[SSE_MESSAGE], used, components)
    _refs(components[SSE_GAMES_MESSAGE], used, components)
    named = used | {SSE_MESSAGE, SSE_GAMES_MESSAGE}
    schemas = {name: _asyncapi_schema(components[name]) for name in sorted(named)}
    schemas["StreamEntry"] = _stream_entry()
    game_id = {
        "description": "The game's id (a UUID; for a campaign event on dicelog:games, the campaign's)."
    }
    receive = "Receive every event of the channel as its audience may see it, in version order."
    document = {
        "asyncapi": "3.0.0",
        "info": {
            "title": "dicelog live channels",
            "version": openapi["info"]["version"],
            "license": {"name": openapi["info"].get("license", {}).get("name", "MIT")},
            "description": (
                "The events of a game as they happen: the server-sent events of `GET "
                "/games/{game_id}/stream` and of `GET /stream` (every game the tokens read; HTTP) and the "
                "Redis streams the service publishes to. Each "
                "carries the event exactly as `GET /games/{game_id}/events` shows it to the same reader "
                "(`EventOut`, the schema of openapi.json): see docs/api-contract.md, Live channels, and "
                "docs/streams.md."
            ),
        },
        "defaultContentType": "application/json",
        "servers": {
            "http": {
                "host": "localhost:8000",
                "protocol": "http",
                "description": "The dicelog service (server-sent events, `text/event-stream`).",
            },
            "redis": {
                "host": "localhost:6379",
                "protocol": "redis",
                "description": "The Redis of `DICELOG_REDIS_URL`, when the service publishes to one.",
            },
        },
        "channels": {
            "gameEvents": {
                "address": "/games/{game_id}/stream",
                "title": "A game's server-sent events",
                "description": (
                    "`GET /games/{game_id}/stream` with the reader's bearer token (if any): one message "
                    "per event (`event: event`, `id:` the version, `data:` the event's JSON), resumable "
                    "with `Last-Event-ID`; `: keep-alive` comments every 15 s of silence; it ends after "
                    "the event that ends the game."
                ),
                "servers": [{"$ref": "#/servers/http"}],
                "parameters": {"game_id": game_id},
                "messages": {"event": {"$ref": "#/components/messages/serverSentEvent"}},
            },
            "allGameEvents": {
                "address": "/stream",
                "title": "Server-sent events of every game the tokens read",
                "description": (
                    "`GET /stream` with a bearer token and more in `Dicelog-Tokens` (at most 50), filtered"
                    " by `?game=` and `?ruleset=`: one message per event of any of those games (`event: "
                    "event`, `id:` the event's position in the store's total order, `data:` the game, its "
                    "ruleset and the event as that token's place sees it), resumable with `Last-Event-ID` "
                    "across the games (past the store's latest position: 400); `: keep-alive` comments "
                    "every 15 s of silence; it does not end with a game, only when one of its tokens is "
                    "revoked."
                ),
                "servers": [{"$ref": "#/servers/http"}],
                "messages": {"event": {"$ref": "#/components/messages/serverSentGameEvent"}},
            },
            "gameStream": {
                "address": "dicelog:game:{game_id}",
                "title": "A game's public Redis stream",
                "description": "Every event of the game as a spectator sees it.",
                "servers": [{"$ref": "#/servers/redis"}],
                "parameters": {"game_id": game_id},
                "messages": {"entry": {"$ref": "#/components/messages/streamEntry"}},
            },
            "seatStream": {
                "address": "dicelog:game:{game_id}:seat:{seat}",
                "title": "A seat's Redis stream of a game with hidden information",
                "description": "Every event of the game as the seat sees it (its own secrets shown).",
                "servers": [{"$ref": "#/servers/redis"}],
                "parameters": {"game_id": game_id, "seat": {"description": "The seat's name."}},
                "messages": {"entry": {"$ref": "#/components/messages/streamEntry"}},
            },
            "auditorStream": {
                "address": "dicelog:game:{game_id}:auditor",
                "title": "The auditor's Redis stream of a game with hidden information",
                "description": "Every event of the game with nothing hidden.",
                "servers": [{"$ref": "#/servers/redis"}],
                "parameters": {"game_id": game_id},
                "messages": {"entry": {"$ref": "#/components/messages/streamEntry"}},
            },
            "allGames": {
                "address": GLOBAL_STREAM,
                "title": "Every game's public events",
                "description": "The public view of every event of every game, campaigns' events included.",
                "servers": [{"$ref": "#/servers/redis"}],
                "messages": {"entry": {"$ref": "#/components/messages/streamEntry"}},
            },
        },
        "operations": {
            name: {
                "action": "receive",
                "channel": {"$ref": f"#/channels/{channel}"},
                "summary": receive,
                "messages": [{"$ref": f"#/channels/{channel}/messages/{message}"}],
            }
            for name, channel, message in (
                ("receiveGameEvents", "gameEvents", "event"),
                ("receiveAllGameEvents", "allGameEvents", "event"),
                ("receiveGameStream", "gameStream", "entry"),
                ("receiveSeatStream", "seatStream", "entry"),
                ("receiveAuditorStream", "auditorStream", "entry"),
                ("receiveAllGames", "allGames", "entry"),
            )
        },
        "components": {
            "messages": {
                "serverSentEvent": {
                    "name": "event",
                    "title": "One event (server-sent event `event`)",
                    "summary": "The SSE `data` of an `event` message: the event's JSON (`EventOut`).",
                    "description": (
                        f"The whole message as an EventSource delivers it is `{SSE_MESSAGE}`: `event` is "
                        "`event`, `id` the event's version, `data` this payload's JSON text."
                    ),
                    "contentType": "application/json",
                    "payload": {"$ref": REF.format(name="EventOut")},
                },
                "serverSentGameEvent": {
                    "name": "event",
                    "title": "One event of one of the games (server-sent event `event` of `GET /stream`)",
                    "summary": "The SSE `data` of an `event` message: `game_id`, `ruleset` and the event "
                    "(`StreamEvent`, whose `event` is an `EventOut`).",
                    "description": (
                        f"The whole message as an EventSource delivers it is `{SSE_GAMES_MESSAGE}`: `event` "
                        "is `event`, `id` the event's position in the store's total order, `data` this "
                        "payload's JSON text."
                    ),
                    "contentType": "application/json",
                    "payload": {"$ref": REF.format(name=STREAM_EVENT)},
                },
                "streamEntry": {
                    "name": "entry",
                    "title": f"A Redis stream entry (format {ENTRY_FORMAT})",
                    "summary": "One XADD entry, once its fields are decoded (`StreamEntry`).",
                    "description": (
                        "A Redis entry is a flat map of field names to strings: `event` holds the JSON text "
                        "of the event (`EventOut`), every other field its value as text (integers in "
                        "decimal, booleans true/false). The payload is the entry once each field is "
                        "decoded that way (docs/redis-stream-entry.schema.json)."
                    ),
                    "payload": {"$ref": REF.format(name="StreamEntry")},
                },
            },
            "schemas": schemas,
        },
    }
    return msgspec.json.decode(msgspec.json.encode(document))


def asyncapi_text(openapi: dict[str, Any]) -> str:
    """The document as committed: sorted keys, two-space indent, trailing newline."""
    raw = msgspec.json.encode(asyncapi_document(openapi), order="sorted")
    return msgspec.json.format(raw, indent=2).decode() + "\n"
