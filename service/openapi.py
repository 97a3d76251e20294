"""The committed OpenAPI document (``openapi/openapi.json``), generated from the app itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from litestar import Litestar

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def schema_document(app: Litestar) -> dict[str, Any]:
    """The app's OpenAPI 3.1 document as plain JSON data."""
    return app.openapi_schema.to_schema()


def schema_text(app: Litestar) -> str:
    """The document as committed: sorted keys, two-space indent, trailing newline."""
    raw = msgspec.json.encode(schema_document(app), order="sorted")
    return msgspec.json.format(raw, indent=2).decode() + "\n"
