"""Typed server-sent events for the Python client generated from openapi/openapi.json (``dicelog_client``,
clients/python/config.yaml): ``iter_events`` reads ``GET /games/{game_id}/stream`` line by line and yields
each event as the generated ``EventOut`` model, as it arrives (the generated ``stream_events`` operation
waits for the stream to end and returns its whole text).

    from dicelog_client import AuthenticatedClient
    from dicelog_events import iter_events

    client = AuthenticatedClient(base_url="http://127.0.0.1:8000", token=seat_token)
    for event in iter_events(client, game_id, last_event_id=last_version_applied):
        apply(event)                           # event.version, event.type, event.payload (typed)

The stream sends one message per event (``event: event``, ``id:`` the version, ``data:`` the event's JSON:
openapi/asyncapi.json), ``: keep-alive`` comments in between (skipped here), and ends after the event that
ends the game. Resume after a broken connection with ``last_event_id`` (the last version applied). Only the
standard library and the generated client's own dependencies (httpx) are used.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID


def iter_messages(lines: Iterator[str]) -> Iterator[tuple[str, str | None, str]]:
    """(event type, id, data) of each message of a ``text/event-stream`` body given as lines (without
    their line ends), as the HTML standard's EventSource parses them: ``data`` lines joined by newlines,
    comments (``:``) skipped, a message dispatched at each blank line."""
    data: list[str] = []
    event, last_id = "message", None
    for line in lines:
        if line == "":
            if data:
                yield event, last_id, "\n".join(data)
            data, event = [], "message"
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            data.append(value)
        elif field == "event":
            event = value
        elif field == "id":
            last_id = value


def iter_events(
    client: Any, game_id: UUID | str, *, last_event_id: int | None = None, event_model: Any = None
) -> Iterator[Any]:
    """Each event of game ``game_id``'s stream, as the generated ``EventOut`` (``event_model``, by default
    ``dicelog_client.models.EventOut``), read with ``client`` (a generated ``Client`` or
    ``AuthenticatedClient``: its base URL, token and timeouts). ``last_event_id``: start after this
    version. Raises ``httpx.HTTPStatusError`` for an error answer (a problem+json: 400 past the head,
    401/403/404); a ``204`` (past the end of an ended game) yields nothing."""
    if event_model is None:
        from dicelog_client.models import EventOut as event_model  # the generated client's model
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    http = client.get_httpx_client()
    with http.stream("GET", f"/games/{game_id}/stream", headers=headers, timeout=None) as answer:
        if answer.status_code == 204:
            return
        if answer.is_error:
            answer.read()
            answer.raise_for_status()
        for kind, _, data in iter_messages(answer.iter_lines()):
            if kind == "event":
                yield event_model.from_dict(json.loads(data))
