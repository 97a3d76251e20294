"""Slots: response fields whose schema depends on the rulesets an app serves (``dicelog.service.openapi``)."""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

SLOT_KEY = "x-dicelog-slot"


def slot(name: str) -> Any:
    """A field type whose schema the served rulesets decide: ``state``, ``event``, ``command``,
    ``board`` or ``initiative``. At run time it is a JSON object (``dict[str, Any]``); in the
    OpenAPI document, the union of the served rulesets' own types (``dicelog.service.openapi.refine``)."""
    return Annotated[dict[str, Any], Meta(extra_json_schema={SLOT_KEY: name})]
