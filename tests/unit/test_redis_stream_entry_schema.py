"""The Redis stream entry is a public interface: its committed JSON Schema matches the code, and
the wire layout (``event`` JSON, the other fields plain text) round-trips (service/worker/publisher.py).

Real entries read from Redis are validated against the committed schema in
tests/integration/test_redis_streams.py.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import jsonschema
import msgspec
import pytest

from dicelog.service.bodies.schemas import EventOut
from dicelog.service.worker.publisher import (
    ENTRY_FORMAT,
    StreamEntry,
    decode_entry,
    entry_fields,
    entry_schema,
    entry_schema_text,
)

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "redis-stream-entry.schema.json"
REGENERATE = "python -m dicelog.service.worker.publisher > docs/redis-stream-entry.schema.json"


def _entry(hidden: bool = False) -> StreamEntry:
    event = EventOut(
        version=3,
        type="DiceRolled",
        seat="red",
        command_id="c-1",
        timestamp=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
        prev_hash="a" * 64,
        hash="b" * 64,
        payload=None if hidden else {"type": "DiceRolled", "faces": [1, 6]},
        hidden=hidden,
    )
    return StreamEntry(
        format=ENTRY_FORMAT,
        notification_id=42,
        game_id=uuid4(),
        version=3,
        type="DiceRolled",
        seat="red",
        hidden=hidden,
        event=event,
    )


def test_the_committed_schema_is_the_schema_of_the_code() -> None:
    assert SCHEMA_FILE.read_text() == entry_schema_text(), (
        f"the schema drifted from the code: run {REGENERATE}"
    )


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema == entry_schema()


@pytest.mark.parametrize("hidden", [False, True])
def test_wire_fields_are_decoded_once_each_and_round_trip(hidden: bool) -> None:
    entry = _entry(hidden)
    fields = entry_fields(entry)
    assert set(fields) == set(msgspec.structs.asdict(entry))
    # What redis-py hands back: bytes, integers written in decimal.
    wire = {k.encode(): v if isinstance(v, bytes) else str(v).encode() for k, v in fields.items()}
    assert wire[b"hidden"] == (b"true" if hidden else b"false")
    assert wire[b"version"] == b"3" and wire[b"game_id"] == str(entry.game_id).encode()
    assert isinstance(json.loads(wire[b"event"]), dict), "event is a JSON object, not JSON inside a string"
    assert decode_entry(wire) == entry
    decoded = msgspec.to_builtins(decode_entry(wire))
    jsonschema.validate(
        decoded, entry_schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def test_unknown_fields_are_ignored_and_bad_entries_refused() -> None:
    wire = {k: v if isinstance(v, bytes) else str(v).encode() for k, v in entry_fields(_entry()).items()}
    assert decode_entry({**wire, "added_later": b"x"}) == decode_entry(wire)
    with pytest.raises(msgspec.ValidationError):
        decode_entry({**wire, "version": b"three"})
    with pytest.raises(msgspec.ValidationError):
        decode_entry({k: v for k, v in wire.items() if k != "notification_id"})
